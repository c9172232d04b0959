// The payments list's filters and their place in the URL. The URL holds
// what a person typed (amounts in major units, dates as local calendar
// days), so a link reads as the form did; the list's `where` and the CSV
// export's filter are made from it here, the one place that converts
// major units to minor ones and local days to instants. A value the URL
// cannot mean (an unknown status, "12.345" USD, 2026-02-30) is dropped,
// never sent: a hand-edited link shows the list without it.
import type { PaymentExportFilter, PaymentIntentStatus, PaymentIntentWhereInput } from "../gql/graphql";
import { currencyCodes } from "./currencies.generated";
import { parseMajor } from "./money";

/** Every payment status, in the order the filter offers them. */
export const paymentStatuses = [
  "succeeded",
  "failed",
  "processing",
  "requires_capture",
  "requires_customer_action",
  "requires_payment_method",
  "requires_confirmation",
  "requires_merchant_action",
  "partially_captured",
  "partially_captured_and_capturable",
  "partially_captured_and_processing",
  "partially_authorized_and_requires_capture",
  "cancelled",
  "cancelled_post_capture",
  "expired",
  "conflicted",
] as const satisfies readonly PaymentIntentStatus[];

// Fails to compile when the schema gains a status this list lacks.
type Missing = Exclude<PaymentIntentStatus, (typeof paymentStatuses)[number]>;
const allStatuses: Missing extends never ? true : Missing = true;
void allStatuses;

const knownCurrencies = new Set<string>(currencyCodes);

/** The list's filters as a person set them; null or empty is "any". */
export interface PaymentFilters {
  statuses: PaymentIntentStatus[];
  currency: string | null;
  connector: string | null;
  /** Amount bounds in major units of currency, as typed ("10.50"); kept only with a currency. */
  amountMin: string | null;
  amountMax: string | null;
  /** Creation days, local to the browser, both inclusive: YYYY-MM-DD. */
  from: string | null;
  to: string | null;
  customerID: string | null;
  paymentID: string | null;
}

export const noFilters: PaymentFilters = {
  statuses: [],
  currency: null,
  connector: null,
  amountMin: null,
  amountMax: null,
  from: null,
  to: null,
  customerID: null,
  paymentID: null,
};

// The URL's parameter names, in the order a canonical URL writes them.
const keys = {
  statuses: "status",
  currency: "currency",
  connector: "connector",
  amountMin: "min",
  amountMax: "max",
  from: "from",
  to: "to",
  customerID: "customer",
  paymentID: "payment",
} as const satisfies Record<keyof PaymentFilters, string>;

/** The names filtersToSearch writes: a page's cursors are dropped when any changes. */
export const filterParams: readonly string[] = Object.values(keys);

const idPattern = /^[A-Za-z0-9_-]{1,64}$/;
const connectorPattern = /^[a-z0-9_]{1,64}$/;

function text(search: URLSearchParams, key: string): string | null {
  const v = search.get(key)?.trim();
  return v ? v : null;
}

