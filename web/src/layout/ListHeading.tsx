// The heading of a list page: its title, how many rows the list's filters
// leave (or how many there are in all), and the page's own actions after.
import type { ReactNode } from "react";

export function ListHeading(props: { id: string; title: string; testId: string; count?: number; filtered: boolean; children?: ReactNode }) {
  return (
    <div className="heading">
      <h1 id={props.id}>{props.title}</h1>
      {props.count !== undefined && (
        <span className="muted" data-testid={props.testId}>
          {props.count} {props.filtered ? "match" : "in all"}
        </span>
      )}
      {props.children}
    </div>
  );
}
