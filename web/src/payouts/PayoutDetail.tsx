// A payout's page: amount, status, the masked payout method, the customer,
// the connector and its payout id, the attempts, the payout's events with
// every webhook delivery attempt, and the actions the role may take on a
// payout in this status (fulfil, cancel), each confirmed first and sent
// with its own idempotency key.
import { useMutation, useQuery } from "urql";
import { ObjectEvents } from "../developers/EventLog";
import { ActionForms, useActionForm } from "../layout/ActionForms";
import { DetailPage } from "../layout/DetailPage";
import { BackLink, Missing } from "../layout/Missing";
import { SubmitRow } from "../layout/SubmitRow";
import { Time } from "../layout/TimeZone";
import { nodesOf } from "../lib/connection";
import { errorText } from "../lib/errors";
import { formatMoney } from "../lib/money";
import type { Role } from "../lib/roles";
import { errorOf } from "../payments/AttemptTimeline";
import { MoneySteps } from "../payments/MoneySteps";
import { Status } from "../payments/status";
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
    <DetailPage
      titleId="payout-title"
      back={back}
      title={amount}
      badge={<Status value={p.status} />}
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
    >
      {actions.length > 0 && <Actions actions={actions} payoutID={p.payoutID} amount={amount} done={refreshed} />}

      <MoneySteps
        id="payout-attempts"
        title="Attempts"
        none="No attempt yet: the payout has not been sent to a processor."
        rows={attempts}
        step="Attempt"
        name={(a) => a.payoutAttemptID}
        problem="Error or reason"
        why={(a) => a.cancellationReason ?? errorOf(a)}
      />

      <ObjectEvents id="payout-events" testId="payout-events" events={events} role={role} done={refreshed} />
    </DetailPage>
  );
}

const labels: Record<PayoutAction, string> = { fulfill: "Fulfil payout", cancel: "Cancel payout" };

/** The payout's actions: a button each, then a form that says what the action does and confirms it. */
function Actions(props: { actions: PayoutAction[]; payoutID: string; amount: string; done: () => void }) {
  const [fulfill, runFulfill] = useMutation(FulfillPayoutMutation);
  const [cancel, runCancel] = useMutation(CancelPayoutMutation);
  const busy = fulfill.fetching || cancel.fetching;
  const error = errorText(fulfill.error) ?? errorText(cancel.error);
  const form = useActionForm<PayoutAction>(busy, props.done);
  const { open } = form;
  const submit = form.submit(async (a, key) => {
    const vars = { id: props.payoutID, idempotencyKey: key };
    return !!(await (a === "fulfill" ? runFulfill(vars) : runCancel(vars))).data;
  });
  return (
    <ActionForms actions={props.actions} labels={labels} open={open} start={form.start} submit={submit}>
      {open && (
        <>
          <p>
            {open === "fulfill"
              ? `Fulfil this payout? The processor sends ${props.amount} to the payout's method; this cannot be undone here.`
              : "Cancel this payout? No money is sent; a processor that has the payout is asked to cancel it."}
          </p>
          <SubmitRow label={`Yes, ${labels[open].toLowerCase()}`} busy={busy} text={error} onClose={form.close} />
        </>
      )}
    </ActionForms>
  );
}
