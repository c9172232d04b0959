import { describe, expect, it } from "vitest";
import { subscriptionFilters, subscriptionsWhere } from "./filters";

describe("subscription filters ⇄ URL", () => {
  it("round-trips statuses (in the filter's order) and a customer", () => {
    const q = subscriptionFilters.toSearch({ statuses: ["paused", "active"], customerID: "cus_ada" });
    expect(q.toString()).toBe("status=active%2Cpaused&customer=cus_ada");
    expect(subscriptionFilters.parse(q)).toEqual({ statuses: ["active", "paused"], customerID: "cus_ada" });
  });
  it("drops statuses it does not know and a customer that is not an id", () => {
    expect(subscriptionFilters.parse(new URLSearchParams("status=past_due&customer=not%20an%20id"))).toEqual(subscriptionFilters.none);
  });
  it("filters by statuses and by the merchant's customer id", () => {
    expect(subscriptionsWhere({ statuses: ["unpaid"], customerID: null })).toEqual({ statusIn: ["unpaid"] });
    expect(subscriptionsWhere({ statuses: [], customerID: "cus_ada" })).toEqual({ customerID: "cus_ada" });
    expect(subscriptionsWhere(subscriptionFilters.none)).toBeNull();
  });
});
