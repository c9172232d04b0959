// A payment's, payout's or attempt's status as a labelled badge, coloured by outcome
// (the text says it too: colour is never the only signal).
const tone: Record<string, string> = {
  succeeded: "good",
  success: "good",
  charged: "good",
  authorized: "good",
  partially_captured: "good",
  failed: "bad",
  authorization_failed: "bad",
  capture_failed: "bad",
  router_declined: "bad",
  failure: "bad",
  cancelled: "neutral",
  voided: "neutral",
  expired: "neutral",
  reversed: "neutral",
  ineligible: "bad",
};

export function Status({ value }: { value: string }) {
  return <span className={`status ${tone[value] ?? "pending"}`}>{value.replaceAll("_", " ")}</span>;
}

/** A table cell showing a status. */
export function StatusCell({ value }: { value: string }) {
  return (
    <td>
      <Status value={value} />
    </td>
  );
}
