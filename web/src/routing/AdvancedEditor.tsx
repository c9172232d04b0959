// The rules editor for `advanced` routing configurations: named rules in
// order, each a set of condition groups on a payment's facts (the facts,
// value types and comparisons the API's routingFacts offers) and an output
// (a priority list or a volume split of the profile's accounts), then the
// default. It builds Hyperswitch's program with advanced.ts, saves it with
// createRoutingAlgorithm and offers to activate it. Nothing is typed as JSON.
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { useMutation, useQuery } from "urql";
import { useActionKey } from "../developers/actionKey";
import { ErrorAlert } from "../layout/ErrorAlert";
import { currencyCodes } from "../lib/currencies.generated";
import { errorField, errorText } from "../lib/errors";
import type { Choice } from "./algorithm";
import {
  comparisons,
  factLabel,
  fieldID,
  fieldOfPath,
  newCondition,
  operatorsOf,
  programWords,
  symbols,
  toAlgorithm,
  type Comparison,
  type Condition,
  type Fact,
  type Program,
  type Selection,
} from "./advanced";
import { ActivateRoutingAlgorithmMutation, CreateRoutingAlgorithmMutation, RoutingFactsQuery } from "./operations";

export interface Account {
  merchantConnectorID: string;
  connectorName: string;
  connectorLabel: string;
}

/** An account as the routing page's choices name it: its label, then its connector. */
export const accountName = (a: Account) => `${a.connectorLabel} (${a.connectorName})`;

/** What the editor opens with: a stored configuration's name and program, or a new one. */
export interface Opened {
  name: string;
  program: Program;
}

const choiceOf = (a: Account | undefined): Choice => ({ connector: a?.connectorName ?? "", merchant_connector_id: a?.merchantConnectorID ?? "" });

/** A program's choices named by connector only (written by hand) get the profile's account of that connector. */
export function withAccounts(p: Program, accounts: Account[]): Program {
  const fix = (s: Selection): Selection => ({
    ...s,
    rows: s.rows.map((r) => {
      const a = r.choice.merchant_connector_id ? undefined : accounts.find((x) => x.connectorName === r.choice.connector);
      return a ? { ...r, choice: choiceOf(a) } : r;
    }),
  });
  return { rules: p.rules.map((r) => ({ ...r, output: fix(r.output) })), otherwise: fix(p.otherwise) };
}

/** A new program: USD payments of 100.00 or more to the first account, the rest to the second. */
function starter(accounts: Account[], facts: Fact[]): Program {
  const first = choiceOf(accounts[0]);
  const second = choiceOf(accounts[1] ?? accounts[0]);
  const currency = { ...newCondition(facts.find((f) => f.name === "currency")), text: "USD" };
  const amount = { ...newCondition(facts.find((f) => f.name === "amount")), comparison: "greater_than_equal" as Comparison, text: "100.00" };
  return {
    rules: [{ name: "Large USD payments", groups: [[currency, amount]], output: { kind: "priority", rows: [{ choice: first, split: 0 }] } }],
    otherwise: { kind: "priority", rows: [{ choice: second, split: 0 }] },
  };
}

/** Where a condition's value starts when its fact or test changes. */
function valueFor(fact: Fact | undefined, c: Condition, valueType: string): Condition {
  const values = fact?.values ?? [];
  const preferred = values.includes("USD") ? "USD" : (values[0] ?? "");
  const next = { ...c, valueType };
  if (valueType === "enum_variant" && !values.includes(c.text)) next.text = c.list[0] ?? preferred;
  if (valueType === "enum_variant_array" && c.list.some((v) => !values.includes(v))) next.list = [];
  if (valueType === "enum_variant_array" && c.list.length === 0 && values.includes(c.text)) next.list = [c.text];
  if (valueType === "number_array" && c.valueType !== valueType) next.list = c.text ? [c.text] : [];
  return next;
}

