// The business profile a page shows (webhook settings, events, routing are
// each a profile's), chosen with a picker and kept in the URL
// (?profile=pro_…; the default profile without it, lib/profiles.ts). The
// picker shows only when the merchant has more than one profile.
import { useQuery, type CombinedError } from "urql";
import { chosenProfile, profileLabel, searchWithProfile, unknownProfile, type ProfileOption } from "../lib/profiles";
import { navigate, useLocation } from "../lib/router";
import { ProfilesQuery } from "./operations";
import { nodesOf } from "../lib/connection";

/** The merchant's profiles and the one the URL chooses. */
export interface ProfileChoice {
  profiles: ProfileOption[];
  defaultProfileID: string | null;
  /** The chosen profile's id (pro_…); "" until the profiles are read. */
  profileID: string;
  /** A profile the URL names that the merchant does not have, if any. */
  unknown: string | null;
  /** Chooses a profile: a new history entry, the page's other parameters kept. */
  choose: (profileID: string) => void;
  error?: CombinedError | undefined;
}

export function useProfileChoice(): ProfileChoice {
  const { path, search } = useLocation();
  const [{ data, error }] = useQuery({ query: ProfilesQuery });
  const m = data?.merchantAccount;
  const profiles = nodesOf(m?.profiles);
  const defaultProfileID = m?.defaultProfileID ?? null;
  const profile = chosenProfile(profiles, defaultProfileID, search);
  return {
    profiles,
    defaultProfileID,
    profileID: profile?.profileID ?? "",
    unknown: unknownProfile(profiles, search),
    choose: (id) => navigate(path + searchWithProfile(search, id, defaultProfileID)),
    error,
  };
}

/** The picker: a labelled select of the merchant's profiles, name and id, the default one marked. */
export function ProfilePicker({ choice }: { choice: ProfileChoice }) {
  const { profiles, defaultProfileID, profileID, unknown } = choice;
  return (
    <>
      {profiles.length > 1 && (
        <div className="field profile-picker">
          <label htmlFor="profile-picker">Business profile</label>
          <select id="profile-picker" value={profileID} onChange={(e) => choice.choose(e.target.value)}>
            {profiles.map((p) => (
              <option key={p.id} value={p.profileID}>
                {profileLabel(p, defaultProfileID)}
              </option>
            ))}
          </select>
        </div>
      )}
      {unknown && (
        <p className="muted" role="status">
          This merchant has no profile <code>{unknown}</code>: showing the default profile.
        </p>
      )}
    </>
  );
}
