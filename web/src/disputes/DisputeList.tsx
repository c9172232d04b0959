// The disputes list: the merchant's disputes newest first, 20 a page with a
// cursor pager, each linking to its page and its payment, with Accept for the roles
// acceptDispute allows while the dispute is open or challenged; filtered by
// what the URL says (./filters: statuses, stages, creation days, payment id).
import { useQuery } from "urql";
import { Checkboxes, DayFields, DaysHint, PaymentIDField, StatusChecks } from "../layout/FilterForm";
import { FilteredList, useFilteredPages } from "../layout/FilteredList";
import { DisputeLink, PaymentLink } from "../layout/Link";
import { MoneyCell } from "../layout/Table";
import { Time } from "../layout/TimeZone";
import type { Role } from "../lib/roles";
import { StatusCell } from "../payments/status";
import { AcceptDispute } from "./AcceptDispute";
import { disputeFilters, disputeStages, disputeStatuses, disputesWhere } from "./filters";
import { DisputesQuery } from "./operations";

export function DisputeList({ role }: { role: Role }) {
  const list = useFilteredPages(disputeFilters, "/disputes", disputesWhere);
  const [result, refetch] = useQuery({ query: DisputesQuery, variables: list.variables, requestPolicy: "cache-and-network" });
  return (
    <FilteredList list={list} one="dispute" many="disputes" title="Disputes" none="No disputes." hint={<DaysHint />}
      result={result} conn={result.data?.disputes}
      fields={(draft, change) => (
        <>
          <StatusChecks options={disputeStatuses} draft={draft} change={change} />
          <Checkboxes legend="Stage" name="stage" options={disputeStages} value={draft.stages} onChange={(v) => change("stages", v)} />
          <div className="filter-fields">
            <DayFields draft={draft} change={change} />
            <PaymentIDField value={draft.paymentID} onChange={(v) => change("paymentID", v)} />
          </div>
        </>
      )}
      columns={[
        { label: "Dispute" },
        { label: "Payment" },
        { label: "Stage" },
        { label: "Status" },
        { label: "Amount", numeric: true },
        { label: "Connector" },
        { label: "Reason" },
        { label: `Respond by (${list.timeZone})` },
        { label: "Action" },
      ]}
      row={(d) => (
        <tr key={d.id} data-dispute-id={d.disputeID}>
          <td>
            <DisputeLink id={d.disputeID} />
          </td>
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
      )}
    />
  );
}
