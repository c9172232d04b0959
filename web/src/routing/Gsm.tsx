// The Routing page's GSM section: the merchant's Global Status Mapping
// rules (what a connector's error means, above all whether a payment it
// failed is retried on the next connector), listed and filtered by
// connector; developers and admins add one with a form, edit its mutable
// members and delete it after a confirming click. Each change goes with
// its own idempotency key.
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { useMutation, useQuery } from "urql";
import type { GsmRuleErrorCategory, GsmRuleFieldsFragment } from "../gql/graphql";
import { useActionKey } from "../developers/actionKey";
import { ErrorAlert } from "../layout/ErrorAlert";
import { Table } from "../layout/Table";
import { connectorNames } from "../lib/connectors.generated";
import { errorField, errorText } from "../lib/errors";
import { canRun, type Role } from "../lib/roles";
import { changes, valuesOf, type TextKey, type Values } from "./gsm";
import { CreateGsmRuleMutation, DeleteGsmRuleMutation, GsmRulesQuery, UpdateGsmRuleMutation } from "./operations";
import { nodesOf } from "../lib/connection";

type Rule = GsmRuleFieldsFragment;

const categories: GsmRuleErrorCategory[] = [
  "soft_decline",
  "hard_decline",
  "processor_downtime",
  "processor_decline_unauthorized",
  "processor_decline_incorrect_data",
  "issue_with_payment_method",
  "frm_decline",
];

export function GsmRules({ role, connectors }: { role: Role; connectors: string[] }) {
  const [connector, setConnector] = useState("");
  const [{ data, error, fetching }, refetch] = useQuery({
    query: GsmRulesQuery,
    variables: { where: connector ? { connector } : null },
    requestPolicy: "cache-and-network",
  });
  const [form, setForm] = useState<{ mode: "add" } | { mode: "edit"; rule: Rule } | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const [deleteKey, settleDelete] = useActionKey();
  const [deleteState, remove] = useMutation(DeleteGsmRuleMutation);
  const rules = nodesOf(data?.gsmRules);
  const mayChange = canRun(role, "createGsmRule") && canRun(role, "updateGsmRule") && canRun(role, "deleteGsmRule");
  const reload = () => refetch({ requestPolicy: "network-only" });
  const filterChoices = [...new Set([...connectors, ...rules.map((r) => r.connector)])].sort();
  const del = async (r: Rule) => {
    const res = await remove({ id: r.id, idempotencyKey: deleteKey });
    settleDelete(res);
    if (res.data) {
      setConfirming(null);
      setSaid(`Deleted the rule for ${r.connector} ${r.code}.`);
      if (form?.mode === "edit" && form.rule.id === r.id) setForm(null);
      reload();
    }
  };
  return (
    <section aria-labelledby="gsm-title" className="gsm">
      <h2 id="gsm-title">GSM rules (retries)</h2>
      <p className="muted">
        What a connector's error means. With automatic retries on (the profile's setting), a payment that fails with an
        error whose rule says <strong>retry</strong> is tried again on the next account of its route; <strong>do_default</strong>{" "}
        stops there. Hard declines (a stolen card, …) are never retried.
      </p>
      <div className="row">
        <div className="field">
          <label htmlFor="gsm-filter">Connector</label>
          <select id="gsm-filter" value={connector} onChange={(e) => setConnector(e.target.value)}>
            <option value="">All connectors</option>
            {filterChoices.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </div>
      </div>
      <ErrorAlert error={error} />
      <Table
        caption={`GSM rules${connector ? ` of ${connector}` : ""}`}
        testId="gsm-rules"
        columns={[{ label: "Connector" }, { label: "Flow" }, { label: "Code" }, { label: "Message" }, { label: "Decision" }, { label: "Status" }, { label: "Unified code" }, ...(mayChange ? [{ label: "Actions", hidden: true }] : [])]}
        empty={rules.length === 0 && (fetching ? "Loading…" : "No GSM rule yet.")}
      >
        {rules.map((r) => (
          <tr key={r.id} data-testid={`gsm-${r.id}`}>
            <td>{r.connector}</td>
            <td>
              {r.flow} / {r.subFlow}
            </td>
            <td>
              <code>{r.code}</code>
            </td>
            <td className="wrap">{r.message}</td>
            <td>
              <span className={`status ${r.decision === "retry" ? "good" : "neutral"}`}>{r.decision}</span>
              {r.stepUpPossible && <span className="badge">step-up</span>}
            </td>
            <td>{r.status}</td>
            <td>{r.unifiedCode ?? "—"}</td>
            {mayChange && (
              <td>
                {confirming === r.id ? (
                  <div className="row" role="group" aria-label={`Delete the rule for ${r.connector} ${r.code}?`}>
                    <span>Delete it?</span>
                    {/* The question takes the focus from the Delete button it replaced. */}
                    <button type="button" className="danger" onClick={() => del(r)} disabled={deleteState.fetching} autoFocus>
                      Delete the rule
                    </button>
                    <button type="button" onClick={() => setConfirming(null)}>
                      Keep it
                    </button>
                  </div>
                ) : (
                  <div className="row">
                    <button type="button" onClick={() => (setSaid(null), setForm({ mode: "edit", rule: r }))} aria-label={`Edit the rule for ${r.connector} ${r.code}`}>
                      Edit
                    </button>
                    <button type="button" onClick={() => (setSaid(null), setConfirming(r.id))} aria-label={`Delete the rule for ${r.connector} ${r.code}`}>
                      Delete
                    </button>
                  </div>
                )}
              </td>
            )}
          </tr>
        ))}
      </Table>
      <ErrorAlert error={deleteState.error} />
      {said && <p role="status">{said}</p>}
      {mayChange && !form && (
        <div className="row">
          <button type="button" onClick={() => (setSaid(null), setForm({ mode: "add" }))}>
            Add a GSM rule
          </button>
        </div>
      )}
      {mayChange && form && (
        <GsmForm
          key={form.mode === "edit" ? form.rule.id : "add"}
          rule={form.mode === "edit" ? form.rule : null}
          connectors={connectors}
          close={() => setForm(null)}
          saved={(text) => {
            setSaid(text);
            setForm(null);
            reload();
          }}
        />
      )}
    </section>
  );
}

