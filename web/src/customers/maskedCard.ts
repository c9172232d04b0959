// A saved card as the customer's page writes it, from what the API gives
// (never more than the last four digits).

export interface MaskedCard {
  last4: string;
  cardNetwork?: string | null;
  expMonth: string;
  expYear: string;
}

/** A saved card as one line: "Visa •••• 4242, expires 03/2030". */
export function maskedCard(c: MaskedCard): string {
  return `${c.cardNetwork ?? "Card"} •••• ${c.last4}, expires ${c.expMonth.padStart(2, "0")}/${c.expYear}`;
}
