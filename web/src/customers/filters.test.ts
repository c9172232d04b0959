import { describe, expect, it } from "vitest";
import { customerFilters, customersWhere } from "./filters";

describe("customer filters ⇄ URL", () => {
  it("round-trips a customer and a name", () => {
    const f = { customer: "Ada@Example.com", name: "Love lace" };
    const q = customerFilters.toSearch(f);
    expect(q.toString()).toBe("customer=Ada%40Example.com&name=Love+lace");
    expect(customerFilters.parse(q)).toEqual(f);
  });
  it("drops a customer that is neither an id nor an e-mail, and a name too long", () => {
    expect(customerFilters.parse(new URLSearchParams(`customer=not%20an%20id&name=${"n".repeat(256)}`))).toEqual(customerFilters.none);
  });
  it("filters by customer_id, or by e-mail whatever its case, and by a part of the name", () => {
    expect(customersWhere({ customer: "cus_ada", name: null })).toEqual({ customerID: "cus_ada" });
    expect(customersWhere({ customer: "ADA@example.com", name: "ada" })).toEqual({ emailEqualFold: "ADA@example.com", nameContainsFold: "ada" });
    expect(customersWhere(customerFilters.none)).toBeNull();
  });
});
