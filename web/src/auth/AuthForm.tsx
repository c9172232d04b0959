// The frame of the signed-out pages: a titled form with labelled fields,
// its error announced to screen readers, and links between the pages. Each
// page's form ends in a session: the form keeps it and opens the payments.
import type { CombinedError } from "@urql/core";
import type { FormEvent, ReactNode } from "react";
import type { SetSession } from "../App";
import { errorText } from "../lib/errors";
import { navigate } from "../lib/router";

export function AuthForm(props: {
  title: string;
  submit: string;
  /** The state of the page's mutation: busy while it runs, then its error. */
  state: { fetching: boolean; error?: CombinedError };
  /** Sends the form; the new session's token, or none when it failed. */
  onSubmit: (form: FormData) => Promise<string | null | undefined>;
  setSession: SetSession;
  children: ReactNode;
  footer?: ReactNode;
}) {
  const busy = props.state.fetching;
  const error = errorText(props.state.error);
  const handle = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    const token = await props.onSubmit(new FormData(e.currentTarget));
    if (token) {
      props.setSession(token);
      navigate("/payments", true);
    }
  };
  return (
    <main className="center">
      <form className="card auth" onSubmit={handle} aria-labelledby="auth-title">
        <p className="brand">Switchyard</p>
        <h1 id="auth-title">{props.title}</h1>
        {props.children}
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? "Please wait…" : props.submit}
        </button>
        {props.footer && <p className="muted">{props.footer}</p>}
      </form>
    </main>
  );
}

export function Field(props: {
  name: string;
  label: string;
  type?: string;
  autoComplete?: string;
  minLength?: number;
  hint?: string;
}) {
  const id = `field-${props.name}`;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? "text"}
        autoComplete={props.autoComplete}
        minLength={props.minLength}
        required
        aria-describedby={props.hint ? `${id}-hint` : undefined}
      />
      {props.hint && (
        <small id={`${id}-hint`} className="muted">
          {props.hint}
        </small>
      )}
    </div>
  );
}

/** A form field's text ("" when absent). */
export function text(form: FormData, name: string): string {
  const v = form.get(name);
  return typeof v === "string" ? v : "";
}
