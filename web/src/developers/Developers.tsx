// The Developers page: API keys, then one business profile's webhook
// settings and signing key and its event log, the profile chosen with the
// picker (kept in the URL as ?profile=pro_…) when the merchant has more
// than one; admins make a new profile here.
import { useQuery } from "urql";
import { ErrorAlert } from "../layout/ErrorAlert";
import { ProfilePicker, useProfileChoice } from "../layout/ProfilePicker";
import { canRun, type Role } from "../lib/roles";
import { ApiKeys } from "./ApiKeys";
import { CreateProfile } from "./CreateProfile";
import { EventLog } from "./EventLog";
import { DevelopersQuery } from "./operations";
import { Webhooks } from "./Webhooks";
import { nodesOf } from "../lib/connection";

export function Developers({ role }: { role: Role }) {
  const [{ data, error, fetching }, refetch] = useQuery({ query: DevelopersQuery, requestPolicy: "network-only" });
  const choice = useProfileChoice();
  const m = data?.merchantAccount;
  const profiles = nodesOf(m?.profiles);
  const profile = profiles.find((p) => p.profileID === choice.profileID);
  const mayCreate = canRun(role, "createProfile");
  return (
    <section aria-labelledby="developers-title">
      <h1 id="developers-title">Developers</h1>
      <ErrorAlert error={error ?? choice.error} />
      {!m ? (
        fetching && <p aria-busy="true">Loading…</p>
      ) : (
        <>
          <ApiKeys
            role={role}
            publishableKey={m.publishableKey}
            keys={nodesOf(m.apiKeys)}
            changed={() => refetch({ requestPolicy: "network-only" })}
          />
          {(choice.profiles.length > 1 || mayCreate) && (
            <>
              <h2 id="profiles-title">Business profiles</h2>
              <p className="muted">
                Each profile has its own webhook settings, signing key, event log, routing and connector accounts.
              </p>
              <ProfilePicker choice={choice} />
              {mayCreate && <CreateProfile created={choice.choose} />}
            </>
          )}
          {profile && <Webhooks key={`webhooks-${profile.id}`} role={role} profile={profile} />}
          {choice.profileID && <EventLog key={`events-${choice.profileID}`} role={role} profileID={choice.profileID} />}
        </>
      )}
    </section>
  );
}
