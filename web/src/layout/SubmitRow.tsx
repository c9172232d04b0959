// A form's end: its error, announced, then its submit button, which says
// "Please wait…" and is disabled while the form's request runs, and a Close
// button when the form can be closed (onClose).
import type { CombinedError } from "@urql/core";
import { ErrorAlert } from "./ErrorAlert";

export function SubmitRow(props: { label: string; busy: boolean; error?: CombinedError; text?: string | null; onClose?: () => void }) {
  return (
    <>
      <ErrorAlert error={props.error} text={props.text} />
      <div className="row">
        <button type="submit" className="primary" disabled={props.busy}>
          {props.busy ? "Please wait…" : props.label}
        </button>
        {props.onClose && (
          <button type="button" onClick={props.onClose} disabled={props.busy}>
            Close
          </button>
        )}
      </div>
    </>
  );
}
