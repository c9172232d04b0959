// A payout's method in words, from the masked payout_method_data the API
// shows (Hyperswitch's PayoutMethodDataResponse): a card's network and last
// four digits, a bank account's masked number, a wallet's masked address.
type Masked = Record<string, unknown> | null | undefined;

const text = (o: unknown, key: string): string | null => {
  const v = o && typeof o === "object" ? (o as Record<string, unknown>)[key] : undefined;
  return typeof v === "string" && v !== "" ? v : null;
};

/** The method in words; null when the payout has none yet. */
export function methodOf(data: Masked): string | null {
  if (!data) return null;
  const { card, bank, wallet, bank_redirect: redirect } = data;
  if (card) return ["Card", text(card, "card_network"), text(card, "last4") && `•••• ${text(card, "last4")}`].filter(Boolean).join(" ");
  if (bank) {
    const account = text(bank, "bank_account_number") ?? text(bank, "iban") ?? text(bank, "pix_key");
    return ["Bank account", account, text(bank, "bank_name")].filter(Boolean).join(" · ");
  }
  if (wallet) return ["Wallet", text(wallet, "email") ?? text(wallet, "telephone_number")].filter(Boolean).join(" ");
  if (redirect) return ["Interac", text(redirect, "email")].filter(Boolean).join(" ");
  return null;
}
