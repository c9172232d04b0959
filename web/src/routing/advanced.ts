// The rules editor's model of an `advanced` routing configuration, and its
// two translations: Hyperswitch's program JSON ({defaultSelection, rules:
// [{name, connectorSelection, statements: [{condition: [{lhs, comparison,
// value: {type, value}}], nested}]}]}, docs/rest.md#advanced-rule-based-routing)
// to the model and back, and the model in words for the picture. Pure: no
// React, no network.
//
// The editor's rule is a list of groups of conditions: the rule holds when
// every condition of one of its groups holds. That is a program's statements
// without nesting; a nested statement is the same as its conditions added to
// each of its nested ones, so a program read with nesting is flattened
// (it routes the same) and written back flat.
//
// Amounts are minor units in the program and major units in the editor,
// converted by the currency's exponent (lib/money). The currency an amount
// is written in is kept in the comparison's own `metadata` ({"currency":
// "USD"}), which Hyperswitch keeps for front ends and the evaluator does not
// read; a program written by hand without it takes the currency its group
// tests (currency is USD), else USD.
import { currencyExponent, formatAmount, majorUnits, parseMajor } from "../lib/money";
import { priority, problem, volumeSplit, type Choice } from "./algorithm";

export type Comparison = "equal" | "not_equal" | "less_than" | "less_than_equal" | "greater_than" | "greater_than_equal";

export const comparisons: readonly Comparison[] = [
  "equal",
  "not_equal",
  "less_than",
  "less_than_equal",
  "greater_than",
  "greater_than_equal",
];

/** A fact rules may test, as the API's routingFacts describes it. */
export interface Fact {
  name: string;
  kind: string;
  valueTypes: { type: string; comparisons: string[] }[];
  values: string[];
}

/** One entry of a number_comparison_array: a comparison with an amount in major units. */
export interface Bound {
  comparison: Comparison;
  amount: string;
}

/**
 * A condition as the editor holds it: the fact (lhs), the value type and
 * comparison, and the value as typed. Only the members of its value type
 * are read: text (a number in major units, an enum variant, a string, a
 * metadata value), list (amounts in major units or enum variants), bounds,
 * key (metadata). currency is the currency amounts are written in.
 */
export interface Condition {
  fact: string;
  valueType: string;
  comparison: Comparison;
  text: string;
  list: string[];
  bounds: Bound[];
  key: string;
  currency: string;
}

/** A rule's output or the default: accounts by priority, or shares in percent. */
export interface Selection {
  kind: "priority" | "volume_split";
  rows: { choice: Choice; split: number }[];
}

export interface Rule {
  name: string;
  /** Alternatives: the rule holds when every condition of one group holds. */
  groups: Condition[][];
  output: Selection;
}

export interface Program {
  rules: Rule[];
  otherwise: Selection;
}

export const amountTypes = ["number", "number_array", "number_comparison_array"];
const isAmount = (c: { valueType: string }) => amountTypes.includes(c.valueType);

/** A condition on fact with its first value type and comparison, empty. */
export function newCondition(fact: Fact | undefined, currency = "USD"): Condition {
  const vt = fact?.valueTypes[0];
  const first = fact?.values.includes("USD") ? "USD" : (fact?.values[0] ?? "");
  return {
    fact: fact?.name ?? "amount",
    valueType: vt?.type ?? "number",
    comparison: (vt?.comparisons[0] as Comparison | undefined) ?? "equal",
    text: vt?.type === "enum_variant" ? first : "",
    list: [],
    bounds: [],
    key: "",
    currency,
  };
}

export function newRule(name: string, condition: Condition, output: Selection): Rule {
  return { name, groups: [[condition]], output };
}

// ---------------------------------------------------------------- reading

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === "string" ? v : v === undefined || v === null ? "" : String(v));
const num = (v: unknown): number => (typeof v === "number" ? v : Number(v) || 0);

function readChoice(v: unknown): Choice {
  const o = obj(v);
  return { connector: str(o["connector"]), merchant_connector_id: str(o["merchant_connector_id"]) };
}

function readSelection(v: unknown): Selection {
  const o = obj(v);
  if (o["type"] === "volume_split")
    return {
      kind: "volume_split",
      rows: arr(o["data"]).map((x) => ({ choice: readChoice(obj(x)["connector"]), split: num(obj(x)["split"]) })),
    };
  return { kind: "priority", rows: arr(o["data"]).map((x) => ({ choice: readChoice(x), split: 0 })) };
}

/** A condition read from the program with its numbers still in minor units. */
interface RawCondition {
  cond: Condition;
  minor: number[];
  boundsMinor: { comparison: Comparison; amount: number }[];
  statedCurrency: string;
}

