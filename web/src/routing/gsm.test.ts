import { describe, expect, it } from "vitest";
import { changes, valuesOf } from "./gsm";

const stored = {
  id: "gsm_1",
  connector: "stripe_test",
  flow: "Authorize",
  subFlow: "sub_flow",
  code: "processing_error",
  message: "Issuer busy",
  status: "failure",
  decision: "retry" as const,
  stepUpPossible: false,
  clearPanPossible: false,
  alternateNetworkPossible: false,
  unifiedCode: "UE_9000",
  unifiedMessage: null,
  errorCategory: null,
  standardisedCode: null,
  routerError: null,
  description: null,
  userGuidanceMessage: null,
};

describe("GSM rule form", () => {
  it("starts a new rule as a failed authorization's", () => {
    const v = valuesOf(null, ["adyen"]);
    expect([v.connector, v.flow, v.sub_flow, v.status, v.decision]).toEqual(["adyen", "Authorize", "sub_flow", "failure", "retry"]);
    // A new rule sends what is given, no empty text.
    expect(changes({ ...v, unified_code: "UE_1" }, null)).toEqual({
      status: "failure",
      decision: "retry",
      stepUpPossible: false,
      clearPanPossible: false,
      alternateNetworkPossible: false,
      unifiedCode: "UE_1",
    });
  });

  it("sends an edit's changed members only, an emptied one empty", () => {
    const before = valuesOf(stored, []);
    expect(changes(before, before)).toEqual({});
    expect(changes({ ...before, decision: "do_default", step_up_possible: true, unified_code: "", error_category: "soft_decline" }, before)).toEqual({
      decision: "do_default",
      stepUpPossible: true,
      unifiedCode: "",
      errorCategory: "soft_decline",
    });
  });
});
