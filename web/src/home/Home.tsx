// The home page: a range (today by hour, 7 or 30 days by day, local to the
// merchant's time zone, kept in the URL as ?range=) and what happened in it,
// from the analytics queries: payments by status (count over time, volume
// per currency), each connector's success rate over time, refunds and
// disputes. Volumes are never added across currencies.
import { useMemo } from "react";
import { useQuery } from "urql";
import { Link } from "../layout/Link";
import { formatMoney } from "../lib/money";
import { parsePreset, pivot, presetRange, presets, type Range } from "../lib/ranges";
import { canRun, type Role } from "../lib/roles";
import { useLocation } from "../lib/router";
import { useTimeZone } from "../layout/TimeZone";
import { Chart } from "./Chart";
import type { HomeQuery as HomeQueryData } from "../gql/graphql";
import { HomeQuery } from "./operations";
import { ErrorAlert } from "../layout/ErrorAlert";

const count = (n: number) => Math.round(n).toLocaleString();
const percent = (n: number) => `${Math.round(n * 100)}%`;

export function Home({ role }: { role: Role }) {
  const { search } = useLocation();
  const preset = parsePreset(search.get("range"));
  const timeZone = useTimeZone();
  // The range is fixed when the preset (or the zone) is chosen, not on every render.
  const range = useMemo(() => presetRange(preset, new Date(), timeZone), [preset, timeZone]);
  const variables = {
    range: { from: range.from.toISOString(), to: range.to.toISOString(), bucket: range.bucket, timeZone },
  };
  const [{ data, error, fetching }] = useQuery({ query: HomeQuery, variables });
  const labels = range.starts.map((s) => label(s, range, timeZone));
  return (
    <section aria-labelledby="home-title" aria-busy={fetching}>
      <div className="heading">
        <h1 id="home-title">Home</h1>
        <span className="muted" data-testid="home-zone">
          Times in {timeZone}
          {canRun(role, "updateMerchantTimeZone") && (
            <>
              {" "}
              (<Link to="/team#business-settings">change</Link>)
            </>
          )}
        </span>
      </div>
      <nav aria-label="Range" className="presets">
        {presets.map((p) => (
          <Link key={p.id} to={`/home?range=${p.id}`} aria-current={p.id === preset ? "true" : undefined}>
            {p.label}
          </Link>
        ))}
      </nav>
      <ErrorAlert error={error} />
      {data && <Figures data={data} range={range} labels={labels} />}
    </section>
  );
}



function Figures({ data, range, labels }: { data: HomeQueryData; range: Range; labels: string[] }) {
  const payments = data.paymentAnalytics;
  const byStatus = pivot(range.starts, payments, (r) => r.bucketStart, (r) => r.key || "none", (r) => r.count);
  const total = payments.reduce((s, r) => s + r.count, 0);
  const succeeded = payments.filter((r) => r.key === "succeeded").reduce((s, r) => s + r.count, 0);
  const failed = payments.filter((r) => r.key === "failed").reduce((s, r) => s + r.count, 0);

  const rates = data.connectorSuccessRateSeries;
  const ok = pivot(range.starts, rates, (r) => r.bucketStart, (r) => r.connector, (r) => r.succeeded);
  const bad = pivot(range.starts, rates, (r) => r.bucketStart, (r) => r.connector, (r) => r.failed);
  const rateSeries = ok.series.map((name) => ({
    name,
    values: ok.values.get(name)!.map((s, i) => {
      const decided = s + (bad.values.get(name)?.[i] ?? 0);
      return decided === 0 ? null : s / decided;
    }),
  }));

  const refunds = pivot(range.starts, data.refundAnalytics, (r) => r.bucketStart, (r) => r.status, (r) => r.count);
  const disputes = pivot(range.starts, data.disputeAnalytics, (r) => r.bucketStart, (r) => r.status, (r) => r.count);
  const series = (p: ReturnType<typeof pivot>) => p.series.map((name) => ({ name, values: p.values.get(name)! }));

  return (
    <>
      <dl className="tiles" data-testid="home-totals">
        <div>
          <dt>Payments</dt>
          <dd>{count(total)}</dd>
        </div>
        <div>
          <dt>Succeeded</dt>
          <dd>{count(succeeded)}</dd>
        </div>
        <div>
          <dt>Success rate</dt>
          <dd>{succeeded + failed === 0 ? "—" : percent(succeeded / (succeeded + failed))}</dd>
        </div>
        <div>
          <dt>Succeeded volume</dt>
          <dd>{volumes(payments.filter((r) => r.key === "succeeded")) || "—"}</dd>
        </div>
      </dl>
      <Chart testId="chart-payments" title="Payments by status" kind="bar" labels={labels} series={series(byStatus)} format={count} />
      <VolumeTable title="Payment volume by status" testId="payment-volumes" rows={payments.map((r) => ({ ...r, status: r.key || "none" }))} />
      <Chart
        testId="chart-rates"
        title="Success rate by connector"
        kind="line"
        labels={labels}
        series={rateSeries}
        format={percent}
        max={1}
      />
      <Chart testId="chart-refunds" title="Refunds by status" kind="bar" labels={labels} series={series(refunds)} format={count} />
      <VolumeTable title="Refund volume by status" testId="refund-volumes" rows={data.refundAnalytics} />
      <Chart testId="chart-disputes" title="Disputes by status" kind="bar" labels={labels} series={series(disputes)} format={count} />
    </>
  );
}

function volumes(rows: readonly { currency: string; volume: number }[]): string {
  const per = new Map<string, number>();
  for (const r of rows) per.set(r.currency, (per.get(r.currency) ?? 0) + r.volume);
  return [...per.entries()]
    .sort()
    .map(([c, v]) => formatMoney(v, c))
    .join(" · ");
}

/** Count and volume per status and currency over the whole range. */
function VolumeTable(props: { title: string; testId: string; rows: readonly { status: string; currency: string; count: number; volume: number }[] }) {
  const sums = new Map<string, { status: string; currency: string; count: number; volume: number }>();
  for (const r of props.rows) {
    const k = `${r.status} ${r.currency}`;
    const s = sums.get(k) ?? { status: r.status, currency: r.currency, count: 0, volume: 0 };
    s.count += r.count;
    s.volume += r.volume;
    sums.set(k, s);
  }
  const rows = [...sums.values()].sort((a, b) => a.status.localeCompare(b.status) || a.currency.localeCompare(b.currency));
  if (rows.length === 0) return null;
  const id = `${props.testId}-title`;
  return (
    <>
      <h2 id={id}>{props.title}</h2>
      <div className="table-wrap">
        <table aria-labelledby={id} data-testid={props.testId}>
          <thead>
            <tr>
              <th scope="col">Status</th>
              <th scope="col" className="num">
                Count
              </th>
              <th scope="col" className="num">
                Volume
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.status + r.currency}>
                <td>{r.status.replaceAll("_", " ")}</td>
                <td className="num">{count(r.count)}</td>
                <td className="num">{formatMoney(r.volume, r.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function label(d: Date, r: Range, timeZone: string): string {
  return r.bucket === "HOUR"
    ? d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone })
    : d.toLocaleDateString(undefined, { month: "short", day: "numeric", timeZone });
}