const asComparison = (v: unknown): Comparison => (comparisons.includes(v as Comparison) ? (v as Comparison) : "equal");

function readCondition(v: unknown): RawCondition {
  const o = obj(v);
  const value = obj(o["value"]);
  const type = str(value["type"]);
  const inner = value["value"];
  const cond: Condition = {
    fact: str(o["lhs"]),
    valueType: type,
    comparison: asComparison(o["comparison"]),
    text: "",
    list: [],
    bounds: [],
    key: "",
    currency: "",
  };
  const raw: RawCondition = { cond, minor: [], boundsMinor: [], statedCurrency: "" };
  const stated = str(obj(o["metadata"])["currency"]).toUpperCase();
  if (/^[A-Z]{3}$/.test(stated)) raw.statedCurrency = stated;
  switch (type) {
    case "number":
      raw.minor = [num(inner)];
      break;
    case "number_array":
      raw.minor = arr(inner).map(num);
      break;
    case "number_comparison_array":
      raw.boundsMinor = arr(inner).map((b) => ({ comparison: asComparison(obj(b)["comparisonType"]), amount: num(obj(b)["number"]) }));
      break;
    case "enum_variant_array":
      cond.list = arr(inner).map(str);
      break;
    case "metadata_variant":
      cond.key = str(obj(inner)["key"]);
      cond.text = str(obj(inner)["value"]);
      if (cond.fact !== "metadata") cond.fact = "metadata";
      break;
    default:
      cond.text = str(inner);
  }
  return raw;
}

/** The currency a group tests for equality, if it tests one. */
function groupCurrency(group: Condition[]): string {
  const c = group.find((x) => x.fact === "currency" && x.comparison === "equal" && x.valueType === "enum_variant");
  return c?.text ?? "";
}

/** A program's statements as groups: nested statements flattened into their parents' conditions. */
function flatten(statements: unknown[], prefix: RawCondition[]): RawCondition[][] {
  const out: RawCondition[][] = [];
  for (const s of statements) {
    const o = obj(s);
    const conds = [...prefix, ...arr(o["condition"]).map(readCondition)];
    if (o["nested"] === undefined || o["nested"] === null) out.push(conds);
    else out.push(...flatten(arr(o["nested"]), conds));
  }
  return out;
}

function finish(group: RawCondition[]): Condition[] {
  const tested = groupCurrency(group.map((r) => r.cond));
  return group.map((r) => {
    const c = { ...r.cond };
    if (isAmount(c)) {
      c.currency = r.statedCurrency || tested || "USD";
      if (c.valueType === "number") c.text = majorUnits(r.minor[0] ?? 0, c.currency);
      if (c.valueType === "number_array") c.list = r.minor.map((m) => majorUnits(m, c.currency));
      if (c.valueType === "number_comparison_array")
        c.bounds = r.boundsMinor.map((b) => ({ comparison: b.comparison, amount: majorUnits(b.amount, c.currency) }));
    } else {
      c.currency = tested || "USD";
    }
    return c;
  });
}

/** Reads a stored {type: "advanced", data} into the editor's model; null for another kind. */
export function fromAlgorithm(stored: Record<string, unknown>): Program | null {
  if (stored["type"] !== "advanced") return null;
  const d = obj(stored["data"]);
  return {
    rules: arr(d["rules"]).map((r) => {
      const o = obj(r);
      return {
        name: str(o["name"]),
        groups: flatten(arr(o["statements"]), []).map(finish),
        output: readSelection(o["connectorSelection"]),
      };
    }),
    otherwise: readSelection(d["defaultSelection"]),
  };
}

// ---------------------------------------------------------------- writing

/** What keeps the model from being sent, at the editor's field it concerns. */
export interface Problem {
  field: string;
  message: string;
}

/** The editor's ids of its fields: one scheme for the inputs, the problems and the API's errors. */
export const fieldID = {
  name: "adv-name",
  rule: (i: number) => `adv-r${i}`,
  ruleName: (i: number) => `adv-r${i}-name`,
  condition: (i: number, j: number, k: number, part: "fact" | "op" | "value" | "currency" | "key") => `adv-r${i}-g${j}-c${k}-${part}`,
  output: (i: number | "default", n?: number) => (n === undefined ? `adv-${i === "default" ? "default" : `r${i}`}-out` : `adv-${i === "default" ? "default" : `r${i}`}-out-${n}`),
};

function amountMinor(text: string, currency: string): number | null {
  const m = parseMajor(text, currency);
  return m === null ? null : m;
}

const amountProblem = (text: string, currency: string) =>
  text.trim() === ""
    ? "Type an amount."
    : `${text.trim()} is not an amount in ${currency} (${currencyExponent(currency)} decimal${currencyExponent(currency) === 1 ? "" : "s"} at most).`;

