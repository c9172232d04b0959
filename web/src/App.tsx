// The app's shell: the session (token in sessionStorage, one urql client a
// session), the signed-in user read from `me`, and the routes.
import { useCallback, useEffect, useMemo, useState } from "react";
import { Provider, useQuery } from "urql";
import { AcceptInvitation } from "./auth/AcceptInvitation";
import { MeQuery } from "./auth/operations";
import { SignIn } from "./auth/SignIn";
import { SignUp } from "./auth/SignUp";
import { Layout } from "./layout/Layout";
import { newClient } from "./lib/client";
import { errorText } from "./lib/errors";
import { match, navigate, useLocation } from "./lib/router";
import { loadToken, saveToken } from "./lib/session";
import { usableZone } from "./lib/zone";
import { TimeZoneProvider } from "./layout/TimeZone";
import type { Role } from "./lib/roles";
import { Home } from "./home/Home";
import { PaymentDetail } from "./payments/PaymentDetail";
import { PaymentList } from "./payments/PaymentList";
import { Developers } from "./developers/Developers";
import { Team } from "./team/Team";
import { Connectors } from "./connectors/Connectors";
import { Routing } from "./routing/Routing";
import { RefundList } from "./refunds/RefundList";
import { DisputeList } from "./disputes/DisputeList";
import { DisputeDetail } from "./disputes/DisputeDetail";
import { PayoutList } from "./payouts/PayoutList";
import { PayoutDetail } from "./payouts/PayoutDetail";
import { CustomerList } from "./customers/CustomerList";
import { SubscriptionList } from "./subscriptions/SubscriptionList";
import { SubscriptionDetail } from "./subscriptions/SubscriptionDetail";
import { Plans } from "./subscriptions/Plans";
import { CustomerDetail } from "./customers/CustomerDetail";

/** Starts or ends a session: the new token (null signs out locally). */
export type SetSession = (token: string | null) => void;

/** The keys sign-up made, shown once on the next page and kept nowhere (not in storage). */
export interface NewKeys {
  secretKey: string;
  publishableKey: string;
}

export function App() {
  const [token, setToken] = useState(loadToken);
  const [keys, setKeys] = useState<NewKeys | null>(null);
  const setSession = useCallback<SetSession>((t) => {
    saveToken(t);
    setToken(t);
    if (!t) setKeys(null);
  }, []);
  const client = useMemo(() => newClient(token, () => setSession(null)), [token, setSession]);
  const { path } = useLocation();
  // An invitation link opens its page signed in or not: accepting it opens
  // a session on the invitation's merchant. The token is the link's
  // fragment (inviteUser's link), or its last path segment.
  const invite = inviteToken(path);
  return (
    <Provider value={client}>
      {invite ? (
        <AcceptInvitation key={invite} token={invite} setSession={setSession} />
      ) : token ? (
        <SignedIn key={token} setSession={setSession} keys={keys} dismissKeys={() => setKeys(null)} />
      ) : (
        <SignedOut setSession={setSession} onKeys={setKeys} />
      )}
    </Provider>
  );
}

function inviteToken(path: string): string | null {
  if (path === "/invite") {
    const hash = decodeURIComponent(window.location.hash.slice(1));
    return hash || null;
  }
  return match("/invite/:token", path)?.["token"] ?? null;
}

function SignedOut({ setSession, onKeys }: { setSession: SetSession; onKeys: (keys: NewKeys) => void }) {
  const { path } = useLocation();
  if (path === "/signup") return <SignUp setSession={setSession} onKeys={onKeys} />;
  return <SignIn setSession={setSession} />;
}

export interface Viewer {
  email: string;
  merchantID: string;
  /** The merchant's IANA time zone, one this browser knows (else UTC). */
  timeZone: string;
  role: Role;
  memberships: { merchantID: string; merchantName?: string | null; role: Role }[];
}

