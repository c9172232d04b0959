// The home page's time ranges: today, the last 7 days and the last 30
// days, as calendar days of the merchant's time zone (not the browser's),
// and the buckets the analytics queries cut them into. The server cuts
// buckets in the zone the page names (AnalyticsRange.timeZone); the page
// lists the same bucket starts itself, so a bucket with no row still shows,
// as a zero.
import { wallTime, zonedTime } from "./zone";

export type Preset = "today" | "7d" | "30d";
export const presets: { id: Preset; label: string }[] = [
  { id: "today", label: "Today" },
  { id: "7d", label: "7 days" },
  { id: "30d", label: "30 days" },
];

export interface Range {
  from: Date;
  to: Date;
  bucket: "HOUR" | "DAY";
  /** Every bucket's start, in order: local hours of today, or local days. */
  starts: Date[];
}

/** The preset a URL's ?range= names; today when it names none. */
export function parsePreset(s: string | null): Preset {
  return presets.some((p) => p.id === s) ? (s as Preset) : "today";
}

/** The preset's range at the instant now, in calendar days of timeZone. */
export function presetRange(preset: Preset, now: Date, timeZone: string): Range {
  const { year, month, day } = wallTime(now, timeZone);
  const at = (d: number, h = 0) => zonedTime(year, month, d, h, timeZone);
  const to = at(day + 1);
  if (preset === "today") {
    const from = at(day);
    const starts: Date[] = [];
    // A day has 23 to 25 hours: a skipped hour starts where the next one
    // does, and the dedupe below drops it; a repeated hour is one bucket.
    for (let h = 0; h < 24; h++) {
      const s = at(day, h);
      if (s >= to) break;
      if (starts.length === 0 || s.getTime() !== starts[starts.length - 1]!.getTime()) starts.push(s);
    }
    return { from, to, bucket: "HOUR", starts };
  }
  const days = preset === "7d" ? 7 : 30;
  const starts = Array.from({ length: days }, (_, i) => at(day - days + 1 + i));
  return { from: starts[0]!, to, bucket: "DAY", starts };
}

/**
 * Pivots rows into one value per bucket and series: rows[i] adds value to
 * (bucketStart, series). Bucket starts the range does not list are dropped
 * (the server's first bucket may start before the range only when a range
 * does not begin at a bucket start, which a preset always does).
 */
export function pivot<T>(
  starts: Date[],
  rows: readonly T[],
  bucketOf: (r: T) => string,
  seriesOf: (r: T) => string,
  valueOf: (r: T) => number,
): { series: string[]; values: Map<string, number[]> } {
  const index = new Map(starts.map((s, i) => [s.getTime(), i]));
  const values = new Map<string, number[]>();
  for (const r of rows) {
    const i = index.get(new Date(bucketOf(r)).getTime());
    if (i === undefined) continue;
    const key = seriesOf(r);
    let v = values.get(key);
    if (!v) values.set(key, (v = starts.map(() => 0)));
    v[i]! += valueOf(r);
  }
  return { series: [...values.keys()].sort(), values };
}
