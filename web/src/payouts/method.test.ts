import { describe, expect, it } from "vitest";
import { methodOf } from "./method";

describe("a payout's method in words", () => {
  it("says each kind of masked method", () => {
    expect(methodOf({ card: { last4: "4242", card_network: "Visa", card_isin: "424242" } })).toBe("Card Visa •••• 4242");
    expect(methodOf({ bank: { bank_account_number: "****6789", bank_name: "Chase" } })).toBe("Bank account · ****6789 · Chase");
    expect(methodOf({ bank: { iban: "****3000" } })).toBe("Bank account · ****3000");
    expect(methodOf({ wallet: { email: "p***@example.com" } })).toBe("Wallet p***@example.com");
    expect(methodOf({ bank_redirect: { email: "a***@example.com" } })).toBe("Interac a***@example.com");
  });
  it("is null without a method", () => {
    expect(methodOf(null)).toBeNull();
    expect(methodOf({})).toBeNull();
  });
});
