// A data table: named by a heading, headed by its columns (numbers right
// aligned), scrolling sideways on a narrow screen; the rows are the caller's.
import type { ReactNode } from "react";

export interface Column {
  label: string;
  numeric?: boolean;
}

export function Table(props: { columns: Column[]; labelledBy: string; testId?: string; busy?: boolean; children: ReactNode }) {
  return (
    <div className="table-wrap">
      <table aria-labelledby={props.labelledBy} data-testid={props.testId} aria-busy={props.busy}>
        <thead>
          <tr>
            {props.columns.map((c) => (
              <th key={c.label} scope="col" className={c.numeric ? "num" : undefined}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}
