// A small router over the History API: the dashboard's few routes need no
// library. Paths are the part after /dashboard; links are real <a href>s,
// so opening one in a new tab, copying it or reloading works, and the
// server answers every /dashboard/… path with the app (SPA fallback).
import { useSyncExternalStore, type MouseEvent } from "react";

export const base = "/dashboard";

const listeners = new Set<() => void>();
function notify() {
  for (const l of listeners) l();
}
window.addEventListener("popstate", notify);

function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}

function current(): string {
  return window.location.pathname + window.location.search;
}

/** The current location inside the dashboard: its path ("/payments/pay_1") and query. */
export function useLocation(): { path: string; search: URLSearchParams } {
  const full = useSyncExternalStore(subscribe, current);
  const url = new URL(full, window.location.origin);
  let path = url.pathname.startsWith(base) ? url.pathname.slice(base.length) : url.pathname;
  if (path === "") path = "/";
  return { path, search: url.searchParams };
}

/** The full URL path for a dashboard path. */
export function href(path: string): string {
  return base + path;
}

/** Goes to a dashboard path, adding to the history unless replace is set. */
export function navigate(path: string, replace = false): void {
  const to = href(path);
  if (to === current()) return;
  if (replace) window.history.replaceState(null, "", to);
  else window.history.pushState(null, "", to);
  notify();
}

/** An onClick for <a href={href(path)}>: a plain click stays in the app, a modified one does what the browser does. */
export function linkClick(path: string) {
  return (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(path);
  };
}

export { match } from "./paths";
