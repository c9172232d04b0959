import { useMutation, useQuery } from "urql";
import type { SetSession } from "../App";
import { errorText } from "../lib/errors";
import { AuthForm, Field, text } from "./AuthForm";
import { AcceptInvitationMutation, InvitationQuery } from "./operations";

/**
 * /dashboard/invite#<token> (the link inviteUser gives: after "#", the token
 * never reaches a server) or /dashboard/invite/<token>: shows who is invited
 * where, then joins the inviting merchant with a new account's password or
 * an existing one's.
 */
export function AcceptInvitation({ token, setSession }: { token: string; setSession: SetSession }) {
  const [{ data, error: lookupError, fetching }] = useQuery({ query: InvitationQuery, variables: { token } });
  const [state, accept] = useMutation(AcceptInvitationMutation);
  const invitation = data?.invitation;
  if (!invitation) {
    return (
      <main className="center">
        <div className="card auth" role={fetching ? "status" : "alert"}>
          <p className="brand">Switchyard</p>
          <h1>{fetching ? "Opening your invitation…" : "This invitation link does not work"}</h1>
          {!fetching && (
            <p className="muted">{errorText(lookupError) ?? "Ask for a new invitation: each link works once, for 7 days."}</p>
          )}
        </div>
      </main>
    );
  }
  const where = invitation.merchantName ?? "a merchant";
  const role = invitation.role.toLowerCase();
  return (
    <AuthForm
      title={`Join ${where}`}
      submit="Join"
      state={state}
      setSession={setSession}
      onSubmit={async (form) => (await accept({ token, password: text(form, "password") })).data?.acceptInvitation.token}
    >
      <p className="muted">
        {invitation.email} is invited as {/^[aeiou]/.test(role) ? "an" : "a"} {role}.{" "}
        {invitation.existingUser
          ? "Enter the password of your Switchyard account."
          : "Choose a password for your new account (at least 10 characters)."}
      </p>
      <Field
        name="password"
        label="Password"
        type="password"
        autoComplete={invitation.existingUser ? "current-password" : "new-password"}
        minLength={invitation.existingUser ? undefined : 10}
      />
    </AuthForm>
  );
}
