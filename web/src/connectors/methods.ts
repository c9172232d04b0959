// The payment methods the connectors form offers, as the REST shape
// (payment_methods_enabled) holds them, and the edits the form makes to an
// account's list. The catalogue mirrors the sandbox account sign-up makes
// (payments/connector SandboxMethods); an account's own types outside it
// are kept and shown too.

/** One entry of payment_methods_enabled: a family and its types. */
export interface MethodFamily {
  payment_method: string;
  payment_method_types?: Record<string, unknown>[];
}

const networks = ["Visa", "Mastercard", "AmericanExpress", "JCB", "DinersClub", "Discover", "UnionPay"];
const card = (t: string) => ({ payment_method_type: t, card_networks: networks, recurring_enabled: true });
const redirected = (t: string) => ({ payment_method_type: t, payment_experience: "redirect_to_url" });

/** What a new type is sent as, by family and type. */
export const catalogue: MethodFamily[] = [
  { payment_method: "card", payment_method_types: [card("credit"), card("debit")] },
  { payment_method: "wallet", payment_method_types: ["apple_pay", "google_pay", "paypal"].map(redirected) },
  { payment_method: "pay_later", payment_method_types: ["klarna", "affirm", "afterpay_clearpay"].map(redirected) },
  { payment_method: "bank_redirect", payment_method_types: ["ideal", "sofort", "eps", "giropay"].map(redirected) },
  { payment_method: "upi", payment_method_types: [{ payment_method_type: "upi_collect" }] },
];

/** A family/type pair, as the form's checkboxes name them ("card/credit"). */
export type MethodKey = string;

const typeName = (t: Record<string, unknown>) => String(t["payment_method_type"] ?? "");

/** The keys an account's list enables. */
export function enabledKeys(list: readonly MethodFamily[] | null | undefined): Set<MethodKey> {
  const out = new Set<MethodKey>();
  for (const f of list ?? []) for (const t of f.payment_method_types ?? []) out.add(`${f.payment_method}/${typeName(t)}`);
  return out;
}

/** Every key to offer for an account: the catalogue's, then the account's own others. */
export function offeredKeys(list: readonly MethodFamily[] | null | undefined): MethodKey[] {
  const keys = [...enabledKeys(catalogue)];
  for (const k of enabledKeys(list)) if (!keys.includes(k)) keys.push(k);
  return keys;
}

/**
 * The list to send for the keys ticked: an enabled type keeps its own
 * members (networks, currencies, limits), a newly ticked one takes the
 * catalogue's; families with no type left are dropped.
 */
export function methodsFor(current: readonly MethodFamily[] | null | undefined, ticked: ReadonlySet<MethodKey>): MethodFamily[] {
  const families = new Map<string, Record<string, unknown>[]>();
  const take = (list: readonly MethodFamily[]) => {
    for (const f of list)
      for (const t of f.payment_method_types ?? []) {
        const key = `${f.payment_method}/${typeName(t)}`;
        if (!ticked.has(key)) continue;
        const types = families.get(f.payment_method) ?? [];
        if (types.some((x) => typeName(x) === typeName(t))) continue;
        types.push(t);
        families.set(f.payment_method, types);
      }
  };
  take(current ?? []);
  take(catalogue);
  return [...families].map(([payment_method, payment_method_types]) => ({ payment_method, payment_method_types }));
}

/** The sandbox failure knobs of an account's metadata (docs/sandbox.md). */
export interface SandboxKnobs {
  failureRate: number;
  errorCode: string;
  errorMessage: string;
  outage: boolean;
  timeout: boolean;
}

export function knobsOf(metadata: Record<string, unknown> | null | undefined): SandboxKnobs {
  const s = (metadata?.["sandbox"] ?? {}) as Record<string, unknown>;
  return {
    failureRate: typeof s["failure_rate"] === "number" ? s["failure_rate"] : 0,
    errorCode: typeof s["error_code"] === "string" ? s["error_code"] : "",
    errorMessage: typeof s["error_message"] === "string" ? s["error_message"] : "",
    outage: s["outage"] === true,
    timeout: s["timeout"] === true,
  };
}

/**
 * The metadata to send for the knobs: the account's other members as they
 * are (an update replaces metadata whole), and a sandbox object holding only
 * what differs from the defaults, or none when nothing does (no failures).
 * Members of the sandbox object the form does not edit (required_fields)
 * are kept.
 */
export function metadataWith(metadata: Record<string, unknown> | null | undefined, k: SandboxKnobs): Record<string, unknown> {
  const { sandbox: old, ...rest } = metadata ?? {};
  const sandbox: Record<string, unknown> = { ...((old ?? {}) as Record<string, unknown>) };
  for (const m of ["failure_rate", "error_code", "error_message", "outage", "timeout"]) delete sandbox[m];
  if (k.failureRate > 0) sandbox["failure_rate"] = k.failureRate;
  if (k.failureRate > 0 && k.errorCode) sandbox["error_code"] = k.errorCode;
  if (k.failureRate > 0 && k.errorMessage) sandbox["error_message"] = k.errorMessage;
  if (k.outage) sandbox["outage"] = true;
  if (k.timeout) sandbox["timeout"] = true;
  return Object.keys(sandbox).length ? { ...rest, sandbox } : rest;
}
