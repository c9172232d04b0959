// A customer's page: their details, the payment methods saved for them (a
// card masked as the API gives it: network, last four, expiry; never more),
// their mandates, and their payments, newest first, each linking to its page.
import { useQuery } from "urql";
import { Link, PaymentLink } from "../layout/Link";
import { Table, TimeCell, MoneyCell, TableSection } from "../layout/Table";
import { errorText } from "../lib/errors";
import { formatMoney } from "../lib/money";
import { StatusCell } from "../payments/status";
import { Time } from "../layout/TimeZone";
import { maskedCard } from "./maskedCard";
import { CustomerQuery } from "./operations";
import { nodesOf } from "../lib/connection";

export function CustomerDetail({ id }: { id: string }) {
  const [{ data, error, fetching }] = useQuery({ query: CustomerQuery, variables: { customerID: id }, requestPolicy: "cache-and-network" });
  const c = data?.customers.edges?.[0]?.node;
  const back = (
    <p>
      <Link to="/customers">← Customers</Link>
    </p>
  );
  if (!c) {
    return (
      <section>
        {back}
        {error ? (
          <p className="error" role="alert">
            {errorText(error)}
          </p>
        ) : fetching || !data ? (
          <p aria-busy="true">Loading…</p>
        ) : (
          <>
            <h1>Customer not found</h1>
            <p>This merchant has no customer {id}.</p>
          </>
        )}
      </section>
    );
  }
  const methods = c.paymentMethods ?? [];
  const mandates = c.mandates ?? [];
  const payments = nodesOf(c.payments);
  return (
    <section aria-labelledby="customer-title">
      {back}
      <h1 id="customer-title">{c.name ?? c.customerID}</h1>
      <dl className="facts">
        <dt>Customer</dt>
        <dd>{c.customerID}</dd>
        <dt>Email</dt>
        <dd>{c.email ?? "—"}</dd>
        <dt>Phone</dt>
        <dd>{c.phone ? [c.phoneCountryCode, c.phone].filter(Boolean).join(" ") : "—"}</dd>
        {c.description && (
          <>
            <dt>Description</dt>
            <dd>{c.description}</dd>
          </>
        )}
        <dt>Created</dt>
        <dd>
          <Time value={c.createdAt} />
        </dd>
      </dl>

      <h2 id="methods">Saved payment methods</h2>
      {methods.length === 0 ? (
        <p className="muted">No saved payment methods.</p>
      ) : (
        <Table
          labelledBy="methods"
          testId="payment-methods"
          columns={[{ label: "Method" }, { label: "Details" }, { label: "Status" }, { label: "Recurring" }, { label: "Saved" }]}
        >
          {methods.map((m) => (
            <tr key={m.id}>
              <td>
                {m.paymentMethodID}
                {m.paymentMethodID === c.defaultPaymentMethodID && <span className="muted"> (default)</span>}
              </td>
              <td data-testid="payment-method-details">
                {m.card ? maskedCard(m.card) : [m.paymentMethod, m.paymentMethodType].filter(Boolean).join(" · ")}
              </td>
              <StatusCell value={m.status} />
              <td>{m.recurringEnabled ? "yes" : "no"}</td>
              <TimeCell value={m.createdAt} />
            </tr>
          ))}
        </Table>
      )}

      <TableSection
        id="mandates"
        title="Mandates"
        none="No mandates."
        columns={[{ label: "Mandate" }, { label: "Type" }, { label: "Status" }, { label: "Amount", numeric: true }, { label: "Connector" }, { label: "First payment" }]}
        rows={mandates}
        row={(m) => (
          <tr key={m.id}>
            <td>{m.mandateID}</td>
            <td>{m.mandateType.replaceAll("_", " ")}</td>
            <StatusCell value={m.status} />
            <td className="num">{m.amount != null && m.currency ? formatMoney(m.amount, m.currency) : "—"}</td>
            <td>{m.connector ?? "—"}</td>
            <td>
              {m.originalPaymentID ? (
                <PaymentLink id={m.originalPaymentID} />
              ) : (
                "—"
              )}
            </td>
          </tr>
        )}
      />

      <h2 id="customer-payments">Payments</h2>
      {payments.length === 0 ? (
        <p className="muted">No payments.</p>
      ) : (
        <>
          <Table
            labelledBy="customer-payments"
            testId="customer-payments"
            columns={[{ label: "Payment" }, { label: "Status" }, { label: "Amount", numeric: true }, { label: "Connector" }, { label: "Created" }]}
          >
            {payments.map((p) => (
              <tr key={p.id}>
                <td>
                  <PaymentLink id={p.paymentID} />
                </td>
                <StatusCell value={p.status} />
                <MoneyCell amount={p.amount} currency={p.currency} />
                <td>{p.connector ?? "—"}</td>
                <TimeCell value={p.createdAt} />
              </tr>
            ))}
          </Table>
          {c.payments.totalCount > payments.length && (
            <p>
              <Link to={`/payments?customer=${encodeURIComponent(c.customerID)}`}>All {c.payments.totalCount} payments →</Link>
            </p>
          )}
        </>
      )}
    </section>
  );
}