function SignedIn(props: { setSession: SetSession; keys: NewKeys | null; dismissKeys: () => void }) {
  const { setSession } = props;
  const { path } = useLocation();
  // A change of the merchant (updateMerchantTimeZone answers one) reads
  // `me` again, so every page follows the new time zone.
  const context = useMemo(() => ({ additionalTypenames: ["MerchantAccount"] }), []);
  const [{ data, error, fetching }, retry] = useQuery({ query: MeQuery, requestPolicy: "network-only", context });
  const me = data?.me;
  // A token the server does not know ends the session (the client does
  // that); an answer without a user (an API key's) cannot be used here.
  const notAUser = !fetching && data !== undefined && !me && !error;
  useEffect(() => {
    if (notAUser) setSession(null);
  }, [notAUser, setSession]);
  useEffect(() => {
    // The signed-out pages have nothing to show a signed-in user.
    if (path === "/signin" || path === "/signup") {
      navigate("/payments", true);
    }
  }, [path]);
  if (!me) {
    return (
      <main className="center" aria-busy={!error}>
        {error ? (
          <div className="card">
            <p className="error" role="alert">
              {errorText(error)}
            </p>
            <button type="button" onClick={() => retry({ requestPolicy: "network-only" })}>
              Try again
            </button>
          </div>
        ) : (
          <p>Loading…</p>
        )}
      </main>
    );
  }
  const viewer: Viewer = {
    email: me.user.email,
    merchantID: me.merchantID,
    timeZone: usableZone(me.merchantTimeZone),
    role: me.role,
    memberships: me.memberships,
  };
  const payment = match("/payments/:id", path);
  const customer = match("/customers/:id", path);
  const payout = match("/payouts/:id", path);
  const dispute = match("/disputes/:id", path);
  const subscription = match("/subscriptions/:id", path);
  let page;
  if (path === "/" || path === "/home") page = <Home role={viewer.role} />;
  else if (payment) page = <PaymentDetail id={payment["id"]!} role={viewer.role} />;
  else if (match("/payments", path)) page = <PaymentList role={viewer.role} />;
  else if (match("/refunds", path)) page = <RefundList />;
  else if (dispute) page = <DisputeDetail id={dispute["id"]!} role={viewer.role} />;
  else if (match("/disputes", path)) page = <DisputeList role={viewer.role} />;
  else if (payout) page = <PayoutDetail id={payout["id"]!} role={viewer.role} />;
  else if (match("/payouts", path)) page = <PayoutList />;
  else if (subscription) page = <SubscriptionDetail id={subscription["id"]!} role={viewer.role} />;
  else if (match("/subscriptions", path)) page = <SubscriptionList />;
  else if (match("/plans", path)) page = <Plans role={viewer.role} />;
  else if (customer) page = <CustomerDetail id={customer["id"]!} />;
  else if (match("/customers", path)) page = <CustomerList />;
  else if (match("/team", path)) page = <Team viewer={viewer} />;
  else if (match("/developers", path)) page = <Developers role={viewer.role} />;
  else if (match("/connectors", path)) page = <Connectors role={viewer.role} />;
  else if (match("/routing", path)) page = <Routing role={viewer.role} />;
  else page = <NotFound />;
  return (
    <TimeZoneProvider value={viewer.timeZone}>
      <Layout viewer={viewer} setSession={setSession}>
        {props.keys && <Keys keys={props.keys} dismiss={props.dismissKeys} />}
        {page}
      </Layout>
    </TimeZoneProvider>
  );
}

/** The keys sign-up made: the secret one is shown this once, as the API shows it once. */
function Keys({ keys, dismiss }: { keys: NewKeys; dismiss: () => void }) {
  return (
    <section className="card notice" aria-labelledby="keys-title">
      <h2 id="keys-title">Your API keys</h2>
      <p>
        Your servers call the REST API with the secret key in the <code>api-key</code> header. Copy it now: it is not
        shown again.
      </p>
      <dl className="facts">
        <dt>Secret key</dt>
        <dd>
          <code data-testid="secret-key">{keys.secretKey}</code>
        </dd>
        <dt>Publishable key</dt>
        <dd>
          <code>{keys.publishableKey}</code>
        </dd>
      </dl>
      <button type="button" onClick={dismiss}>
        I have copied it
      </button>
    </section>
  );
}

function NotFound() {
  return (
    <section>
      <h1>Not found</h1>
      <p>There is no page here.</p>
    </section>
  );
}
