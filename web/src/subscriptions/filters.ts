// The subscriptions list's filters (lib/filters' machinery): statuses and
// the merchant's customer id.
import type { BillingSubscriptionStatus, BillingSubscriptionWhereInput } from "../gql/graphql";
import { allOf, anyOf, defined, filterSet, idCodec, orNull, someOf } from "../lib/filters";

/** Every subscription status (Hyperswitch's SubscriptionStatus), in the order the filter offers them. */
export const subscriptionStatuses = allOf<BillingSubscriptionStatus>()([
  "active",
  "trial",
  "unpaid",
  "paused",
  "created",
  "pending",
  "in_active",
  "onetime",
  "cancelled",
  "failed",
]);

export interface SubscriptionFilters {
  statuses: BillingSubscriptionStatus[];
  customerID: string | null;
}

export const subscriptionFilters = filterSet<SubscriptionFilters>({
  statuses: ["status", someOf(subscriptionStatuses)],
  customerID: ["customer", idCodec],
});

/** The subscriptions connection's `where`; null with no filter. */
export function subscriptionsWhere(f: SubscriptionFilters): BillingSubscriptionWhereInput | null {
  return orNull(defined<BillingSubscriptionWhereInput>({ statusIn: anyOf(f.statuses), customerID: f.customerID ?? undefined }));
}
