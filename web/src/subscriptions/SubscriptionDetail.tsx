// A subscription's page: its customer, plan and price, its period, what is
// scheduled, its invoices (each with the payment that charged it), and the
// actions the role may take in this status (pause, resume, cancel), each
// confirmed first and sent with its own idempotency key.
import { useMutation, useQuery } from "urql";
import { ActionForms, useActionForm } from "../layout/ActionForms";
import { DetailPage } from "../layout/DetailPage";
import { PaymentLink } from "../layout/Link";
import { BackLink, Missing } from "../layout/Missing";
import { SubmitRow } from "../layout/SubmitRow";
import { MoneyCell, TableSection } from "../layout/Table";
import { Time } from "../layout/TimeZone";
import { nodesOf } from "../lib/connection";
import { errorText } from "../lib/errors";
import { formatMoney } from "../lib/money";
import type { Role } from "../lib/roles";
import { Status, StatusCell } from "../payments/status";
import { periodOf, subscriptionActions, type SubscriptionAction } from "./actions";
import { CancelSubscriptionMutation, PauseSubscriptionMutation, ResumeSubscriptionMutation, SubscriptionQuery } from "./operations";

export function SubscriptionDetail({ id, role }: { id: string; role: Role }) {
  const [{ data, error, fetching }, refetch] = useQuery({ query: SubscriptionQuery, variables: { id } });
  const s = data?.subscription;
  const back = <BackLink to="/subscriptions" label="Subscriptions" />;
  if (!s) return <Missing back={back} error={error} loading={fetching} noun="subscription" id={id} />;
  const invoices = nodesOf(s.invoices);
  const price = s.itemPrice;
  const actions = subscriptionActions(role, s.status);
  const refreshed = () => refetch({ requestPolicy: "network-only" });
  const time = (t?: string | null) => (t ? <Time value={t} /> : null);
  return (
    <DetailPage
      titleId="subscription-title"
      back={back}
      title={s.id}
      badge={<Status value={s.status} />}
      facts={[
        ["Status", s.status, "subscription-status"],
        ["Customer", s.customerID],
        ["Plan", s.plan?.name ?? s.planID],
        ["Price", price ? `${formatMoney(price.amount, price.currency)} a ${periodOf(price.interval, price.intervalCount)}` : s.itemPriceID],
        ["Coupon", s.couponCode],
        ["Reference", s.merchantReferenceID],
        ["Test clock", s.testClockID],
        ["Trial ends", time(s.trialEnd)],
        ["Current period", s.currentPeriodStart && s.currentPeriodEnd ? <><Time value={s.currentPeriodStart} /> – <Time value={s.currentPeriodEnd} /></> : null],
        ["Next billing", time(s.nextBillingAt)],
        ["Paused", time(s.pausedAt)],
        ["Resumes", time(s.resumeAt)],
        ["Cancels", s.cancelledAt ? null : time(s.cancelAt)],
        ["Cancelled", time(s.cancelledAt)],
        ["Cancel reason", s.cancelReasonCode],
        ["Created", <Time value={s.createdAt} />],
      ]}
    >
      {actions.length > 0 && <Actions actions={actions} subscriptionID={s.id} done={refreshed} />}

      <TableSection
        id="subscription-invoices"
        title="Invoices"
        none="No invoice yet."
        columns={[{ label: "Invoice" }, { label: "Status" }, { label: "Amount", numeric: true }, { label: "Period" }, { label: "Due" }, { label: "Tries", numeric: true }, { label: "Payment" }, { label: "Error" }]}
        rows={invoices}
        row={(inv) => (
          <tr key={inv.id}>
            <td>{inv.id}</td>
            <StatusCell value={inv.status} />
            <MoneyCell amount={inv.amount} currency={inv.currency} />
            <td>
              <Time value={inv.periodStart} /> – <Time value={inv.periodEnd} />
            </td>
            <td>
              <Time value={inv.dueAt} />
            </td>
            <td className="num">{inv.attemptCount}</td>
            <td>{inv.paymentIntentID ? <PaymentLink id={inv.paymentIntentID} /> : "—"}</td>
            <td>{inv.errorMessage ?? "—"}</td>
          </tr>
        )}
      />
    </DetailPage>
  );
}

const labels: Record<SubscriptionAction, string> = { pause: "Pause subscription", resume: "Resume subscription", cancel: "Cancel subscription" };

const explain: Record<SubscriptionAction, string> = {
  pause: "Pause this subscription now? No invoice is charged while it is paused.",
  resume: "Resume this subscription now? Billing starts again; an invoice that fell due while paused is due now.",
  cancel: "Cancel this subscription now? Its open invoice is voided and nothing more is charged; this cannot be undone.",
};

/** The subscription's actions: a button each, then a form that says what the action does and confirms it. */
function Actions(props: { actions: SubscriptionAction[]; subscriptionID: string; done: () => void }) {
  const [pause, runPause] = useMutation(PauseSubscriptionMutation);
  const [resume, runResume] = useMutation(ResumeSubscriptionMutation);
  const [cancel, runCancel] = useMutation(CancelSubscriptionMutation);
  const busy = pause.fetching || resume.fetching || cancel.fetching;
  const error = errorText(pause.error) ?? errorText(resume.error) ?? errorText(cancel.error);
  const form = useActionForm<SubscriptionAction>(busy, props.done);
  const { open } = form;
  const submit = form.submit(async (a, key) => {
    const vars = { id: props.subscriptionID, idempotencyKey: key };
    const run = { pause: runPause, resume: runResume, cancel: runCancel }[a];
    return !!(await run(vars)).data;
  });
  return (
    <ActionForms actions={props.actions} labels={labels} open={open} start={form.start} submit={submit}>
      {open && (
        <>
          <p>{explain[open]}</p>
          <SubmitRow label={`Yes, ${labels[open].toLowerCase()}`} busy={busy} text={error} onClose={form.close} />
        </>
      )}
    </ActionForms>
  );
}