export function AdvancedEditor(props: {
  accounts: Account[];
  profileID: string;
  opened: Opened | null;
  done: () => void;
  close: () => void;
}) {
  const { accounts } = props;
  const [{ data: factData, error: factError }] = useQuery({ query: RoutingFactsQuery });
  const facts: Fact[] = factData?.routingFacts ?? [];
  const [name, setName] = useState(props.opened ? `${props.opened.name} (copy)`.slice(0, 64) : "");
  const [program, setProgram] = useState<Program | null>(props.opened ? withAccounts(props.opened.program, accounts) : null);
  const [checked, setChecked] = useState(false);
  const [created, setCreated] = useState<{ id: string; name: string; forAlgorithm: string } | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [createKey, settleCreate] = useActionKey();
  const [activateKey, settleActivate] = useActionKey();
  const [createState, create] = useMutation(CreateRoutingAlgorithmMutation);
  const [activateState, activate] = useMutation(ActivateRoutingAlgorithmMutation);
  useEffect(() => {
    if (!program && facts.length > 0) setProgram(starter(accounts, facts));
  }, [program, facts, accounts]);
  // Opened, the editor takes the focus once (a keyboard's or a screen
  // reader's place moves to what the button opened).
  const title = useRef<HTMLHeadingElement>(null);
  const focused = useRef(false);
  const ready = program !== null;
  useEffect(() => {
    if (ready && !focused.current) {
      focused.current = true;
      title.current?.focus();
    }
  }, [ready]);

  if (factError) return <ErrorAlert error={factError} />;
  if (!program) return <p aria-busy="true">Loading the rule language…</p>;

  const edit = (fn: (p: Program) => void) =>
    setProgram((p) => {
      const q = structuredClone(p ?? program);
      fn(q);
      return q;
    });
  const built = toAlgorithm(program);
  const problems = new Map<string, string>();
  if (checked) for (const p of built.problems) if (!problems.has(p.field)) problems.set(p.field, p.message);
  // An API refusal names its member: shown at that field, or above the button.
  const apiError = createState.error ?? activateState.error;
  const apiAt = errorField(createState.error);
  const apiField = apiAt ? fieldOfPath(apiAt) : null;
  if (apiField && !problems.has(apiField)) problems.set(apiField, errorText(createState.error) ?? "");
  const label = (c: Choice) => {
    const a = accounts.find((x) => x.merchantConnectorID === c.merchant_connector_id);
    return a ? a.connectorLabel : c.connector || c.merchant_connector_id;
  };
  const busy = createState.fetching || activateState.fetching;
  const text = JSON.stringify(built.algorithm);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setChecked(true);
    setMessage(null);
    const first = built.problems[0];
    if (first) {
      document.getElementById(first.field)?.focus();
      return;
    }
    // Saved already as it stands: what is left is to activate it.
    if (created?.forAlgorithm === text + name) return;
    const res = await create({
      input: { name: name.trim() || "Rules", profileID: props.profileID || null, algorithm: built.algorithm },
      idempotencyKey: createKey,
    });
    settleCreate(res);
    const made = res.data?.createRoutingAlgorithm.routingAlgorithm;
    if (!made) {
      const at = fieldOfPath(errorField(res.error) ?? "");
      if (at) document.getElementById(at)?.focus();
      return;
    }
    setCreated({ id: made.id, name: made.name, forAlgorithm: text + name });
    props.done();
  };
  const activateIt = async () => {
    if (!created || busy) return;
    const res = await activate({ id: created.id, idempotencyKey: activateKey });
    settleActivate(res);
    if (res.data) {
      setMessage(`Activated “${created.name}”: the next payments route by these rules.`);
      setCreated(null);
      props.done();
    }
  };

  return (
    <form className="card rules-editor" aria-labelledby="adv-title" onSubmit={save} noValidate>
      <h2 id="adv-title" tabIndex={-1} ref={title}>
        Rules editor (advanced)
      </h2>
      <p className="muted">
        Rules are tried in order: the first whose conditions hold chooses the accounts. A rule holds when every condition
        of one of its groups holds. Amounts are in the currency chosen beside them.
      </p>
      <Field id={fieldID.name} label="Configuration name (empty: “Rules”)" problem={problems.get(fieldID.name)}>
        {(p) => <input {...p} maxLength={64} value={name} onChange={(e) => setName(e.target.value)} />}
      </Field>
      <ol className="rules">
        {program.rules.map((rule, i) => (
          <li key={i}>
            <fieldset className="rule" id={fieldID.rule(i)} tabIndex={-1} aria-describedby={problems.has(fieldID.rule(i)) ? `${fieldID.rule(i)}-error` : undefined}>
              <legend>
                Rule {i + 1}
                {rule.name ? `: ${rule.name}` : ""}
              </legend>
              <Problem id={fieldID.rule(i)} problem={problems.get(fieldID.rule(i))} />
              <Field id={fieldID.ruleName(i)} label={`Rule ${i + 1} name`} problem={problems.get(fieldID.ruleName(i))}>
                {(p) => <input {...p} maxLength={255} value={rule.name} onChange={(e) => edit((q) => void (q.rules[i]!.name = e.target.value))} />}
              </Field>
              {rule.groups.map((group, j) => (
                <fieldset className="group" key={j}>
                  <legend>{j === 0 ? "When all of these hold" : "Or when all of these hold"}</legend>
                  {group.map((c, k) => (
                    <ConditionRow
                      key={k}
                      at={[i, j, k]}
                      condition={c}
                      facts={facts}
                      problem={problems.get(fieldID.condition(i, j, k, "value"))}
                      problemOf={(part) => problems.get(fieldID.condition(i, j, k, part))}
                      change={(next) => edit((q) => void (q.rules[i]!.groups[j]![k] = next))}
                      remove={() => edit((q) => void q.rules[i]!.groups[j]!.splice(k, 1))}
                    />
                  ))}
                  <div className="row">
                    <button type="button" onClick={() => edit((q) => void q.rules[i]!.groups[j]!.push(newCondition(facts[0])))}>
                      Add a condition to rule {i + 1}, group {j + 1}
                    </button>
                    {rule.groups.length > 1 && (
                      <button type="button" onClick={() => edit((q) => void q.rules[i]!.groups.splice(j, 1))}>
                        Remove group {j + 1}
                      </button>
                    )}
                  </div>
                </fieldset>
              ))}
              <div className="row">
                <button type="button" onClick={() => edit((q) => void q.rules[i]!.groups.push([newCondition(facts[0])]))}>
                  Add an “or” group to rule {i + 1}
                </button>
              </div>
              <SelectionEditor
                legend={`Rule ${i + 1} sends to`}
                at={i}
                selection={rule.output}
                accounts={accounts}
                problems={problems}
                change={(s) => edit((q) => void (q.rules[i]!.output = s))}
              />
              <div className="row">
                <button type="button" disabled={i === 0} onClick={() => edit((q) => void q.rules.splice(i - 1, 0, q.rules.splice(i, 1)[0]!))}>
                  Move rule {i + 1} up
                </button>
                <button
                  type="button"
                  disabled={i === program.rules.length - 1}
                  onClick={() => edit((q) => void q.rules.splice(i + 1, 0, q.rules.splice(i, 1)[0]!))}
                >
                  Move rule {i + 1} down
                </button>
                <button type="button" onClick={() => edit((q) => void q.rules.splice(i, 1))}>
                  Remove rule {i + 1}
                </button>
              </div>
            </fieldset>
          </li>
        ))}
      </ol>
      <div className="row">
        <button
          type="button"
          onClick={() =>
            edit((q) =>
              q.rules.push({
                name: `Rule ${q.rules.length + 1}`,
                groups: [[newCondition(facts[0])]],
                output: { kind: "priority", rows: [{ choice: choiceOf(accounts[0]), split: 0 }] },
              }),
            )
          }
        >
          Add a rule
        </button>
      </div>
      <SelectionEditor
        legend="Otherwise (no rule holds), send to"
        at="default"
        selection={program.otherwise}
        accounts={accounts}
        problems={problems}
        change={(s) => edit((q) => void (q.otherwise = s))}
      />
      <section aria-labelledby="adv-words-title">
        <h3 id="adv-words-title">In words</h3>
        <ol data-testid="rules-in-words">
          {programWords(program, label).map((w, i) => (
            <li key={i}>{w}</li>
          ))}
        </ol>
      </section>
      {checked && built.problems.length > 0 && (
        <p className="error" role="alert">
          {built.problems.length === 1 ? "One field needs" : `${built.problems.length} fields need`} attention before saving.
        </p>
      )}
      {apiError && !apiField && <ErrorAlert error={apiError} />}
      {apiError && apiField && (
        <p className="error" role="alert">
          The server refused the configuration: see the field marked.
        </p>
      )}
      {created && (
        <div role="status" className="row saved">
          <p>
            Saved “{created.name}”. It routes nothing until activated.
          </p>
          <button type="button" className="primary" onClick={activateIt} disabled={busy}>
            Activate “{created.name}”
          </button>
        </div>
      )}
      {message && <p role="status">{message}</p>}
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? "Please wait…" : "Save configuration"}
        </button>
        <button type="button" onClick={props.close}>
          Close the editor
        </button>
      </div>
    </form>
  );
}

