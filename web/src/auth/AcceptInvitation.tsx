import { useMutation } from "urql";
import type { SetSession } from "../App";
import { errorText } from "../lib/errors";
import { navigate } from "../lib/router";
import { AuthForm, Field, text } from "./AuthForm";
import { AcceptInvitationMutation } from "./operations";

/** /dashboard/invite/<token>: joins the inviting merchant, with a new account or an existing one's password. */
export function AcceptInvitation({ token, setSession }: { token: string; setSession: SetSession }) {
  const [state, accept] = useMutation(AcceptInvitationMutation);
  return (
    <AuthForm
      title="Accept your invitation"
      submit="Join"
      busy={state.fetching}
      error={errorText(state.error)}
      onSubmit={async (form) => {
        const res = await accept({ token, password: text(form, "password") });
        const session = res.data?.acceptInvitation.token;
        if (session) {
          setSession(session);
          navigate("/payments", true);
        }
      }}
    >
      <p className="muted">
        New here? Choose a password (at least 10 characters). Already have an account? Enter its password.
      </p>
      <Field name="password" label="Password" type="password" autoComplete="new-password" minLength={10} />
    </AuthForm>
  );
}
