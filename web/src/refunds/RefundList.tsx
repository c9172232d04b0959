// The refunds list: the merchant's refunds newest first, 20 a page with a
// cursor pager, each linking to its payment, filtered by what the URL says
// (./filters: statuses, currency, creation days, payment id).
import { useQuery } from "urql";
import { Checkboxes, CurrencyField, DayFields, DaysHint, PaymentIDField } from "../layout/FilterForm";
import { FilteredList, useFilteredPages } from "../layout/FilteredList";
import { PaymentLink } from "../layout/Link";
import { MoneyCell, TimeCell } from "../layout/Table";
import { errorOf } from "../payments/AttemptTimeline";
import { StatusCell } from "../payments/status";
import { refundFilters, refundStatuses, refundsWhere } from "./filters";
import { RefundsQuery } from "./operations";
import { nodesOf } from "../lib/connection";

export function RefundList() {
  const list = useFilteredPages(refundFilters, "/refunds");
  const [{ data, error, fetching }] = useQuery({
    query: RefundsQuery,
    variables: { ...list.variables, where: refundsWhere(list.filters, list.timeZone) },
    requestPolicy: "cache-and-network",
  });
  const conn = data?.refunds;
  const rows = nodesOf(conn);
  return (
    <FilteredList list={list} one="refund" many="refunds" title="Refunds" none="No refunds yet." hint={<DaysHint />}
      conn={conn} rows={rows.length} error={error} fetching={fetching}
      fields={(draft, change) => (
        <>
          <Checkboxes legend="Status" name="status" options={refundStatuses} value={draft.statuses} onChange={(v) => change("statuses", v)} />
          <div className="filter-fields">
            <CurrencyField value={draft.currency} onChange={(v) => change("currency", v)} />
            <DayFields draft={draft} change={change} />
            <PaymentIDField value={draft.paymentID} onChange={(v) => change("paymentID", v)} />
          </div>
        </>
      )}
      columns={[
        { label: "Refund" },
        { label: "Payment" },
        { label: "Status" },
        { label: "Amount", numeric: true },
        { label: "Connector" },
        { label: "Reason or error" },
        { label: `Created (${list.timeZone})` },
      ]}
    >
      {rows.map((r) => (
        <tr key={r.id}>
          <td>{r.refundID}</td>
          <td>
            <PaymentLink id={r.payment.paymentID} />
          </td>
          <StatusCell value={r.status} />
          <MoneyCell amount={r.amount} currency={r.currency} />
          <td>{r.connector}</td>
          <td>{r.errorCode || r.errorMessage ? errorOf(r) : (r.reason ?? "—")}</td>
          <TimeCell value={r.createdAt} />
        </tr>
      ))}
    </FilteredList>
  );
}
