// The Team page: the merchant's members and their roles (change a role,
// remove a member), invitations (a link to copy), the business settings
// (the merchant's time zone), and the audit log, newest first, paged.
// The schema gives all of it to admins only (users, auditLog, inviteUser,
// updateUserRole, removeUser and updateMerchantTimeZone have an empty
// @hasRole list); anyone else is told so and offered nothing.
import { useEffect, useState, type FormEvent } from "react";
import { useMutation, useQuery } from "urql";
import { useCursorPage } from "../layout/CursorPager";
import type { Viewer } from "../App";
import { errorText } from "../lib/errors";
import { canRead, canRun, type Role } from "../lib/roles";
import { Table, TimeCell } from "../layout/Table";
import { Time } from "../layout/TimeZone";
import { BusinessSettings } from "./BusinessSettings";
import { CopyField } from "./CopyField";
import { AuditLogQuery, InviteUserMutation, MembersQuery, RemoveUserMutation, UpdateUserRoleMutation } from "./operations";
import { nodesOf } from "../lib/connection";
import { ErrorAlert } from "../layout/ErrorAlert";
import { SubmitRow } from "../layout/SubmitRow";
import { Options } from "../layout/Options";

export const roles: readonly Role[] = ["ADMIN", "DEVELOPER", "OPERATOR", "VIEWER"];

const roleLabel = (r: Role) => r.charAt(0) + r.slice(1).toLowerCase();

export function Team({ viewer }: { viewer: Viewer }) {
  // Counts the team's changes made here, so that the audit log reads
  // them (their answers name no type the log's query holds, so urql's
  // cache would not refetch it by itself).
  const [changes, setChanges] = useState(0);
  const changed = () => setChanges((n) => n + 1);
  if (!canRead(viewer.role, "users")) {
    return (
      <section aria-labelledby="team-title">
        <h1 id="team-title">Team</h1>
        <p className="muted">Only the merchant's admins see and manage its team.</p>
      </section>
    );
  }
  return (
    <section aria-labelledby="team-title">
      <h1 id="team-title">Team</h1>
      <Members viewer={viewer} changed={changed} />
      {canRun(viewer.role, "inviteUser") && <Invite changed={changed} />}
      {canRun(viewer.role, "updateMerchantTimeZone") && <BusinessSettings changed={changed} />}
      {canRead(viewer.role, "auditLog") && <AuditLog changes={changes} />}
    </section>
  );
}

function Members({ viewer, changed }: { viewer: Viewer; changed: () => void }) {
  const [{ data, error, fetching }, refetch] = useQuery({ query: MembersQuery });
  const [roleState, updateRole] = useMutation(UpdateUserRoleMutation);
  const [removeState, remove] = useMutation(RemoveUserMutation);
  const [removing, setRemoving] = useState<string | null>(null);
  const busy = roleState.fetching || removeState.fetching;
  const refreshed = () => {
    refetch({ requestPolicy: "network-only" });
    changed();
  };
  const problem = errorText(error) ?? errorText(roleState.error) ?? errorText(removeState.error);
  const members = data?.users ?? [];
  return (
    <>
      <h2 id="members-title">Members</h2>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <Table
        labelledBy="members-title"
        testId="members"
        busy={fetching}
        columns={[{ label: "Email" }, { label: "Role" }, { label: "Joined" }, { label: "Actions" }]}
      >
        {members.map((m) => {
          const self = m.user.email === viewer.email;
          return (
            <tr key={m.user.id}>
              <td>
                {m.user.email}
                {self && <span className="muted"> (you)</span>}
              </td>
              <td>
                {canRun(viewer.role, "updateUserRole") ? (
                  <label>
                    <span className="visually-hidden">Role of {m.user.email}</span>
                    <select
                      value={m.role}
                      disabled={busy}
                      onChange={async (e) => {
                        const res = await updateRole({ userID: m.user.id, role: e.target.value as Role });
                        if (res.data) refreshed();
                      }}
                    >
                      <Options values={roles} label={roleLabel} />
                    </select>
                  </label>
                ) : (
                  roleLabel(m.role)
                )}
              </td>
              <TimeCell value={m.joinedAt} />
              <td>
                {canRun(viewer.role, "removeUser") &&
                  (removing === m.user.id ? (
                    <span className="row">
                      <button
                        type="button"
                        className="primary"
                        disabled={busy}
                        onClick={async () => {
                          const res = await remove({ userID: m.user.id });
                          if (res.data) {
                            setRemoving(null);
                            refreshed();
                          }
                        }}
                      >
                        {`Remove ${m.user.email}`}
                      </button>
                      <button type="button" disabled={busy} onClick={() => setRemoving(null)}>
                        Keep
                      </button>
                    </span>
                  ) : (
                    <button type="button" disabled={busy} onClick={() => setRemoving(m.user.id)}>
                      Remove…
                    </button>
                  ))}
              </td>
            </tr>
          );
        })}
      </Table>
      <p className="muted">
        A changed role or a removal ends the member's sessions on this merchant; a merchant keeps at least one admin.
      </p>
    </>
  );
}

