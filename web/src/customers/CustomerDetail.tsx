// A customer's page: their details, the payment methods saved for them (a
// card masked as the API gives it: network, last four, expiry; never more),
// their mandates, and their payments, newest first, each linking to its page.
import { useQuery } from "urql";
import { Link, PaymentLink } from "../layout/Link";
import { TimeCell, MoneyCell, TableSection } from "../layout/Table";
import { formatMoney } from "../lib/money";
import { StatusCell } from "../payments/status";
import { Time } from "../layout/TimeZone";
import { maskedCard } from "./maskedCard";
import { CustomerQuery } from "./operations";
import { nodesOf } from "../lib/connection";
import { Facts } from "../layout/Facts";
import { BackLink, Missing } from "../layout/Missing";

export function CustomerDetail({ id }: { id: string }) {
  const [{ data, error, fetching }] = useQuery({ query: CustomerQuery, variables: { customerID: id }, requestPolicy: "cache-and-network" });
  const c = data?.customers.edges?.[0]?.node;
  const back = <BackLink to="/customers" label="Customers" />;
  if (!c) return <Missing back={back} error={error} loading={fetching || !data} noun="customer" id={id} />;
  const methods = c.paymentMethods ?? [];
  const mandates = c.mandates ?? [];
  const payments = nodesOf(c.payments);
  return (
    <section aria-labelledby="customer-title">
      {back}
      <h1 id="customer-title">{c.name ?? c.customerID}</h1>
      <Facts
        facts={[
          ["Customer", c.customerID],
          ["Email", c.email ?? "—"],
          ["Phone", c.phone ? [c.phoneCountryCode, c.phone].filter(Boolean).join(" ") : "—"],
          ["Description", c.description],
          ["Created", <Time value={c.createdAt} />],
        ]}
      />

      <TableSection id="methods" title="Saved payment methods" none="No saved payment methods." testId="payment-methods"
        columns={[{ label: "Method" }, { label: "Details" }, { label: "Status" }, { label: "Recurring" }, { label: "Saved" }]}
        rows={methods}
        row={(m) => (
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
        )}
      />

      <TableSection id="mandates" title="Mandates" none="No mandates."
        columns={[{ label: "Mandate" }, { label: "Type" }, { label: "Status" }, { label: "Amount", numeric: true }, { label: "Connector" }, { label: "First payment" }]}
        rows={mandates}
        row={(m) => (
          <tr key={m.id}>
            <td>{m.mandateID}</td>
            <td>{m.mandateType.replaceAll("_", " ")}</td>
            <StatusCell value={m.status} />
            <td className="num">{m.amount != null && m.currency ? formatMoney(m.amount, m.currency) : "—"}</td>
            <td>{m.connector ?? "—"}</td>
            <td>{m.originalPaymentID ? <PaymentLink id={m.originalPaymentID} /> : "—"}</td>
          </tr>
        )}
      />

      <TableSection id="customer-payments" title="Payments" none="No payments."
        columns={[{ label: "Payment" }, { label: "Status" }, { label: "Amount", numeric: true }, { label: "Connector" }, { label: "Created" }]}
        rows={payments}
        row={(p) => (
          <tr key={p.id}>
            <td>
              <PaymentLink id={p.paymentID} />
            </td>
            <StatusCell value={p.status} />
            <MoneyCell amount={p.amount} currency={p.currency} />
            <td>{p.connector ?? "—"}</td>
            <TimeCell value={p.createdAt} />
          </tr>
        )}
        after={
          c.payments.totalCount > payments.length && (
            <p>
              <Link to={`/payments?customer=${encodeURIComponent(c.customerID)}`}>All {c.payments.totalCount} payments →</Link>
            </p>
          )
        }
      />
    </section>
  );
}
