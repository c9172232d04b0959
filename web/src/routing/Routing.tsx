// The Routing page: a profile's active configuration (the default profile,
// or the one the picker puts in the URL) drawn as a
// picture (a payment's arrows to the accounts it may go to, in order or by
// share; an advanced configuration's rules in words), the configurations
// made so far, forms that build a single, priority or volume-split
// configuration and activate it, the rules editor for advanced ones, a
// "what would route where" box backed by routingEvaluate, and the GSM
// rules that decide retries.
import { Fragment, useState, type FormEvent } from "react";
import { useClient, useMutation, useQuery, type CombinedError } from "urql";
import type { RoutingEvaluateQuery as RoutingEvaluateResult } from "../gql/graphql";
import { useActionKey, useKeyedMutation } from "../developers/actionKey";
import { currencyCodes } from "../lib/currencies.generated";
import { ErrorAlert } from "../layout/ErrorAlert";
import { ProfilePicker, useProfileChoice } from "../layout/ProfilePicker";
import { parseMajor } from "../lib/money";
import { canRun, type Role } from "../lib/roles";
import { fromAlgorithm, programWords } from "./advanced";
import { AdvancedEditor, accountName, withAccounts, type Account, type Opened } from "./AdvancedEditor";
import { pictureOf, priority, problem, single, volumeSplit, type Algorithm, type Choice, type Picture } from "./algorithm";
import { Blocklist } from "./Blocklist";
import { GsmRules } from "./Gsm";
import { ActivateRoutingAlgorithmMutation, CreateRoutingAlgorithmMutation, RoutingEvaluateQuery, RoutingQuery } from "./operations";
import { nodesOf } from "../lib/connection";
import { Table, TimeCell } from "../layout/Table";
import { InputField, SelectField } from "../layout/Field";

export function Routing({ role }: { role: Role }) {
  const [{ data, error, fetching }, refetch] = useQuery({ query: RoutingQuery, requestPolicy: "network-only" });
  const profiles = useProfileChoice(); // the profile in the URL (?profile=pro_…), else the default one
  const profileID = profiles.profileID;
  const all = nodesOf(data?.connectorAccounts);
  // A configuration may choose the profile's enabled payment processors only.
  const accounts: Account[] = all.filter((a) => a.profileID === profileID && !a.disabled && a.connectorType === "payment_processor");
  const algorithms = nodesOf(data?.routingAlgorithms);
  const active = algorithms.find((a) => a.active && a.profileID === profileID);
  const label = (c: Choice) => {
    const a = all.find((x) => x.merchantConnectorID === c.merchant_connector_id);
    return a ? accountName(a) : c.connector || c.merchant_connector_id;
  };
  const activeProgram = active ? fromAlgorithm(active.algorithm) : null;
  const mayConfigure = canRun(role, "createRoutingAlgorithm") && canRun(role, "activateRoutingAlgorithm");
  // The rules editor: closed, open on a new program, or open on a copy of
  // a stored advanced configuration (configurations never change).
  const [editor, setEditor] = useState<{ opened: Opened | null; serial: number } | null>(null);
  const openEditor = (opened: Opened | null) => setEditor((e) => ({ opened, serial: (e?.serial ?? 0) + 1 }));
  const refresh = () => refetch({ requestPolicy: "network-only" });
  return (
    <section aria-labelledby="routing-title">
      <h1 id="routing-title">Routing</h1>
      <ErrorAlert error={error ?? profiles.error} />
      <ProfilePicker choice={profiles} />
      {!data || !profileID ? (
        fetching && <p aria-busy="true">Loading…</p>
      ) : (
        <Fragment key={profileID /* another profile's forms and answers start afresh */}>
          <h2 id="active-title">Active configuration</h2>
          {active ? (
            <>
              <p>
                <strong>{active.name}</strong> <span className="badge">{active.kind}</span>
              </p>
              <RoutingPicture
                picture={pictureOf(active.algorithm, label)}
                rules={activeProgram ? programWords(withAccounts(activeProgram, accounts), label) : undefined}
              />
            </>
          ) : (
            <p data-testid="routing-picture">
              None: payments go by the profile's fallback order, {all.filter((a) => a.profileID === profileID && !a.disabled).map((a) => a.connectorLabel).join(", then ") || "with no account yet"}.
            </p>
          )}
          <Configurations
            algorithms={algorithms.filter((a) => a.profileID === profileID)}
            mayConfigure={mayConfigure}
            open={(a) => {
              const program = fromAlgorithm(a.algorithm);
              if (program) openEditor({ name: a.name, program });
            }}
            done={refresh}
          />
          {mayConfigure && <RoutingForm accounts={accounts} profileID={profileID} done={refresh} />}
          {mayConfigure && accounts.length > 0 && (
            <div>
              {editor ? (
                <AdvancedEditor
                  key={editor.serial}
                  accounts={accounts}
                  profileID={profileID}
                  opened={editor.opened}
                  done={refresh}
                  close={() => setEditor(null)}
                />
              ) : (
                <div className="row">
                  <button type="button" onClick={() => openEditor(null)}>
                    New advanced configuration (rules)
                  </button>
                </div>
              )}
            </div>
          )}
          <Evaluate profileID={profileID} />
          <GsmRules role={role} connectors={[...new Set(all.filter((a) => a.profileID === profileID).map((a) => a.connectorName))]} />
          <Blocklist role={role} />
        </Fragment>
      )}
    </section>
  );
}

