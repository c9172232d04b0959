// The payments list: newest first, 20 a page, filtered by what the URL
// says (lib/filters: status, currency, connector, amount, days of the
// merchant's time zone, customer id or e-mail, payment id), with the connection's cursors kept in the URL too (?after=…
// or ?before=…) so a page can be reloaded, shared within the cursors'
// hour, and left with Back. Export CSV asks the API for a one-time link to
// the same payments and opens it.
import { useEffect, useRef, useState } from "react";
import { useMutation, useQuery, useSubscription } from "urql";
import { errorText } from "../lib/errors";
import { exportFilter, paymentFilters, paymentsWhere } from "../lib/filters";
import { formatAmount } from "../lib/money";
import { canRun, type Role } from "../lib/roles";
import { Link, PaymentLink } from "../layout/Link";
import { useListFilters } from "../layout/FilterForm";
import { Table, TimeCell } from "../layout/Table";
import { useTimeZone } from "../layout/TimeZone";
import { Filters } from "./Filters";
import { CreatePaymentExportMutation, PaymentUpdatedSubscription, PaymentsQuery } from "./operations";
import { StatusCell } from "./status";
import { nodesOf } from "../lib/connection";
import { ListHeading } from "../layout/ListHeading";

const pageSize = 20;

export function PaymentList({ role }: { role: Role }) {
  const { filters, query, apply, filtered, search } = useListFilters(paymentFilters, "/payments");
  const timeZone = useTimeZone();
  const after = search.get("after");
  const before = search.get("before");
  const where = paymentsWhere(filters, timeZone);
  const variables = before ? { last: pageSize, before, where } : { first: pageSize, after, where };
  const [{ data, error, fetching }, refetch] = useQuery({ query: PaymentsQuery, variables });
  // Live: a payment made or changed anywhere reads the open page again, at
  // most once a second, so a burst of changes costs one query.
  const [live] = useSubscription({ query: PaymentUpdatedSubscription });
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    if (!live.data || pending.current) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      refetch({ requestPolicy: "network-only" });
    }, 1000);
  }, [live.data, refetch]);
  useEffect(() => () => {
    if (pending.current) clearTimeout(pending.current);
  }, []);
  const [exportState, createExport] = useMutation(CreatePaymentExportMutation);
  const [exporting, setExporting] = useState(false);
  const conn = data?.payments;
  const rows = nodesOf(conn);
  const info = conn?.pageInfo;
  // With ?before the connection pages backwards: its "previous" is the
  // newer side. Without a cursor the first page has nothing newer.
  const newer = before ? info?.hasPreviousPage : after ? true : false;
  const older = before ? true : info?.hasNextPage;
  const page = (cursor: "after" | "before", value: string) => {
    const q = new URLSearchParams(query);
    q.set(cursor, value);
    return `/payments?${q.toString()}`;
  };
  return (
    <section aria-labelledby="payments-title">
      <ListHeading id="payments-title" title="Payments" testId="payments-count" count={conn?.totalCount} filtered={filtered}>
        <span className="spacer" />
        {canRun(role, "createPaymentExport") && (
          <button
            type="button"
            disabled={exporting}
            onClick={async () => {
              setExporting(true);
              const res = await createExport({ filter: exportFilter(filters, timeZone) });
              const url = res.data?.createPaymentExport.url;
              // The link is the grant: one use, five minutes; the browser
              // downloads it (the server names it an attachment).
              if (url) window.location.assign(url);
              setExporting(false);
            }}
          >
            {exporting ? "Exporting…" : "Export CSV"}
          </button>
        )}
      </ListHeading>
      <Filters key={query.toString()} value={filters} onApply={apply} />
      {(error || exportState.error) && (
        <p className="error" role="alert">
          {errorText(error) ?? errorText(exportState.error)}
        </p>
      )}
      <Table
        labelledBy="payments-title"
        empty={conn && rows.length === 0 && (filtered ? "No payments match these filters." : "No payments yet. Payments made with this merchant's API key show here.")}
        busy={fetching}
        testId="payments"
        columns={[
          { label: "Payment" },
          { label: "Status" },
          { label: "Amount", numeric: true },
          { label: "Currency" },
          { label: "Connector" },
          { label: `Created (${timeZone})` },
        ]}
      >
        {rows.map((p) => (
          <tr key={p.id}>
            <td>
              <PaymentLink id={p.paymentID} />
            </td>
            <StatusCell value={p.status} />
            <td className="num">{formatAmount(p.amount, p.currency)}</td>
            <td>{p.currency}</td>
            <td>{p.connector ?? "—"}</td>
            <TimeCell value={p.createdAt} />
          </tr>
        ))}
      </Table>
      <nav className="pager" aria-label="Pages">
        {newer && info?.startCursor ? <Link to={page("before", info.startCursor)}>← Newer</Link> : <span />}
        {older && info?.endCursor ? <Link to={page("after", info.endCursor)}>Older →</Link> : <span />}
      </nav>
    </section>
  );
}
