// The refunds list's filters (lib/filters' machinery): statuses, a
// currency, creation days of the merchant's time zone and the payment.
import type { RefundCurrency, RefundStatus, RefundWhereInput } from "../gql/graphql";
import { allOf, anyOf, checkDays, datedWhere, daySpec, filterSet, idCodec, moneySpec, ofPayment, oneOf, type MoneyFilters } from "../lib/filters";

/** Every refund status, in the order the filter offers them. */
export const refundStatuses = allOf<RefundStatus>()(["succeeded", "failed", "pending", "review"]);

export interface RefundFilters extends MoneyFilters<RefundStatus> {
  paymentID: string | null;
}

export const refundFilters = filterSet<RefundFilters>(
  {
    ...moneySpec(refundStatuses),
    ...daySpec,
    paymentID: ["payment", idCodec],
  },
  checkDays,
);

/** The refunds connection's `where`; null with no filter. */
export function refundsWhere(f: RefundFilters, timeZone: string): RefundWhereInput | null {
  return datedWhere<RefundWhereInput>(f, timeZone, {
    statusIn: anyOf(f.statuses),
    currencyIn: oneOf<RefundCurrency>(f.currency),
    ...ofPayment(f.paymentID),
  });
}
