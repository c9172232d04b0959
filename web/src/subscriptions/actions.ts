// The actions a subscription's page offers, to the roles that may run them
// and only in the statuses the domain allows them
// (payments/subscriptions' transitionErr: an active or trialing
// subscription pauses, a paused one resumes, any but a cancelled or failed
// one cancels).
import { canRun, type Mutation, type Role } from "../lib/roles";

export type SubscriptionAction = "pause" | "resume" | "cancel";

const actionMutation: Record<SubscriptionAction, Mutation> = {
  pause: "pauseSubscription",
  resume: "resumeSubscription",
  cancel: "cancelSubscription",
};

const applies: Record<SubscriptionAction, (status: string) => boolean> = {
  pause: (s) => s === "active" || s === "trial",
  resume: (s) => s === "paused",
  cancel: (s) => s !== "cancelled" && s !== "failed",
};

/** The actions a user with this role sees on a subscription in this status, in the page's order. */
export function subscriptionActions(role: Role, status: string): SubscriptionAction[] {
  return (Object.keys(actionMutation) as SubscriptionAction[]).filter((a) => canRun(role, actionMutation[a]) && applies[a](status));
}

/** A price's period as people say it: "month", "3 months", "year". */
export function periodOf(interval: string, count: number): string {
  const unit = interval.toLowerCase();
  return count === 1 ? unit : `${count} ${unit}s`;
}

/** A coupon's discount as people say it: "25%" or "USD 10.00" off. */
export function discountOf(c: { discountType: string; percentOffBps?: number | null; amountOff?: number | null; currency?: string | null }, money: (amount: number, currency: string) => string): string {
  if (c.discountType === "percentage") return `${(c.percentOffBps ?? 0) / 100}%`;
  return c.amountOff != null && c.currency ? money(c.amountOff, c.currency) : "—";
}
