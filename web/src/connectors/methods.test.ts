import { describe, expect, it } from "vitest";
import { enabledKeys, knobsOf, metadataWith, methodsFor, offeredKeys } from "./methods";

describe("payment methods", () => {
  const current = [
    { payment_method: "card", payment_method_types: [{ payment_method_type: "credit", card_networks: ["Visa"], minimum_amount: 1 }] },
    { payment_method: "gift_card", payment_method_types: [{ payment_method_type: "givex" }] },
  ];
  it("offers the catalogue and the account's own types", () => {
    expect(enabledKeys(current)).toEqual(new Set(["card/credit", "gift_card/givex"]));
    expect(offeredKeys(current)).toContain("card/debit");
    expect(offeredKeys(current)).toContain("gift_card/givex");
  });
  it("keeps an enabled type's members, adds new ones from the catalogue and drops empty families", () => {
    const out = methodsFor(current, new Set(["card/credit", "card/debit"]));
    expect(out).toHaveLength(1);
    expect(out[0]!.payment_method).toBe("card");
    expect(out[0]!.payment_method_types![0]).toEqual(current[0]!.payment_method_types[0]);
    expect(out[0]!.payment_method_types![1]!["payment_method_type"]).toBe("debit");
  });
});

describe("sandbox knobs", () => {
  it("round-trip through metadata, keeping the other members", () => {
    const md = { order: "x", sandbox: { failure_rate: 0.3, required_fields: ["payment_method_data.billing.email"] } };
    const k = knobsOf(md);
    expect(k).toEqual({ failureRate: 0.3, errorCode: "", errorMessage: "", outage: false, timeout: false });
    expect(metadataWith(md, { ...k, outage: true })).toEqual({
      order: "x",
      sandbox: { failure_rate: 0.3, outage: true, required_fields: ["payment_method_data.billing.email"] },
    });
  });
  it("drop the sandbox object when every knob is off", () => {
    expect(metadataWith({ order: "x", sandbox: { outage: true } }, knobsOf(null))).toEqual({ order: "x" });
  });
});
