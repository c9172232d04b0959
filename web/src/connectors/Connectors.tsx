// The Connectors page: the merchant's connector accounts (credentials
// masked as the API answers them), a form to add one (credentials entered
// once and never shown again), and, for the roles the schema lets, each
// account's payment methods, its enabled state and its sandbox failure
// knobs (metadata.sandbox, docs/sandbox.md).
import { useState, type FormEvent } from "react";
import { useQuery } from "urql";
import { useKeyedMutation } from "../developers/actionKey";
import { connectorNames } from "../lib/connectors.generated";
import { ErrorAlert } from "../layout/ErrorAlert";
import { canRun, type Role } from "../lib/roles";
import { knobsOf, metadataWith, methodsFor, enabledKeys, offeredKeys, type MethodFamily, type SandboxKnobs } from "./methods";
import { ConnectorsQuery, CreateConnectorAccountMutation, UpdateConnectorAccountMutation } from "./operations";
import { nodesOf } from "../lib/connection";
import { SubmitRow } from "../layout/SubmitRow";
import { InputField, SelectField } from "../layout/Field";

export interface Account {
  id: string;
  merchantConnectorID: string;
  connectorName: string;
  connectorLabel: string;
  connectorType: string;
  profileID: string;
  status: string;
  disabled: boolean;
  testMode: boolean;
  metadata?: Record<string, unknown> | null;
  connectorAccountDetails?: Record<string, unknown> | null;
  paymentMethodsEnabled?: Record<string, unknown>[] | null;
}

export function Connectors({ role }: { role: Role }) {
  const [{ data, error, fetching }, refetch] = useQuery({ query: ConnectorsQuery, requestPolicy: "network-only" });
  const accounts: Account[] = nodesOf(data?.connectorAccounts);
  const profiles = nodesOf(data?.merchantAccount?.profiles);
  const profileName = (id: string) => profiles.find((p) => p.profileID === id)?.profileName ?? id;
  const changed = () => refetch({ requestPolicy: "network-only" });
  const canEdit = canRun(role, "updateConnectorAccount");
  return (
    <section aria-labelledby="connectors-title">
      <h1 id="connectors-title">Connectors</h1>
      <ErrorAlert error={error} />
      {!data ? (
        fetching && <p aria-busy="true">Loading…</p>
      ) : (
        <>
          {accounts.length === 0 && <p>No connector account yet.</p>}
          {accounts.map((a) => (
            <AccountCard key={a.id} account={a} profileName={profileName(a.profileID)} canEdit={canEdit} changed={changed} />
          ))}
          {canRun(role, "createConnectorAccount") && (
            <AddConnector profiles={profiles} defaultProfileID={data.merchantAccount?.defaultProfileID ?? ""} changed={changed} />
          )}
        </>
      )}
    </section>
  );
}

function AccountCard(props: { account: Account; profileName: string; canEdit: boolean; changed: () => void }) {
  const a = props.account;
  const titleID = `mca-${a.id}`;
  const details = Object.entries(a.connectorAccountDetails ?? {});
  return (
    <article className="card" aria-labelledby={titleID} data-testid={`connector-${a.merchantConnectorID}`}>
      <h2 id={titleID}>
        {a.connectorLabel} <span className="badge">{a.disabled ? "disabled" : "enabled"}</span>
      </h2>
      <dl className="facts">
        <dt>Connector</dt>
        <dd>{a.connectorName}</dd>
        <dt>Account id</dt>
        <dd>
          <code>{a.merchantConnectorID}</code>
        </dd>
        <dt>Profile</dt>
        <dd>{props.profileName}</dd>
        <dt>Status</dt>
        <dd>{a.status}</dd>
        <dt>Mode</dt>
        <dd>{a.testMode ? "test" : "live"}</dd>
        {details.map(([k, v]) => (
          <FactRow key={k} label={k} value={typeof v === "string" ? v : JSON.stringify(v)} />
        ))}
      </dl>
      {props.canEdit ? (
        <>
          <EnableToggle account={a} changed={props.changed} />
          <MethodsForm account={a} changed={props.changed} />
          <SandboxForm account={a} changed={props.changed} />
        </>
      ) : (
        <p>Payment methods: {[...enabledKeys(a.paymentMethodsEnabled as MethodFamily[] | null)].join(", ") || "none"}</p>
      )}
    </article>
  );
}

