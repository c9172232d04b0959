import { describe, expect, it } from "vitest";
import { formatMoney } from "../lib/money";
import { discountOf, periodOf, subscriptionActions } from "./actions";

describe("subscription actions", () => {
  it("offers what the status allows to an operator", () => {
    expect(subscriptionActions("OPERATOR", "active")).toEqual(["pause", "cancel"]);
    expect(subscriptionActions("OPERATOR", "paused")).toEqual(["resume", "cancel"]);
    expect(subscriptionActions("ADMIN", "unpaid")).toEqual(["cancel"]);
    expect(subscriptionActions("OPERATOR", "cancelled")).toEqual([]);
  });
  it("offers nothing to a viewer", () => {
    expect(subscriptionActions("VIEWER", "active")).toEqual([]);
  });
});

describe("catalogue wording", () => {
  it("says a price's period", () => {
    expect(periodOf("Month", 1)).toBe("month");
    expect(periodOf("Week", 2)).toBe("2 weeks");
  });
  it("says a coupon's discount", () => {
    expect(discountOf({ discountType: "percentage", percentOffBps: 2500 }, formatMoney)).toBe("25%");
    expect(discountOf({ discountType: "fixed_amount", amountOff: 1000, currency: "USD" }, formatMoney)).toBe(formatMoney(1000, "USD"));
  });
});