const ordinal = (i: number) => ["1st", "2nd", "3rd"][i] ?? `${i + 1}th`;

/** The configuration as boxes and arrows: a payment on the left, an arrow to each account, labelled by share or order. */
export function RoutingPicture({ picture, rules }: { picture: Picture; rules?: string[] | undefined }) {
  const rowH = 56;
  const h = Math.max(1, picture.branches.length) * rowH + 8;
  const mid = h / 2;
  const words = picture.branches
    .map((b, i) =>
      b.share !== undefined ? `${b.share}% to ${b.label}` : picture.kind === "priority" ? `${ordinal(i)} ${b.label}` : b.label,
    )
    .map((w, i) => (picture.branches[i]?.rule ? `${picture.branches[i]!.rule}: ${w}` : w));
  const summary =
    picture.kind === "volume_split"
      ? `Each payment is drawn: ${words.join(", ")}.`
      : picture.kind === "priority"
        ? `Payments try ${words.join(", then ")}.`
        : picture.kind === "single"
          ? `Every payment goes to ${words[0] ?? "nothing"}.`
          : `Rules, in order: ${words.join("; ")}.`;
  return (
    <figure className="routing-picture" data-testid="routing-picture">
      <svg viewBox={`0 0 640 ${h}`} role="img" aria-labelledby="routing-summary">
        <defs>
          <marker id="routing-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse">
            <path d="M 0 0 L 10 5 L 0 10 z" className="arrow-head" />
          </marker>
        </defs>
        <rect x="4" y={mid - 22} width="120" height="44" rx="8" className="box source" />
        <text x="64" y={mid + 5} textAnchor="middle">
          Payment
        </text>
        {picture.branches.map((b, i) => {
          const y = i * rowH + 4 + rowH / 2;
          const tag = b.share !== undefined ? `${b.share}%` : picture.kind === "priority" ? ordinal(i) : (b.rule ?? "");
          return (
            <g key={`${i}-${b.accountID}`}>
              <path d={`M 124 ${mid} C 200 ${mid}, 220 ${y}, 316 ${y}`} className="edge" markerEnd="url(#routing-arrow)" />
              <text x="292" y={y - 8} textAnchor="middle" className="tag">
                {tag}
              </text>
              <rect x="320" y={y - 22} width="316" height="44" rx="8" className="box" />
              <text x="332" y={y + 5}>
                {b.label.length > 40 ? `${b.label.slice(0, 39)}…` : b.label}
              </text>
            </g>
          );
        })}
      </svg>
      {rules ? (
        <figcaption id="routing-summary">
          Rules, in order (the first that holds chooses):
          <ol data-testid="routing-rules">
            {rules.map((r, i) => (
              <li key={i}>{r}</li>
            ))}
          </ol>
        </figcaption>
      ) : (
        <figcaption id="routing-summary">{summary}</figcaption>
      )}
    </figure>
  );
}

