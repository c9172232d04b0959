// The payments list's filter form (layout/FilterForm's fields): statuses,
// currency, connector, amounts in the currency's major units, creation
// days, a customer (id or e-mail) and a payment id.
import { CurrencyField, CustomerField, DayFields, DaysHint, FilterForm, PaymentIDField, StatusChecks, TextField, customerHint, valueOf } from "../layout/FilterForm";
import { paymentFilters, paymentStatuses, type PaymentFilters } from "../lib/filters";
import { currencyExponent } from "../lib/money";

export function Filters({ value, onApply }: { value: PaymentFilters; onApply: (f: PaymentFilters) => void }) {
  return (
    <FilterForm
      label="Filter payments"
      value={value}
      set={paymentFilters}
      onApply={onApply}
      hint={
        <>
          Amounts are in the currency's major units, both ends included; choose a currency to filter by amount.{" "}
          <DaysHint /> {customerHint}
        </>
      }
    >
      {(draft, change) => {
        const step = draft.currency ? String(10 ** -currencyExponent(draft.currency)) : "any";
        const amount = (key: "amountMin" | "amountMax", id: string, label: string) => (
          <label className="field">
            {label}
            {draft.currency ? ` (${draft.currency})` : ""}
            <input
              id={id}
              type="number"
              min="0"
              step={step}
              inputMode="decimal"
              disabled={!draft.currency}
              aria-describedby="filter-hint"
              value={draft[key] ?? ""}
              onChange={(e) => change(key, valueOf(e.target.value))}
            />
          </label>
        );
        return (
          <>
            <StatusChecks options={paymentStatuses} draft={draft} change={change} />
            <div className="filter-fields">
              <CurrencyField value={draft.currency} onChange={(v) => change("currency", v)} />
              <TextField id="filter-connector" label="Connector" placeholder="stripe_test" value={draft.connector} onChange={(v) => change("connector", v)} />
              {amount("amountMin", "filter-min", "Amount from")}
              {amount("amountMax", "filter-max", "Amount to")}
              <DayFields draft={draft} change={change} />
              <CustomerField value={draft.customer} onChange={(v) => change("customer", v)} />
              <PaymentIDField value={draft.paymentID} onChange={(v) => change("paymentID", v)} />
            </div>
          </>
        );
      }}
    </FilterForm>
  );
}
