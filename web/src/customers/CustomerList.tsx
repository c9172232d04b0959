// The customers list: the merchant's customers newest first, 20 a page with
// a cursor pager, each linking to its page; filtered by what the URL says
// (./filters: a customer id or e-mail, a part of the name).
import { useQuery } from "urql";
import { useCursorPage } from "../layout/CursorPager";
import { CustomerField, FilterForm, TextField, customerHint, useListFilters } from "../layout/FilterForm";
import { Link } from "../layout/Link";
import { Table } from "../layout/Table";
import { errorText } from "../lib/errors";
import { Time, useTimeZone } from "../layout/TimeZone";
import { customerFilters, customersWhere } from "./filters";
import { CustomersQuery } from "./operations";
import { nodesOf } from "../lib/connection";
import { ListHeading } from "../layout/ListHeading";

const pageSize = 20;

export function CustomerList() {
  const { filters, query, apply, filtered } = useListFilters(customerFilters, "/customers");
  const timeZone = useTimeZone();
  const { variables, pager } = useCursorPage(pageSize, query.toString());
  const [{ data, error, fetching }] = useQuery({
    query: CustomersQuery,
    variables: { ...variables, where: customersWhere(filters) },
    requestPolicy: "cache-and-network",
  });
  const conn = data?.customers;
  const rows = nodesOf(conn);
  return (
    <section aria-labelledby="customers-title">
      <ListHeading id="customers-title" title="Customers" testId="customers-count" count={conn?.totalCount} filtered={filtered} />
      <FilterForm key={query.toString()} label="Filter customers" value={filters} set={customerFilters} onApply={apply} hint={customerHint}>
        {(draft, change) => (
          <div className="filter-fields">
            <CustomerField value={draft.customer} onChange={(v) => change("customer", v)} />
            <TextField id="filter-name" label="Name contains" value={draft.name} onChange={(v) => change("name", v)} />
          </div>
        )}
      </FilterForm>
      {error && (
        <p className="error" role="alert">
          {errorText(error)}
        </p>
      )}
      <Table
        labelledBy="customers-title"
        busy={fetching}
        testId="customer-list"
        columns={[{ label: "Customer" }, { label: "Name" }, { label: "Email" }, { label: "Phone" }, { label: `Created (${timeZone})` }]}
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
              <Time value={c.createdAt} />
            </td>
          </tr>
        ))}
        {conn && rows.length === 0 && (
          <tr>
            <td colSpan={5} className="muted">
              {filtered ? "No customers match these filters." : "No customers yet."}
            </td>
          </tr>
        )}
      </Table>
      {pager(conn?.pageInfo, "Customer pages")}
    </section>
  );
}
