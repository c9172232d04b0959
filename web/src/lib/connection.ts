// nodesOf is a Relay connection's nodes in order, without the nulls the
// schema allows in its edges: what every list and picker shows.
export function nodesOf<T>(conn: { edges?: ReadonlyArray<{ node?: T | null } | null> | null } | null | undefined): T[] {
  return conn?.edges?.flatMap((e) => (e?.node ? [e.node] : [])) ?? [];
}
