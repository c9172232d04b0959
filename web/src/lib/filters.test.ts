import { describe, expect, it } from "vitest";
import {
  exportFilter,
  filtersToSearch,
  noFilters,
  parseFilters,
  paymentsWhere,
  type PaymentFilters,
} from "./filters";

const full: PaymentFilters = {
  statuses: ["succeeded", "failed"],
  currency: "KWD",
  connector: "stripe_test",
  amountMin: "1.5",
  amountMax: "20.125",
  from: "2026-11-01",
  to: "2026-11-27",
  customerID: "cus_42",
  paymentID: "pay_abc",
};

describe("filters in the URL", () => {
  it("round-trips every filter", () => {
    const search = filtersToSearch(full);
    expect(search.toString()).toBe(
      "status=succeeded%2Cfailed&currency=KWD&connector=stripe_test&min=1.5&max=20.125&from=2026-11-01&to=2026-11-27&customer=cus_42&payment=pay_abc",
    );
    expect(parseFilters(new URLSearchParams(search.toString()))).toEqual(full);
  });
  it("writes nothing for no filter, and reads nothing from an empty query", () => {
    expect(filtersToSearch(noFilters).toString()).toBe("");
    expect(parseFilters(new URLSearchParams(""))).toEqual(noFilters);
  });
  it("reads repeated and comma-separated statuses in one order, unknown ones dropped", () => {
    const f = parseFilters(new URLSearchParams("status=failed&status=succeeded,bogus"));
    expect(f.statuses).toEqual(["succeeded", "failed"]);
  });
  it("ignores values it cannot mean", () => {
    const f = parseFilters(
      new URLSearchParams(
        "status=nope&currency=XXX1&connector=Bad Name&min=1&from=2026-02-30&to=yesterday&customer=a%20b&payment=" +
          "x".repeat(65),
      ),
    );
    expect(f).toEqual(noFilters);
  });
  it("keeps amounts only with a currency, and only with its decimals", () => {
    expect(parseFilters(new URLSearchParams("min=10&max=20")).amountMin).toBeNull();
    const jpy = parseFilters(new URLSearchParams("currency=jpy&min=10.5&max=1200"));
    expect(jpy).toMatchObject({ currency: "JPY", amountMin: null, amountMax: "1200" });
    const usd = parseFilters(new URLSearchParams("currency=USD&min=10.123&max=-1"));
    expect(usd).toMatchObject({ amountMin: null, amountMax: null });
  });
  it("drops the upper end of a reversed range", () => {
    const f = parseFilters(new URLSearchParams("currency=USD&min=20&max=10&from=2026-11-10&to=2026-11-01"));
    expect(f).toMatchObject({ amountMin: "20", amountMax: null, from: "2026-11-10", to: null });
  });
});

describe("filters as API inputs", () => {
  it("converts major units per currency exponent", () => {
    expect(paymentsWhere({ ...noFilters, currency: "USD", amountMin: "10.5", amountMax: "12" })).toEqual({
      currencyIn: ["USD"],
      amountGTE: 1050,
      amountLTE: 1200,
    });
    expect(exportFilter({ ...noFilters, currency: "JPY", amountMin: "1200" })).toEqual({
      currencies: ["JPY"],
      amountGTE: 1200,
    });
    expect(exportFilter({ ...noFilters, currency: "KWD", amountMax: "1.25" })).toEqual({
      currencies: ["KWD"],
      amountLTE: 1250,
    });
  });
  it("makes local days into [start of from, start of the day after to)", () => {
    const w = paymentsWhere({ ...noFilters, from: "2026-11-01", to: "2026-11-27" })!;
    const gte = new Date(w.createdAtGTE as string);
    const lt = new Date(w.createdAtLT as string);
    expect([gte.getFullYear(), gte.getMonth(), gte.getDate(), gte.getHours(), gte.getMinutes()]).toEqual([2026, 10, 1, 0, 0]);
    expect([lt.getFullYear(), lt.getMonth(), lt.getDate(), lt.getHours()]).toEqual([2026, 10, 28, 0]);
  });
  it("asks the list and the export for the same payments", () => {
    const w = paymentsWhere(full)!;
    const e = exportFilter(full);
    expect(w).toMatchObject({ statusIn: e.statuses, currencyIn: e.currencies, connectorIn: e.connectors });
    for (const k of ["amountGTE", "amountLTE", "createdAtGTE", "createdAtLT", "customerID", "paymentID"] as const) {
      expect(w[k]).toEqual(e[k]);
    }
    expect(e).toMatchObject({ amountGTE: 1500, amountLTE: 20125, customerID: "cus_42", paymentID: "pay_abc" });
  });
  it("has no where without filters", () => {
    expect(paymentsWhere(noFilters)).toBeNull();
    expect(exportFilter(noFilters)).toEqual({});
  });
});
