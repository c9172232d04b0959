// A profile's webhook settings: the URL, delivery on or off, and which
// event types are sent (none ticked: every type); the signing key is read
// only when an admin asks for it (the schema's webhookSigningKey has an
// empty @hasRole list, which is admins only).
import { useState, type FormEvent } from "react";
import { useQuery } from "urql";
import { errorText } from "../lib/errors";
import { canRun, type Role } from "../lib/roles";
import { CopyField } from "../team/CopyField";
import { useKeyedMutation } from "./actionKey";
import { eventTypes } from "./eventTypes";
import { SigningKeyQuery, UpdateWebhookSettingsMutation } from "./operations";
import { ErrorAlert } from "../layout/ErrorAlert";

export interface ProfileWebhooks {
  id: string;
  profileID: string;
  profileName: string;
  webhookSettings: { webhookURL?: string | null; deliveryEnabled: boolean; enabledEventTypes: string[] };
}

export function Webhooks({ role, profile }: { role: Role; profile: ProfileWebhooks }) {
  const s = profile.webhookSettings;
  const editable = canRun(role, "updateProfileWebhookSettings");
  const [url, setURL] = useState(s.webhookURL ?? "");
  const [enabled, setEnabled] = useState(s.deliveryEnabled);
  const [types, setTypes] = useState<Set<string>>(() => new Set(s.enabledEventTypes));
  const [saved, setSaved] = useState(false);
  const [state, update] = useKeyedMutation(UpdateWebhookSettingsMutation);
  const toggle = (t: string, on: boolean) => {
    const next = new Set(types);
    if (on) next.add(t);
    else next.delete(t);
    setTypes(next);
    setSaved(false);
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (state.fetching) return;
    const input = {
      webhookURL: url.trim(),
      deliveryEnabled: enabled,
      enabledEventTypes: eventTypes.filter((t) => types.has(t)),
    };
    const res = await update({ profileID: profile.profileID, input });
    if (res.data) setSaved(true);
  };
  return (
    <>
      <h2 id="webhooks-title">Webhooks</h2>
      <p className="muted">
        Events of profile {profile.profileName} (<code>{profile.profileID}</code>) are POSTed to this URL, signed with
        the profile's key in <code>X-Webhook-Signature-512</code>.
      </p>
      <form className="card" aria-labelledby="webhooks-title" onSubmit={submit}>
        <fieldset disabled={!editable} className="plain">
          <div className="field">
            <label htmlFor="webhook-url">Webhook URL (empty: none is sent)</label>
            <input
              id="webhook-url"
              type="url"
              value={url}
              placeholder="https://example.com/hooks"
              onChange={(e) => {
                setURL(e.target.value);
                setSaved(false);
              }}
            />
          </div>
          <label className="check">
            <input
              id="webhook-enabled"
              type="checkbox"
              checked={enabled}
              onChange={(e) => {
                setEnabled(e.target.checked);
                setSaved(false);
              }}
            />{" "}
            Deliver events (off: events are still recorded, none is sent)
          </label>
          <details>
            <summary>
              Event types: {types.size === 0 ? "every type" : `${types.size} of ${eventTypes.length}`}
            </summary>
            <fieldset className="types">
              <legend className="visually-hidden">Event types sent (none ticked: every type)</legend>
              {eventTypes.map((t) => (
                <label key={t} className="check">
                  <input type="checkbox" checked={types.has(t)} onChange={(e) => toggle(t, e.target.checked)} /> {t}
                </label>
              ))}
            </fieldset>
          </details>
        </fieldset>
        {state.error && (
          <p className="error" role="alert">
            {errorText(state.error)}
          </p>
        )}
        {editable && (
          <div className="row">
            <button type="submit" className="primary" disabled={state.fetching}>
              {state.fetching ? "Please wait…" : "Save webhook settings"}
            </button>
            {saved && (
              <span role="status" data-testid="webhooks-saved">
                Saved
              </span>
            )}
          </div>
        )}
      </form>
      {role === "ADMIN" && <SigningKey profileID={profile.id} />}
    </>
  );
}

function SigningKey({ profileID }: { profileID: string }) {
  const [shown, setShown] = useState(false);
  const [{ data, error, fetching }] = useQuery({
    query: SigningKeyQuery,
    variables: { id: profileID },
    pause: !shown,
    requestPolicy: "network-only",
  });
  const node = data?.node;
  const value = node && "webhookSigningKey" in node ? node.webhookSigningKey : null;
  return (
    <div className="card">
      <h3 id="signing-key-title">Signing key</h3>
      {shown && value ? (
        <>
          <CopyField label="Webhook signing key" value={value} testId="signing-key" />
          <button type="button" onClick={() => setShown(false)}>
            Hide
          </button>
        </>
      ) : (
        <button type="button" disabled={fetching} onClick={() => setShown(true)}>
          Show signing key
        </button>
      )}
      <ErrorAlert error={error} />
    </div>
  );
}
