// The payouts list's filters (lib/filters' machinery): statuses, a
// currency, a connector, creation days of the merchant's time zone and the
// merchant's customer id.
import type { PayoutCurrency, PayoutStatus, PayoutWhereInput } from "../gql/graphql";
import {
  allOf,
  anyOf,
  checkDays,
  connectorCodec,
  datedWhere,
  daySpec,
  filterSet,
  idCodec,
  moneySpec,
  oneOf,
  type MoneyFilters,
} from "../lib/filters";

/** Every payout status (Hyperswitch's PayoutStatus), in the order the filter offers them. */
export const payoutStatuses = allOf<PayoutStatus>()([
  "success",
  "failed",
  "pending",
  "initiated",
  "requires_fulfillment",
  "requires_confirmation",
  "requires_payout_method_data",
  "requires_creation",
  "requires_vendor_account_creation",
  "cancelled",
  "ineligible",
  "reversed",
  "expired",
]);

export interface PayoutFilters extends MoneyFilters<PayoutStatus> {
  connector: string | null;
  customerID: string | null;
}

export const payoutFilters = filterSet<PayoutFilters>(
  {
    ...moneySpec(payoutStatuses),
    connector: ["connector", connectorCodec],
    ...daySpec,
    customerID: ["customer", idCodec],
  },
  checkDays,
);

/** The payouts connection's `where`; null with no filter. */
export function payoutsWhere(f: PayoutFilters, timeZone: string): PayoutWhereInput | null {
  return datedWhere<PayoutWhereInput>(f, timeZone, {
    statusIn: anyOf(f.statuses),
    currencyIn: oneOf<PayoutCurrency>(f.currency),
    connectorIn: oneOf(f.connector),
    customerID: f.customerID ?? undefined,
  });
}
