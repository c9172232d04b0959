// The payouts list: the merchant's payouts newest first, 20 a page with a
// cursor pager, each linking to its page, filtered by what the URL says
// (./filters: statuses, currency, connector, creation days, customer id).
import { useQuery } from "urql";
import { CurrencyField, DayFields, DaysHint, StatusChecks, TextField } from "../layout/FilterForm";
import { FilteredList, useFilteredPages } from "../layout/FilteredList";
import { PayoutLink } from "../layout/Link";
import { MoneyCell, TimeCell } from "../layout/Table";
import { errorOf } from "../payments/AttemptTimeline";
import { StatusCell } from "../payments/status";
import { payoutFilters, payoutStatuses, payoutsWhere } from "./filters";
import { PayoutsQuery } from "./operations";

export function PayoutList() {
  const list = useFilteredPages(payoutFilters, "/payouts", payoutsWhere);
  const [result] = useQuery({ query: PayoutsQuery, variables: list.variables, requestPolicy: "cache-and-network" });
  return (
    <FilteredList list={list} one="payout" many="payouts" title="Payouts" none="No payouts yet." hint={<DaysHint />}
      result={result} conn={result.data?.payouts}
      fields={(draft, change) => (
        <>
          <StatusChecks options={payoutStatuses} draft={draft} change={change} />
          <div className="filter-fields">
            <CurrencyField value={draft.currency} onChange={(v) => change("currency", v)} />
            <TextField id="filter-connector" label="Connector" placeholder="stripe_test" value={draft.connector} onChange={(v) => change("connector", v)} />
            <DayFields draft={draft} change={change} />
            <TextField id="filter-customer" label="Customer id" value={draft.customerID} onChange={(v) => change("customerID", v)} />
          </div>
        </>
      )}
      columns={[
        { label: "Payout" },
        { label: "Status" },
        { label: "Amount", numeric: true },
        { label: "Type" },
        { label: "Connector" },
        { label: "Customer" },
        { label: "Error" },
        { label: `Created (${list.timeZone})` },
      ]}
      row={(p) => (
        <tr key={p.id} data-payout-id={p.payoutID}>
          <td>
            <PayoutLink id={p.payoutID} />
          </td>
          <StatusCell value={p.status} />
          <MoneyCell amount={p.amount} currency={p.currency} />
          <td>{p.payoutType ?? "—"}</td>
          <td>{p.connector ?? "—"}</td>
          <td>{p.customerID ?? "—"}</td>
          <td>{errorOf(p)}</td>
          <TimeCell value={p.createdAt} />
        </tr>
      )}
    />
  );
}
