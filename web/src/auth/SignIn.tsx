import { useMutation } from "urql";
import type { SetSession } from "../App";
import { errorText } from "../lib/errors";
import { Link } from "../layout/Link";
import { navigate } from "../lib/router";
import { AuthForm, Field, text } from "./AuthForm";
import { SignInMutation } from "./operations";

export function SignIn({ setSession }: { setSession: SetSession }) {
  const [state, signIn] = useMutation(SignInMutation);
  return (
    <AuthForm
      title="Sign in"
      submit="Sign in"
      busy={state.fetching}
      error={errorText(state.error)}
      onSubmit={async (form) => {
        const res = await signIn({ email: text(form, "email"), password: text(form, "password") });
        const token = res.data?.signIn.token;
        if (token) {
          setSession(token);
          navigate("/payments", true);
        }
      }}
      footer={
        <>
          New to Switchyard?{" "}
          <Link to={"/signup"}>
            Create an account
          </Link>
        </>
      }
    >
      <Field name="email" label="Email" type="email" autoComplete="username" />
      <Field name="password" label="Password" type="password" autoComplete="current-password" />
    </AuthForm>
  );
}
