// The event types a profile may enable (the schema's EventEventType), in
// the schema's order, with the compiler checking that none is missing.
import type { EventEventType } from "../gql/graphql";

export const eventTypes = [
  "payment_succeeded",
  "payment_failed",
  "payment_processing",
  "payment_cancelled",
  "payment_cancelled_post_capture",
  "payment_authorized",
  "payment_partially_authorized",
  "payment_captured",
  "payment_expired",
  "action_required",
  "refund_succeeded",
  "refund_failed",
  "dispute_opened",
  "dispute_expired",
  "dispute_accepted",
  "dispute_cancelled",
  "dispute_challenged",
  "dispute_won",
  "dispute_lost",
  "mandate_active",
  "mandate_revoked",
  "payout_success",
  "payout_failed",
  "payout_initiated",
  "payout_processing",
  "payout_cancelled",
  "payout_expired",
  "payout_reversed",
  "invoice_paid",
  "invoice_payment_failed",
  "subscription_created",
  "subscription_active",
  "subscription_paused",
  "subscription_resumed",
  "subscription_cancelled",
  "subscription_unpaid",
] as const satisfies readonly EventEventType[];

// A type the schema gains and this list lacks fails the build here.
type Missing = Exclude<EventEventType, (typeof eventTypes)[number]>;
export const everyTypeListed: [Missing] extends [never] ? true : Missing = true;
