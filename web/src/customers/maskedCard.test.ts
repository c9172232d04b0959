import { describe, expect, it } from "vitest";
import { maskedCard } from "./maskedCard";

describe("a saved card", () => {
  it("shows the network, the last four and the expiry, month in two digits", () => {
    expect(maskedCard({ last4: "4242", cardNetwork: "Visa", expMonth: "3", expYear: "2030" })).toBe("Visa •••• 4242, expires 03/2030");
  });
  it("says Card when the network is unknown", () => {
    expect(maskedCard({ last4: "0005", expMonth: "12", expYear: "2031" })).toBe("Card •••• 0005, expires 12/2031");
  });
});
