// The lists' filters and their place in the URL. The URL holds what a
// person typed (amounts in major units, dates as calendar days of the
// merchant's time zone), so a link reads as the form did; the lists'
// `where` inputs (and the CSV export's filter) are made from it, the one
// place that converts major units to minor ones and days to instants. A
// value the URL cannot mean (an unknown status, "12.345" USD, 2026-02-30)
// is dropped, never sent: a hand-edited link shows the list without it.
//
// Each list declares its filters as a spec (param name and codec per
// field, in the URL's order) and gets its parse, write and "any set?"
// from filterSet; the payments list's filters are below, the refunds',
// disputes' and customers' beside their pages.
import type { PaymentExportFilter, PaymentIntentStatus, PaymentIntentWhereInput } from "../gql/graphql";
import { currencyCodes } from "./currencies.generated";
import { parseMajor } from "./money";
import { dayStartIn } from "./zone";

/** How one filter reads from its URL parameter and writes to it. */
export interface Codec<T> {
  /** The value from the parameter's values (every one, for a repeated parameter); what it cannot mean is dropped. */
  read(values: string[]): T;
  /** The parameter's value, or null to leave it out. */
  write(value: T): string | null;
}

/** A list's filters: each field's URL parameter and codec, in the order a canonical URL writes them. */
export type Spec<F> = { [K in keyof F]: readonly [param: string, codec: Codec<F[K]>] };

/** What a list does with its filters. */
export interface FilterSet<F> {
  /** No filter set. */
  none: F;
  /** The parameter names it writes: a page's cursors are dropped when any changes. */
  params: readonly string[];
  /** Reads the filters from a URL's query; what it cannot mean is left out. */
  parse(search: URLSearchParams): F;
  /** The filters as a URL query, in a fixed order: one set of filters has one URL. */
  toSearch(f: F): URLSearchParams;
  /** Whether any filter is set. */
  has(f: F): boolean;
}

/**
 * A list's filter set from its spec. check fixes what one field cannot
 * judge alone (an amount needs its currency; a reversed range's upper end
 * is dropped); it runs on reading and on writing.
 */
export function filterSet<F extends object>(spec: Spec<F>, check: (f: F) => F = (f) => f): FilterSet<F> {
  const fields = Object.entries(spec) as [keyof F, readonly [string, Codec<F[keyof F]>]][];
  const parse = (search: URLSearchParams) =>
    check(Object.fromEntries(fields.map(([k, [param, codec]]) => [k, codec.read(search.getAll(param))])) as F);
  const toSearch = (f: F) => {
    const checked = check(f);
    const out = new URLSearchParams();
    for (const [k, [param, codec]] of fields) {
      const v = codec.write(checked[k]);
      if (v) out.set(param, v);
    }
    return out;
  };
  return {
    none: parse(new URLSearchParams()),
    params: fields.map(([, [param]]) => param),
    parse,
    toSearch,
    has: (f) => toSearch(f).size > 0,
  };
}

/**
 * Every value of a schema enum, in the order a form offers them: it fails
 * to compile when the schema gains a value the list lacks.
 */
export function allOf<T extends string>() {
  return <const L extends readonly T[]>(list: L & ([Exclude<T, L[number]>] extends [never] ? unknown : { missing: Exclude<T, L[number]> })): L =>
    list;
}

const first = (values: string[]) => values[0]?.trim() || null;
const single = <T>(read: (s: string) => T | null): Codec<T | null> => ({
  read: (values) => {
    const s = first(values);
    return s === null ? null : read(s);
  },
  write: (v) => (v === null ? null : String(v)),
});

/** Any of a closed set (repeated or comma-separated), kept in the set's order. */
export function someOf<T extends string>(set: readonly T[]): Codec<T[]> {
  return {
    read: (values) => {
      const given = new Set(values.flatMap((v) => v.split(",")).map((v) => v.trim()));
      return set.filter((s) => given.has(s));
    },
    write: (v) => (v.length > 0 ? set.filter((s) => v.includes(s)).join(",") : null),
  };
}

const idPattern = /^[A-Za-z0-9_-]{1,64}$/;
const connectorPattern = /^[a-z0-9_]{1,64}$/;
const emailPattern = /^[^\s@]{1,64}@[^\s@]{1,190}$/;
const knownCurrencies = new Set<string>(currencyCodes);

/** A merchant's or the API's id: letters, digits, '_' and '-'. */
export const idCodec = single((s) => (idPattern.test(s) ? s : null));
/** A connector's name (stripe_test). */
export const connectorCodec = single((s) => (connectorPattern.test(s) ? s : null));
/** An ISO 4217 code, upper-cased. */
export const currencyCodec = single((s) => (knownCurrencies.has(s.toUpperCase()) ? s.toUpperCase() : null));
/** A calendar day, YYYY-MM-DD. */
export const dayCodec = single(parseDay);
/** A number as typed (its currency judges its decimals). */
export const amountCodec = single((s) => (/^\d+(\.\d+)?$/.test(s) ? s : null));
/** Free text, at most max characters. */
export const textCodec = (max: number) => single((s) => (s.length <= max ? s : null));
/** A customer: their customer_id, or an e-mail address (it has an '@'). */
export const customerCodec = single((s) => (isEmail(s) || idPattern.test(s) ? s : null));

/** Whether a customer filter is an e-mail address rather than a customer_id. */
export function isEmail(customer: string): boolean {
  return customer.includes("@") && emailPattern.test(customer);
}

