// Accepting a dispute: the disputed amount stays with the customer. Shown
// only to the roles acceptDispute allows and only while the dispute is
// still open or challenged; one idempotency key per intended action.
import { ActionButton } from "../developers/ActionButton";
import { canRun, type Role } from "../lib/roles";
import { AcceptDisputeMutation } from "./operations";

/** The dispute statuses acceptDispute applies to (payments/disputes.go). */
export const acceptableStatuses: readonly string[] = ["dispute_opened", "dispute_challenged"];

export function AcceptDispute({ id, status, role, done }: { id: string; status: string; role: Role; done: () => void }) {
  if (!canRun(role, "acceptDispute") || !acceptableStatuses.includes(status)) return null;
  return <ActionButton mutation={AcceptDisputeMutation} variables={{ id }} label="Accept dispute" busyLabel="Accepting…" done={done} />;
}
