// The Developers page: API keys, the default profile's webhook settings
// and signing key, and the event log with its delivery attempts.
import { useQuery } from "urql";
import { errorText } from "../lib/errors";
import type { Role } from "../lib/roles";
import { ApiKeys } from "./ApiKeys";
import { EventLog } from "./EventLog";
import { DevelopersQuery } from "./operations";
import { Webhooks } from "./Webhooks";

export function Developers({ role }: { role: Role }) {
  const [{ data, error, fetching }, refetch] = useQuery({ query: DevelopersQuery, requestPolicy: "network-only" });
  const m = data?.merchantAccount;
  const profiles = m?.profiles.edges?.flatMap((e) => (e?.node ? [e.node] : [])) ?? [];
  // The merchant's default profile, the one sign-up made and payments use
  // unless told otherwise.
  const profile = profiles.find((p) => p.profileID === m?.defaultProfileID) ?? profiles.find((p) => p.isDefault) ?? profiles[0];
  return (
    <section aria-labelledby="developers-title">
      <h1 id="developers-title">Developers</h1>
      {error && (
        <p className="error" role="alert">
          {errorText(error)}
        </p>
      )}
      {!m ? (
        fetching && <p aria-busy="true">Loading…</p>
      ) : (
        <>
          <ApiKeys
            role={role}
            publishableKey={m.publishableKey}
            keys={m.apiKeys.edges?.flatMap((e) => (e?.node ? [e.node] : [])) ?? []}
            changed={() => refetch({ requestPolicy: "network-only" })}
          />
          {profile && <Webhooks key={profile.id} role={role} profile={profile} />}
          <EventLog role={role} />
        </>
      )}
    </section>
  );
}
