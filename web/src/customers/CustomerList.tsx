// The customers list: the merchant's customers newest first, 20 a page with
// a cursor pager, each linking to its page; filtered by what the URL says
// (./filters: a customer id or e-mail, a part of the name).
import { useQuery } from "urql";
import { useCursorPage } from "../layout/CursorPager";
import { CustomerField, FilterForm, TextField, customerHint, useListFilters } from "../layout/FilterForm";
import { Link } from "../layout/Link";
import { Table, TimeCell } from "../layout/Table";
import { useTimeZone } from "../layout/TimeZone";
import { customerFilters, customersWhere } from "./filters";
import { CustomersQuery } from "./operations";
import { nodesOf } from "../lib/connection";
import { ListHeading } from "../layout/ListHeading";
import { ErrorAlert } from "../layout/ErrorAlert";

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
      <ErrorAlert error={error} />
      <Table
        labelledBy="customers-title"
        empty={conn && rows.length === 0 && (filtered ? "No customers match these filters." : "No customers yet.")}
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
            <TimeCell value={c.createdAt} />
          </tr>
        ))}
      </Table>
      {pager(conn?.pageInfo, "Customer pages")}
    </section>
  );
}