function GsmForm(props: { rule: Rule | null; connectors: string[]; close: () => void; saved: (text: string) => void }) {
  const editing = props.rule;
  const before = editing ? valuesOf(editing, props.connectors) : null;
  const [v, setV] = useState<Values>(() => valuesOf(editing, props.connectors));
  const [key, settle] = useActionKey();
  const [createState, create] = useMutation(CreateGsmRuleMutation);
  const [updateState, update] = useMutation(UpdateGsmRuleMutation);
  const state = editing ? updateState : createState;
  // Opened, the form takes the focus from the button that opened it.
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => title.current?.focus(), []);
  const at = errorField(state.error);
  const fieldError = at && at in v ? { field: at, text: errorText(state.error) } : null;
  const set = <K extends keyof Values>(k: K, value: Values[K]) => setV((x) => ({ ...x, [k]: value }));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (state.fetching) return;
    const res = editing
      ? await update({ id: editing.id, input: changes(v, before), idempotencyKey: key })
      : await create({
          input: { ...changes(v, null), connector: v.connector, flow: v.flow, subFlow: v.sub_flow, code: v.code, message: v.message, status: v.status, decision: v.decision },
          idempotencyKey: key,
        });
    settle(res);
    if (res.data) props.saved(editing ? `Saved the rule for ${v.connector} ${v.code}.` : `Added a rule for ${v.connector} ${v.code}.`);
    else {
      const f = errorField(res.error);
      if (f) document.getElementById(`gsm-${f}`)?.focus();
    }
  };
  const field = (k: keyof Values, label: string, control: (p: { id: string; "aria-invalid"?: true; "aria-describedby"?: string }) => ReactNode, hint?: string) => {
    const id = `gsm-${k}`;
    const bad = fieldError?.field === k;
    const described = [hint ? `${id}-hint` : "", bad ? `${id}-error` : ""].filter(Boolean).join(" ");
    return (
      <div className="field">
        <label htmlFor={id}>{label}</label>
        {control({ id, ...(bad ? { "aria-invalid": true as const } : {}), ...(described ? { "aria-describedby": described } : {}) })}
        {hint && (
          <small id={`${id}-hint`} className="muted">
            {hint}
          </small>
        )}
        {bad && (
          <p className="error field-error" id={`${id}-error`}>
            {fieldError.text}
          </p>
        )}
      </div>
    );
  };
  const text = (k: TextKey, label: string, hint?: string, max?: number) =>
    field(k, label, (p) => <input {...p} maxLength={max} value={String(v[k])} onChange={(e) => set(k, e.target.value)} />, hint);
  const check = (k: "step_up_possible" | "clear_pan_possible" | "alternate_network_possible", label: string) => (
    <label className="check">
      <input type="checkbox" id={`gsm-${k}`} checked={v[k]} onChange={(e) => set(k, e.target.checked)} /> {label}
    </label>
  );
  const own = [...new Set(props.connectors)].sort();
  return (
    <form className="card gsm-form" aria-labelledby="gsm-form-title" onSubmit={submit}>
      <h3 id="gsm-form-title" tabIndex={-1} ref={title}>{editing ? `Edit the rule for ${editing.connector} ${editing.code}` : "New GSM rule"}</h3>
      {editing ? (
        <dl className="facts">
          <dt>Connector</dt>
          <dd>{editing.connector}</dd>
          <dt>Flow</dt>
          <dd>
            {editing.flow} / {editing.subFlow}
          </dd>
          <dt>Code</dt>
          <dd>
            <code>{editing.code}</code>
          </dd>
          <dt>Message</dt>
          <dd>{editing.message}</dd>
        </dl>
      ) : (
        <div className="filter-fields">
          {field("connector", "Connector", (p) => (
            <select {...p} value={v.connector} onChange={(e) => set("connector", e.target.value)}>
              {own.length > 0 && (
                <optgroup label="This merchant's connectors">
                  {own.map((c) => (
                    <option key={c}>{c}</option>
                  ))}
                </optgroup>
              )}
              <optgroup label="Every connector">
                {connectorNames
                  .filter((c) => !own.includes(c))
                  .map((c) => (
                    <option key={c}>{c}</option>
                  ))}
              </optgroup>
            </select>
          ))}
          {text("flow", "Flow", "Authorize for a payment's authorization.", 64)}
          {text("sub_flow", "Sub-flow", "sub_flow for an authorization.", 64)}
          {text("code", "Error code", "As the connector gives it, e.g. processing_error.", 255)}
          {text("message", "Error message", "Exactly as the failed attempt shows it.")}
        </div>
      )}
      <fieldset className="plain" aria-describedby={fieldError?.field === "decision" ? "gsm-decision-error" : undefined}>
        <legend>Decision</legend>
        <div className="checks">
          <label className="check">
            <input type="radio" name="gsm-decision" id="gsm-decision" checked={v.decision === "retry"} onChange={() => set("decision", "retry")} /> retry:
            try the next connector
          </label>
          <label className="check">
            <input type="radio" name="gsm-decision" checked={v.decision === "do_default"} onChange={() => set("decision", "do_default")} />{" "}
            do_default: do not retry
          </label>
        </div>
        {fieldError?.field === "decision" && (
          <p className="error field-error" id="gsm-decision-error">
            {fieldError.text}
          </p>
        )}
      </fieldset>
      {check("step_up_possible", "Step-up: retry the same connector with 3-D Secure first")}
      <div className="filter-fields">
        {text("status", "Status", "What the error means, e.g. failure.", 64)}
        {text("unified_code", "Unified code", "Shown on the failed attempt, e.g. UE_9000.", 255)}
        {text("unified_message", "Unified message", undefined, 1024)}
        {field("error_category", "Error category", (p) => (
          <select {...p} value={v.error_category} onChange={(e) => set("error_category", e.target.value)}>
            <option value="">none</option>
            {categories.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        ))}
      </div>
      <details>
        <summary>More fields</summary>
        <div className="filter-fields">
          {text("standardised_code", "Standardised code", "One of Hyperswitch's, e.g. issuer_unavailable.", 64)}
          {text("router_error", "Router error", undefined, 255)}
          {text("description", "Description")}
          {text("user_guidance_message", "Guidance for the customer")}
        </div>
        {check("clear_pan_possible", "Clear PAN possible")}
        {check("alternate_network_possible", "Alternate network possible")}
      </details>
      {state.error && !fieldError && <ErrorAlert error={state.error} />}
      {fieldError && (
        <p className="error" role="alert">
          The server refused the rule: see the field marked.
        </p>
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={state.fetching}>
          {state.fetching ? "Please wait…" : editing ? "Save the rule" : "Add the rule"}
        </button>
        <button type="button" onClick={props.close}>
          Cancel
        </button>
      </div>
    </form>
  );
}
