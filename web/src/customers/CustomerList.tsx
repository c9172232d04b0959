// The customers list: the merchant's customers newest first, 20 a page with
// a cursor pager, each linking to its page.
import { useQuery } from "urql";
import { useCursorPage } from "../layout/CursorPager";
import { Link } from "../layout/Link";
import { Table } from "../layout/Table";
import { errorText } from "../lib/errors";
import { formatDate } from "../payments/status";
import { CustomersQuery } from "./operations";

const pageSize = 20;

export function CustomerList() {
  const { variables, pager } = useCursorPage(pageSize);
  const [{ data, error, fetching }] = useQuery({ query: CustomersQuery, variables, requestPolicy: "cache-and-network" });
  const conn = data?.customers;
  const rows = conn?.edges?.flatMap((e) => (e?.node ? [e.node] : [])) ?? [];
  return (
    <section aria-labelledby="customers-title">
      <div className="heading">
        <h1 id="customers-title">Customers</h1>
        {conn && <span className="muted">{conn.totalCount} in all</span>}
      </div>
      {error && (
        <p className="error" role="alert">
          {errorText(error)}
        </p>
      )}
      <Table
        labelledBy="customers-title"
        busy={fetching}
        testId="customer-list"
        columns={[{ label: "Customer" }, { label: "Name" }, { label: "Email" }, { label: "Phone" }, { label: "Created" }]}
      >
        {rows.map((c) => (
          <tr key={c.id}>
            <td>
              <Link to={`/customers/${encodeURIComponent(c.customerID)}`}>{c.customerID}</Link>
            </td>
            <td>{c.name ?? "—"}</td>
            <td>{c.email ?? "—"}</td>
            <td>{c.phone ?? "—"}</td>
            <td>
              <time dateTime={c.createdAt}>{formatDate(c.createdAt)}</time>
            </td>
          </tr>
        ))}
        {conn && rows.length === 0 && (
          <tr>
            <td colSpan={5} className="muted">
              No customers yet.
            </td>
          </tr>
        )}
      </Table>
      {pager(conn?.pageInfo, "Customer pages")}
    </section>
  );
}
