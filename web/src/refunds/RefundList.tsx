// The refunds list: the merchant's refunds newest first, 20 a page with a
// cursor pager, each linking to its payment.
import { useQuery } from "urql";
import { useCursorPage } from "../layout/CursorPager";
import { Link } from "../layout/Link";
import { Table } from "../layout/Table";
import { errorText } from "../lib/errors";
import { formatMoney } from "../lib/money";
import { errorOf } from "../payments/AttemptTimeline";
import { Status, formatDate } from "../payments/status";
import { RefundsQuery } from "./operations";

const pageSize = 20;

export function RefundList() {
  const { variables, pager } = useCursorPage(pageSize);
  const [{ data, error, fetching }] = useQuery({ query: RefundsQuery, variables, requestPolicy: "cache-and-network" });
  const conn = data?.refunds;
  const rows = conn?.edges?.flatMap((e) => (e?.node ? [e.node] : [])) ?? [];
  return (
    <section aria-labelledby="refunds-title">
      <div className="heading">
        <h1 id="refunds-title">Refunds</h1>
        {conn && <span className="muted">{conn.totalCount} in all</span>}
      </div>
      {error && (
        <p className="error" role="alert">
          {errorText(error)}
        </p>
      )}
      <Table
        labelledBy="refunds-title"
        busy={fetching}
        testId="refund-list"
        columns={[
          { label: "Refund" },
          { label: "Payment" },
          { label: "Status" },
          { label: "Amount", numeric: true },
          { label: "Connector" },
          { label: "Reason or error" },
          { label: "Created" },
        ]}
      >
        {rows.map((r) => (
          <tr key={r.id}>
            <td>{r.refundID}</td>
            <td>
              <Link to={`/payments/${encodeURIComponent(r.payment.paymentID)}`}>{r.payment.paymentID}</Link>
            </td>
            <td>
              <Status value={r.status} />
            </td>
            <td className="num">{formatMoney(r.amount, r.currency)}</td>
            <td>{r.connector}</td>
            <td>{r.errorCode || r.errorMessage ? errorOf(r) : (r.reason ?? "—")}</td>
            <td>
              <time dateTime={r.createdAt}>{formatDate(r.createdAt)}</time>
            </td>
          </tr>
        ))}
        {conn && rows.length === 0 && (
          <tr>
            <td colSpan={7} className="muted">
              No refunds yet.
            </td>
          </tr>
        )}
      </Table>
      {pager(conn?.pageInfo, "Refund pages")}
    </section>
  );
}