function writeCondition(c: Condition, at: string, problems: Problem[]): Json | null {
  const bad = (message: string) => (problems.push({ field: at, message }), null);
  let value: unknown;
  switch (c.valueType) {
    case "number": {
      const m = amountMinor(c.text, c.currency);
      if (m === null) return bad(amountProblem(c.text, c.currency));
      value = m;
      break;
    }
    case "number_array": {
      if (c.list.length === 0) return bad("Add at least one amount.");
      const ms = c.list.map((t) => amountMinor(t, c.currency));
      const i = ms.indexOf(null);
      if (i >= 0) return bad(amountProblem(c.list[i]!, c.currency));
      value = ms;
      break;
    }
    case "number_comparison_array": {
      if (c.bounds.length === 0) return bad("Add at least one bound.");
      const out: Json[] = [];
      for (const b of c.bounds) {
        const m = amountMinor(b.amount, c.currency);
        if (m === null) return bad(amountProblem(b.amount, c.currency));
        out.push({ comparisonType: b.comparison, number: m });
      }
      value = out;
      break;
    }
    case "enum_variant_array":
      if (c.list.length === 0) return bad("Add at least one value.");
      value = [...c.list];
      break;
    case "metadata_variant":
      if (c.key.trim() === "") return bad("Type the metadata key.");
      value = { key: c.key.trim(), value: c.text };
      break;
    default:
      if (c.text === "") return bad("Choose or type a value.");
      value = c.text;
  }
  return {
    lhs: c.fact,
    comparison: c.comparison,
    value: { type: c.valueType, value },
    metadata: isAmount(c) ? { currency: c.currency } : {},
  };
}

function writeSelection(s: Selection, at: string, problems: Problem[]): Json {
  const choices = s.rows.map((r) => r.choice);
  const shape = s.kind === "priority" ? priority(choices) : volumeSplit(s.rows.map((r) => ({ choice: r.choice, split: r.split })));
  const why = choices.some((c) => !c.merchant_connector_id && !c.connector) ? "Choose an account." : problem(shape);
  if (why) problems.push({ field: at, message: why });
  // An account named by connector only (a program written by hand) stays so.
  const choice = (c: Choice): Json => (c.merchant_connector_id ? { connector: c.connector, merchant_connector_id: c.merchant_connector_id } : { connector: c.connector });
  return s.kind === "priority"
    ? { type: "priority", data: choices.map(choice) }
    : { type: "volume_split", data: s.rows.map((r) => ({ connector: choice(r.choice), split: r.split })) };
}

/**
 * The program the model describes, as createRoutingAlgorithm takes it, and
 * what keeps it from being sent (the server checks everything again).
 */
export function toAlgorithm(p: Program): { algorithm: { type: "advanced"; data: Json }; problems: Problem[] } {
  const problems: Problem[] = [];
  const rules = p.rules.map((r, i) => {
    const name = r.name.trim();
    if (!name) problems.push({ field: fieldID.ruleName(i), message: "Name the rule." });
    else if ([...name].length > 255) problems.push({ field: fieldID.ruleName(i), message: "At most 255 characters." });
    if (r.groups.length === 0) problems.push({ field: fieldID.rule(i), message: "Give the rule a condition." });
    const statements = r.groups.map((g, j) => {
      if (g.length === 0) problems.push({ field: fieldID.rule(i), message: `Group ${j + 1} has no condition.` });
      return { condition: g.map((c, k) => writeCondition(c, fieldID.condition(i, j, k, "value"), problems)) };
    });
    return { name, connectorSelection: writeSelection(r.output, fieldID.output(i), problems), statements };
  });
  const defaultSelection = writeSelection(p.otherwise, fieldID.output("default"), problems);
  return { algorithm: { type: "advanced", data: { defaultSelection, rules, metadata: {} } }, problems };
}

/**
 * The editor's field an API error names (extensions.field: name,
 * algorithm.data.rules[0].statements[1].condition[2].value.value, …), or
 * null when it names none of them.
 */
export function fieldOfPath(path: string): string | null {
  if (path === "name") return fieldID.name;
  const rule = /^algorithm\.data\.rules\[(\d+)\](.*)$/.exec(path);
  if (rule) {
    const i = Number(rule[1]);
    const rest = rule[2] ?? "";
    if (rest === ".name") return fieldID.ruleName(i);
    const sel = /^\.connectorSelection(?:\.data\[(\d+)\])?/.exec(rest);
    if (sel) return sel[1] === undefined ? fieldID.output(i) : fieldID.output(i, Number(sel[1]));
    const cond = /^\.statements\[(\d+)\]\.condition\[(\d+)\](?:\.(lhs|comparison|value))?/.exec(rest);
    if (cond) {
      const part = cond[3] === "lhs" ? "fact" : cond[3] === "comparison" ? "op" : "value";
      return fieldID.condition(i, Number(cond[1]), Number(cond[2]), part);
    }
    return fieldID.rule(i);
  }
  const def = /^algorithm\.data\.defaultSelection(?:\.data\[(\d+)\])?/.exec(path);
  if (def) return def[1] === undefined ? fieldID.output("default") : fieldID.output("default", Number(def[1]));
  return null;
}

