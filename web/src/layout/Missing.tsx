// The top of a detail page (a payment, a customer): the way back to its
// list, and what the page says while its object is not there: the error,
// "Loading…", or that the merchant has no such object.
import type { CombinedError } from "@urql/core";
import type { ReactNode } from "react";
import { ErrorAlert } from "./ErrorAlert";
import { Link } from "./Link";

export function BackLink({ to, label }: { to: string; label: string }) {
  return (
    <p>
      <Link to={to}>← {label}</Link>
    </p>
  );
}

/** A detail page without its object: noun names it ("payment"), id is the one asked for. */
export function Missing(props: { back: ReactNode; error: CombinedError | undefined; loading: boolean; noun: string; id: string }) {
  const { noun } = props;
  return (
    <section>
      {props.back}
      {props.error ? (
        <ErrorAlert error={props.error} />
      ) : props.loading ? (
        <p aria-busy="true">Loading…</p>
      ) : (
        <>
          <h1>{noun.charAt(0).toUpperCase() + noun.slice(1)} not found</h1>
          <p>
            This merchant has no {noun} {props.id}.
          </p>
        </>
      )}
    </section>
  );
}
