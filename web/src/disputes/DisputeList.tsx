// The disputes list: the merchant's disputes newest first, 20 a page with a
// cursor pager, each linking to its payment, with Accept for the roles
// acceptDispute allows while the dispute is open or challenged.
import { useQuery } from "urql";
import { useCursorPage } from "../layout/CursorPager";
import { Link } from "../layout/Link";
import { Table } from "../layout/Table";
import { errorText } from "../lib/errors";
import { formatMoney } from "../lib/money";
import type { Role } from "../lib/roles";
import { Status, formatDate } from "../payments/status";
import { AcceptDispute } from "./AcceptDispute";
import { DisputesQuery } from "./operations";

const pageSize = 20;

export function DisputeList({ role }: { role: Role }) {
  const { variables, pager } = useCursorPage(pageSize);
  const [{ data, error, fetching }, refetch] = useQuery({ query: DisputesQuery, variables, requestPolicy: "cache-and-network" });
  const conn = data?.disputes;
  const rows = conn?.edges?.flatMap((e) => (e?.node ? [e.node] : [])) ?? [];
  return (
    <section aria-labelledby="disputes-title">
      <div className="heading">
        <h1 id="disputes-title">Disputes</h1>
        {conn && <span className="muted">{conn.totalCount} in all</span>}
      </div>
      {error && (
        <p className="error" role="alert">
          {errorText(error)}
        </p>
      )}
      <Table
        labelledBy="disputes-title"
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
          { label: "Respond by" },
          { label: "Action" },
        ]}
      >
        {rows.map((d) => (
          <tr key={d.id} data-dispute-id={d.disputeID}>
            <td>{d.disputeID}</td>
            <td>
              <Link to={`/payments/${encodeURIComponent(d.payment.paymentID)}`}>{d.payment.paymentID}</Link>
            </td>
            <td>{d.disputeStage.replaceAll("_", " ")}</td>
            <td>
              <Status value={d.disputeStatus} />
            </td>
            <td className="num">{formatMoney(d.amount, d.currency)}</td>
            <td>{d.connector}</td>
            <td>{d.connectorReason ?? "—"}</td>
            <td>{d.challengeRequiredBy ? <time dateTime={d.challengeRequiredBy}>{formatDate(d.challengeRequiredBy)}</time> : "—"}</td>
            <td>
              <AcceptDispute id={d.disputeID} status={d.disputeStatus} role={role} done={() => refetch({ requestPolicy: "network-only" })} />
            </td>
          </tr>
        ))}
        {conn && rows.length === 0 && (
          <tr>
            <td colSpan={9} className="muted">
              No disputes.
            </td>
          </tr>
        )}
      </Table>
      {pager(conn?.pageInfo, "Dispute pages")}
    </section>
  );
}
