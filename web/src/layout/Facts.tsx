// A list of facts about one object: each a term and its value (a test id
// on the value when given). A fact without a value (null, undefined,
// false or "") is left out, so optional facts need no condition around them.
import { Fragment, type ReactNode } from "react";

export type Fact = readonly [term: string, value: ReactNode, testId?: string];

export function Facts({ facts }: { facts: Fact[] }) {
  return (
    <dl className="facts">
      {facts
        .filter(([, value]) => value != null && value !== false && value !== "")
        .map(([term, value, testId]) => (
          <Fragment key={term}>
            <dt>{term}</dt>
            <dd data-testid={testId}>{value}</dd>
          </Fragment>
        ))}
    </dl>
  );
}
