import { useMutation } from "urql";
import type { NewKeys, SetSession } from "../App";
import { Link } from "../layout/Link";
import { browserTimeZone } from "../lib/zone";
import { AuthForm, Field, text } from "./AuthForm";
import { SignUpMutation } from "./operations";

/** Signs up: a user, their merchant and its keys; the secret key, shown once, is handed to onKeys for the next page. */
export function SignUp({ setSession, onKeys }: { setSession: SetSession; onKeys: (keys: NewKeys) => void }) {
  const [state, signUp] = useMutation(SignUpMutation);
  return (
    <AuthForm
      title="Create your account"
      submit="Create account"
      state={state}
      setSession={setSession}
      onSubmit={async (form) => {
        const res = await signUp({
          email: text(form, "email"),
          password: text(form, "password"),
          merchantName: text(form, "merchantName"),
          // The new merchant's days and times are this browser's zone's
          // until an admin chooses another (Team → Business settings).
          timeZone: browserTimeZone(),
        });
        const made = res.data?.signUp;
        if (made) onKeys({ secretKey: made.apiKey, publishableKey: made.publishableKey });
        return made?.session.token;
      }}
      footer={
        <>
          Have an account?{" "}
          <Link to={"/signin"}>
            Sign in
          </Link>
        </>
      }
    >
      <Field name="merchantName" label="Business name" autoComplete="organization" />
      <Field name="email" label="Email" type="email" autoComplete="username" />
      <Field
        name="password"
        label="Password"
        type="password"
        autoComplete="new-password"
        minLength={10}
        hint="At least 10 characters; not a common password."
      />
    </AuthForm>
  );
}
