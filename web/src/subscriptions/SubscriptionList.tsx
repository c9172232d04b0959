// The subscriptions list: the merchant's subscriptions newest first, 20 a
// page with a cursor pager, each linking to its page, filtered by what the
// URL says (./filters: statuses, customer id).
import { useQuery } from "urql";
import { StatusChecks, TextField } from "../layout/FilterForm";
import { FilteredList, useFilteredPages } from "../layout/FilteredList";
import { SubscriptionLink } from "../layout/Link";
import { TimeCell } from "../layout/Table";
import { Time } from "../layout/TimeZone";
import { StatusCell } from "../payments/status";
import { subscriptionFilters, subscriptionStatuses, subscriptionsWhere } from "./filters";
import { SubscriptionsQuery } from "./operations";

export function SubscriptionList() {
  const list = useFilteredPages(subscriptionFilters, "/subscriptions", subscriptionsWhere);
  const [result] = useQuery({ query: SubscriptionsQuery, variables: list.variables, requestPolicy: "cache-and-network" });
  return (
    <FilteredList list={list} one="subscription" many="subscriptions" title="Subscriptions" none="No subscriptions yet." hint={null}
      result={result} conn={result.data?.subscriptions}
      fields={(draft, change) => (
        <>
          <StatusChecks options={subscriptionStatuses} draft={draft} change={change} />
          <div className="filter-fields">
            <TextField id="filter-customer" label="Customer id" value={draft.customerID} onChange={(v) => change("customerID", v)} />
          </div>
        </>
      )}
      columns={[
        { label: "Subscription" },
        { label: "Status" },
        { label: "Customer" },
        { label: "Plan" },
        { label: "Coupon" },
        { label: "Next billing" },
        { label: `Created (${list.timeZone})` },
      ]}
      row={(s) => (
        <tr key={s.id} data-subscription-id={s.id}>
          <td>
            <SubscriptionLink id={s.id} />
          </td>
          <StatusCell value={s.status} />
          <td>{s.customerID}</td>
          <td>{s.planID}</td>
          <td>{s.couponCode ?? "—"}</td>
          <td>{s.nextBillingAt ? <Time value={s.nextBillingAt} /> : "—"}</td>
          <TimeCell value={s.createdAt} />
        </tr>
      )}
    />
  );
}
