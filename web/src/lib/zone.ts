// Calendar arithmetic in a named IANA time zone, the merchant's, whatever
// the browser's own is: a wall-clock time's instant, an instant's wall
// clock, and instants written for people. JavaScript's Date knows only UTC
// and the browser's zone; Intl.DateTimeFormat knows every zone, so the
// offsets are read from it. The server cuts analytics buckets by the same
// rules (payments/analytics/buckets.go): a local time the clocks skip
// starts when they land past it, and a repeated hour starts at the first.

const day = 86_400_000;

/** A wall-clock time: month 1 to 12. */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const partFormats = new Map<string, Intl.DateTimeFormat>();

function partFormat(timeZone: string): Intl.DateTimeFormat {
  let f = partFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    partFormats.set(timeZone, f);
  }
  return f;
}

/** Whether this browser knows the zone (a server may know names it does not). */
export function knownZone(timeZone: string): boolean {
  try {
    partFormat(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The zone if the browser knows it, else UTC: a page never fails on a name. */
export function usableZone(timeZone: string | null | undefined): string {
  return timeZone && knownZone(timeZone) ? timeZone : "UTC";
}

/** The browser's IANA time zone (what sign-up gives a new merchant). */
export function browserTimeZone(): string {
  return usableZone(Intl.DateTimeFormat().resolvedOptions().timeZone);
}

/** The wall-clock time of an instant in a zone. */
export function wallTime(at: Date | number, timeZone: string): WallTime {
  const parts = partFormat(timeZone).formatToParts(at);
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return {
    year: get("year"),
    month: get("month"),
    day: get("day"),
    hour: get("hour") % 24, // some engines write midnight as 24
    minute: get("minute"),
    second: get("second"),
  };
}

/** The wall clock of an instant, as milliseconds of the same numbers in UTC. */
function wallMs(t: number, timeZone: string): number {
  const w = wallTime(t, timeZone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
}

/**
 * The instant the zone's clocks show year-month-day hour:00 (month 1 to 12;
 * days and hours past the month's end roll over, as Date.UTC's do). When
 * the clocks show it twice (they went back) it is the first; when they
 * skip it (they went forward) it is the instant they land past it.
 */
export function zonedTime(year: number, month: number, dayOfMonth: number, hour: number, timeZone: string): Date {
  const wall = Date.UTC(year, month - 1, dayOfMonth, hour);
  // The offsets a day either side: a zone changes at most once between.
  const offsets = new Set([wallMs(wall - day, timeZone) - (wall - day), wallMs(wall + day, timeZone) - (wall + day)]);
  const shown = [...offsets].map((o) => wall - o).filter((t) => wallMs(t, timeZone) === wall);
  if (shown.length > 0) return new Date(Math.min(...shown));
  // Skipped: search the gap, whole seconds, for the first instant past it.
  let lo = wall - Math.max(...offsets);
  let hi = wall - Math.min(...offsets);
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (wallMs(mid, timeZone) >= wall) hi = mid;
    else lo = mid;
  }
  return new Date(hi);
}

/** The instant a calendar day (YYYY-MM-DD) starts at in the zone; plusDays moves the day first. */
export function dayStartIn(isoDay: string, timeZone: string, plusDays = 0): Date {
  const [y, m, d] = isoDay.split("-").map(Number) as [number, number, number];
  return zonedTime(y, m, d + plusDays, 0, timeZone);
}

/** An instant as people read it, in the zone: "27 Nov 2026, 15:42". */
export function formatInstant(iso: string | Date, timeZone: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short", timeZone });
}