interface Stored {
  id: string;
  name: string;
  kind: string;
  active: boolean;
  algorithm: Record<string, unknown>;
  createdAt: string;
}

/**
 * The profile's configurations, newest first: activate one (not a dynamic
 * one, which its profile's dynamic routing switch enables, nor a 3-D Secure
 * decision rule, which POST /three_ds_decision/execute runs by its id and
 * which picks no connector), or open an advanced one in the rules editor.
 */
function Configurations(props: { algorithms: Stored[]; mayConfigure: boolean; open: (a: Stored) => void; done: () => void }) {
  const [state, activate] = useKeyedMutation(ActivateRoutingAlgorithmMutation);
  if (props.algorithms.length === 0) return null;
  const run = async (id: string) => {
    const res = await activate({ id });
    if (res.data) props.done();
  };
  return (
    <section aria-labelledby="configs-title">
      <h2 id="configs-title">Configurations</h2>
      <Table
        labelledBy="configs-title"
        testId="routing-configurations"
        columns={[{ label: "Name" }, { label: "Kind" }, { label: "Made" }, { label: "State" }, ...(props.mayConfigure ? [{ label: "Actions", hidden: true }] : [])]}
      >
        {props.algorithms.map((a) => (
          <tr key={a.id}>
            <td>{a.name}</td>
            <td>{a.kind}</td>
            <TimeCell value={a.createdAt} />
            <td>{a.active ? <strong>active</strong> : "—"}</td>
            {props.mayConfigure && (
              <td>
                <div className="row">
                  {!a.active && a.kind !== "dynamic" && a.kind !== "three_ds_decision_rule" && (
                    <button type="button" onClick={() => run(a.id)} disabled={state.fetching} aria-label={`Activate ${a.name}`}>
                      Activate
                    </button>
                  )}
                  {a.kind === "advanced" && (
                    <button type="button" onClick={() => props.open(a)}>
                      Open<span className="visually-hidden"> {a.name}</span> in the rules editor
                    </button>
                  )}
                </div>
              </td>
            )}
          </tr>
        ))}
      </Table>
      <ErrorAlert error={state.error} />
    </section>
  );
}

type Kind = "single" | "priority" | "volume_split";