function FactRow({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>
        <code>{value}</code>
      </dd>
    </>
  );
}

/** One update of an account, under its own idempotency key. */
function useUpdate(account: Account, changed: () => void) {
  const [state, update] = useKeyedMutation(UpdateConnectorAccountMutation);
  const send = async (input: Omit<Parameters<typeof update>[0]["input"], "connectorType">) => {
    if (state.fetching) return false;
    const res = await update({ id: account.merchantConnectorID, input: { connectorType: account.connectorType, ...input } });
    if (res.data) changed();
    return !!res.data;
  };
  return { state, send };
}

function EnableToggle({ account, changed }: { account: Account; changed: () => void }) {
  const { state, send } = useUpdate(account, changed);
  return (
    <div className="row">
      <button type="button" disabled={state.fetching} onClick={() => send({ disabled: !account.disabled })}>
        {account.disabled ? `Enable ${account.connectorLabel}` : `Disable ${account.connectorLabel}`}
      </button>
      <ErrorAlert error={state.error} />
    </div>
  );
}

function MethodsForm({ account, changed }: { account: Account; changed: () => void }) {
  const current = account.paymentMethodsEnabled as MethodFamily[] | null | undefined;
  const [ticked, setTicked] = useState(() => enabledKeys(current));
  const { state, send } = useUpdate(account, changed);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    await send({ paymentMethodsEnabled: methodsFor(current, ticked) as unknown as Record<string, unknown>[] });
  };
  return (
    <form onSubmit={submit} aria-label={`Payment methods of ${account.connectorLabel}`}>
      <fieldset>
        <legend>Payment methods</legend>
        <MethodBoxes idPrefix={account.id} offered={offeredKeys(current)} ticked={ticked} setTicked={setTicked} />
      </fieldset>
      <ErrorAlert error={state.error} />
      <button type="submit" disabled={state.fetching}>
        Save payment methods
      </button>
    </form>
  );
}

function MethodBoxes(props: { idPrefix: string; offered: string[]; ticked: Set<string>; setTicked: (s: Set<string>) => void }) {
  return (
    <div className="checks">
      {props.offered.map((k) => (
        <label key={k} className="check">
          <input
            type="checkbox"
            name={`${props.idPrefix}-${k}`}
            checked={props.ticked.has(k)}
            onChange={(e) => {
              const next = new Set(props.ticked);
              if (e.target.checked) next.add(k);
              else next.delete(k);
              props.setTicked(next);
            }}
          />{" "}
          {k.replace("/", ": ")}
        </label>
      ))}
    </div>
  );
}

