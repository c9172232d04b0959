// A GSM rule as the Routing page's form holds it, and the members a save
// sends: every one given for a new rule, the changed ones for an edit.
import type { GsmRuleFieldsFragment, UpdateGsmRuleInput } from "../gql/graphql";

type Rule = GsmRuleFieldsFragment;

/** The form's values, named as the API's errors name the members (extensions.field). */
export interface Values {
  connector: string;
  flow: string;
  sub_flow: string;
  code: string;
  message: string;
  status: string;
  decision: "retry" | "do_default";
  step_up_possible: boolean;
  clear_pan_possible: boolean;
  alternate_network_possible: boolean;
  unified_code: string;
  unified_message: string;
  error_category: string;
  standardised_code: string;
  router_error: string;
  description: string;
  user_guidance_message: string;
}

/** A rule's values, or a new rule's defaults (a failed authorization's flow and sub-flow). */
export function valuesOf(r: Rule | null, connectors: string[]): Values {
  return {
    connector: r?.connector ?? connectors[0] ?? "stripe_test",
    flow: r?.flow ?? "Authorize",
    sub_flow: r?.subFlow ?? "sub_flow",
    code: r?.code ?? "",
    message: r?.message ?? "",
    status: r?.status ?? "failure",
    decision: r?.decision ?? "retry",
    step_up_possible: r?.stepUpPossible ?? false,
    clear_pan_possible: r?.clearPanPossible ?? false,
    alternate_network_possible: r?.alternateNetworkPossible ?? false,
    unified_code: r?.unifiedCode ?? "",
    unified_message: r?.unifiedMessage ?? "",
    error_category: r?.errorCategory ?? "",
    standardised_code: r?.standardisedCode ?? "",
    router_error: r?.routerError ?? "",
    description: r?.description ?? "",
    user_guidance_message: r?.userGuidanceMessage ?? "",
  };
}

/** The members of the form that may change, as UpdateGsmRuleInput names them. */
const mutable: [keyof Values, keyof UpdateGsmRuleInput][] = [
  ["status", "status"],
  ["decision", "decision"],
  ["step_up_possible", "stepUpPossible"],
  ["clear_pan_possible", "clearPanPossible"],
  ["alternate_network_possible", "alternateNetworkPossible"],
  ["unified_code", "unifiedCode"],
  ["unified_message", "unifiedMessage"],
  ["error_category", "errorCategory"],
  ["standardised_code", "standardisedCode"],
  ["router_error", "routerError"],
  ["description", "description"],
  ["user_guidance_message", "userGuidanceMessage"],
];

/**
 * The members to send: for a new rule every one given (an empty optional
 * text is left out); for an edit those changed (an emptied text is sent
 * empty, which clears it).
 */
export function changes(v: Values, before: Values | null): UpdateGsmRuleInput {
  const out: Record<string, unknown> = {};
  for (const [from, to] of mutable) {
    const value = v[from];
    if (before ? value === before[from] : value === "") continue;
    out[to] = value;
  }
  return out as UpdateGsmRuleInput;
}


/** The members typed as text. */
export type TextKey = { [K in keyof Values]: Values[K] extends string ? K : never }[keyof Values];
