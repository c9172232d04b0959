// The frame of a detail page whose object has an amount and a status (a
// payment, a payout): the way back to its list, the amount as the title
// with the status badge beside it, the object's facts, then the page's own
// sections. The title's id names the section.
import type { ReactNode } from "react";
import { Facts, type Fact } from "./Facts";

export function DetailPage(props: { titleId: string; back: ReactNode; title: ReactNode; badge: ReactNode; facts: Fact[]; children: ReactNode }) {
  return (
    <section aria-labelledby={props.titleId}>
      {props.back}
      <div className="heading">
        <h1 id={props.titleId}>{props.title}</h1>
        {props.badge}
      </div>
      <Facts facts={props.facts} />
      {props.children}
    </section>
  );
}
