// The event log: one profile's webhook events, newest first, 20 a page,
// each with its delivery state (delivered, pending with the next automatic
// attempt, given up) and its attempts (kind, status code, the receiver's
// answer or the network error), and a retry for the roles that may
// (retryWebhookDelivery: admins and developers), one by one or every failed
// one of the profile at once (retryFailedWebhookDeliveries).
import { useMutation, useQuery } from "urql";
import { useCursorPage } from "../layout/CursorPager";
import { errorText } from "../lib/errors";
import { canRun, type Role } from "../lib/roles";
import { Status } from "../payments/status";
import { Time } from "../layout/TimeZone";
import { ActionButton } from "./ActionButton";
import { EventsQuery, RetryDeliveryMutation, RetryFailedWebhookDeliveriesMutation } from "./operations";
import { nodesOf } from "../lib/connection";
import { ErrorAlert } from "../layout/ErrorAlert";

const pageSize = 20;

export function EventLog({ role, profileID }: { role: Role; profileID: string }) {
  const { variables, pager } = useCursorPage(pageSize);
  const [{ data, error, fetching }, refetch] = useQuery({
    query: EventsQuery,
    variables: { ...variables, profileID },
    requestPolicy: "network-only",
  });
  const conn = data?.events;
  const events = nodesOf(conn);
  const info = conn?.pageInfo;
  const mayRetry = canRun(role, "retryWebhookDelivery");
  const mayRetryAll = canRun(role, "retryFailedWebhookDeliveries");
  const [retryAll, sendRetryAll] = useMutation(RetryFailedWebhookDeliveriesMutation);
  const queued = retryAll.data?.retryFailedWebhookDeliveries.queued;
  return (
    <>
      <div className="heading">
        <h2 id="events-title">Event log</h2>
        {conn && <span className="muted">{conn.totalCount} in all</span>}
        <button type="button" disabled={fetching} onClick={() => refetch({ requestPolicy: "network-only" })}>
          Refresh
        </button>
        {mayRetryAll && (
          <button type="button" disabled={retryAll.fetching} onClick={() => void sendRetryAll({ profileID })}>
            Retry every failed delivery
          </button>
        )}
      </div>
      {queued !== undefined && (
        <p className="muted" role="status" data-testid="retry-all-result">
          {queued === 0
            ? "No failed delivery to retry."
            : `${queued} failed ${queued === 1 ? "delivery is" : "deliveries are"} due now; Refresh shows how they went.`}
        </p>
      )}
      {retryAll.error && (
        <p className="error" role="alert">
          {errorText(retryAll.error)}
        </p>
      )}
      <ErrorAlert error={error} />
      <ol className="events" aria-labelledby="events-title" aria-busy={fetching} data-testid="event-log">
        {events.map((ev) => (
          <EventCard key={ev.id} event={ev} mayRetry={mayRetry} done={() => refetch({ requestPolicy: "network-only" })} />
        ))}
        {conn && events.length === 0 && <li className="muted">No events yet: payments and refunds make them.</li>}
      </ol>
      {pager(info, "Event log pages")}
    </>
  );
}

/** An event as the log and a payment's or payout's page show it. */
export interface LoggedEvent {
  id: string;
  eventID: string;
  eventType: string;
  objectID: string;
  createdAt: string;
  isDelivered: boolean;
  deliveryStatus?: string | null;
  nextAttemptAt?: string | null;
  deliveryAttempts: { edges?: ({ node?: Attempt | null } | null)[] | null };
}

/**
 * A detail page's section of one object's events (a payment's, a
 * payout's): its heading, then each event's card, or a line saying there
 * are none. id names the heading; the list's test id is testId.
 */
export function ObjectEvents(props: { id: string; testId: string; events: LoggedEvent[]; role: Role; done: () => void }) {
  return (
    <>
      <h2 id={props.id}>Events and webhook deliveries</h2>
      {props.events.length === 0 ? (
        <p className="muted">No events yet.</p>
      ) : (
        <ol className="events" aria-labelledby={props.id} data-testid={props.testId}>
          {props.events.map((ev) => (
            <EventCard key={ev.id} event={ev} mayRetry={canRun(props.role, "retryWebhookDelivery")} done={props.done} />
          ))}
        </ol>
      )}
    </>
  );
}

/**
 * One event: its type, object, delivery state and next automatic attempt,
 * every delivery attempt with the receiver's answer, and a retry for the
 * roles that may (the caller decides, by canRun).
 */
export function EventCard({ event: ev, mayRetry, done }: { event: LoggedEvent; mayRetry: boolean; done: () => void }) {
  return (
    <li className="card" data-event-id={ev.eventID}>
      <div className="heading">
        <strong>{ev.eventType}</strong>
        <span>{ev.objectID}</span>
        <Delivery delivered={ev.isDelivered} status={ev.deliveryStatus} />
        <Time className="muted" value={ev.createdAt} />
      </div>
      <p className="muted">
        {ev.eventID}
        {ev.deliveryStatus === "pending" && ev.nextAttemptAt && (
          <>
            {" "}
            · next attempt <Time value={ev.nextAttemptAt} />
          </>
        )}
      </p>
      <Attempts attempts={nodesOf(ev.deliveryAttempts)} />
      {mayRetry && <Retry eventID={ev.eventID} done={done} />}
    </li>
  );
}

/** An event's delivery in a word, as a badge: delivered, or its task's state. */
function Delivery({ delivered, status }: { delivered: boolean; status?: string | null }) {
  const [tone, label] = delivered
    ? ["good", "delivered"]
    : status === "exhausted"
      ? ["bad", "given up"]
      : status === "disabled"
        ? ["neutral", "delivery off"]
        : ["pending", "pending"];
  return <span className={`status ${tone}`} data-testid="delivery-state">{label}</span>;
}

interface Attempt {
  id: string;
  deliveryAttempt: string;
  createdAt: string;
  responseStatusCode?: number | null;
  isDeliverySuccessful: boolean;
  responseBody?: string | null;
  errorMessage?: string | null;
}

function Attempts({ attempts }: { attempts: Attempt[] }) {
  if (attempts.length === 0) return <p className="muted">No attempt yet.</p>;
  return (
    <ul className="attempts">
      {attempts.map((a) => (
        <li key={a.id} data-testid="delivery-attempt">
          <Status value={a.isDeliverySuccessful ? "succeeded" : "failed"} />{" "}
          <span>{a.deliveryAttempt.replaceAll("_", " ")}</span>{" "}
          <span>{a.responseStatusCode != null ? `HTTP ${a.responseStatusCode}` : "no answer"}</span>{" "}
          <Time className="muted" value={a.createdAt} />
          {(a.responseBody || a.errorMessage) && (
            <details>
              <summary>{a.errorMessage ? "Error" : "Response"}</summary>
              <pre>{a.errorMessage ?? a.responseBody}</pre>
            </details>
          )}
        </li>
      ))}
    </ul>
  );
}

function Retry({ eventID, done }: { eventID: string; done: () => void }) {
  return (
    <div className="row">
      <ActionButton mutation={RetryDeliveryMutation} variables={{ eventID }} label="Retry delivery" busyLabel="Retrying…" done={done} />
    </div>
  );
}
