import { useMutation } from "urql";
import type { SetSession } from "../App";
import { Link } from "../layout/Link";
import { AuthForm, Field, text } from "./AuthForm";
import { SignInMutation } from "./operations";

export function SignIn({ setSession }: { setSession: SetSession }) {
  const [state, signIn] = useMutation(SignInMutation);
  return (
    <AuthForm
      title="Sign in"
      submit="Sign in"
      state={state}
      setSession={setSession}
      onSubmit={async (form) => (await signIn({ email: text(form, "email"), password: text(form, "password") })).data?.signIn.token}
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
