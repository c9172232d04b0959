// A link to a dashboard path: a real <a href> (new tab, copy, reload all
// work) that a plain click follows inside the app without a page load.
import type { AnchorHTMLAttributes } from "react";
import { href, linkClick } from "../lib/router";

export function Link({ to, ...rest }: { to: string } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href" | "onClick">) {
  return <a {...rest} href={href(to)} onClick={linkClick(to)} />;
}

/** A link to a payment's page, named by its payment id. */
export function PaymentLink({ id }: { id: string }) {
  return <Link to={`/payments/${encodeURIComponent(id)}`}>{id}</Link>;
}

/** A link to a payout's page, named by its payout id. */
export function PayoutLink({ id }: { id: string }) {
  return <Link to={`/payouts/${encodeURIComponent(id)}`}>{id}</Link>;
}

/** A link to a subscription's page, named by its id. */
export function SubscriptionLink({ id }: { id: string }) {
  return <Link to={`/subscriptions/${encodeURIComponent(id)}`}>{id}</Link>;
}

/** A link to a dispute's page, named by its dispute id. */
export function DisputeLink({ id }: { id: string }) {
  return <Link to={`/disputes/${encodeURIComponent(id)}`}>{id}</Link>;
}
