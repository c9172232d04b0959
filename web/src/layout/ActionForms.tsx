// A detail page's actions (a payment's capture, cancel and refund; a
// payout's fulfil and cancel): a button each, and below them the form of
// the one opened, named by its label, which says what it does and submits.
import type { FormEvent, ReactNode } from "react";

export function ActionForms<A extends string>(props: {
  actions: readonly A[];
  labels: Record<A, string>;
  open: A | null;
  start: (a: A) => void;
  submit: (e: FormEvent) => void;
  /** The opened form's fields and its SubmitRow. */
  children: ReactNode;
}) {
  const { open, labels } = props;
  return (
    <div className="actions">
      <div role="group" aria-label="Actions">
        {props.actions.map((a) => (
          <button key={a} type="button" aria-expanded={open === a} onClick={() => props.start(a)}>
            {labels[a]}
          </button>
        ))}
      </div>
      {open && (
        <form className="card" onSubmit={props.submit} aria-label={labels[open]}>
          {props.children}
        </form>
      )}
    </div>
  );
}
