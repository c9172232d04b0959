// A list page whose filters are in the URL and whose pages are in the
// component's state (refunds, disputes, customers). useFilteredPages holds
// that state; FilteredList draws the page around the list's own filter
// fields and rows: the heading and its count, the filter form, an error,
// the table (or why it is empty) and the pager. The payments list keeps
// its cursors in the URL too, and draws its own.
import type { CombinedError } from "@urql/core";
import type { ReactNode } from "react";
import type { FilterSet } from "../lib/filters";
import { useCursorPage, type PageInfo } from "./CursorPager";
import { ErrorAlert } from "./ErrorAlert";
import { FilterForm, useListFilters, type Change } from "./FilterForm";
import { ListHeading } from "./ListHeading";
import { Table, type Column } from "./Table";
import { useTimeZone } from "./TimeZone";

const pageSize = 20;

/** A list's filters (from the URL at path), the merchant's time zone, and its page's variables and pager. */
export function useFilteredPages<F extends object>(set: FilterSet<F>, path: string) {
  const list = useListFilters(set, path);
  const timeZone = useTimeZone();
  const { variables, pager } = useCursorPage(pageSize, list.query.toString());
  return { ...list, set, timeZone, variables, pager };
}

export type FilteredPages<F extends object> = ReturnType<typeof useFilteredPages<F>>;

/**
 * The page of a filtered list. one and many name its objects ("refund",
 * "refunds"): its ids, test ids and labels are made from them; none says
 * why an unfiltered list is empty.
 */
export function FilteredList<F extends object>(props: {
  list: FilteredPages<F>;
  one: string;
  many: string;
  title: string;
  conn: { totalCount: number; pageInfo: PageInfo } | undefined;
  rows: number;
  error: CombinedError | undefined;
  fetching: boolean;
  none: string;
  hint: ReactNode;
  fields: (draft: F, change: Change<F>) => ReactNode;
  columns: Column[];
  children: ReactNode;
}) {
  const { list, one, many, conn } = props;
  const id = `${many}-title`;
  const empty = conn && props.rows === 0 && (list.filtered ? `No ${many} match these filters.` : props.none);
  return (
    <section aria-labelledby={id}>
      <ListHeading id={id} title={props.title} testId={`${many}-count`} count={conn?.totalCount} filtered={list.filtered} />
      <FilterForm key={list.query.toString()} label={`Filter ${many}`} value={list.filters} set={list.set} onApply={list.apply} hint={props.hint}>
        {props.fields}
      </FilterForm>
      <ErrorAlert error={props.error} />
      <Table labelledBy={id} empty={empty} busy={props.fetching} testId={`${one}-list`} columns={props.columns}>
        {props.children}
      </Table>
      {list.pager(conn?.pageInfo, `${one.charAt(0).toUpperCase()}${one.slice(1)} pages`)}
    </section>
  );
}
