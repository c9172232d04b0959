// The frame of the signed-out pages: a titled form with labelled fields,
// its error announced to screen readers, and links between the pages.
import type { FormEvent, ReactNode } from "react";

export function AuthForm(props: {
  title: string;
  submit: string;
  busy: boolean;
  error: string | null;
  onSubmit: (form: FormData) => void;
  children: ReactNode;
  footer?: ReactNode;
}) {
  const handle = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!props.busy) props.onSubmit(new FormData(e.currentTarget));
  };
  return (
    <main className="center">
      <form className="card auth" onSubmit={handle} aria-labelledby="auth-title">
        <p className="brand">Switchyard</p>
        <h1 id="auth-title">{props.title}</h1>
        {props.children}
        {props.error && (
          <p className="error" role="alert">
            {props.error}
          </p>
        )}
        <button type="submit" className="primary" disabled={props.busy}>
          {props.busy ? "Please wait…" : props.submit}
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
