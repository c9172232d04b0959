// The signed-in frame: the merchant (a switcher when the user belongs to
// several), the user and their role, sign-out, and the navigation.
import type { ReactNode } from "react";
import { useMutation } from "urql";
import type { SetSession, Viewer } from "../App";
import { SignOutMutation, SwitchMerchantMutation } from "../auth/operations";
import { errorText } from "../lib/errors";
import { canRead, canRun } from "../lib/roles";
import { navigate, useLocation } from "../lib/router";
import { Link } from "./Link";

const sections = [
  { path: "/home", label: "Home" },
  { path: "/payments", label: "Payments" },
  { path: "/refunds", label: "Refunds" },
  { path: "/disputes", label: "Disputes" },
  { path: "/payouts", label: "Payouts" },
  { path: "/subscriptions", label: "Subscriptions" },
  { path: "/plans", label: "Plans" },
  { path: "/customers", label: "Customers" },
  { path: "/connectors", label: "Connectors" },
  { path: "/routing", label: "Routing" },
  { path: "/developers", label: "Developers" },
  { path: "/team", label: "Team", shown: (v: Viewer) => canRead(v.role, "users") },
];

export function Layout({ viewer, setSession, children }: { viewer: Viewer; setSession: SetSession; children: ReactNode }) {
  const { path } = useLocation();
  const [signOutState, signOut] = useMutation(SignOutMutation);
  const [switchState, switchMerchant] = useMutation(SwitchMerchantMutation);
  const current = viewer.memberships.find((m) => m.merchantID === viewer.merchantID);
  const merchantLabel = (m: { merchantID: string; merchantName?: string | null }) => m.merchantName || m.merchantID;
  const error = errorText(signOutState.error) ?? errorText(switchState.error);
  return (
    <div className="shell">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">Switchyard</span>
        {viewer.memberships.length > 1 && canRun(viewer.role, "switchMerchant") ? (
          <label className="merchant">
            <span className="visually-hidden">Merchant</span>
            <select
              value={viewer.merchantID}
              disabled={switchState.fetching}
              onChange={async (e) => {
                const res = await switchMerchant({ merchantID: e.target.value });
                const token = res.data?.switchMerchant.token;
                if (token) {
                  setSession(token);
                  navigate("/payments");
                }
              }}
            >
              {viewer.memberships.map((m) => (
                <option key={m.merchantID} value={m.merchantID}>
                  {merchantLabel(m)}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <span className="merchant">{current ? merchantLabel(current) : viewer.merchantID}</span>
        )}
        <span className="spacer" />
        <span className="user">
          {viewer.email} <span className="badge">{viewer.role.toLowerCase()}</span>
        </span>
        {canRun(viewer.role, "signOut") && (
          <button
            type="button"
            disabled={signOutState.fetching}
            onClick={async () => {
              await signOut({});
              // Signed out here whatever the server answered: the token is
              // forgotten, and a session the server still had ends idle.
              setSession(null);
              navigate("/signin", true);
            }}
          >
            Sign out
          </button>
        )}
      </header>
      <nav className="sidebar" aria-label="Sections">
        <ul>
          {sections.filter((s) => !s.shown || s.shown(viewer)).map((s) => (
            <li key={s.path}>
              <Link
                to={s.path}
                aria-current={path === s.path || path.startsWith(s.path + "/") ? "page" : undefined}
              >
                {s.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" className="content" tabIndex={-1}>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        {children}
      </main>
    </div>
  );
}
