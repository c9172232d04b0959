// A data table: named by a heading, headed by its columns (numbers right
// aligned), scrolling sideways on a narrow screen; the rows are the caller's,
// with a last row saying why there are none when the caller gives empty.
// The cells every list repeats (a time, an amount) and a detail page's
// section of rows are here too.
import type { ReactNode } from "react";
import { formatMoney } from "../lib/money";
import { Time } from "./TimeZone";

export interface Column {
  label: string;
  numeric?: boolean;
  /** Said to screen readers only (an actions column). */
  hidden?: boolean;
}

export function Table(props: {
  columns: Column[];
  labelledBy?: string;
  caption?: string;
  testId?: string;
  busy?: boolean;
  empty?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="table-wrap">
      <table aria-labelledby={props.labelledBy} data-testid={props.testId} aria-busy={props.busy}>
        {props.caption && <caption className="visually-hidden">{props.caption}</caption>}
        <thead>
          <tr>
            {props.columns.map((c) => (
              <th key={c.label} scope="col" className={c.numeric ? "num" : undefined}>
                {c.hidden ? <span className="visually-hidden">{c.label}</span> : c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.children}
          {props.empty && (
            <tr>
              <td colSpan={props.columns.length} className="muted">
                {props.empty}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A detail page's section of rows: its heading and its table (then after,
 * if given), or a line saying there are none (none). The heading's id
 * names the table and is its test id unless testId says otherwise.
 */
export function TableSection<T>(props: {
  id: string;
  title: string;
  none: string;
  testId?: string;
  columns: Column[];
  rows: T[];
  row: (r: T) => ReactNode;
  after?: ReactNode;
}) {
  return (
    <>
      <h2 id={props.id}>{props.title}</h2>
      {props.rows.length === 0 ? (
        <p className="muted">{props.none}</p>
      ) : (
        <>
          <Table labelledBy={props.id} testId={props.testId ?? props.id} columns={props.columns}>
            {props.rows.map(props.row)}
          </Table>
          {props.after}
        </>
      )}
    </>
  );
}

/** A cell showing an instant in the merchant's time zone. */
export function TimeCell({ value }: { value: string }) {
  return (
    <td>
      <Time value={value} />
    </td>
  );
}

/** A right-aligned cell showing an amount in its currency. */
export function MoneyCell({ amount, currency }: { amount: number; currency: string }) {
  return <td className="num">{formatMoney(amount, currency)}</td>;
}
