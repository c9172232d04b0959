// A payment's attempts as a timeline, oldest first: each try's connector,
// the routing decision that chose it (approach, algorithm kind, the rule
// that matched), its outcome and error (the connector's code and message,
// the merchant's GSM rule's unified code and message), and what came next.
// A failed try is followed by another either automatically, when the
// merchant's GSM rules judge the failure retryable (payments/retry.go: the
// next connector of the route, or the same one stepped up to 3-D Secure),
// or by a new confirm of the failed payment (a manual retry). The API does
// not say which, so the page says where the payment went and after what
// error, and the list's note says what can make a retry.
import { formatMoney } from "../lib/money";
import { Status } from "./status";
import { Time } from "../layout/TimeZone";
import { Facts } from "../layout/Facts";

export interface TimelineAttempt {
  id: string;
  status: string;
  amount: number;
  currency: string;
  connector?: string | null;
  routingApproach?: string | null;
  routingKind?: string | null;
  routingRule?: string | null;
  authenticationType?: string | null;
  errorCode?: string | null;
  errorMessage?: string | null;
  unifiedCode?: string | null;
  unifiedMessage?: string | null;
  createdAt: string;
}

/** A connector's error as one line: its code and message, or a dash. */
export function errorOf(x: { errorCode?: string | null; errorMessage?: string | null }): string {
  return x.errorCode || x.errorMessage ? [x.errorCode, x.errorMessage].filter(Boolean).join(": ") : "—";
}

/** The routing decision behind an attempt, in words. */
export function routingOf(a: TimelineAttempt): string {
  const parts = [a.routingApproach?.replaceAll("_", " "), a.routingKind && `${a.routingKind} algorithm`, a.routingRule && `rule “${a.routingRule}”`];
  const text = parts.filter(Boolean).join(" · ");
  return text || "—";
}

/** Why the payment moved on from attempt a to next, or null when a was the last try. */
export function retryReason(a: TimelineAttempt, next: TimelineAttempt | undefined): string | null {
  if (!next) return null;
  const why = a.errorCode ? ` after ${a.errorCode}` : "";
  if (next.connector === a.connector && next.authenticationType === "three_ds" && a.authenticationType !== "three_ds") {
    return `Retried with 3-D Secure on ${next.connector ?? "the same connector"}${why}`;
  }
  return `Retried on ${next.connector ?? "another connector"}${why}`;
}

export function AttemptTimeline({ attempts }: { attempts: readonly TimelineAttempt[] }) {
  const ordered = [...attempts].sort((x, y) => x.createdAt.localeCompare(y.createdAt));
  return (
    <>
      {ordered.length > 1 && (
        <p className="muted">
          A failed try is retried automatically when the merchant's GSM rules judge its error retryable (on the route's next
          connector, or stepped up to 3-D Secure), or by confirming the failed payment again.
        </p>
      )}
      <ol className="timeline" aria-labelledby="attempts" data-testid="attempts">
      {ordered.map((a, i) => {
        const reason = retryReason(a, ordered[i + 1]);
        return (
          <li key={a.id} className="card" data-testid="attempt" data-connector={a.connector ?? ""}>
            <div className="heading">
              <strong>
                {i + 1}. {a.connector ?? "no connector"}
              </strong>
              <Status value={a.status} />
              <span className="num">{formatMoney(a.amount, a.currency)}</span>
              <Time className="muted" value={a.createdAt} />
            </div>
            <Facts
              facts={[
                ["Routing", routingOf(a), "attempt-routing"],
                ["Error", errorOf(a), "attempt-error"],
                ["Unified", [a.unifiedCode, a.unifiedMessage].filter(Boolean).join(": ")],
                ["Then", reason, "attempt-retry"],
              ]}
            />
          </li>
        );
      })}
      </ol>
    </>
  );
}
