// The refunds list's filters (lib/filters' machinery): statuses, a
// currency, creation days of the merchant's time zone and the payment.
import type { RefundCurrency, RefundStatus, RefundWhereInput } from "../gql/graphql";
import {
  allOf,
  anyOf,
  checkDays,
  createdWhere,
  currencyCodec,
  daySpec,
  defined,
  filterSet,
  idCodec,
  ofPayment,
  orNull,
  someOf,
  type Days,
} from "../lib/filters";

/** Every refund status, in the order the filter offers them. */
export const refundStatuses = allOf<RefundStatus>()(["succeeded", "failed", "pending", "review"]);

export interface RefundFilters extends Days {
  statuses: RefundStatus[];
  currency: string | null;
  paymentID: string | null;
}

export const refundFilters = filterSet<RefundFilters>(
  {
    statuses: ["status", someOf(refundStatuses)],
    currency: ["currency", currencyCodec],
    ...daySpec,
    paymentID: ["payment", idCodec],
  },
  checkDays,
);

/** The refunds connection's `where`; null with no filter. */
export function refundsWhere(f: RefundFilters, timeZone: string): RefundWhereInput | null {
  return orNull(
    defined<RefundWhereInput>({
      statusIn: anyOf(f.statuses),
      currencyIn: f.currency ? [f.currency as RefundCurrency] : undefined,
      ...createdWhere(f, timeZone),
      ...ofPayment(f.paymentID),
    }),
  );
}
