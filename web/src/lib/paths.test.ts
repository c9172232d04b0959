import { describe, expect, it } from "vitest";
import { match } from "./paths";

describe("match", () => {
  it("takes parameters and decodes them", () => {
    expect(match("/payments/:id", "/payments/pay_1")).toEqual({ id: "pay_1" });
    expect(match("/invite/:token", "/invite/inv%2Fa")).toEqual({ token: "inv/a" });
  });
  it("ignores a trailing slash", () => {
    expect(match("/payments", "/payments/")).toEqual({});
  });
  it("refuses other paths", () => {
    expect(match("/payments/:id", "/payments")).toBeNull();
    expect(match("/payments", "/refunds")).toBeNull();
  });
});
