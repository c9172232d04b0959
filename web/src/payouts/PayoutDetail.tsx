// A payout's page: amount, status, the masked payout method, the customer,
// the connector and its payout id, the attempts, the payout's events with
// every webhook delivery attempt, and the actions the role may take on a
// payout in this status (fulfil, cancel), each confirmed first and sent
// with its own idempotency key.
import { useState, type FormEvent } from "react";
import { useMutation, useQuery } from "urql";
import { ObjectEvents } from "../developers/EventLog";
import { ActionForms } from "../layout/ActionForms";
import { Facts } from "../layout/Facts";
import { BackLink, Missing } from "../layout/Missing";
import { SubmitRow } from "../layout/SubmitRow";
import { MoneyCell, TableSection, TimeCell } from "../layout/Table";
import { Time } from "../layout/TimeZone";
import { idempotencyKey } from "../lib/client";
import { nodesOf } from "../lib/connection";
import { errorText } from "../lib/errors";
import { formatMoney } from "../lib/money";
import type { Role } from "../lib/roles";
import { errorOf } from "../payments/AttemptTimeline";
import { Status, StatusCell } from "../payments/status";
import { payoutActions, type PayoutAction } from "./actions";
import { methodOf } from "./method";
import { CancelPayoutMutation, FulfillPayoutMutation, PayoutQuery } from "./operations";

export function PayoutDetail({ id, role }: { id: string; role: Role }) {
  const [{ data, error, fetching }, refetch] = useQuery({ query: PayoutQuery, variables: { id } });
  const p = data?.payout;
  const back = <BackLink to="/payouts" label="Payouts" />;
  if (!p) return <Missing back={back} error={error} loading={fetching} noun="payout" id={id} />;
  const attempts = nodesOf(p.attempts);
  const events = nodesOf(p.events);
  const actions = payoutActions(role, p.status);
  const refreshed = () => refetch({ requestPolicy: "network-only" });
  const amount = formatMoney(p.amount, p.currency);
  return (
    <section aria-labelledby="payout-title">
      {back}
      <div className="heading">
        <h1 id="payout-title">{amount}</h1>
        <Status value={p.status} />
      </div>
      <Facts
        facts={[
          ["Payout", p.payoutID],
          ["Status", p.status, "payout-status"],
          ["Method", methodOf(p.payoutMethodData) ?? "Not given yet"],
          ["Type", [p.payoutType, p.payoutMethodType].filter(Boolean).join(" · ")],
          ["Customer", p.customerID],
          ["Connector", p.connector],
          ["Connector payout", p.connectorTransactionID],
          ["Auto-fulfil", p.autoFulfill ? "Yes" : "No"],
          ["Priority", p.priority],
          ["Description", p.description],
          ["Order reference", p.merchantOrderReferenceID],
          ["Error", p.errorCode || p.errorMessage ? errorOf(p) : null],
          ["Created", <Time value={p.createdAt} />],
          ["Updated", <Time value={p.modifiedAt} />],
        ]}
      />

      {actions.length > 0 && <Actions actions={actions} payoutID={p.payoutID} amount={amount} done={refreshed} />}

      <TableSection id="payout-attempts" title="Attempts" none="No attempt yet: the payout has not been sent to a processor."
        columns={[
          { label: "Attempt" },
          { label: "Connector" },
          { label: "Status" },
          { label: "Amount", numeric: true },
          { label: "Error or reason" },
          { label: "Created" },
        ]}
        rows={attempts}
        row={(a) => (
          <tr key={a.id}>
            <td>{a.payoutAttemptID}</td>
            <td>{a.connector}</td>
            <StatusCell value={a.status} />
            <MoneyCell amount={a.amount} currency={a.currency} />
            <td>{a.cancellationReason ?? errorOf(a)}</td>
            <TimeCell value={a.createdAt} />
          </tr>
        )}
      />

      <ObjectEvents id="payout-events" testId="payout-events" events={events} role={role} done={refreshed} />
    </section>
  );
}

const labels: Record<PayoutAction, string> = { fulfill: "Fulfil payout", cancel: "Cancel payout" };

/** The payout's actions: a button each, then a form that says what the action does and confirms it. */
function Actions(props: { actions: PayoutAction[]; payoutID: string; amount: string; done: () => void }) {
  const [open, setOpen] = useState<PayoutAction | null>(null);
  // One key per opened form: resubmitting it (a double click, a retry
  // after a network error) cannot act twice.
  const [key, setKey] = useState(idempotencyKey);
  const [fulfill, runFulfill] = useMutation(FulfillPayoutMutation);
  const [cancel, runCancel] = useMutation(CancelPayoutMutation);
  const busy = fulfill.fetching || cancel.fetching;
  const error = errorText(fulfill.error) ?? errorText(cancel.error);
  const start = (a: PayoutAction) => {
    setOpen(a);
    setKey(idempotencyKey());
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!open || busy) return;
    const vars = { id: props.payoutID, idempotencyKey: key };
    const ok = open === "fulfill" ? !!(await runFulfill(vars)).data : !!(await runCancel(vars)).data;
    if (ok) {
      setOpen(null);
      props.done();
    }
  };
  return (
    <ActionForms actions={props.actions} labels={labels} open={open} start={start} submit={submit}>
      {open && (
        <>
          <p>
            {open === "fulfill"
              ? `Fulfil this payout? The processor sends ${props.amount} to the payout's method; this cannot be undone here.`
              : "Cancel this payout? No money is sent; a processor that has the payout is asked to cancel it."}
          </p>
          <SubmitRow label={`Yes, ${labels[open].toLowerCase()}`} busy={busy} text={error} onClose={() => setOpen(null)} />
        </>
      )}
    </ActionForms>
  );
}
