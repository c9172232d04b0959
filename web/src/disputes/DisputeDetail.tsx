// A dispute's page: amount, status, stage, its payment, the connector's
// view of it, Accept for the roles that may while it is open or challenged,
// and its Evidence section (./DisputeEvidence).
import { useQuery } from "urql";
import { DetailPage } from "../layout/DetailPage";
import { PaymentLink } from "../layout/Link";
import { BackLink, Missing } from "../layout/Missing";
import { Time } from "../layout/TimeZone";
import { formatMoney } from "../lib/money";
import type { Role } from "../lib/roles";
import { Status } from "../payments/status";
import { AcceptDispute } from "./AcceptDispute";
import { DisputeEvidence } from "./DisputeEvidence";
import { DisputeQuery } from "./operations";

export function DisputeDetail({ id, role }: { id: string; role: Role }) {
  const [{ data, error, fetching }, refetch] = useQuery({ query: DisputeQuery, variables: { id } });
  const d = data?.node && "disputeID" in data.node ? data.node : null;
  const back = <BackLink to="/disputes" label="Disputes" />;
  if (!d) return <Missing back={back} error={error} loading={fetching} noun="dispute" id={id} />;
  const refreshed = () => refetch({ requestPolicy: "network-only" });
  return (
    <DetailPage
      titleId="dispute-title"
      back={back}
      title={formatMoney(d.amount, d.currency)}
      badge={<Status value={d.disputeStatus} />}
      facts={[
        ["Dispute", d.disputeID],
        ["Status", d.disputeStatus, "dispute-status"],
        ["Stage", d.disputeStage.replaceAll("_", " ")],
        ["Payment", <PaymentLink id={d.payment.paymentID} />],
        ["Connector", d.connector],
        ["Connector dispute", d.connectorDisputeID],
        ["Connector status", d.connectorStatus],
        ["Reason", [d.connectorReason, d.connectorReasonCode].filter(Boolean).join(" · ")],
        ["Respond by", d.challengeRequiredBy ? <Time value={d.challengeRequiredBy} /> : null],
        ["Created", <Time value={d.createdAt} />],
        ["Updated", <Time value={d.modifiedAt} />],
      ]}
    >
      <div className="actions">
        <AcceptDispute id={d.disputeID} status={d.disputeStatus} role={role} done={refreshed} />
      </div>
      <DisputeEvidence disputeID={d.disputeID} status={d.disputeStatus} stage={d.disputeStage} evidence={d.evidence} role={role} done={refreshed} />
    </DetailPage>
  );
}