function RoutingForm(props: { accounts: Account[]; profileID: string; done: () => void }) {
  const { accounts } = props;
  const first = accounts[0]?.merchantConnectorID ?? "";
  const second = accounts[1]?.merchantConnectorID ?? first;
  const [kind, setKind] = useState<Kind>("volume_split");
  const [name, setName] = useState("");
  const [picked, setPicked] = useState<string[]>([first, second]);
  const [shares, setShares] = useState<number[]>([70, 30]);
  const [created, setCreated] = useState<{ id: string; forAlgorithm: string } | null>(null);
  const [createKey, settleCreate] = useActionKey();
  const [activateKey, settleActivate] = useActionKey();
  const [createState, create] = useMutation(CreateRoutingAlgorithmMutation);
  const [activateState, activate] = useMutation(ActivateRoutingAlgorithmMutation);
  const [message, setMessage] = useState<string | null>(null);
  const choice = (id: string): Choice => {
    const a = accounts.find((x) => x.merchantConnectorID === id);
    return { connector: a?.connectorName ?? "", merchant_connector_id: a ? id : "" };
  };
  const rows = kind === "single" ? picked.slice(0, 1) : picked;
  const names = new Map(accounts.map((a) => [a.merchantConnectorID, accountName(a)]));
  const algorithm: Algorithm =
    kind === "single"
      ? single(choice(picked[0] ?? ""))
      : kind === "priority"
        ? priority(rows.map(choice))
        : volumeSplit(rows.map((id, i) => ({ choice: choice(id), split: shares[i] ?? 0 })));
  const why = problem(algorithm);
  const busy = createState.fetching || activateState.fetching;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || why) return;
    setMessage(null);
    const text = JSON.stringify(algorithm);
    // A configuration made by an earlier send whose activation failed is
    // activated now rather than made again.
    let id = created?.forAlgorithm === text ? created.id : null;
    if (!id) {
      const res = await create({
        input: { name: name.trim() || defaultName(kind, shares, rows.length), profileID: props.profileID || null, algorithm },
        idempotencyKey: createKey,
      });
      settleCreate(res);
      id = res.data?.createRoutingAlgorithm.routingAlgorithm.id ?? null;
      if (!id) return;
      setCreated({ id, forAlgorithm: text });
    }
    const res = await activate({ id, idempotencyKey: activateKey });
    settleActivate(res);
    if (res.data) {
      setCreated(null);
      setName("");
      setMessage("Activated: the next payments route this way.");
      props.done();
    }
  };
  const setRow = (i: number, id: string) => setPicked(picked.map((p, j) => (j === i ? id : p)));
  if (accounts.length === 0) return <p>Add a connector account before configuring routing.</p>;
  return (
    <form className="card" aria-labelledby="routing-form-title" onSubmit={submit}>
      <h2 id="routing-form-title">New configuration</h2>
      <fieldset className="plain">
        <legend>Kind</legend>
        {(
          [
            ["single", "Single: every payment to one account"],
            ["priority", "Priority: the first account, then the next"],
            ["volume_split", "Volume split: shares of the payments"],
          ] as const
        ).map(([k, text]) => (
          <label key={k} className="check">
            <input type="radio" name="routing-kind" value={k} checked={kind === k} onChange={() => setKind(k)} /> {text}
          </label>
        ))}
      </fieldset>
      <InputField id="routing-name" label="Name (empty: named after its kind)" maxLength={64} value={name} onChange={setName} />
      {rows.map((id, i) => (
        <div className="row" key={i}>
          <SelectField
            id={`routing-account-${i}`}
            label={kind === "single" ? "Account" : kind === "priority" ? `${ordinal(i)} choice` : `Account ${i + 1}`}
            value={id}
            onChange={(v) => setRow(i, v)}
            values={accounts.map((a) => a.merchantConnectorID)}
            text={(mca) => names.get(mca) ?? mca}
          />
          {kind === "volume_split" && (
            <InputField
              id={`routing-share-${i}`}
              label={`Share of account ${i + 1} (%)`}
              type="number"
              min={1}
              max={100}
              step={1}
              value={shares[i] ?? 0}
              onChange={(v) => setShares(rows.map((_, j) => (j === i ? Number(v) : (shares[j] ?? 0))))}
            />
          )}
          {kind !== "single" && rows.length > 1 && (
            <button type="button" onClick={() => (setPicked(picked.filter((_, j) => j !== i)), setShares(shares.filter((_, j) => j !== i)))}>
              Remove {kind === "priority" ? ordinal(i) : `account ${i + 1}`}
            </button>
          )}
        </div>
      ))}
      {kind !== "single" && (
        <div className="row">
          <button type="button" onClick={() => (setPicked([...picked, first]), setShares([...shares, 0]))}>
            Add an account
          </button>
        </div>
      )}
      {why && <p className="muted">{why}</p>}
      <ErrorAlert error={createState.error ?? activateState.error} />
      {message && <p role="status">{message}</p>}
      <div className="row">
        <button type="submit" className="primary" disabled={busy || !!why}>
          {busy ? "Please wait…" : "Create and activate"}
        </button>
      </div>
    </form>
  );
}

