// The disputes list's filters (lib/filters' machinery): statuses, stages,
// creation days of the merchant's time zone and the payment.
import type { DisputeDisputeStage, DisputeDisputeStatus, DisputeWhereInput } from "../gql/graphql";
import { allOf, anyOf, checkDays, datedWhere, daySpec, filterSet, idCodec, ofPayment, someOf, type Days } from "../lib/filters";

/** Every dispute status, in the order the filter offers them. */
export const disputeStatuses = allOf<DisputeDisputeStatus>()([
  "dispute_opened",
  "dispute_challenged",
  "dispute_accepted",
  "dispute_won",
  "dispute_lost",
  "dispute_expired",
  "dispute_cancelled",
]);

/** Every dispute stage, in the order a dispute goes through them. */
export const disputeStages = allOf<DisputeDisputeStage>()(["pre_dispute", "dispute", "pre_arbitration", "arbitration", "dispute_reversal"]);

export interface DisputeFilters extends Days {
  statuses: DisputeDisputeStatus[];
  stages: DisputeDisputeStage[];
  paymentID: string | null;
}

export const disputeFilters = filterSet<DisputeFilters>(
  {
    statuses: ["status", someOf(disputeStatuses)],
    stages: ["stage", someOf(disputeStages)],
    ...daySpec,
    paymentID: ["payment", idCodec],
  },
  checkDays,
);

/** The disputes connection's `where`; null with no filter. */
export function disputesWhere(f: DisputeFilters, timeZone: string): DisputeWhereInput | null {
  return datedWhere<DisputeWhereInput>(f, timeZone, {
    disputeStatusIn: anyOf(f.statuses),
    disputeStageIn: anyOf(f.stages),
    ...ofPayment(f.paymentID),
  });
}
