// The session token of the users API (sys_…), kept in sessionStorage: it
// lives as long as the tab, is not sent to the server on its own (it is no
// cookie), and goes in `Authorization: Bearer` on every GraphQL request.

const key = "switchyard.session";

export function loadToken(): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

export function saveToken(token: string | null): void {
  try {
    if (token) sessionStorage.setItem(key, token);
    else sessionStorage.removeItem(key);
  } catch {
    // Storage refused (private mode quotas): the session lasts until a reload.
  }
}
