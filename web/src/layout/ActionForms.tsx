// A detail page's actions (a payment's capture, cancel and refund; a
// payout's fulfil and cancel): a button each, and below them the form of
// the one opened, named by its label, which says what it does and submits.
// useActionForm holds which form is open and its idempotency key.
import { useState, type FormEvent, type ReactNode } from "react";
import { idempotencyKey } from "../lib/client";

/**
 * Which action's form is open, and its idempotency key: one key per opened
 * form, so resubmitting it (a double click, a retry after a network error)
 * cannot act twice. submit runs act for the open action unless busy, and
 * closes the form and calls done when act says it worked.
 */
export function useActionForm<A extends string>(busy: boolean, done: () => void) {
  const [open, setOpen] = useState<A | null>(null);
  const [key, setKey] = useState(idempotencyKey);
  const start = (a: A) => {
    setOpen(a);
    setKey(idempotencyKey());
  };
  const close = () => setOpen(null);
  const submit = (act: (a: A, key: string) => Promise<boolean>) => async (e: FormEvent) => {
    e.preventDefault();
    if (!open || busy) return;
    if (await act(open, key)) {
      close();
      done();
    }
  };
  return { open, start, close, submit };
}

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