/** A customer filter as the customer_id or the e-mail it is. */
export function customerRef(customer: string | null): { id?: string; email?: string } {
  if (!customer) return {};
  return isEmail(customer) ? { email: customer } : { id: customer };
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

/** Creation days, both inclusive; a reversed range's upper end is dropped. */
export interface Days {
  from: string | null;
  to: string | null;
}

export const daySpec = { from: ["from", dayCodec], to: ["to", dayCodec] } as const satisfies Spec<Days>;

export function checkDays<F extends Days>(f: F): F {
  return f.from && f.to && f.to < f.from ? { ...f, to: null } : f;
}

/**
 * The days as instants of the merchant's time zone: [start of from, start
 * of the day after to), as createdAtGTE and createdAtLT.
 */
export function createdWhere(d: Days, timeZone: string): { createdAtGTE?: string; createdAtLT?: string } {
  return defined({
    createdAtGTE: d.from ? dayStartIn(d.from, timeZone).toISOString() : undefined,
    createdAtLT: d.to ? dayStartIn(d.to, timeZone, 1).toISOString() : undefined,
  });
}

/**
 * A list's `where` (W): its own members, undefined ones dropped, and the
 * creation days as instants of the merchant's time zone; null with no filter.
 */
export function datedWhere<W extends object>(d: Days, timeZone: string, members: W): W | null {
  return orNull(defined<W>({ ...members, ...createdWhere(d, timeZone) }));
}

/** The statuses and the currency the lists of money (payments, refunds, payouts) filter by first. */
export interface MoneyFilters<S extends string> extends Days {
  statuses: S[];
  currency: string | null;
}

/** The spec of a money list's statuses (any of all) and currency. */
export function moneySpec<S extends string>(all: readonly S[]) {
  return { statuses: ["status", someOf(all)], currency: ["currency", currencyCodec] } as const;
}

/** The one value as an In filter; undefined for none. */
export function oneOf<T extends string>(value: string | null): T[] | undefined {
  return value ? [value as T] : undefined;
}

/** A list's rows of one payment (payment_id), as hasPaymentWith. */
export function ofPayment(paymentID: string | null): { hasPaymentWith?: [{ paymentID: string }] } {
  return paymentID ? { hasPaymentWith: [{ paymentID }] } : {};
}

/** The statuses (or stages) as an In filter; undefined for any. */
export function anyOf<T>(values: T[]): T[] | undefined {
  return values.length > 0 ? values : undefined;
}

/** o without its undefined members (the API reads an absent member and a null one alike, but the tests compare shapes). */
export function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** o, or null when it has no member: a list with no filter sends no `where`. */
export function orNull<T extends object>(o: T): T | null {
  return Object.keys(o).length > 0 ? o : null;
}

// The payments list.

/** Every payment status, in the order the filter offers them. */
export const paymentStatuses = allOf<PaymentIntentStatus>()([
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
]);

/** The payments list's filters as a person set them; null or empty is "any". */
export interface PaymentFilters extends MoneyFilters<PaymentIntentStatus> {
  connector: string | null;
  /** Amount bounds in major units of currency, as typed ("10.50"); kept only with a currency. */
  amountMin: string | null;
  amountMax: string | null;
  /** A customer's customer_id, or their e-mail (with an '@'). */
  customer: string | null;
  paymentID: string | null;
}

function checkAmounts(f: PaymentFilters): PaymentFilters {
  const major = (s: string | null) => (s && f.currency ? parseMajor(s, f.currency) : null);
  const [min, max] = [major(f.amountMin), major(f.amountMax)];
  return {
    ...f,
    amountMin: min === null ? null : f.amountMin,
    // A reversed range selects nothing; its upper end is the one dropped.
    amountMax: max === null || (min !== null && min > max) ? null : f.amountMax,
  };
}

export const paymentFilters = filterSet<PaymentFilters>(
  {
    ...moneySpec(paymentStatuses),
    connector: ["connector", connectorCodec],
    amountMin: ["min", amountCodec],
    amountMax: ["max", amountCodec],
    ...daySpec,
    customer: ["customer", customerCodec],
    paymentID: ["payment", idCodec],
  },
  (f) => checkDays(checkAmounts(f)),
);

/**
 * The filters in the terms both the list's `where` and the export's filter
 * use: minor units, instants and exact ids. The two inputs name the lists
 * differently, which paymentsWhere and exportFilter say.
 */
function common(f: PaymentFilters, timeZone: string) {
  const customer = customerRef(f.customer);
  return {
    amountGTE: f.currency && f.amountMin ? (parseMajor(f.amountMin, f.currency) ?? undefined) : undefined,
    amountLTE: f.currency && f.amountMax ? (parseMajor(f.amountMax, f.currency) ?? undefined) : undefined,
    ...createdWhere(f, timeZone),
    customerID: customer.id,
    customerEmail: customer.email,
    paymentID: f.paymentID ?? undefined,
  };
}

/** The list's `where` (PaymentIntentWhereInput); null with no filter. */
export function paymentsWhere(f: PaymentFilters, timeZone: string): PaymentIntentWhereInput | null {
  return orNull(
    defined<PaymentIntentWhereInput>({
      ...common(f, timeZone),
      statusIn: anyOf(f.statuses),
      currencyIn: oneOf<NonNullable<PaymentIntentWhereInput["currency"]>>(f.currency),
      connectorIn: oneOf(f.connector),
    }),
  );
}

/** createPaymentExport's filter: the same payments the list shows. */
export function exportFilter(f: PaymentFilters, timeZone: string): PaymentExportFilter {
  return defined<PaymentExportFilter>({
    ...common(f, timeZone),
    statuses: anyOf(f.statuses),
    currencies: oneOf(f.currency),
    connectors: oneOf(f.connector),
  });
}