type FieldProps = { id: string; "aria-invalid"?: true; "aria-describedby"?: string };

/** A labelled control with its problem under it, named by aria-describedby. */
function Field(props: { id: string; label: string; problem?: string | undefined; children: (p: FieldProps) => ReactNode }) {
  const p: FieldProps = { id: props.id };
  if (props.problem) {
    p["aria-invalid"] = true;
    p["aria-describedby"] = `${props.id}-error`;
  }
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      {props.children(p)}
      <Problem id={props.id} problem={props.problem} />
    </div>
  );
}

function Problem({ id, problem }: { id: string; problem?: string | undefined }) {
  return problem ? (
    <p className="error field-error" id={`${id}-error`}>
      {problem}
    </p>
  ) : null;
}

function ConditionRow(props: {
  at: [number, number, number];
  condition: Condition;
  facts: Fact[];
  problem?: string | undefined;
  problemOf: (part: "fact" | "op") => string | undefined;
  change: (c: Condition) => void;
  remove: () => void;
}) {
  const [i, j, k] = props.at;
  const c = props.condition;
  const fact = props.facts.find((f) => f.name === c.fact);
  const ops = operatorsOf(fact);
  const id = (part: "fact" | "op" | "value" | "currency" | "key") => fieldID.condition(i, j, k, part);
  const where = `rule ${i + 1}, group ${j + 1}, condition ${k + 1}`;
  const [adding, setAdding] = useState("");
  const [bound, setBound] = useState<Comparison>("less_than");
  const setFact = (name: string) => {
    const f = props.facts.find((x) => x.name === name);
    const fresh = { ...newCondition(f, c.currency) };
    props.change(valueFor(f, fresh, fresh.valueType));
  };
  const setOp = (v: string) => {
    const [valueType, comparison] = v.split(":") as [string, Comparison];
    props.change({ ...valueFor(fact, c, valueType), comparison });
  };
  const amountish = ["number", "number_array", "number_comparison_array"].includes(c.valueType);
  const chips = (items: string[], remove: (n: number) => void, show: (s: string) => string = (s) => s) => (
    <ul className="chips" aria-label={`Values of ${where}`}>
      {items.map((v, n) => (
        <li key={`${v}-${n}`}>
          {show(v)}{" "}
          <button type="button" onClick={() => remove(n)}>
            <span aria-hidden="true">×</span>
            <span className="visually-hidden">
              Remove {show(v)} from {where}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
  let value: ReactNode;
  switch (c.valueType) {
    case "number":
      value = <input id={id("value")} inputMode="decimal" value={c.text} onChange={(e) => props.change({ ...c, text: e.target.value })} {...invalid(id("value"), props.problem)} />;
      break;
    case "number_array":
    case "enum_variant_array": {
      const enumList = c.valueType === "enum_variant_array";
      const add = () => {
        const v = adding.trim() || (enumList ? (fact?.values[0] ?? "") : "");
        if (v && !c.list.includes(v)) props.change({ ...c, list: [...c.list, v] });
        setAdding("");
      };
      value = (
        <>
          {chips(c.list, (n) => props.change({ ...c, list: c.list.filter((_, m) => m !== n) }))}
          <div className="row">
            {enumList ? (
              <select id={id("value")} value={adding} onChange={(e) => setAdding(e.target.value)} {...invalid(id("value"), props.problem)}>
                <option value="">Choose a value…</option>
                {(fact?.values ?? []).map((v) => (
                  <option key={v}>{v}</option>
                ))}
              </select>
            ) : (
              <input
                id={id("value")}
                inputMode="decimal"
                value={adding}
                onChange={(e) => setAdding(e.target.value)}
                onKeyDown={(e) => e.key === "Enter" && (e.preventDefault(), add())}
                {...invalid(id("value"), props.problem)}
              />
            )}
            <button type="button" onClick={add}>
              Add to the list
            </button>
          </div>
        </>
      );
      break;
    }
    case "number_comparison_array": {
      const add = () => {
        if (adding.trim()) props.change({ ...c, bounds: [...c.bounds, { comparison: bound, amount: adding.trim() }] });
        setAdding("");
      };
      value = (
        <>
          {chips(
            c.bounds.map((b) => `${symbols[b.comparison]} ${b.amount}`),
            (n) => props.change({ ...c, bounds: c.bounds.filter((_, m) => m !== n) }),
          )}
          <div className="row">
            <select aria-label={`Bound's comparison, ${where}`} value={bound} onChange={(e) => setBound(e.target.value as Comparison)}>
              {comparisons.map((cmp) => (
                <option key={cmp} value={cmp}>
                  {symbols[cmp]}
                </option>
              ))}
            </select>
            <input
              id={id("value")}
              inputMode="decimal"
              aria-label={`Bound's amount, ${where}`}
              value={adding}
              onChange={(e) => setAdding(e.target.value)}
              onKeyDown={(e) => e.key === "Enter" && (e.preventDefault(), add())}
              {...invalid(id("value"), props.problem)}
            />
            <button type="button" onClick={add}>
              Add the bound
            </button>
          </div>
        </>
      );
      break;
    }
    case "enum_variant":
      value = (
        <select id={id("value")} value={c.text} onChange={(e) => props.change({ ...c, text: e.target.value })} {...invalid(id("value"), props.problem)}>
          {(fact?.values ?? []).map((v) => (
            <option key={v}>{v}</option>
          ))}
        </select>
      );
      break;
    case "metadata_variant":
      value = (
        <div className="row">
          <input id={id("key")} aria-label={`Metadata key, ${where}`} placeholder="key" value={c.key} onChange={(e) => props.change({ ...c, key: e.target.value })} />
          <input id={id("value")} aria-label={`Metadata value, ${where}`} placeholder="value" value={c.text} onChange={(e) => props.change({ ...c, text: e.target.value })} {...invalid(id("value"), props.problem)} />
        </div>
      );
      break;
    default:
      value = <input id={id("value")} value={c.text} onChange={(e) => props.change({ ...c, text: e.target.value })} {...invalid(id("value"), props.problem)} />;
  }
  return (
    <div className="condition" role="group" aria-label={`Condition ${k + 1} of rule ${i + 1}, group ${j + 1}`} data-testid="condition">
      <Field id={id("fact")} label="Fact" problem={props.problemOf("fact")}>
        {(p) => (
          <select {...p} value={c.fact} onChange={(e) => setFact(e.target.value)}>
            {props.facts.map((f) => (
              <option key={f.name} value={f.name}>
                {factLabel(f.name)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field id={id("op")} label="Test" problem={props.problemOf("op")}>
        {(p) => (
          <select {...p} value={`${c.valueType}:${c.comparison}`} onChange={(e) => setOp(e.target.value)}>
            {ops.map((o) => (
              <option key={`${o.valueType}:${o.comparison}`} value={`${o.valueType}:${o.comparison}`}>
                {o.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div className="field value">
        <label htmlFor={id("value")}>{c.valueType === "metadata_variant" ? "Key and value" : "Value"}</label>
        {value}
        <Problem id={id("value")} problem={props.problem} />
      </div>
      {amountish && (
        <div className="field">
          <label htmlFor={id("currency")}>In</label>
          <select id={id("currency")} value={c.currency} onChange={(e) => props.change({ ...c, currency: e.target.value })}>
            {currencyCodes.map((code) => (
              <option key={code}>{code}</option>
            ))}
          </select>
        </div>
      )}
      <button type="button" className="remove" onClick={props.remove} aria-label={`Remove condition ${k + 1} of rule ${i + 1}, group ${j + 1}`}>
        Remove
      </button>
    </div>
  );
}

function invalid(id: string, problem: string | undefined) {
  return problem ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` } : {};
}

/** A rule's output, or the default: a priority list or a volume split of the accounts. */
function SelectionEditor(props: {
  legend: string;
  at: number | "default";
  selection: Selection;
  accounts: Account[];
  problems: Map<string, string>;
  change: (s: Selection) => void;
}) {
  const s = props.selection;
  const base = fieldID.output(props.at);
  const problem = props.problems.get(base);
  const setRow = (n: number, row: Partial<Selection["rows"][number]>) =>
    props.change({ ...s, rows: s.rows.map((r, m) => (m === n ? { ...r, ...row } : r)) });
  const ordinal = (n: number) => ["1st", "2nd", "3rd"][n] ?? `${n + 1}th`;
  return (
    <fieldset className="selection" id={base} tabIndex={-1} aria-describedby={problem ? `${base}-error` : undefined}>
      <legend>{props.legend}</legend>
      <div className="checks">
        {(
          [
            ["priority", "In order: the first, then the next"],
            ["volume_split", "Split by shares"],
          ] as const
        ).map(([kind, text]) => (
          <label key={kind} className="check">
            <input
              type="radio"
              name={`${base}-kind`}
              checked={s.kind === kind}
              onChange={() =>
                props.change({
                  kind,
                  rows: kind === "volume_split" && s.rows.length === 1 ? [{ ...s.rows[0]!, split: 100 }] : s.rows,
                })
              }
            />{" "}
            {text}
          </label>
        ))}
      </div>
      {s.rows.map((r, n) => {
        const id = fieldID.output(props.at, n);
        const rowProblem = props.problems.get(id);
        return (
          <div className="row" key={n}>
            <div className="field">
              <label htmlFor={id}>{s.kind === "priority" ? `${ordinal(n)} account` : `Account ${n + 1}`}</label>
              <select
                id={id}
                value={r.choice.merchant_connector_id}
                onChange={(e) => setRow(n, { choice: choiceOf(props.accounts.find((a) => a.merchantConnectorID === e.target.value)) })}
                {...invalid(id, rowProblem)}
              >
                {!r.choice.merchant_connector_id && <option value="">{r.choice.connector || "Choose an account"}</option>}
                {props.accounts.map((a) => (
                  <option key={a.merchantConnectorID} value={a.merchantConnectorID}>
                    {accountName(a)}
                  </option>
                ))}
              </select>
              <Problem id={id} problem={rowProblem} />
            </div>
            {s.kind === "volume_split" && (
              <div className="field">
                <label htmlFor={`${id}-share`}>Share (%)</label>
                <input
                  id={`${id}-share`}
                  type="number"
                  min={1}
                  max={100}
                  step={1}
                  value={r.split}
                  onChange={(e) => setRow(n, { split: Number(e.target.value) })}
                />
              </div>
            )}
            {s.rows.length > 1 && (
              <button type="button" onClick={() => props.change({ ...s, rows: s.rows.filter((_, m) => m !== n) })}>
                Remove account {n + 1}
              </button>
            )}
          </div>
        );
      })}
      <Problem id={base} problem={problem} />
      <div className="row">
        <button type="button" onClick={() => props.change({ ...s, rows: [...s.rows, { choice: choiceOf(props.accounts[0]), split: 0 }] })}>
          Add an account
        </button>
      </div>
    </fieldset>
  );
}
