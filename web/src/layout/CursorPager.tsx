// Pages of a Relay connection kept in the component's state rather than
// the URL, for a list that is one part of a page (the audit log, the event
// log) or whose filters alone are in the URL (refunds, disputes,
// customers): the variables for the query, and its Newer / Older buttons.
// A new resetOn (the filters' query) goes back to the first page.
import { useState } from "react";

export interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor?: string | null;
  endCursor?: string | null;
}

export function useCursorPage(pageSize: number, resetOn = "") {
  const [state, setState] = useState<{ after?: string; before?: string; on?: string }>({});
  const cursor: { after?: string; before?: string } = state.on === resetOn ? state : {};
  const setCursor = (c: { after?: string; before?: string }) => setState({ ...c, on: resetOn });
  const variables = cursor.before ? { last: pageSize, before: cursor.before } : { first: pageSize, after: cursor.after ?? null };
  function pager(info: PageInfo | undefined, label: string) {
    // Paging backwards (before), "previous" is the newer side; the first
    // page has nothing newer.
    const newer = cursor.before ? info?.hasPreviousPage : !!cursor.after;
    const older = cursor.before ? true : info?.hasNextPage;
    const start = info?.startCursor;
    const end = info?.endCursor;
    return (
      <nav className="pager" aria-label={label}>
        {newer && start ? (
          <button type="button" onClick={() => setCursor({ before: start })}>
            ← Newer
          </button>
        ) : (
          <span />
        )}
        {older && end ? (
          <button type="button" onClick={() => setCursor({ after: end })}>
            Older →
          </button>
        ) : (
          <span />
        )}
      </nav>
    );
  }
  return { variables, pager };
}
