// Accepting a dispute: the disputed amount stays with the customer. Shown
// only to the roles acceptDispute allows and only while the dispute is
// still open or challenged; one idempotency key per intended action.
import { useMutation } from "urql";
import { useActionKey } from "../developers/actionKey";
import { errorText } from "../lib/errors";
import { canRun, type Role } from "../lib/roles";
import { AcceptDisputeMutation } from "./operations";

/** The dispute statuses acceptDispute applies to (payments/disputes.go). */
export const acceptableStatuses: readonly string[] = ["dispute_opened", "dispute_challenged"];

export function AcceptDispute({ id, status, role, done }: { id: string; status: string; role: Role; done: () => void }) {
  const [key, settle] = useActionKey();
  const [state, accept] = useMutation(AcceptDisputeMutation);
  if (!canRun(role, "acceptDispute") || !acceptableStatuses.includes(status)) return null;
  return (
    <>
      <button
        type="button"
        disabled={state.fetching}
        onClick={async () => {
          const res = await accept({ id, idempotencyKey: key });
          settle(res);
          if (res.data) done();
        }}
      >
        {state.fetching ? "Accepting…" : "Accept dispute"}
      </button>
      {state.error && (
        <span className="error" role="alert">
          {errorText(state.error)}
        </span>
      )}
    </>
  );
}
