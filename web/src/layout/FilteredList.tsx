// A list page whose filters are in the URL and whose pages are in the
// component's state (refunds, disputes, customers). useFilteredPages holds
// that state; FilteredList draws the page around the list's own filter
// fields and rows: the heading and its count, the filter form, an error,
// the table (or why it is empty) and the pager. The payments list keeps
// its cursors in the URL too, and draws its own.
import type { CombinedError } from "@urql/core";
import type { ReactNode } from "react";
import { nodesOf } from "../lib/connection";
import type { FilterSet } from "../lib/filters";
import { useCursorPage, type PageInfo } from "./CursorPager";
import { ErrorAlert } from "./ErrorAlert";
import { FilterForm, useListFilters, type Change } from "./FilterForm";
import { ListHeading } from "./ListHeading";
import { Table, type Column } from "./Table";
import { useTimeZone } from "./TimeZone";

const pageSize = 20;

/**
 * A list's filters (from the URL at path), the merchant's time zone, and
 * its page's pager and query variables: the page's cursor and the `where`
 * that where makes of the filters in that time zone.
 */
export function useFilteredPages<F extends object, W>(set: FilterSet<F>, path: string, where: (f: F, timeZone: string) => W) {
  const list = useListFilters(set, path);
  const timeZone = useTimeZone();
  const page = useCursorPage(pageSize, list.query.toString());
  return { ...list, set, timeZone, variables: { ...page.variables, where: where(list.filters, timeZone) }, pager: page.pager };
}

export type FilteredPages<F extends object> = ReturnType<typeof useFilteredPages<F, unknown>>;

/**
 * The page of a filtered list. one and many name its objects ("refund",
 * "refunds"): its ids, test ids and labels are made from them; none says
 * why an unfiltered list is empty. result is the list query's state and
 * conn the connection in its data; row draws a node.
 */
export function FilteredList<F extends object, T>(props: {
  list: FilteredPages<F>;
  one: string;
  many: string;
  title: string;
  result: { error?: CombinedError; fetching: boolean };
  conn: { totalCount: number; pageInfo: PageInfo; edges?: ReadonlyArray<{ node?: T | null } | null> | null } | undefined;
  none: string;
  hint: ReactNode;
  fields: (draft: F, change: Change<F>) => ReactNode;
  columns: Column[];
  row: (node: T) => ReactNode;
}) {
  const { list, one, many, conn } = props;
  const id = `${many}-title`;
  const rows = nodesOf(conn);
  const empty = conn && rows.length === 0 && (list.filtered ? `No ${many} match these filters.` : props.none);
  return (
    <section aria-labelledby={id}>
      <ListHeading id={id} title={props.title} testId={`${many}-count`} count={conn?.totalCount} filtered={list.filtered} />
      <FilterForm key={list.query.toString()} label={`Filter ${many}`} value={list.filters} set={list.set} onApply={list.apply} hint={props.hint}>
        {props.fields}
      </FilterForm>
      <ErrorAlert error={props.result.error} />
      <Table labelledBy={id} empty={empty} busy={props.result.fetching} testId={`${one}-list`} columns={props.columns}>
        {rows.map(props.row)}
      </Table>
      {list.pager(conn?.pageInfo, `${one.charAt(0).toUpperCase()}${one.slice(1)} pages`)}
    </section>
  );
}
