// The actions a payout's page offers, to the roles that may run them and
// only in the statuses the domain allows them (payments/payouts' decide.go:
// a fulfilment waits for requires_fulfillment; a payout that has not ended
// can be cancelled).
import { canRun, type Mutation, type Role } from "../lib/roles";

export type PayoutAction = "fulfill" | "cancel";

const actionMutation: Record<PayoutAction, Mutation> = { fulfill: "fulfillPayout", cancel: "cancelPayout" };

/** The statuses that end a payout: nothing cancels it any more. */
export const endedStatuses: readonly string[] = ["success", "failed", "cancelled", "ineligible", "reversed", "expired"];

const applies: Record<PayoutAction, (status: string) => boolean> = {
  fulfill: (s) => s === "requires_fulfillment",
  cancel: (s) => !endedStatuses.includes(s),
};

/** The actions a user with this role sees on a payout in this status, in the page's order. */
export function payoutActions(role: Role, status: string): PayoutAction[] {
  return (Object.keys(actionMutation) as PayoutAction[]).filter((a) => canRun(role, actionMutation[a]) && applies[a](status));
}