// ---------------------------------------------------------------- words

/** A comparison's sign, as the words and the editor's bounds write it. */
export const symbols: Record<Comparison, string> = {
  equal: "=",
  not_equal: "≠",
  less_than: "<",
  less_than_equal: "≤",
  greater_than: ">",
  greater_than_equal: "≥",
};

/** The operators a fact offers: one per value type and comparison, as a select lists them. */
export interface Operator {
  valueType: string;
  comparison: Comparison;
  label: string;
}

const numberWords: Record<Comparison, string> = {
  equal: "= (is exactly)",
  not_equal: "≠ (is not)",
  less_than: "< (less than)",
  less_than_equal: "≤ (at most)",
  greater_than: "> (more than)",
  greater_than_equal: "≥ (at least)",
};

function operatorLabel(valueType: string, c: Comparison): string {
  const eq = c === "equal";
  switch (valueType) {
    case "number":
      return numberWords[c];
    case "number_array":
    case "enum_variant_array":
      return eq ? "is one of" : "is none of";
    case "number_comparison_array":
      return eq ? "meets any of" : "meets none of";
    default:
      return eq ? "is" : "is not";
  }
}

export function operatorsOf(fact: Fact | undefined): Operator[] {
  return (fact?.valueTypes ?? []).flatMap((vt) =>
    vt.comparisons.map((c) => ({ valueType: vt.type, comparison: c as Comparison, label: operatorLabel(vt.type, c as Comparison) })),
  );
}

/** A fact's name for people: payment method, card BIN, … */
export function factLabel(name: string): string {
  if (name === "card_bin") return "card BIN";
  return name.replace(/_/g, " ");
}

function money(text: string, currency: string): string {
  const m = parseMajor(text, currency);
  return m === null ? text : formatAmount(m, currency, "en-US");
}

/** A condition in words: "amount ≥ 100.00", "currency is one of USD, EUR", "metadata tier is gold". */
export function conditionWords(c: Condition, groupCurrency = ""): string {
  const unit = isAmount(c) && c.currency !== groupCurrency ? ` ${c.currency}` : "";
  const fact = factLabel(c.fact);
  switch (c.valueType) {
    case "number":
      return `${fact} ${symbols[c.comparison]} ${money(c.text, c.currency)}${unit}`;
    case "number_array":
      return `${fact} ${operatorLabel(c.valueType, c.comparison)} ${c.list.map((t) => money(t, c.currency)).join(", ")}${unit}`;
    case "number_comparison_array":
      return `${fact} ${c.comparison === "equal" ? "is any of" : "is none of"} (${c.bounds
        .map((b) => `${symbols[b.comparison]} ${money(b.amount, c.currency)}`)
        .join(", ")})${unit}`;
    case "enum_variant_array":
      return `${fact} ${operatorLabel(c.valueType, c.comparison)} ${c.list.join(", ")}`;
    case "metadata_variant":
      return `metadata ${c.key} ${c.comparison === "equal" ? "is" : "is not"} ${c.text === "" ? "empty" : c.text}`;
    default:
      return `${fact} ${c.comparison === "equal" ? "is" : "is not"} ${c.text}`;
  }
}

/** A selection in words: "stripe_test, then adyen" or "70% stripe_test, 30% adyen". */
export function selectionWords(s: Selection, label: (c: Choice) => string): string {
  if (s.kind === "volume_split") return s.rows.map((r) => `${r.split}% ${label(r.choice)}`).join(", ");
  return s.rows.map((r) => label(r.choice)).join(", then ");
}

/** A rule in words: "If currency is USD and amount ≥ 100.00 → stripe_test, then adyen". */
export function ruleWords(r: Rule, label: (c: Choice) => string): string {
  const groups = r.groups.map((g) => g.map((c) => conditionWords(c, groupCurrency(g))).join(" and "));
  const when = groups.length === 0 ? "never" : groups.join(", or ");
  return `If ${when} → ${selectionWords(r.output, label)}`;
}

/** The program in words, a sentence a rule and the default last: what the picture says under its arrows. */
export function programWords(p: Program, label: (c: Choice) => string): string[] {
  return [...p.rules.map((r) => `${r.name}: ${ruleWords(r, label)}`), `Otherwise → ${selectionWords(p.otherwise, label)}`];
}
