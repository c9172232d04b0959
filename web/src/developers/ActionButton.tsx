// A button that runs one mutation under one idempotency key (useActionKey):
// a double click runs it once; done follows a success, and the error, if
// any, is said beside the button.
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import type { AnyVariables } from "urql";
import { errorText } from "../lib/errors";
import { useKeyedMutation } from "./actionKey";

export function ActionButton<D, V extends AnyVariables & { idempotencyKey?: string | null }>(props: {
  mutation: TypedDocumentNode<D, V>;
  variables: Omit<V, "idempotencyKey">;
  label: string;
  busyLabel: string;
  done: () => void;
}) {
  const [state, run] = useKeyedMutation(props.mutation);
  return (
    <>
      <button
        type="button"
        disabled={state.fetching}
        onClick={async () => {
          const res = await run(props.variables);
          if (res.data) props.done();
        }}
      >
        {state.fetching ? props.busyLabel : props.label}
      </button>
      {state.error && (
        <span className="error" role="alert">
          {errorText(state.error)}
        </span>
      )}
    </>
  );
}
