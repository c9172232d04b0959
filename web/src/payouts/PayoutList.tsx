// The payouts list: the merchant's payouts newest first, 20 a page with a
// cursor pager, each linking to its page, filtered by what the URL says
// (./filters: statuses, currency, connector, creation days, customer id).
import { useQuery } from "urql";
import { Checkboxes, CurrencyField, DayFields, DaysHint, TextField } from "../layout/FilterForm";
import { FilteredList, useFilteredPages } from "../layout/FilteredList";
import { PayoutLink } from "../layout/Link";
import { MoneyCell, TimeCell } from "../layout/Table";
import { errorOf } from "../payments/AttemptTimeline";
import { StatusCell } from "../payments/status";
import { nodesOf } from "../lib/connection";
import { payoutFilters, payoutStatuses, payoutsWhere } from "./filters";
import { PayoutsQuery } from "./operations";

export function PayoutList() {
  const list = useFilteredPages(payoutFilters, "/payouts");
  const [{ data, error, fetching }] = useQuery({
    query: PayoutsQuery,
    variables: { ...list.variables, where: payoutsWhere(list.filters, list.timeZone) },
    requestPolicy: "cache-and-network",
  });
  const conn = data?.payouts;
  const rows = nodesOf(conn);
  return (
    <FilteredList list={list} one="payout" many="payouts" title="Payouts" none="No payouts yet." hint={<DaysHint />}
      conn={conn} rows={rows.length} error={error} fetching={fetching}
      fields={(draft, change) => (
        <>
          <Checkboxes legend="Status" name="status" options={payoutStatuses} value={draft.statuses} onChange={(v) => change("statuses", v)} />
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
    >
      {rows.map((p) => (
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
      ))}
    </FilteredList>
  );
}