function defaultName(kind: Kind, shares: number[], n: number): string {
  if (kind === "volume_split") return `Volume split ${shares.slice(0, n).join("/")}`;
  return kind === "single" ? "Single" : "Priority";
}

/** Asks where a payment with the facts typed would go, creating nothing. */
/** The payment methods and card networks an evaluation may ask about. */
const paymentMethods = ["card", "wallet", "pay_later", "bank_redirect", "bank_debit", "bank_transfer", "upi"] as const;
const cardNetworks = ["Visa", "Mastercard", "AmericanExpress", "JCB", "DinersClub", "Discover", "UnionPay"] as const;

function Evaluate({ profileID }: { profileID: string }) {
  const [amount, setAmount] = useState("10.00");
  const [currency, setCurrency] = useState("USD");
  const [method, setMethod] = useState("card");
  const [network, setNetwork] = useState("");
  const [country, setCountry] = useState("");
  const [invalid, setInvalid] = useState<string | null>(null);
  const client = useClient();
  const [answer, setAnswer] = useState<{ data?: RoutingEvaluateResult; error?: CombinedError } | null>(null);
  const [fetching, setFetching] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const minor = parseMajor(amount, currency);
    if (minor === null) {
      setInvalid(`${amount} is not an amount in ${currency}.`);
      return;
    }
    setInvalid(null);
    setFetching(true);
    // Asked anew each time, never from the cache: a volume split draws again.
    const res = await client
      .query(
        RoutingEvaluateQuery,
        {
          profileID: profileID || null,
          payment: { amount: minor, currency, paymentMethod: method, cardNetwork: network || null, billingCountry: country.trim().toUpperCase() || null },
        },
        { requestPolicy: "network-only" },
      )
      .toPromise();
    setFetching(false);
    setAnswer({ ...(res.data ? { data: res.data } : {}), ...(res.error ? { error: res.error } : {}) });
  };
  const error = answer?.error;
  const ev = answer?.data?.routingEvaluate;
  return (
    <form className="card" aria-labelledby="evaluate-title" onSubmit={submit}>
      <h2 id="evaluate-title">What would route where</h2>
      <div className="filter-fields">
        <InputField id="eval-amount" label="Amount" inputMode="decimal" value={amount} onChange={setAmount} />
        <SelectField id="eval-currency" label="Currency" value={currency} onChange={setCurrency} values={currencyCodes} />
        <SelectField id="eval-method" label="Payment method" value={method} onChange={setMethod} values={paymentMethods} />
        <SelectField id="eval-network" label="Card network (optional)" any="any" value={network} onChange={setNetwork} values={cardNetworks} />
        <InputField id="eval-country" label="Billing country (optional, e.g. NL)" maxLength={2} value={country} onChange={setCountry} />
      </div>
      <div className="row">
        <button type="submit" disabled={fetching}>
          Evaluate
        </button>
      </div>
      <ErrorAlert text={invalid} />
      <ErrorAlert error={error} />
      <div role="status" data-testid="routing-answer">
        {ev &&
          (ev.candidates.length === 0 ? (
            <p>No account would take it.</p>
          ) : (
            <>
              <p>
                It would go to <strong>{ev.candidates[0]!.connectorLabel}</strong> ({ev.candidates[0]!.connectorName},{" "}
                <code>{ev.candidates[0]!.merchantConnectorID}</code>)
                {ev.candidates.length > 1 && <>, then {ev.candidates.slice(1).map((c) => c.connectorLabel).join(", then ")}</>}.
              </p>
              <p className="muted">
                Why: {ev.routingApproach}
                {ev.routingKind && `, the active ${ev.routingKind} configuration`}
                {ev.routingRule && `, rule ${ev.routingRule}`}.
              </p>
            </>
          ))}
      </div>
    </form>
  );
}
