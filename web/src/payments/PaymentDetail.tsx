// A payment's page: amount, status, customer, the attempts as a timeline
// (connector, routing decision and rule, why a try failed and where the
// payment went next), captures, refunds, disputes (accepted by the roles
// that may), the payment's events with every webhook delivery attempt and a
// retry, and the actions the role may take on a payment in this status
// (capture, cancel, refund), each sent with its own idempotency key.
import { useState } from "react";
import { useMutation, useQuery } from "urql";
import { errorText } from "../lib/errors";
import { currencyExponent, formatMoney, majorUnits, parseMajor } from "../lib/money";
import { paymentActions, type PaymentAction, type Role } from "../lib/roles";
import { AcceptDispute } from "../disputes/AcceptDispute";
import { ObjectEvents } from "../developers/EventLog";
import { AttemptTimeline } from "./AttemptTimeline";
import { CancelPaymentMutation, CapturePaymentMutation, CreateRefundMutation, PaymentQuery } from "./operations";
import { TimeCell, MoneyCell, TableSection } from "../layout/Table";
import { Status, StatusCell } from "./status";
import { Time } from "../layout/TimeZone";
import { nodesOf } from "../lib/connection";
import { SubmitRow } from "../layout/SubmitRow";
import { BackLink, Missing } from "../layout/Missing";
import { DisputeLink } from "../layout/Link";
import { ActionForms, useActionForm } from "../layout/ActionForms";
import { DetailPage } from "../layout/DetailPage";
import { MoneySteps } from "./MoneySteps";

export function PaymentDetail({ id, role }: { id: string; role: Role }) {
  const [{ data, error, fetching }, refetch] = useQuery({ query: PaymentQuery, variables: { id } });
  const p = data?.payment;
  const back = <BackLink to="/payments" label="Payments" />;
  if (!p) return <Missing back={back} error={error} loading={fetching} noun="payment" id={id} />;
  const refunds = nodesOf(p.refunds);
  const attempts = p.attempts ?? [];
  const captures = p.captures ?? [];
  const disputes = p.disputes ?? [];
  const events = nodesOf(p.events);
  const actions = paymentActions(role, p.status);
  const refreshed = () => refetch({ requestPolicy: "network-only" });
  return (
    <DetailPage
      titleId="payment-title"
      back={back}
      title={formatMoney(p.amount, p.currency)}
      badge={<Status value={p.status} />}
      facts={[
        ["Payment", p.paymentID],
        ["Status", p.status, "payment-status"],
        ["Captured", formatMoney(p.amountCaptured, p.currency)],
        ["Capturable", formatMoney(p.amountCapturable, p.currency)],
        ["Capture method", p.captureMethod],
        ["Customer", p.customerID ? [p.customerID, p.customer?.name, p.customer?.email].filter(Boolean).join(" · ") : "Guest"],
        ["Description", p.description],
        ["Created", <Time value={p.createdAt} />],
      ]}
    >
      {actions.length > 0 && (
        <Actions
          actions={actions}
          paymentID={p.paymentID}
          currency={p.currency}
          capturable={p.amountCapturable}
          refundable={p.amountCaptured - refunds.filter((r) => r.status !== "failed").reduce((s, r) => s + r.amount, 0)}
          done={refreshed}
        />
      )}

      <h2 id="attempts">Attempts</h2>
      {attempts.length === 0 ? <p className="muted">No attempt yet.</p> : <AttemptTimeline attempts={attempts} />}

      <MoneySteps id="captures" title="Captures" none="No separate captures." rows={captures} step="#" name={(c) => c.captureSequence} problem="Error" />

      <TableSection id="refunds" title="Refunds" none="No refunds."
        columns={[{ label: "Refund" }, { label: "Status" }, { label: "Amount", numeric: true }, { label: "Created" }]}
        rows={refunds}
        row={(r) => (
          <tr key={r.id}>
            <td>{r.refundID}</td>
            <StatusCell value={r.status} />
            <MoneyCell amount={r.amount} currency={r.currency} />
            <TimeCell value={r.createdAt} />
          </tr>
        )}
      />

      <TableSection id="disputes" title="Disputes" none="No disputes."
        columns={[
          { label: "Dispute" },
          { label: "Stage" },
          { label: "Status" },
          { label: "Amount", numeric: true },
          { label: "Reason" },
          { label: "Respond by" },
          { label: "Action" },
        ]}
        rows={disputes}
        row={(d) => (
          <tr key={d.id}>
            <td>
              <DisputeLink id={d.id} />
            </td>
            <td>{d.disputeStage.replaceAll("_", " ")}</td>
            <StatusCell value={d.disputeStatus} />
            <MoneyCell amount={d.amount} currency={d.currency} />
            <td>{d.connectorReason ?? "—"}</td>
            <td>{d.challengeRequiredBy ? <Time value={d.challengeRequiredBy} /> : "—"}</td>
            <td>
              <AcceptDispute id={d.id} status={d.disputeStatus} role={role} done={refreshed} />
            </td>
          </tr>
        )}
      />

      <ObjectEvents id="payment-events" testId="payment-events" events={events} role={role} done={refreshed} />
    </DetailPage>
  );
}

