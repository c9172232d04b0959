import { describe, expect, it } from "vitest";
import { payoutFilters, payoutsWhere } from "./filters";

describe("payout filters ⇄ URL", () => {
  it("round-trips every filter in one canonical order", () => {
    const q = "status=success%2Cpending&currency=EUR&connector=stripe_test&from=2026-03-01&to=2026-03-08&customer=cus_1";
    const f = payoutFilters.parse(new URLSearchParams(q));
    expect(f).toEqual({
      statuses: ["success", "pending"],
      currency: "EUR",
      connector: "stripe_test",
      from: "2026-03-01",
      to: "2026-03-08",
      customerID: "cus_1",
    });
    expect(payoutFilters.toSearch(f).toString()).toBe(q);
    expect(payoutFilters.toSearch(payoutFilters.parse(new URLSearchParams("customer=cus_1&status=pending,success"))).toString()).toBe(
      "status=success%2Cpending&customer=cus_1",
    );
  });
  it("drops what it cannot mean", () => {
    const f = payoutFilters.parse(new URLSearchParams("status=paid&currency=ZZZ&connector=Stripe%20X&from=2026-13-01&customer=cus%201"));
    expect(f).toEqual(payoutFilters.none);
  });
  it("asks for the payouts of the merchant's days, statuses, currency, connector and customer", () => {
    const f = payoutFilters.parse(new URLSearchParams("status=failed&currency=usd&connector=adyen_test&from=2026-03-08&to=2026-03-08&customer=cus_1"));
    expect(payoutsWhere(f, "America/Los_Angeles")).toEqual({
      statusIn: ["failed"],
      currencyIn: ["USD"],
      connectorIn: ["adyen_test"],
      createdAtGTE: "2026-03-08T08:00:00.000Z",
      createdAtLT: "2026-03-09T07:00:00.000Z", // a 23-hour day
      customerID: "cus_1",
    });
    expect(payoutsWhere(payoutFilters.none, "UTC")).toBeNull();
  });
});
