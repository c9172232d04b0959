import { describe, expect, it } from "vitest";
import { currencyExponent, formatMoney, majorUnits, parseMajor } from "./money";

describe("currencyExponent", () => {
  it("knows the currencies whose minor unit is not a hundredth", () => {
    expect(currencyExponent("USD")).toBe(2);
    expect(currencyExponent("JPY")).toBe(0);
    expect(currencyExponent("KWD")).toBe(3);
    expect(currencyExponent("kwd")).toBe(3);
    expect(currencyExponent("ISK")).toBe(0);
  });
});

describe("majorUnits", () => {
  it.each([
    [1099, "USD", "10.99"],
    [5, "USD", "0.05"],
    [0, "USD", "0.00"],
    [1200, "JPY", "1200"],
    [1250, "KWD", "1.250"],
    [7, "KWD", "0.007"],
    [-1099, "EUR", "-10.99"],
  ])("%d %s is %s", (amount, currency, want) => {
    expect(majorUnits(amount, currency)).toBe(want);
  });
});

describe("formatMoney", () => {
  it.each([
    [123450, "USD", "1,234.50 USD"],
    [2500, "USD", "25.00 USD"],
    [120000, "JPY", "120,000 JPY"],
    [1250, "KWD", "1.250 KWD"],
    [1234567, "KWD", "1,234.567 KWD"],
    [-400, "USD", "−4.00 USD"],
  ])("%d %s reads %s", (amount, currency, want) => {
    expect(formatMoney(amount, currency, "en-US")).toBe(want);
  });

  it("groups and separates decimals by the locale without changing the decimals", () => {
    expect(formatMoney(123450, "EUR", "de-DE")).toBe("1.234,50 EUR");
    expect(formatMoney(1250, "KWD", "de-DE")).toBe("1,250 KWD");
  });

  it("is exact beyond a double's precision in major units", () => {
    expect(formatMoney(900719925474099, "USD", "en-US")).toBe("9,007,199,254,740.99 USD");
  });
});

describe("parseMajor", () => {
  it.each([
    ["12.5", "USD", 1250],
    ["12", "USD", 1200],
    ["0,07", "EUR", 7],
    ["1200", "JPY", 1200],
    ["1.250", "KWD", 1250],
  ])("%s %s is %d minor units", (input, currency, want) => {
    expect(parseMajor(input, currency)).toBe(want);
  });
  it.each([
    ["12.345", "USD"],
    ["1.5", "JPY"],
    ["-3", "USD"],
    ["abc", "USD"],
    ["", "USD"],
  ])("refuses %s %s", (input, currency) => {
    expect(parseMajor(input, currency)).toBeNull();
  });
});
