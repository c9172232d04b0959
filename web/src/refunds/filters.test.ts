import { describe, expect, it } from "vitest";
import { refundFilters, refundsWhere } from "./filters";

describe("refund filters ⇄ URL", () => {
  it("round-trips every filter in one canonical order", () => {
    const q = "status=succeeded%2Cpending&currency=JPY&from=2026-03-01&to=2026-03-08&payment=pay_1";
    const f = refundFilters.parse(new URLSearchParams(q));
    expect(f).toEqual({ statuses: ["succeeded", "pending"], currency: "JPY", from: "2026-03-01", to: "2026-03-08", paymentID: "pay_1" });
    expect(refundFilters.toSearch(f).toString()).toBe(q);
    expect(refundFilters.toSearch(refundFilters.parse(new URLSearchParams("payment=pay_1&status=pending,succeeded"))).toString()).toBe(
      "status=succeeded%2Cpending&payment=pay_1",
    );
  });
  it("drops what it cannot mean", () => {
    const f = refundFilters.parse(new URLSearchParams("status=refunded&currency=ZZZ&from=2026-13-01&to=2026-02-29&payment=pay%201"));
    expect(f).toEqual(refundFilters.none);
    expect(refundFilters.parse(new URLSearchParams("from=2026-03-08&to=2026-03-01")).to).toBeNull();
  });
  it("asks for the refunds of the merchant's days, statuses, currency and payment", () => {
    const f = refundFilters.parse(new URLSearchParams("status=failed&currency=usd&from=2026-03-08&to=2026-03-08&payment=pay_1"));
    expect(refundsWhere(f, "America/Los_Angeles")).toEqual({
      statusIn: ["failed"],
      currencyIn: ["USD"],
      createdAtGTE: "2026-03-08T08:00:00.000Z",
      createdAtLT: "2026-03-09T07:00:00.000Z", // a 23-hour day
      hasPaymentWith: [{ paymentID: "pay_1" }],
    });
    expect(refundsWhere(refundFilters.none, "UTC")).toBeNull();
  });
});
