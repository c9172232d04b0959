// The refunds list: the merchant's refunds newest first, 20 a page with a
// cursor pager, each linking to its payment, filtered by what the URL says
// (./filters: statuses, currency, creation days, payment id).
import { useQuery } from "urql";
import { CurrencyField, DayFields, DaysHint, PaymentIDField, StatusChecks } from "../layout/FilterForm";
import { FilteredList, useFilteredPages } from "../layout/FilteredList";
import { PaymentLink } from "../layout/Link";
import { MoneyCell, TimeCell } from "../layout/Table";
import { errorOf } from "../payments/AttemptTimeline";
import { StatusCell } from "../payments/status";
import { refundFilters, refundStatuses, refundsWhere } from "./filters";
import { RefundsQuery } from "./operations";

export function RefundList() {
  const list = useFilteredPages(refundFilters, "/refunds", refundsWhere);
  const [result] = useQuery({ query: RefundsQuery, variables: list.variables, requestPolicy: "cache-and-network" });
  return (
    <FilteredList list={list} one="refund" many="refunds" title="Refunds" none="No refunds yet." hint={<DaysHint />}
      result={result} conn={result.data?.refunds}
      fields={(draft, change) => (
        <>
          <StatusChecks options={refundStatuses} draft={draft} change={change} />
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
      row={(r) => (
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
      )}
    />
  );
}
