// The payouts list's filters (lib/filters' machinery): statuses, a
// currency, a connector, creation days of the merchant's time zone and the
// merchant's customer id.
import type { PayoutCurrency, PayoutStatus, PayoutWhereInput } from "../gql/graphql";
import {
  allOf,
  anyOf,
  checkDays,
  connectorCodec,
  createdWhere,
  currencyCodec,
  daySpec,
  defined,
  filterSet,
  idCodec,
  orNull,
  someOf,
  type Days,
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

export interface PayoutFilters extends Days {
  statuses: PayoutStatus[];
  currency: string | null;
  connector: string | null;
  customerID: string | null;
}

export const payoutFilters = filterSet<PayoutFilters>(
  {
    statuses: ["status", someOf(payoutStatuses)],
    currency: ["currency", currencyCodec],
    connector: ["connector", connectorCodec],
    ...daySpec,
    customerID: ["customer", idCodec],
  },
  checkDays,
);

/** The payouts connection's `where`; null with no filter. */
export function payoutsWhere(f: PayoutFilters, timeZone: string): PayoutWhereInput | null {
  return orNull(
    defined<PayoutWhereInput>({
      statusIn: anyOf(f.statuses),
      currencyIn: f.currency ? [f.currency as PayoutCurrency] : undefined,
      connectorIn: f.connector ? [f.connector] : undefined,
      ...createdWhere(f, timeZone),
      customerID: f.customerID ?? undefined,
    }),
  );
}