function SandboxForm({ account, changed }: { account: Account; changed: () => void }) {
  const [k, setK] = useState<SandboxKnobs>(() => knobsOf(account.metadata));
  const { state, send } = useUpdate(account, changed);
  const id = (m: string) => `${account.id}-${m}`;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    await send({ metadata: metadataWith(account.metadata, k) });
  };
  const on = knobsOf(account.metadata);
  const active = on.outage || on.timeout || on.failureRate > 0;
  return (
    <form onSubmit={submit} aria-label={`Sandbox failures of ${account.connectorLabel}`}>
      <fieldset>
        <legend>Sandbox failures ({active ? "on" : "off"})</legend>
        <div className="field">
          <label htmlFor={id("rate")}>Share of payments that fail (%)</label>
          <input
            id={id("rate")}
            type="number"
            min={0}
            max={100}
            step={1}
            value={Math.round(k.failureRate * 100)}
            onChange={(e) => setK({ ...k, failureRate: Math.min(100, Math.max(0, Number(e.target.value) || 0)) / 100 })}
          />
        </div>
        <div className="field">
          <label htmlFor={id("code")}>Their error code (empty: processing_error)</label>
          <input id={id("code")} maxLength={64} value={k.errorCode} onChange={(e) => setK({ ...k, errorCode: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor={id("message")}>Their error message (empty: the sandbox's)</label>
          <input id={id("message")} maxLength={255} value={k.errorMessage} onChange={(e) => setK({ ...k, errorMessage: e.target.value })} />
        </div>
        <label>
          <input type="checkbox" checked={k.outage} onChange={(e) => setK({ ...k, outage: e.target.checked })} /> Outage: every
          payment fails
        </label>
        <label>
          <input type="checkbox" checked={k.timeout} onChange={(e) => setK({ ...k, timeout: e.target.checked })} /> Timeout: the
          connector does not answer
        </label>
      </fieldset>
      <ErrorAlert error={state.error} />
      <div className="row">
        <button type="submit" disabled={state.fetching}>
          Save sandbox failures
        </button>
        <button
          type="button"
          disabled={state.fetching || !active}
          onClick={async () => {
            const off = { failureRate: 0, errorCode: "", errorMessage: "", outage: false, timeout: false };
            if (await send({ metadata: metadataWith(account.metadata, off) })) setK(off);
          }}
        >
          Turn failures off
        </button>
      </div>
    </form>
  );
}

/** A credential pair typed into the form; the values are sent once and never shown again. */
interface Credential {
  name: string;
  value: string;
}

/** The connector_account_details auth_type a new account may have. */
const authTypes = ["HeaderKey", "BodyKey", "SignatureKey", "MultiAuthKey", "NoKey"] as const;

function AddConnector(props: { profiles: { profileID: string; profileName: string }[]; defaultProfileID: string; changed: () => void }) {
  const [name, setName] = useState("stripe_test");
  const [label, setLabel] = useState("");
  const [profileID, setProfileID] = useState(props.defaultProfileID);
  const [authType, setAuthType] = useState("HeaderKey");
  const profileNames = new Map(props.profiles.map((p) => [p.profileID, p.profileName]));
  const [creds, setCreds] = useState<Credential[]>([{ name: "api_key", value: "" }]);
  const [ticked, setTicked] = useState(() => enabledKeys(methodsFor([], new Set(["card/credit", "card/debit"]))));
  const [added, setAdded] = useState<string | null>(null);
  const [state, create] = useKeyedMutation(CreateConnectorAccountMutation);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (state.fetching) return;
    const details: Record<string, string> = { auth_type: authType };
    for (const c of creds) if (c.name.trim()) details[c.name.trim()] = c.value;
    const res = await create({
      input: {
        connectorType: "payment_processor",
        connectorName: name,
        connectorLabel: label.trim() || null,
        profileID: profileID || null,
        connectorAccountDetails: details,
        paymentMethodsEnabled: methodsFor([], ticked) as unknown as Record<string, unknown>[],
        testMode: true,
      },
    });
    const out = res.data?.createConnectorAccount.connectorAccount;
    if (out) {
      // The credentials leave the page: the API shows them masked only.
      setCreds(creds.map((c) => ({ ...c, value: "" })));
      setLabel("");
      setAdded(out.connectorLabel);
      props.changed();
    }
  };
  return (
    <form className="card" aria-labelledby="add-connector-title" onSubmit={submit}>
      <h2 id="add-connector-title">Add a connector account</h2>
      {added && (
        <p role="status">
          Added {added}. Its credentials are kept sealed and shown masked only.
        </p>
      )}
      <SelectField id="connector-name" label="Connector" value={name} onChange={setName} values={connectorNames} />
      <InputField id="connector-label" label="Label (empty: profile name and connector)" maxLength={255} value={label} onChange={setLabel} />
      {props.profiles.length > 1 && (
        <SelectField
          id="connector-profile"
          label="Profile"
          value={profileID}
          onChange={setProfileID}
          values={props.profiles.map((p) => p.profileID)}
          text={(id) => profileNames.get(id) ?? id}
        />
      )}
      <fieldset>
        <legend>Credentials (entered once, never shown again)</legend>
        <SelectField id="connector-auth" label="Authentication type" value={authType} onChange={setAuthType} values={authTypes} />
        {creds.map((c, i) => {
          const set = (k: "name" | "value") => (v: string) => setCreds(creds.map((x, j) => (j === i ? { ...x, [k]: v } : x)));
          return (
            <div className="row" key={i}>
              <InputField id={`cred-name-${i}`} label="Field" value={c.name} onChange={set("name")} />
              <InputField id={`cred-value-${i}`} label="Value" type="password" autoComplete="off" value={c.value} onChange={set("value")} />
            </div>
          );
        })}
        <button type="button" onClick={() => setCreds([...creds, { name: "", value: "" }])}>
          Add a credential field
        </button>
      </fieldset>
      <fieldset>
        <legend>Payment methods</legend>
        <MethodBoxes idPrefix="new" offered={offeredKeys([])} ticked={ticked} setTicked={setTicked} />
      </fieldset>
      <SubmitRow label="Add connector account" busy={state.fetching} error={state.error} />
    </form>
  );
}
