// The payments list's filter form. It edits a draft; Apply writes the
// draft to the URL (lib/filters), which the list reads, so a filtered list
// survives a reload, a copied link and Back.
import { useState, type FormEvent } from "react";
import { currencyCodes } from "../lib/currencies.generated";
import { filtersToSearch, noFilters, paymentStatuses, type PaymentFilters } from "../lib/filters";
import { currencyExponent } from "../lib/money";

export function Filters({ value, onApply }: { value: PaymentFilters; onApply: (f: PaymentFilters) => void }) {
  const [draft, setDraft] = useState(value);
  const set = <K extends keyof PaymentFilters>(k: K, v: PaymentFilters[K]) => setDraft((d) => ({ ...d, [k]: v }));
  const str = (v: string) => (v.trim() === "" ? null : v.trim());
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply(draft);
  };
  const step = draft.currency ? String(10 ** -currencyExponent(draft.currency)) : "any";
  return (
    <form className="filters" aria-label="Filter payments" onSubmit={submit}>
      <fieldset className="statuses">
        <legend>Status</legend>
        {paymentStatuses.map((s) => (
          <label key={s}>
            <input
              type="checkbox"
              name="status"
              value={s}
              checked={draft.statuses.includes(s)}
              onChange={(e) =>
                set("statuses", e.target.checked ? [...draft.statuses, s] : draft.statuses.filter((x) => x !== s))
              }
            />{" "}
            {s.replaceAll("_", " ")}
          </label>
        ))}
      </fieldset>
      <div className="filter-fields">
        <label className="field">
          Currency
          <select id="filter-currency" value={draft.currency ?? ""} onChange={(e) => set("currency", str(e.target.value))}>
            <option value="">Any</option>
            {currencyCodes.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          Connector
          <input
            id="filter-connector"
            value={draft.connector ?? ""}
            placeholder="stripe_test"
            onChange={(e) => set("connector", str(e.target.value))}
          />
        </label>
        <label className="field">
          Amount from{draft.currency ? ` (${draft.currency})` : ""}
          <input
            id="filter-min"
            type="number"
            min="0"
            step={step}
            inputMode="decimal"
            disabled={!draft.currency}
            aria-describedby="amount-hint"
            value={draft.amountMin ?? ""}
            onChange={(e) => set("amountMin", str(e.target.value))}
          />
        </label>
        <label className="field">
          Amount to{draft.currency ? ` (${draft.currency})` : ""}
          <input
            id="filter-max"
            type="number"
            min="0"
            step={step}
            inputMode="decimal"
            disabled={!draft.currency}
            aria-describedby="amount-hint"
            value={draft.amountMax ?? ""}
            onChange={(e) => set("amountMax", str(e.target.value))}
          />
        </label>
        <label className="field">
          Created from
          <input id="filter-from" type="date" value={draft.from ?? ""} onChange={(e) => set("from", str(e.target.value))} />
        </label>
        <label className="field">
          Created to
          <input id="filter-to" type="date" value={draft.to ?? ""} onChange={(e) => set("to", str(e.target.value))} />
        </label>
        <label className="field">
          Customer id
          <input id="filter-customer" value={draft.customerID ?? ""} onChange={(e) => set("customerID", str(e.target.value))} />
        </label>
        <label className="field">
          Payment id
          <input id="filter-payment" value={draft.paymentID ?? ""} onChange={(e) => set("paymentID", str(e.target.value))} />
        </label>
      </div>
      <p id="amount-hint" className="muted">
        Amounts are in the currency's major units, both ends included; choose a currency to filter by amount. Days are
        in your time zone, both included.
      </p>
      <div className="row">
        <button type="submit" className="primary">
          Apply filters
        </button>
        <button
          type="button"
          disabled={filtersToSearch(draft).size === 0}
          onClick={() => {
            setDraft(noFilters);
            onApply(noFilters);
          }}
        >
          Clear
        </button>
      </div>
    </form>
  );
}
