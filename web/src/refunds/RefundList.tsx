// The refunds list: the merchant's refunds newest first, 20 a page with a
// cursor pager, each linking to its payment, filtered by what the URL says
// (./filters: statuses, currency, creation days, payment id).
import { useQuery } from "urql";
import { useCursorPage } from "../layout/CursorPager";
import { Checkboxes, CurrencyField, DayFields, DaysHint, FilterForm, TextField, useListFilters } from "../layout/FilterForm";
import { PaymentLink } from "../layout/Link";
import { Table, TimeCell, MoneyCell } from "../layout/Table";
import { useTimeZone } from "../layout/TimeZone";
import { errorOf } from "../payments/AttemptTimeline";
import { StatusCell } from "../payments/status";
import { refundFilters, refundStatuses, refundsWhere } from "./filters";
import { RefundsQuery } from "./operations";
import { nodesOf } from "../lib/connection";
import { ListHeading } from "../layout/ListHeading";
import { ErrorAlert } from "../layout/ErrorAlert";

const pageSize = 20;

export function RefundList() {
  const { filters, query, apply, filtered } = useListFilters(refundFilters, "/refunds");
  const timeZone = useTimeZone();
  const { variables, pager } = useCursorPage(pageSize, query.toString());
  const [{ data, error, fetching }] = useQuery({
    query: RefundsQuery,
    variables: { ...variables, where: refundsWhere(filters, timeZone) },
    requestPolicy: "cache-and-network",
  });
  const conn = data?.refunds;
  const rows = nodesOf(conn);
  return (
    <section aria-labelledby="refunds-title">
      <ListHeading id="refunds-title" title="Refunds" testId="refunds-count" count={conn?.totalCount} filtered={filtered} />
      <FilterForm key={query.toString()} label="Filter refunds" value={filters} set={refundFilters} onApply={apply} hint={<DaysHint />}>
        {(draft, change) => (
          <>
            <Checkboxes legend="Status" name="status" options={refundStatuses} value={draft.statuses} onChange={(v) => change("statuses", v)} />
            <div className="filter-fields">
              <CurrencyField value={draft.currency} onChange={(v) => change("currency", v)} />
              <DayFields draft={draft} change={change} />
              <TextField id="filter-payment" label="Payment id" value={draft.paymentID} onChange={(v) => change("paymentID", v)} />
            </div>
          </>
        )}
      </FilterForm>
      <ErrorAlert error={error} />
      <Table
        labelledBy="refunds-title"
        empty={conn && rows.length === 0 && (filtered ? "No refunds match these filters." : "No refunds yet.")}
        busy={fetching}
        testId="refund-list"
        columns={[
          { label: "Refund" },
          { label: "Payment" },
          { label: "Status" },
          { label: "Amount", numeric: true },
          { label: "Connector" },
          { label: "Reason or error" },
          { label: `Created (${timeZone})` },
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
      </Table>
      {pager(conn?.pageInfo, "Refund pages")}
    </section>
  );
}
