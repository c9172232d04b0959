import { describe, expect, it } from "vitest";
import { payoutActions } from "./actions";

describe("payout actions", () => {
  it("offers fulfil while the payout requires fulfillment, and cancel until it ends", () => {
    expect(payoutActions("OPERATOR", "requires_fulfillment")).toEqual(["fulfill", "cancel"]);
    expect(payoutActions("ADMIN", "requires_confirmation")).toEqual(["cancel"]);
    expect(payoutActions("OPERATOR", "pending")).toEqual(["cancel"]);
    for (const ended of ["success", "failed", "cancelled", "reversed"]) expect(payoutActions("ADMIN", ended)).toEqual([]);
  });
  it("offers nothing to the roles the schema refuses", () => {
    expect(payoutActions("VIEWER", "requires_fulfillment")).toEqual([]);
    expect(payoutActions("DEVELOPER", "requires_fulfillment")).toEqual([]);
  });
});