function Invite({ changed }: { changed: () => void }) {
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("VIEWER");
  const [state, invite] = useMutation(InviteUserMutation);
  const made = state.data?.inviteUser;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    // inviteUser takes no idempotency key: a second click while the first
    // is on its way is ignored instead.
    if (state.fetching) return;
    const res = await invite({ email: email.trim(), role });
    if (res.data) {
      setEmail("");
      changed();
    }
  };
  return (
    <>
      <h2 id="invite-title">Invite someone</h2>
      <form className="card" aria-labelledby="invite-title" onSubmit={submit}>
        <div className="field">
          <label htmlFor="invite-email">Email</label>
          <input id="invite-email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="invite-role">Role</label>
          <select id="invite-role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
            <Options values={roles} label={roleLabel} />
          </select>
        </div>
        <SubmitRow label="Invite" busy={state.fetching} error={state.error} />
        {made && (
          <div className="notice" role="status">
            <p>
              Send this link to {made.email}: it makes them {roleLabel(made.role).toLowerCase()} once, until{" "}
              <Time value={made.expiresAt} />. Whoever holds it may join.
            </p>
            <CopyField label="Invitation link" value={made.link} testId="invitation-link" />
          </div>
        )}
      </form>
    </>
  );
}

const auditPage = 20;

function AuditLog({ changes }: { changes: number }) {
  const { variables, pager } = useCursorPage(auditPage);
  const [{ data, error, fetching }, refetch] = useQuery({ query: AuditLogQuery, variables, requestPolicy: "network-only" });
  useEffect(() => {
    if (changes > 0) refetch({ requestPolicy: "network-only" });
  }, [changes, refetch]);
  const conn = data?.auditLog;
  const rows = nodesOf(conn);
  const info = conn?.pageInfo;
  return (
    <>
      <div className="heading">
        <h2 id="audit-title">Audit log</h2>
        {conn && <span className="muted">{conn.totalCount} in all</span>}
      </div>
      <ErrorAlert error={error} />
      <Table
        labelledBy="audit-title"
        empty={conn && rows.length === 0 && "Nothing yet."}
        testId="audit-log"
        busy={fetching}
        columns={[{ label: "When" }, { label: "Who" }, { label: "Operation" }, { label: "Object" }]}
      >
        {rows.map((a) => (
          <tr key={a.id}>
            <TimeCell value={a.createdAt} />
            <td>{a.actor === "admin_key" ? "the admin key" : a.userEmail}</td>
            <td>
              <code>{a.operation}</code>
            </td>
            <td>{a.objectID ?? "—"}</td>
          </tr>
        ))}
      </Table>
      {pager(info, "Audit log pages")}
    </>
  );
}
