// The lists' filter forms and the URL they write (lib/filters). A form
// edits a draft; Apply writes the draft to the URL, which the list reads,
// so a filtered list survives a reload, a copied link and Back. The fields
// below are the ones the lists share; each list's form arranges its own.
import { useState, type FormEvent, type ReactNode } from "react";
import type { Days, FilterSet } from "../lib/filters";
import { currencyCodes } from "../lib/currencies.generated";
import { navigate, useLocation } from "../lib/router";
import { useTimeZone } from "./TimeZone";
import { Options } from "./Options";

/** A list's filters as the URL has them, and apply, which writes new ones (dropping the page's cursors). */
export function useListFilters<F extends object>(set: FilterSet<F>, path: string) {
  const { search } = useLocation();
  const filters = set.parse(search);
  const query = set.toSearch(filters);
  const apply = (f: F) => {
    const q = set.toSearch(f).toString();
    navigate(q ? `${path}?${q}` : path);
  };
  return { filters, query, apply, filtered: set.has(filters), search };
}

/** One field's change: the draft's key and its new value. */
export type Change<F> = <K extends keyof F>(key: K, value: F[K]) => void;

/**
 * A filter form named label over a draft of value: children draw its
 * fields; Apply hands the draft to onApply, Clear applies no filter.
 */
export function FilterForm<F extends object>(props: {
  label: string;
  value: F;
  set: FilterSet<F>;
  onApply: (f: F) => void;
  hint?: ReactNode;
  children: (draft: F, change: Change<F>) => ReactNode;
}) {
  const { set, onApply } = props;
  const [draft, setDraft] = useState(props.value);
  const change: Change<F> = (k, v) => setDraft((d) => ({ ...d, [k]: v }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply(draft);
  };
  return (
    <form className="filters" aria-label={props.label} onSubmit={submit}>
      {props.children(draft, change)}
      {props.hint && (
        <p id="filter-hint" className="muted">
          {props.hint}
        </p>
      )}
      <div className="row">
        <button type="submit" className="primary">
          Apply filters
        </button>
        <button
          type="button"
          disabled={!set.has(draft)}
          onClick={() => {
            setDraft(set.none);
            onApply(set.none);
          }}
        >
          Clear
        </button>
      </div>
    </form>
  );
}

/** A trimmed input value, or null for an empty one. */
export const valueOf = (v: string) => (v.trim() === "" ? null : v.trim());

/** Checkboxes for any of a closed set (a list's statuses). */
export function Checkboxes<T extends string>(props: { legend: string; name: string; options: readonly T[]; value: T[]; onChange: (v: T[]) => void }) {
  const { value, onChange } = props;
  return (
    <fieldset className="statuses">
      <legend>{props.legend}</legend>
      {props.options.map((s) => (
        <label key={s}>
          <input
            type="checkbox"
            name={props.name}
            value={s}
            checked={value.includes(s)}
            onChange={(e) => onChange(e.target.checked ? [...value, s] : value.filter((x) => x !== s))}
          />{" "}
          {s.replaceAll("_", " ")}
        </label>
      ))}
    </fieldset>
  );
}

/** A list's statuses: any of options. */
export function StatusChecks<T extends string, F extends { statuses: T[] }>(props: { options: readonly T[]; draft: F; change: Change<F> }) {
  const { change } = props;
  return <Checkboxes legend="Status" name="status" options={props.options} value={props.draft.statuses} onChange={(v) => change("statuses", v as F["statuses"])} />;
}

/** A labelled text input; empty is null. */
export function TextField(props: {
  id: string;
  label: string;
  value: string | null;
  onChange: (v: string | null) => void;
  placeholder?: string;
  describedBy?: string;
}) {
  return (
    <label className="field">
      {props.label}
      <input
        id={props.id}
        value={props.value ?? ""}
        placeholder={props.placeholder}
        aria-describedby={props.describedBy}
        onChange={(e) => props.onChange(valueOf(e.target.value))}
      />
    </label>
  );
}

/** A currency, or any. */
export function CurrencyField({ value, onChange }: { value: string | null; onChange: (v: string | null) => void }) {
  return (
    <label className="field">
      Currency
      <select id="filter-currency" value={value ?? ""} onChange={(e) => onChange(valueOf(e.target.value))}>
        <option value="">Any</option>
        <Options values={currencyCodes} />
      </select>
    </label>
  );
}

/** Creation days, from and to, both included, in the merchant's time zone (the hint says which). */
export function DayFields<F extends Days>({ draft, change }: { draft: F; change: Change<F> }) {
  const day = (key: "from" | "to", label: string) => (
    <label className="field">
      {label}
      <input
        id={`filter-${key}`}
        type="date"
        aria-describedby="filter-hint"
        value={draft[key] ?? ""}
        onChange={(e) => change(key, valueOf(e.target.value) as F[typeof key])}
      />
    </label>
  );
  return (
    <>
      {day("from", "Created from")}
      {day("to", "Created to")}
    </>
  );
}

/** A payment's id. */
export function PaymentIDField({ value, onChange }: { value: string | null; onChange: (v: string | null) => void }) {
  return <TextField id="filter-payment" label="Payment id" value={value} onChange={onChange} />;
}

/** A customer's id or e-mail (an '@' makes it an e-mail, matched whatever its case). */
export function CustomerField({ value, onChange }: { value: string | null; onChange: (v: string | null) => void }) {
  return <TextField id="filter-customer" label="Customer id or e-mail" describedBy="filter-hint" value={value} onChange={onChange} />;
}

/** The hint under a form with days: which zone they are days of. */
export function DaysHint() {
  return <>Days are in the merchant's time zone, {useTimeZone()}, both included.</>;
}

/** The hint under a customer field: an id, or an e-mail. */
export const customerHint = "A customer id, or an e-mail address (any case).";
