// A small chart in hand-written SVG: stacked bars (counts) or lines
// (rates) over the range's buckets. A few hundred lines of SVG cost less
// script than any chart library (docs/dashboard.md says why). Its numbers
// show on hover and on keyboard focus (one tab stop; the arrow keys move
// between buckets), and the same numbers are a table beneath it, for a
// screen reader or anyone who wants them exact.
import { useId, useRef, useState, type KeyboardEvent } from "react";

export interface Series {
  name: string;
  /** One value per bucket; null is "no value" (a rate with nothing decided). */
  values: (number | null)[];
}

// Distinct at 3:1 or more against white, told apart by the legend's text too.
const palette = ["#0a58ca", "#116329", "#a40e26", "#7a4a00", "#6f42c1", "#0b7285", "#57606a", "#c2255c"];

const W = 640;
const H = 200;
const pad = { left: 44, right: 8, top: 8, bottom: 24 };

export function Chart(props: {
  title: string;
  kind: "bar" | "line";
  labels: string[];
  series: Series[];
  format: (n: number) => string;
  /** The y axis's top: the data's maximum when absent. */
  max?: number;
  testId?: string;
}) {
  const { labels, series, format, kind } = props;
  const id = useId();
  const [active, setActive] = useState<number | null>(null);
  const marks = useRef<(SVGRectElement | null)[]>([]);
  const totals = labels.map((_, i) => series.reduce((s, x) => s + (x.values[i] ?? 0), 0));
  // Counts get an even top, so the middle grid line is a whole number.
  const top =
    props.max ??
    (kind === "bar"
      ? Math.max(2, Math.ceil(Math.max(...totals) / 2) * 2)
      : Math.max(1, ...series.flatMap((s) => s.values.map((v) => v ?? 0))));
  const plotW = W - pad.left - pad.right;
  const plotH = H - pad.top - pad.bottom;
  const step = plotW / Math.max(1, labels.length);
  const y = (v: number) => pad.top + plotH - (v / top) * plotH;
  const every = Math.ceil(labels.length / 8);
  const readout = (i: number) =>
    `${labels[i]}: ` +
    series.map((s) => `${s.name} ${s.values[i] === null ? "—" : format(s.values[i]!)}`).join(", ") +
    (kind === "bar" && series.length > 1 ? `; total ${format(totals[i]!)}` : "");
  const move = (e: KeyboardEvent) => {
    const cur = active ?? 0;
    const next = e.key === "ArrowRight" ? cur + 1 : e.key === "ArrowLeft" ? cur - 1 : e.key === "Home" ? 0 : e.key === "End" ? labels.length - 1 : null;
    if (next === null) return;
    e.preventDefault();
    const n = Math.min(labels.length - 1, Math.max(0, next));
    setActive(n);
    marks.current[n]?.focus();
  };
  const focusable = active ?? 0;
  return (
    <figure className="chart" data-testid={props.testId}>
      <figcaption id={`${id}-title`}>{props.title}</figcaption>
      {series.length === 0 ? (
        <p className="muted">Nothing in this range.</p>
      ) : (
        <>
          <svg viewBox={`0 0 ${W} ${H}`} role="group" aria-labelledby={`${id}-title`} onKeyDown={move}>
            {[0, 0.5, 1].map((f) => (
              <g key={f} aria-hidden="true">
                <line x1={pad.left} x2={W - pad.right} y1={y(top * f)} y2={y(top * f)} className="grid" />
                <text x={pad.left - 4} y={y(top * f) + 4} textAnchor="end" className="tick">
                  {format(top * f)}
                </text>
              </g>
            ))}
            {labels.map((l, i) =>
              i % every === 0 ? (
                <text key={l + i} aria-hidden="true" x={pad.left + step * (i + 0.5)} y={H - 6} textAnchor="middle" className="tick">
                  {l}
                </text>
              ) : null,
            )}
            {kind === "bar"
              ? labels.map((_, i) => {
                  let base = 0;
                  return series.map((s, k) => {
                    const v = s.values[i] ?? 0;
                    const r = (
                      <rect
                        key={`${s.name}-${i}`}
                        aria-hidden="true"
                        x={pad.left + step * i + step * 0.15}
                        width={step * 0.7}
                        y={y(base + v)}
                        height={Math.max(0, y(base) - y(base + v))}
                        fill={palette[k % palette.length]}
                      />
                    );
                    base += v;
                    return r;
                  });
                })
              : series.map((s, k) => (
                  <g key={s.name} aria-hidden="true" stroke={palette[k % palette.length]} fill={palette[k % palette.length]}>
                    <polyline
                      fill="none"
                      strokeWidth={2}
                      points={s.values
                        .map((v, i) => (v === null ? null : `${pad.left + step * (i + 0.5)},${y(v)}`))
                        .filter(Boolean)
                        .join(" ")}
                    />
                    {s.values.map((v, i) => (v === null ? null : <circle key={i} cx={pad.left + step * (i + 0.5)} cy={y(v)} r={3} />))}
                  </g>
                ))}
            {labels.map((_, i) => (
              <rect
                key={`hit-${i}`}
                ref={(el) => {
                  marks.current[i] = el;
                }}
                className={active === i ? "hit active" : "hit"}
                role="img"
                aria-label={readout(i)}
                tabIndex={i === focusable ? 0 : -1}
                x={pad.left + step * i}
                width={step}
                y={pad.top}
                height={plotH}
                onMouseEnter={() => setActive(i)}
                onFocus={() => setActive(i)}
              />
            ))}
          </svg>
          <p className="readout" data-testid={props.testId && `${props.testId}-readout`}>
            {active === null ? "Hover over or focus the chart for its numbers (arrow keys move)." : readout(active)}
          </p>
          <ul className="legend">
            {series.map((s, k) => (
              <li key={s.name}>
                <svg className="swatch" viewBox="0 0 10 10" aria-hidden="true">
                  <rect width="10" height="10" fill={palette[k % palette.length]} />
                </svg>
                {s.name}
              </li>
            ))}
          </ul>
        </>
      )}
      {series.length > 0 && (
        <details>
          <summary>The numbers</summary>
          <div className="table-wrap">
            <table aria-labelledby={`${id}-title`}>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  {series.map((s) => (
                    <th key={s.name} scope="col" className="num">
                      {s.name}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {labels.map((l, i) => (
                  <tr key={l + i}>
                    <th scope="row">{l}</th>
                    {series.map((s) => (
                      <td key={s.name} className="num">
                        {s.values[i] === null ? "—" : format(s.values[i]!)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      )}
    </figure>
  );
}
