// The disputes list: the merchant's disputes newest first, 20 a page with a
// cursor pager, each linking to its payment, with Accept for the roles
// acceptDispute allows while the dispute is open or challenged; filtered by
// what the URL says (./filters: statuses, stages, creation days, payment id).
import { useQuery } from "urql";
import { useCursorPage } from "../layout/CursorPager";
import { Checkboxes, DayFields, DaysHint, FilterForm, TextField, useListFilters } from "../layout/FilterForm";
import { PaymentLink } from "../layout/Link";
import { Table, MoneyCell } from "../layout/Table";
import type { Role } from "../lib/roles";
import { StatusCell } from "../payments/status";
import { Time, useTimeZone } from "../layout/TimeZone";
import { AcceptDispute } from "./AcceptDispute";
import { disputeFilters, disputeStages, disputeStatuses, disputesWhere } from "./filters";
import { DisputesQuery } from "./operations";
import { nodesOf } from "../lib/connection";
import { ListHeading } from "../layout/ListHeading";
import { ErrorAlert } from "../layout/ErrorAlert";

const pageSize = 20;

export function DisputeList({ role }: { role: Role }) {
  const { filters, query, apply, filtered } = useListFilters(disputeFilters, "/disputes");
  const timeZone = useTimeZone();
  const { variables, pager } = useCursorPage(pageSize, query.toString());
  const [{ data, error, fetching }, refetch] = useQuery({
    query: DisputesQuery,
    variables: { ...variables, where: disputesWhere(filters, timeZone) },
    requestPolicy: "cache-and-network",
  });
  const conn = data?.disputes;
  const rows = nodesOf(conn);
  return (
    <section aria-labelledby="disputes-title">
      <ListHeading id="disputes-title" title="Disputes" testId="disputes-count" count={conn?.totalCount} filtered={filtered} />
      <FilterForm key={query.toString()} label="Filter disputes" value={filters} set={disputeFilters} onApply={apply} hint={<DaysHint />}>
        {(draft, change) => (
          <>
            <Checkboxes legend="Status" name="status" options={disputeStatuses} value={draft.statuses} onChange={(v) => change("statuses", v)} />
            <Checkboxes legend="Stage" name="stage" options={disputeStages} value={draft.stages} onChange={(v) => change("stages", v)} />
            <div className="filter-fields">
              <DayFields draft={draft} change={change} />
              <TextField id="filter-payment" label="Payment id" value={draft.paymentID} onChange={(v) => change("paymentID", v)} />
            </div>
          </>
        )}
      </FilterForm>
      <ErrorAlert error={error} />
      <Table
        labelledBy="disputes-title"
        empty={conn && rows.length === 0 && (filtered ? "No disputes match these filters." : "No disputes.")}
        busy={fetching}
        testId="dispute-list"
        columns={[
          { label: "Dispute" },
          { label: "Payment" },
          { label: "Stage" },
          { label: "Status" },
          { label: "Amount", numeric: true },
          { label: "Connector" },
          { label: "Reason" },
          { label: `Respond by (${timeZone})` },
          { label: "Action" },
        ]}
      >
        {rows.map((d) => (
          <tr key={d.id} data-dispute-id={d.disputeID}>
            <td>{d.disputeID}</td>
            <td>
              <PaymentLink id={d.payment.paymentID} />
            </td>
            <td>{d.disputeStage.replaceAll("_", " ")}</td>
            <StatusCell value={d.disputeStatus} />
            <MoneyCell amount={d.amount} currency={d.currency} />
            <td>{d.connector}</td>
            <td>{d.connectorReason ?? "—"}</td>
            <td>{d.challengeRequiredBy ? <Time value={d.challengeRequiredBy} /> : "—"}</td>
            <td>
              <AcceptDispute id={d.disputeID} status={d.disputeStatus} role={role} done={() => refetch({ requestPolicy: "network-only" })} />
            </td>
          </tr>
        ))}
      </Table>
      {pager(conn?.pageInfo, "Dispute pages")}
    </section>
  );
}
