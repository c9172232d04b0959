// The customers list: the merchant's customers newest first, 20 a page with
// a cursor pager, each linking to its page; filtered by what the URL says
// (./filters: a customer id or e-mail, a part of the name).
import { useQuery } from "urql";
import { CustomerField, TextField, customerHint } from "../layout/FilterForm";
import { FilteredList, useFilteredPages } from "../layout/FilteredList";
import { Link } from "../layout/Link";
import { TimeCell } from "../layout/Table";
import { customerFilters, customersWhere } from "./filters";
import { CustomersQuery } from "./operations";

export function CustomerList() {
  const list = useFilteredPages(customerFilters, "/customers", customersWhere);
  const [result] = useQuery({ query: CustomersQuery, variables: list.variables, requestPolicy: "cache-and-network" });
  return (
    <FilteredList list={list} one="customer" many="customers" title="Customers" none="No customers yet." hint={customerHint}
      result={result} conn={result.data?.customers}
      fields={(draft, change) => (
        <div className="filter-fields">
          <CustomerField value={draft.customer} onChange={(v) => change("customer", v)} />
          <TextField id="filter-name" label="Name contains" value={draft.name} onChange={(v) => change("name", v)} />
        </div>
      )}
      columns={[{ label: "Customer" }, { label: "Name" }, { label: "Email" }, { label: "Phone" }, { label: `Created (${list.timeZone})` }]}
      row={(c) => (
        <tr key={c.id}>
          <td>
            <Link to={`/customers/${encodeURIComponent(c.customerID)}`}>{c.customerID}</Link>
          </td>
          <td>{c.name ?? "—"}</td>
          <td>{c.email ?? "—"}</td>
          <td>{c.phone ?? "—"}</td>
          <TimeCell value={c.createdAt} />
        </tr>
      )}
    />
  );
}