/** A YYYY-MM-DD that names a real day, else null. */
export function parseDay(s: string | null): string | null {
  if (!s) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (y < 1971 || date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return s;
}

function amount(s: string | null, currency: string | null): string | null {
  if (!s || !currency) return null;
  return parseMajor(s, currency) === null ? null : s;
}

/** Reads the filters from a URL's query; what it cannot mean is left out. */
export function parseFilters(search: URLSearchParams): PaymentFilters {
  const statuses = new Set<string>(search.getAll(keys.statuses).flatMap((s) => s.split(",")));
  const currency = text(search, keys.currency)?.toUpperCase() ?? null;
  const connector = text(search, keys.connector);
  const f: PaymentFilters = {
    statuses: paymentStatuses.filter((s) => statuses.has(s)),
    currency: currency && knownCurrencies.has(currency) ? currency : null,
    connector: connector && connectorPattern.test(connector) ? connector : null,
    amountMin: null,
    amountMax: null,
    from: parseDay(text(search, keys.from)),
    to: parseDay(text(search, keys.to)),
    customerID: idOrNull(text(search, keys.customerID)),
    paymentID: idOrNull(text(search, keys.paymentID)),
  };
  f.amountMin = amount(text(search, keys.amountMin), f.currency);
  f.amountMax = amount(text(search, keys.amountMax), f.currency);
  // A reversed range selects nothing; its upper end is the one dropped.
  if (f.currency && f.amountMin && f.amountMax && parseMajor(f.amountMin, f.currency)! > parseMajor(f.amountMax, f.currency)!) {
    f.amountMax = null;
  }
  if (f.from && f.to && f.to < f.from) f.to = null;
  return f;
}

function idOrNull(s: string | null): string | null {
  return s && idPattern.test(s) ? s : null;
}

/** The filters as a URL query, in a fixed order: one set of filters has one URL. */
export function filtersToSearch(f: PaymentFilters): URLSearchParams {
  const out = new URLSearchParams();
  if (f.statuses.length > 0) out.set(keys.statuses, paymentStatuses.filter((s) => f.statuses.includes(s)).join(","));
  const single: [keyof typeof keys, string | null][] = [
    ["currency", f.currency],
    ["connector", f.connector],
    ["amountMin", f.currency ? f.amountMin : null],
    ["amountMax", f.currency ? f.amountMax : null],
    ["from", f.from],
    ["to", f.to],
    ["customerID", f.customerID],
    ["paymentID", f.paymentID],
  ];
  for (const [k, v] of single) if (v) out.set(keys[k], v);
  return out;
}

/** Whether any filter is set. */
export function hasFilters(f: PaymentFilters): boolean {
  return filtersToSearch(f).size > 0;
}

/** The instant a local calendar day starts at, in the browser's time zone. */
export function dayStart(day: string): Date {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return new Date(y, m - 1, d);
}

/** The instant the local day after this one starts at (the exclusive end of an inclusive "to" day). */
export function nextDayStart(day: string): Date {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return new Date(y, m - 1, d + 1);
}

/**
 * The filters in the terms both the list's `where` and the export's filter
 * use: minor units, instants and exact ids. The two inputs name the lists
 * differently, which paymentsWhere and exportFilter say.
 */
function common(f: PaymentFilters) {
  return {
    amountGTE: f.currency && f.amountMin ? (parseMajor(f.amountMin, f.currency) ?? undefined) : undefined,
    amountLTE: f.currency && f.amountMax ? (parseMajor(f.amountMax, f.currency) ?? undefined) : undefined,
    createdAtGTE: f.from ? dayStart(f.from).toISOString() : undefined,
    createdAtLT: f.to ? nextDayStart(f.to).toISOString() : undefined,
    customerID: f.customerID ?? undefined,
    paymentID: f.paymentID ?? undefined,
  };
}

function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** The list's `where` (PaymentIntentWhereInput); null with no filter. */
export function paymentsWhere(f: PaymentFilters): PaymentIntentWhereInput | null {
  const where = defined<PaymentIntentWhereInput>({
    ...common(f),
    statusIn: f.statuses.length > 0 ? f.statuses : undefined,
    currencyIn: f.currency ? [f.currency as NonNullable<PaymentIntentWhereInput["currency"]>] : undefined,
    connectorIn: f.connector ? [f.connector] : undefined,
  });
  return Object.keys(where).length > 0 ? where : null;
}

/** createPaymentExport's filter: the same payments the list shows. */
export function exportFilter(f: PaymentFilters): PaymentExportFilter {
  return defined<PaymentExportFilter>({
    ...common(f),
    statuses: f.statuses.length > 0 ? f.statuses : undefined,
    currencies: f.currency ? [f.currency] : undefined,
    connectors: f.connector ? [f.connector] : undefined,
  });
}
