// Who may do what, as the schema's @hasRole declares it (roles.generated.ts
// is read off the schema): the dashboard shows an action only to a role the
// server would let run it. The server checks again on every request; hiding
// is for the people, not the security.
import { mutationAccess, queryAccess } from "./roles.generated";

export type Role = "ADMIN" | "DEVELOPER" | "OPERATOR" | "VIEWER";
export type Mutation = keyof typeof mutationAccess;
export type Query = keyof typeof queryAccess;

function allowed(access: string | readonly string[] | undefined, role: Role): boolean {
  if (access === undefined || access === "none") return false;
  if (access === "public" || access === "any") return true;
  return role === "ADMIN" || access.includes(role);
}

/** Whether a signed-in user with this role may run the mutation. */
export function canRun(role: Role, mutation: Mutation): boolean {
  return allowed(mutationAccess[mutation], role);
}

/** Whether a signed-in user with this role may read the root query field. */
export function canRead(role: Role, query: Query): boolean {
  return allowed(queryAccess[query], role);
}

/** A payment action the payment's page offers, and the mutation behind it. */
export type PaymentAction = "capture" | "cancel" | "refund";

const actionMutation: Record<PaymentAction, Mutation> = {
  capture: "capturePayment",
  cancel: "cancelPayment",
  refund: "createRefund",
};

// The statuses each action applies to: payments/status.go's capturable,
// cancellable and refundable states.
const actionStatuses: Record<PaymentAction, readonly string[]> = {
  capture: ["requires_capture", "partially_captured_and_capturable", "partially_authorized_and_requires_capture"],
  cancel: [
    "requires_payment_method",
    "requires_confirmation",
    "requires_customer_action",
    "requires_capture",
    "partially_captured_and_capturable",
    "partially_authorized_and_requires_capture",
  ],
  refund: ["succeeded", "partially_captured", "partially_captured_and_capturable"],
};

/** The actions a user with this role sees on a payment in this status, in the page's order. */
export function paymentActions(role: Role, status: string): PaymentAction[] {
  return (Object.keys(actionMutation) as PaymentAction[]).filter(
    (a) => canRun(role, actionMutation[a]) && actionStatuses[a].includes(status),
  );
}
