// Amounts arrive in minor units with their currency, as the API keeps them.
// How many decimals a currency has is the server's table
// (payments/validate.MajorUnits; web/money_test.go checks the two agree),
// not the browser's Intl data, which differs for a few currencies (ISK).
import exponents from "./currencyExponents.json";

const table: Record<string, number> = exponents;

/** The number of decimals of a currency's major unit: 2 unless listed. */
export function currencyExponent(currency: string): number {
  return table[currency.toUpperCase()] ?? 2;
}

/** The amount in major units as a plain decimal string: 1099 USD → "10.99", 1099 JPY → "1099", 1250 KWD → "1.250". */
export function majorUnits(amount: number, currency: string): string {
  const exp = currencyExponent(currency);
  const sign = amount < 0 ? "-" : "";
  const digits = Math.abs(Math.trunc(amount)).toString();
  if (exp === 0) return sign + digits;
  const padded = digits.padStart(exp + 1, "0");
  return `${sign}${padded.slice(0, -exp)}.${padded.slice(-exp)}`;
}

/**
 * The amount for people: grouped digits, the currency's own decimals and its
 * code after ("1,234.50 USD", "1,200 JPY", "1.250 KWD"). Grouping uses the
 * locale given (the browser's by default); the decimals never change.
 */
export function formatMoney(amount: number, currency: string, locale?: string): string {
  return `${formatAmount(amount, currency, locale)} ${currency.toUpperCase()}`;
}

/** formatMoney without the currency code, for a table with a currency column. */
export function formatAmount(amount: number, currency: string, locale?: string): string {
  const exp = currencyExponent(currency);
  const plain = majorUnits(amount, currency);
  const negative = plain.startsWith("-");
  const [whole = "0", fraction] = (negative ? plain.slice(1) : plain).split(".");
  const fmt = new Intl.NumberFormat(locale ?? "en-US", {
    minimumFractionDigits: exp,
    maximumFractionDigits: exp,
    useGrouping: true,
  });
  // Format the whole part as an integer (exact for any safe integer), then
  // put the decimals back with the locale's separator.
  const grouped = fmt.formatToParts(BigInt(whole));
  let decimal = ".";
  for (const p of fmt.formatToParts(1.5)) if (p.type === "decimal") decimal = p.value;
  const wholeText = grouped
    .filter((p) => p.type === "integer" || p.type === "group")
    .map((p) => p.value)
    .join("");
  const text = exp === 0 ? wholeText : `${wholeText}${decimal}${fraction ?? ""}`;
  return `${negative ? "−" : ""}${text}`;
}

/** Parses a major-unit amount typed by a person ("12.5") into minor units; null when it is not one. */
export function parseMajor(input: string, currency: string): number | null {
  const exp = currencyExponent(currency);
  const m = /^\s*(\d+)(?:[.,](\d*))?\s*$/.exec(input);
  if (!m) return null;
  const frac = m[2] ?? "";
  if (frac.length > exp) return null;
  const minor = Number(m[1]! + frac.padEnd(exp, "0"));
  return Number.isSafeInteger(minor) ? minor : null;
}