const labels: Record<PaymentAction, string> = { capture: "Capture", cancel: "Cancel payment", refund: "Refund" };

function Actions(props: {
  actions: PaymentAction[];
  paymentID: string;
  currency: string;
  capturable: number;
  refundable: number;
  done: () => void;
}) {
  const [amount, setAmount] = useState("");
  const [invalid, setInvalid] = useState<string | null>(null);
  const [capture, runCapture] = useMutation(CapturePaymentMutation);
  const [cancel, runCancel] = useMutation(CancelPaymentMutation);
  const [refund, runRefund] = useMutation(CreateRefundMutation);
  const busy = capture.fetching || cancel.fetching || refund.fetching;
  const error = invalid ?? errorText(capture.error) ?? errorText(cancel.error) ?? errorText(refund.error);
  const form = useActionForm<PaymentAction>(busy, props.done);
  const { open } = form;

  const start = (a: PaymentAction) => {
    form.start(a);
    setInvalid(null);
    // A capture usually takes everything authorized; a refund is usually
    // partial, so its field starts empty with the most it may be beside it.
    setAmount(a === "capture" && props.capturable > 0 ? majorUnits(props.capturable, props.currency) : "");
  };
  const submit = form.submit(async (a, key) => {
    if (a === "cancel") return !!(await runCancel({ id: props.paymentID, idempotencyKey: key })).data;
    const minor = parseMajor(amount, props.currency);
    if (minor === null || minor <= 0) {
      setInvalid(`Enter an amount in ${props.currency}, with at most ${currencyExponent(props.currency)} decimals.`);
      return false;
    }
    setInvalid(null);
    return a === "capture"
      ? !!(await runCapture({ id: props.paymentID, amount: minor, idempotencyKey: key })).data
      : !!(await runRefund({ paymentID: props.paymentID, amount: minor, idempotencyKey: key })).data;
  });
  return (
    <ActionForms actions={props.actions} labels={labels} open={open} start={start} submit={submit}>
      {open && (
        <>
          {open === "cancel" ? (
            <p>Cancel this payment? Money that is authorized and not captured is released.</p>
          ) : (
            <div className="field">
              <label htmlFor="action-amount">
                {labels[open]} amount ({props.currency})
              </label>
              <input
                id="action-amount"
                inputMode="decimal"
                value={amount}
                onChange={(e) => setAmount(e.target.value)}
                aria-describedby="action-amount-hint"
                required
              />
              <small id="action-amount-hint" className="muted">
                At most {formatMoney(open === "capture" ? props.capturable : props.refundable, props.currency)}
              </small>
            </div>
          )}
          <SubmitRow label={open === "cancel" ? "Cancel payment" : labels[open]} busy={busy} text={error} onClose={form.close} />
        </>
      )}
    </ActionForms>
  );
}
