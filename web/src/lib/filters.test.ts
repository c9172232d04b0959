import { describe, expect, it } from "vitest";
import { customerRef, exportFilter, isEmail, paymentFilters, paymentsWhere, type PaymentFilters } from "./filters";

const { parse, toSearch, none, has } = paymentFilters;

const full: PaymentFilters = {
  statuses: ["succeeded", "failed"],
  currency: "KWD",
  connector: "stripe_test",
  amountMin: "1.5",
  amountMax: "20.125",
  from: "2026-11-01",
  to: "2026-11-27",
  customer: "cus_42",
  paymentID: "pay_abc",
};

describe("filters in the URL", () => {
  it("round-trips every filter", () => {
    const search = toSearch(full);
    expect(search.toString()).toBe(
      "status=succeeded%2Cfailed&currency=KWD&connector=stripe_test&min=1.5&max=20.125&from=2026-11-01&to=2026-11-27&customer=cus_42&payment=pay_abc",
    );
    expect(parse(new URLSearchParams(search.toString()))).toEqual(full);
  });
  it("writes nothing for no filter, and reads nothing from an empty query", () => {
    expect(toSearch(none).toString()).toBe("");
    expect(parse(new URLSearchParams(""))).toEqual(none);
    expect(has(none)).toBe(false);
    expect(has({ ...none, customer: "cus_1" })).toBe(true);
  });
  it("reads repeated and comma-separated statuses in one order, unknown ones dropped", () => {
    const f = parse(new URLSearchParams("status=failed&status=succeeded,bogus"));
    expect(f.statuses).toEqual(["succeeded", "failed"]);
  });
  it("ignores values it cannot mean", () => {
    const f = parse(
      new URLSearchParams(
        "status=nope&currency=XXX1&connector=Bad Name&min=1&from=2026-02-30&to=yesterday&customer=a%20b&payment=" +
          "x".repeat(65),
      ),
    );
    expect(f).toEqual(none);
  });
  it("keeps amounts only with a currency, and only with its decimals", () => {
    expect(parse(new URLSearchParams("min=10&max=20")).amountMin).toBeNull();
    const jpy = parse(new URLSearchParams("currency=jpy&min=10.5&max=1200"));
    expect(jpy).toMatchObject({ currency: "JPY", amountMin: null, amountMax: "1200" });
    const usd = parse(new URLSearchParams("currency=USD&min=10.123&max=-1"));
    expect(usd).toMatchObject({ amountMin: null, amountMax: null });
    // Nor does it write what it would not read.
    expect(toSearch({ ...none, amountMin: "10" }).toString()).toBe("");
  });
  it("drops the upper end of a reversed range", () => {
    const f = parse(new URLSearchParams("currency=USD&min=20&max=10&from=2026-11-10&to=2026-11-01"));
    expect(f).toMatchObject({ amountMin: "20", amountMax: null, from: "2026-11-10", to: null });
  });
  it("reads a customer as an id or an e-mail", () => {
    expect(parse(new URLSearchParams("customer=Ada%40Example.com")).customer).toBe("Ada@Example.com");
    expect(parse(new URLSearchParams("customer=ada%40")).customer).toBeNull();
    expect(parse(new URLSearchParams("customer=a%40b%40c")).customer).toBeNull();
    expect([isEmail("ada@example.com"), isEmail("cus_ada")]).toEqual([true, false]);
    expect(customerRef("ada@example.com")).toEqual({ email: "ada@example.com" });
    expect(customerRef("cus_ada")).toEqual({ id: "cus_ada" });
    expect(customerRef(null)).toEqual({});
  });
});

describe("filters as API inputs", () => {
  it("converts major units per currency exponent", () => {
    expect(paymentsWhere({ ...none, currency: "USD", amountMin: "10.5", amountMax: "12" }, "UTC")).toEqual({
      currencyIn: ["USD"],
      amountGTE: 1050,
      amountLTE: 1200,
    });
    expect(exportFilter({ ...none, currency: "JPY", amountMin: "1200" }, "UTC")).toEqual({
      currencies: ["JPY"],
      amountGTE: 1200,
    });
    expect(exportFilter({ ...none, currency: "KWD", amountMax: "1.25" }, "UTC")).toEqual({
      currencies: ["KWD"],
      amountLTE: 1250,
    });
  });
  it("makes the merchant's days into [start of from, start of the day after to), whatever the browser's zone", () => {
    const days = { ...none, from: "2026-11-01", to: "2026-11-27" };
    expect(paymentsWhere(days, "Asia/Kolkata")).toEqual({
      createdAtGTE: "2026-10-31T18:30:00.000Z",
      createdAtLT: "2026-11-27T18:30:00.000Z",
    });
    // Los Angeles leaves daylight saving on 1 November: that day has 25 hours.
    expect(exportFilter(days, "America/Los_Angeles")).toEqual({
      createdAtGTE: "2026-11-01T07:00:00.000Z",
      createdAtLT: "2026-11-28T08:00:00.000Z",
    });
  });
  it("filters by the customer's e-mail when the customer has an '@'", () => {
    expect(paymentsWhere({ ...none, customer: "Ada@Example.com" }, "UTC")).toEqual({ customerEmail: "Ada@Example.com" });
    expect(exportFilter({ ...none, customer: "Ada@Example.com" }, "UTC")).toEqual({ customerEmail: "Ada@Example.com" });
    expect(paymentsWhere({ ...none, customer: "cus_42" }, "UTC")).toEqual({ customerID: "cus_42" });
  });
  it("asks the list and the export for the same payments", () => {
    const w = paymentsWhere(full, "Asia/Kolkata")!;
    const e = exportFilter(full, "Asia/Kolkata");
    expect(w).toMatchObject({ statusIn: e.statuses, currencyIn: e.currencies, connectorIn: e.connectors });
    for (const k of ["amountGTE", "amountLTE", "createdAtGTE", "createdAtLT", "customerID", "customerEmail", "paymentID"] as const) {
      expect(w[k]).toEqual(e[k]);
    }
    expect(e).toMatchObject({ amountGTE: 1500, amountLTE: 20125, customerID: "cus_42", paymentID: "pay_abc" });
  });
  it("has no where without filters", () => {
    expect(paymentsWhere(none, "UTC")).toBeNull();
    expect(exportFilter(none, "UTC")).toEqual({});
  });
});
