// API keys: the publishable key, the secret keys by name and prefix (the
// secret itself is shown once, when made or rolled, as the API shows it
// once), and create, roll (the old key working for a grace period) and
// revoke, for the roles the schema lets (admins and developers).
import { useState, type FormEvent } from "react";
import { errorText } from "../lib/errors";
import { canRun, type Role } from "../lib/roles";
import { Table, TimeCell } from "../layout/Table";
import { useFormatInstant } from "../layout/TimeZone";
import { CopyField } from "../team/CopyField";
import { useKeyedMutation } from "./actionKey";
import { CreateApiKeyMutation, RevokeApiKeyMutation, RollApiKeyMutation } from "./operations";
import { SubmitRow } from "../layout/SubmitRow";

export interface ApiKeyRow {
  id: string;
  keyID: string;
  name: string;
  description?: string | null;
  prefix: string;
  createdAt: string;
  expiresAt?: string | null;
  revokedAt?: string | null;
}

/** A secret just made: its name and the key, shown this once. */
interface Secret {
  name: string;
  key: string;
  note?: string;
}

const graceChoices = [
  { seconds: 0, label: "None: the old key stops now" },
  { seconds: 3600, label: "1 hour" },
  { seconds: 86400, label: "24 hours" },
];

export function ApiKeys(props: { role: Role; publishableKey: string; keys: ApiKeyRow[]; changed: () => void }) {
  const { role } = props;
  const [secret, setSecret] = useState<Secret | null>(null);
  const formatDate = useFormatInstant();
  const now = Date.now();
  const state = (k: ApiKeyRow) =>
    k.revokedAt ? "revoked" : k.expiresAt && Date.parse(k.expiresAt) <= now ? "expired" : k.expiresAt ? `until ${formatDate(k.expiresAt)}` : "active";
  const live = (k: ApiKeyRow) => !k.revokedAt && !(k.expiresAt && Date.parse(k.expiresAt) <= now);
  const made = (s: Secret) => {
    setSecret(s);
    props.changed();
  };
  return (
    <>
      <h2 id="keys-title">API keys</h2>
      <dl className="facts">
        <dt>Publishable key</dt>
        <dd>
          <code data-testid="publishable-key">{props.publishableKey}</code>
        </dd>
      </dl>
      <p className="muted">
        The publishable key goes in the browser (the checkout SDK); secret keys stay on your servers, in the{" "}
        <code>api-key</code> header of REST calls.
      </p>
      {secret && (
        <section className="card notice" aria-labelledby="secret-title" role="status">
          <h3 id="secret-title">New secret key: {secret.name}</h3>
          <p>Copy it now: it is not shown again.{secret.note ? ` ${secret.note}` : ""}</p>
          <CopyField label="Secret key" value={secret.key} testId="new-secret-key" />
          <button type="button" onClick={() => setSecret(null)}>
            I have copied it
          </button>
        </section>
      )}
      <Table
        labelledBy="keys-title"
        testId="api-keys"
        columns={[{ label: "Name" }, { label: "Key" }, { label: "Created" }, { label: "State" }, { label: "Actions" }]}
      >
        {props.keys.map((k) => (
          <tr key={k.id}>
            <td>
              {k.name}
              {k.description && <div className="muted">{k.description}</div>}
            </td>
            <td>
              <code>{k.prefix}…</code>
            </td>
            <TimeCell value={k.createdAt} />
            <td>{state(k)}</td>
            <td>{live(k) && <KeyActions role={role} apiKey={k} made={made} changed={props.changed} />}</td>
          </tr>
        ))}
      </Table>
      {canRun(role, "createApiKey") && <CreateKey made={made} />}
    </>
  );
}

function CreateKey({ made }: { made: (s: Secret) => void }) {
  const [name, setName] = useState("");
  const [expires, setExpires] = useState("");
  const [state, create] = useKeyedMutation(CreateApiKeyMutation);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (state.fetching) return;
    const expiration = expires ? new Date(`${expires}T00:00:00`).toISOString() : "never";
    const res = await create({ input: { name: name.trim(), expiration } });
    const out = res.data?.createApiKey;
    if (out) {
      setName("");
      setExpires("");
      made({ name: out.apiKey.name, key: out.key });
    }
  };
  return (
    <form className="card" aria-labelledby="create-key-title" onSubmit={submit}>
      <h3 id="create-key-title">Create a secret key</h3>
      <div className="field">
        <label htmlFor="key-name">Name</label>
        <input id="key-name" required maxLength={64} value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="key-expires">Expires on (empty: never)</label>
        <input id="key-expires" type="date" value={expires} onChange={(e) => setExpires(e.target.value)} />
      </div>
      <SubmitRow label="Create key" busy={state.fetching} error={state.error} />
    </form>
  );
}

function KeyActions(props: { role: Role; apiKey: ApiKeyRow; made: (s: Secret) => void; changed: () => void }) {
  const { apiKey } = props;
  const [open, setOpen] = useState<"roll" | "revoke" | null>(null);
  const [grace, setGrace] = useState(3600);
  const formatDate = useFormatInstant();
  // Each its own key: rolling and revoking are different actions.
  const [rollState, roll] = useKeyedMutation(RollApiKeyMutation);
  const [revokeState, revoke] = useKeyedMutation(RevokeApiKeyMutation);
  const busy = rollState.fetching || revokeState.fetching;
  const start = (a: "roll" | "revoke") => setOpen(a);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || !open) return;
    if (open === "roll") {
      const res = await roll({ id: apiKey.keyID, gracePeriodSeconds: grace });
      const out = res.data?.rollApiKey;
      if (!out) return;
      const until = out.previous.expiresAt;
      props.made({
        name: out.apiKey.name,
        key: out.key,
        note: until ? `The old key works until ${formatDate(until)}.` : "The old key has stopped working.",
      });
    } else {
      const res = await revoke({ id: apiKey.keyID });
      if (!res.data) return;
      props.changed();
    }
    setOpen(null);
  };
  const canRoll = canRun(props.role, "rollApiKey");
  const canRevoke = canRun(props.role, "revokeApiKey");
  if (!canRoll && !canRevoke) return null;
  const error = errorText(rollState.error) ?? errorText(revokeState.error);
  return (
    <div className="actions">
      <div role="group" aria-label={`Actions on ${apiKey.name}`}>
        {canRoll && (
          <button type="button" aria-expanded={open === "roll"} onClick={() => start("roll")}>
            Roll
          </button>
        )}
        {canRevoke && (
          <button type="button" aria-expanded={open === "revoke"} onClick={() => start("revoke")}>
            Revoke
          </button>
        )}
      </div>
      {open && (
        <form className="card" onSubmit={submit} aria-label={`${open === "roll" ? "Roll" : "Revoke"} ${apiKey.name}`}>
          {open === "roll" ? (
            <div className="field">
              <label htmlFor={`grace-${apiKey.id}`}>The old key keeps working for</label>
              <select id={`grace-${apiKey.id}`} value={grace} onChange={(e) => setGrace(Number(e.target.value))}>
                {graceChoices.map((g) => (
                  <option key={g.seconds} value={g.seconds}>
                    {g.label}
                  </option>
                ))}
              </select>
            </div>
          ) : (
            <p>Revoke {apiKey.name}? Requests with it are refused at once.</p>
          )}
          <SubmitRow label={open === "roll" ? "Roll key" : "Revoke key"} busy={busy} text={error} onClose={() => setOpen(null)} />
        </form>
      )}
    </div>
  );
}
