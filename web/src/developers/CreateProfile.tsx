// A new business profile (createProfile, admins only as the schema says):
// a name, sent with an idempotency key so a double click makes one; the
// page then shows the new profile.
import { useState, type FormEvent } from "react";
import { ErrorAlert } from "../layout/ErrorAlert";
import { useKeyedMutation } from "./actionKey";
import { CreateProfileMutation } from "./operations";

export function CreateProfile({ created }: { created: (profileID: string) => void }) {
  const [name, setName] = useState("");
  const [made, setMade] = useState<string | null>(null);
  const [state, create] = useKeyedMutation(CreateProfileMutation);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (state.fetching) return;
    const profileName = name.trim();
    const res = await create({ input: profileName ? { profileName } : {} });
    const p = res.data?.createProfile.profile;
    if (p) {
      setName("");
      setMade(`Created profile ${p.profileName} (${p.profileID}); it is shown below.`);
      created(p.profileID);
    }
  };
  return (
    <form className="card" aria-labelledby="new-profile-title" onSubmit={submit}>
      <h3 id="new-profile-title">New business profile</h3>
      <div className="field">
        <label htmlFor="new-profile-name">Name (unique; empty: profile_n)</label>
        <input
          id="new-profile-name"
          maxLength={64}
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            setMade(null);
          }}
        />
      </div>
      <ErrorAlert error={state.error} />
      <div className="row">
        <button type="submit" disabled={state.fetching}>
          {state.fetching ? "Please wait…" : "Create profile"}
        </button>
        {made && (
          <span role="status" data-testid="profile-created">
            {made}
          </span>
        )}
      </div>
    </form>
  );
}
