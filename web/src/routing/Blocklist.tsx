// The Routing page's blocklist section: the card BINs, extended BINs and
// card fingerprints the merchant refuses, and the guard that makes a
// confirm refuse them. Operators and above add and remove entries and turn
// the guard on or off; each change goes with its own idempotency key.
import { useState, type FormEvent } from "react";
import { useQuery } from "urql";
import type { BlocklistEntryType } from "../gql/graphql";
import { useKeyedMutation } from "../developers/actionKey";
import { ErrorAlert } from "../layout/ErrorAlert";
import { SubmitRow } from "../layout/SubmitRow";
import { Table, TimeCell } from "../layout/Table";
import { nodesOf } from "../lib/connection";
import { errorText } from "../lib/errors";
import { canRun, type Role } from "../lib/roles";
import { AddBlocklistEntryMutation, BlocklistQuery, RemoveBlocklistEntryMutation, SetBlocklistGuardMutation } from "./blocklistOperations";

const kinds: { type: BlocklistEntryType; label: string }[] = [
  { type: "card_bin", label: "Card BIN (6 digits)" },
  { type: "extended_card_bin", label: "Extended BIN (8 digits)" },
  { type: "fingerprint", label: "Card fingerprint" },
];

/** The entry type a listed data kind was added as. */
const typeOf = (kind: string): BlocklistEntryType => (kind === "payment_method" ? "fingerprint" : (kind as BlocklistEntryType));

export function Blocklist({ role }: { role: Role }) {
  const [{ data, error, fetching }, refetch] = useQuery({ query: BlocklistQuery, requestPolicy: "cache-and-network" });
  const [type, setType] = useState<BlocklistEntryType>("card_bin");
  const [value, setValue] = useState("");
  const [addState, add] = useKeyedMutation(AddBlocklistEntryMutation);
  const [removeState, remove] = useKeyedMutation(RemoveBlocklistEntryMutation);
  const [guardState, setGuard] = useKeyedMutation(SetBlocklistGuardMutation);
  const entries = nodesOf(data?.blocklistEntries);
  const guardOn = data?.merchantAccount?.blocklistGuardEnabled ?? false;
  const mayChange = canRun(role, "addBlocklistEntry");
  const reload = () => refetch({ requestPolicy: "network-only" });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (addState.fetching) return;
    const res = await add({ input: { type, data: value.trim() } });
    if (res.data) {
      setValue("");
      reload();
    }
  };
  const unblock = async (kind: string, fingerprintID: string) => {
    const res = await remove({ input: { type: typeOf(kind), data: fingerprintID } });
    if (res.data) reload();
  };
  const toggle = async () => {
    const res = await setGuard({ enabled: !guardOn });
    if (res.data) reload();
  };
  return (
    <section aria-labelledby="blocklist-title" className="blocklist">
      <h2 id="blocklist-title">Blocklist</h2>
      <p className="muted">
        Cards refused at confirm while the guard is on: by BIN, extended BIN or card fingerprint (a saved card's
        fingerprint). A refused payment fails with HE_03 before any connector is called.
      </p>
      <p data-testid="blocklist-guard">
        Guard: <strong>{guardOn ? "on" : "off"}</strong>{" "}
        {mayChange && (
          <button type="button" onClick={toggle} disabled={guardState.fetching}>
            {guardOn ? "Turn the guard off" : "Turn the guard on"}
          </button>
        )}
      </p>
      <ErrorAlert error={error} />
      {errorText(guardState.error) && <p role="alert">{errorText(guardState.error)}</p>}
      {errorText(removeState.error) && <p role="alert">{errorText(removeState.error)}</p>}
      <Table
        caption="Blocklist entries"
        testId="blocklist-entries"
        busy={fetching}
        empty={data && entries.length === 0 ? "Nothing is blocked." : null}
        columns={[{ label: "Blocked" }, { label: "Kind" }, { label: "Added" }, { label: "Actions" }]}
      >
        {entries.map((e) => (
          <tr key={e.id}>
            <td>
              <code>{e.fingerprintID}</code>
            </td>
            <td>{e.dataKind}</td>
            <TimeCell value={e.createdAt} />
            <td>
              {mayChange && (
                <button type="button" onClick={() => unblock(e.dataKind, e.fingerprintID)} disabled={removeState.fetching}>
                  Unblock
                </button>
              )}
            </td>
          </tr>
        ))}
      </Table>
      {mayChange && (
        <form className="card" aria-labelledby="blocklist-add-title" onSubmit={submit}>
          <h3 id="blocklist-add-title">Block a card</h3>
          <div className="field">
            <label htmlFor="blocklist-type">What</label>
            <select id="blocklist-type" value={type} onChange={(e) => setType(e.target.value as BlocklistEntryType)}>
              {kinds.map((k) => (
                <option key={k.type} value={k.type}>
                  {k.label}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="blocklist-data">Value</label>
            <input id="blocklist-data" required maxLength={64} value={value} onChange={(e) => setValue(e.target.value)} />
          </div>
          <SubmitRow label="Block" busy={addState.fetching} error={addState.error} />
        </form>
      )}
    </section>
  );
}
