// The payments list: newest first, 20 a page, with the connection's
// cursors kept in the URL (?after=… or ?before=…) so a page can be
// reloaded, shared within the cursors' hour, and left with Back.
import { useQuery } from "urql";
import { errorText } from "../lib/errors";
import { formatAmount } from "../lib/money";
import { Link } from "../layout/Link";
import { useLocation } from "../lib/router";
import { Table } from "../layout/Table";
import { PaymentsQuery } from "./operations";
import { Status, formatDate } from "./status";

const pageSize = 20;

export function PaymentList() {
  const { search } = useLocation();
  const after = search.get("after");
  const before = search.get("before");
  const variables = before ? { last: pageSize, before } : { first: pageSize, after };
  const [{ data, error, fetching }] = useQuery({ query: PaymentsQuery, variables });
  const conn = data?.payments;
  const rows = conn?.edges?.flatMap((e) => (e?.node ? [e.node] : [])) ?? [];
  const info = conn?.pageInfo;
  // With ?before the connection pages backwards: its "previous" is the
  // newer side. Without a cursor the first page has nothing newer.
  const newer = before ? info?.hasPreviousPage : after ? true : false;
  const older = before ? true : info?.hasNextPage;
  return (
    <section aria-labelledby="payments-title">
      <div className="heading">
        <h1 id="payments-title">Payments</h1>
        {conn && <span className="muted">{conn.totalCount} in all</span>}
      </div>
      {error && (
        <p className="error" role="alert">
          {errorText(error)}
        </p>
      )}
      <Table
        labelledBy="payments-title"
        busy={fetching}
        columns={[
          { label: "Payment" },
          { label: "Status" },
          { label: "Amount", numeric: true },
          { label: "Currency" },
          { label: "Connector" },
          { label: "Created" },
        ]}
      >
        {rows.map((p) => (
          <tr key={p.id}>
            <td>
              <Link to={`/payments/${encodeURIComponent(p.paymentID)}`}>
                {p.paymentID}
              </Link>
            </td>
            <td>
              <Status value={p.status} />
            </td>
            <td className="num">{formatAmount(p.amount, p.currency)}</td>
            <td>{p.currency}</td>
            <td>{p.connector ?? "—"}</td>
            <td>
              <time dateTime={p.createdAt}>{formatDate(p.createdAt)}</time>
            </td>
          </tr>
        ))}
        {conn && rows.length === 0 && (
          <tr>
            <td colSpan={6} className="muted">
              No payments yet. Payments made with this merchant's API key show here.
            </td>
          </tr>
        )}
      </Table>
      <nav className="pager" aria-label="Pages">
        {newer && info?.startCursor ? (
          <Link to={`/payments?before=${encodeURIComponent(info.startCursor)}`}>
            ← Newer
          </Link>
        ) : (
          <span />
        )}
        {older && info?.endCursor ? (
          <Link to={`/payments?after=${encodeURIComponent(info.endCursor)}`}>
            Older →
          </Link>
        ) : (
          <span />
        )}
      </nav>
    </section>
  );
}
