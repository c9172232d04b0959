// The customers list's filters (lib/filters' machinery): a customer's id or
// e-mail (as the payments list's customer filter: an '@' makes it an
// e-mail, matched whatever its case) and a part of their name.
import type { CustomerWhereInput } from "../gql/graphql";
import { customerCodec, customerRef, defined, filterSet, orNull, textCodec } from "../lib/filters";

export interface CustomerFilters {
  /** A customer_id, or an e-mail address. */
  customer: string | null;
  /** A part of the name, whatever its case. */
  name: string | null;
}

export const customerFilters = filterSet<CustomerFilters>({
  customer: ["customer", customerCodec],
  name: ["name", textCodec(255)],
});

/** The customers connection's `where`; null with no filter. */
export function customersWhere(f: CustomerFilters): CustomerWhereInput | null {
  const customer = customerRef(f.customer);
  return orNull(
    defined<CustomerWhereInput>({
      customerID: customer.id,
      emailEqualFold: customer.email,
      nameContainsFold: f.name ?? undefined,
    }),
  );
}
