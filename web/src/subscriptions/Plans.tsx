// The catalogue: the merchant's plans and addons with their prices, and
// its coupons; for the roles that may (OPERATOR and up) a form each to add
// an item, a price to an item, and a coupon. Every form is sent with its
// own idempotency key, so a double submit adds one row.
import { useState, type FormEvent } from "react";
import { useMutation, useQuery } from "urql";
import { ErrorAlert } from "../layout/ErrorAlert";
import { InputField, SelectField } from "../layout/Field";
import { SubmitRow } from "../layout/SubmitRow";
import { Table } from "../layout/Table";
import { idempotencyKey } from "../lib/client";
import { nodesOf } from "../lib/connection";
import { formatMoney, parseMajor } from "../lib/money";
import { canRun, type Role } from "../lib/roles";
import { discountOf, periodOf } from "./actions";
import { CreateCouponMutation, CreateItemPriceMutation, CreateSubscriptionItemMutation, PlansQuery } from "./operations";

const intervals = ["Day", "Week", "Month", "Year"] as const;

export function Plans({ role }: { role: Role }) {
  const [{ data, error, fetching }, refetch] = useQuery({ query: PlansQuery, requestPolicy: "cache-and-network" });
  const items = nodesOf(data?.subscriptionItems);
  const coupons = nodesOf(data?.coupons);
  const refreshed = () => refetch({ requestPolicy: "network-only" });
  return (
    <section aria-labelledby="plans-title">
      <h1 id="plans-title">Plans</h1>
      <ErrorAlert error={error} />
      <h2 id="plans-items">Plans and addons</h2>
      <Table labelledBy="plans-items" testId="plan-list" busy={fetching} empty={data && items.length === 0 ? "No plans yet." : null}
        columns={[{ label: "Item" }, { label: "Type" }, { label: "Status" }, { label: "Prices" }]}>
        {items.map((it) => (
          <tr key={it.id} data-item-id={it.id}>
            <td>
              {it.name}
              <div className="muted">{it.id}</div>
            </td>
            <td>{it.itemType}</td>
            <td>{it.status}</td>
            <td>
              {nodesOf(it.prices)
                .map((p) => `${formatMoney(p.amount, p.currency)} a ${periodOf(p.interval, p.intervalCount)} (${p.id})`)
                .join("; ") || "—"}
            </td>
          </tr>
        ))}
      </Table>
      {canRun(role, "createSubscriptionItem") && <NewItem done={refreshed} />}
      {canRun(role, "createItemPrice") && items.length > 0 && <NewPrice items={items} done={refreshed} />}

      <h2 id="plans-coupons">Coupons</h2>
      <Table labelledBy="plans-coupons" testId="coupon-list" empty={data && coupons.length === 0 ? "No coupons yet." : null}
        columns={[{ label: "Code" }, { label: "Name" }, { label: "Discount" }, { label: "Duration" }]}>
        {coupons.map((c) => (
          <tr key={c.id}>
            <td>{c.code}</td>
            <td>{c.name ?? "—"}</td>
            <td>{discountOf(c, formatMoney)}</td>
            <td>{c.duration === "limited_period" ? `${c.durationPeriods} invoices` : c.duration}</td>
          </tr>
        ))}
      </Table>
      {canRun(role, "createCoupon") && <NewCoupon done={refreshed} />}
    </section>
  );
}

/**
 * A create form's submit: send runs the mutation with the form's
 * idempotency key (one per form shown, renewed after each success) unless
 * busy or the fields are not valid (send answers null then); after a
 * success reset clears the fields and done refreshes the page.
 */
function useCreateForm(busy: boolean, done: () => void, reset: () => void, send: (key: string) => Promise<{ data?: unknown }> | null) {
  const [key, setKey] = useState(idempotencyKey);
  return async (e: FormEvent) => {
    e.preventDefault();
    const sent = busy ? null : send(key);
    if (sent && (await sent).data) {
      reset();
      setKey(idempotencyKey());
      done();
    }
  };
}

function NewItem({ done }: { done: () => void }) {
  const [state, create] = useMutation(CreateSubscriptionItemMutation);
  const [name, setName] = useState("");
  const [itemType, setItemType] = useState("plan");
  const submit = useCreateForm(state.fetching, done, () => setName(""), (key) => create({ input: { name, itemType }, idempotencyKey: key }));
  return (
    <form className="card" aria-label="New item" onSubmit={submit}>
      <InputField id="item-name" label="Name" value={name} maxLength={255} required onChange={setName} />
      <SelectField id="item-type" label="Type" value={itemType} values={["plan", "addon"] as const} onChange={setItemType} />
      <SubmitRow label="Add item" busy={state.fetching} error={state.error} />
    </form>
  );
}

function NewPrice({ items, done }: { items: { id: string; name: string }[]; done: () => void }) {
  const [state, create] = useMutation(CreateItemPriceMutation);
  const [itemID, setItemID] = useState(items[0]!.id);
  const [amount, setAmount] = useState("");
  const [currency, setCurrency] = useState("USD");
  const [interval, setInterval] = useState("Month");
  const [invalid, setInvalid] = useState<string | null>(null);
  const names = new Map(items.map((it) => [it.id, it.name]));
  const submit = useCreateForm(state.fetching, done, () => setAmount(""), (key) => {
    const minor = parseMajor(amount, currency);
    setInvalid(minor === null ? `Enter the amount in ${currency}, e.g. 12.50.` : null);
    return minor === null ? null : create({ itemID, input: { amount: minor, currency, interval }, idempotencyKey: key });
  });
  return (
    <form className="card" aria-label="New price" onSubmit={submit}>
      <SelectField id="price-item" label="Item" value={itemID} values={items.map((it) => it.id)} text={(id) => names.get(id) ?? id} onChange={setItemID} />
      <InputField id="price-amount" label="Amount" value={amount} inputMode="decimal" required onChange={setAmount} />
      <InputField id="price-currency" label="Currency" value={currency} maxLength={3} required onChange={(v) => setCurrency(v.toUpperCase())} />
      <SelectField id="price-interval" label="Every" value={interval} values={intervals} onChange={setInterval} />
      <SubmitRow label="Add price" busy={state.fetching} error={state.error} text={invalid} />
    </form>
  );
}

function NewCoupon({ done }: { done: () => void }) {
  const [state, create] = useMutation(CreateCouponMutation);
  const [code, setCode] = useState("");
  const [percent, setPercent] = useState("");
  const [duration, setDuration] = useState("once");
  const [invalid, setInvalid] = useState<string | null>(null);
  const reset = () => {
    setCode("");
    setPercent("");
  };
  const submit = useCreateForm(state.fetching, done, reset, (key) => {
    // Percent with up to two decimals, in basis points (25.5% is 2550).
    const bps = parseMajor(percent, "USD");
    const valid = bps !== null && bps >= 1 && bps <= 10000;
    setInvalid(valid ? null : "Enter a percentage between 0.01 and 100.");
    return valid ? create({ input: { code, discountType: "percentage", percentOffBps: bps, duration }, idempotencyKey: key }) : null;
  });
  return (
    <form className="card" aria-label="New coupon" onSubmit={submit}>
      <InputField id="coupon-code" label="Code" value={code} maxLength={64} required onChange={setCode} />
      <InputField id="coupon-percent" label="Percent off" value={percent} inputMode="decimal" required onChange={setPercent} />
      <SelectField id="coupon-duration" label="Duration" value={duration} values={["once", "forever"] as const} onChange={setDuration} />
      <SubmitRow label="Add coupon" busy={state.fetching} error={state.error} text={invalid} />
    </form>
  );
}
