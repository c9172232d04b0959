// A detail page's table of the steps that moved (or tried to move) its
// money: a payment's captures, a payout's attempts. A row a step: which
// one, the connector, its status, its amount, what went wrong, when.
import type { ReactNode } from "react";
import { MoneyCell, TableSection, TimeCell } from "../layout/Table";
import { errorOf } from "./AttemptTimeline";
import { StatusCell } from "./status";

export interface MoneyStep {
  id: string;
  connector?: string | null;
  status: string;
  amount: number;
  currency: string;
  errorCode?: string | null;
  errorMessage?: string | null;
  createdAt: string;
}

export function MoneySteps<T extends MoneyStep>(props: {
  id: string;
  title: string;
  none: string;
  rows: T[];
  /** The first column's label, and a step's name in it. */
  step: string;
  name: (s: T) => ReactNode;
  /** The error column's label, and what it says of a step (errorOf unless given). */
  problem: string;
  why?: (s: T) => ReactNode;
}) {
  const why = props.why ?? errorOf;
  return (
    <TableSection
      id={props.id}
      title={props.title}
      none={props.none}
      columns={[{ label: props.step }, { label: "Connector" }, { label: "Status" }, { label: "Amount", numeric: true }, { label: props.problem }, { label: "Created" }]}
      rows={props.rows}
      row={(s) => (
        <tr key={s.id}>
          <td>{props.name(s)}</td>
          <td>{s.connector ?? "—"}</td>
          <StatusCell value={s.status} />
          <MoneyCell amount={s.amount} currency={s.currency} />
          <td>{why(s)}</td>
          <TimeCell value={s.createdAt} />
        </tr>
      )}
    />
  );
}
