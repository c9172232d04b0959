import { describe, expect, it } from "vitest";
import { parsePreset, pivot, presetRange } from "./ranges";

// The presets are calendar days of the merchant's zone, whatever the zone
// the tests (or the browser) run in: every expectation is a UTC instant.
const isos = (ds: Date[]) => ds.map((d) => d.toISOString());
const hourly = (from: string, n: number) => Array.from({ length: n }, (_, i) => new Date(Date.parse(from) + i * 3_600_000).toISOString());

describe("presets in Asia/Kolkata (+05:30)", () => {
  const now = new Date("2026-11-27T10:12:00Z"); // 15:42 in Kolkata
  const zone = "Asia/Kolkata";
  it("today is Kolkata's midnight to the next, by hour", () => {
    const r = presetRange("today", now, zone);
    expect(r.from.toISOString()).toBe("2026-11-26T18:30:00.000Z");
    expect(r.to.toISOString()).toBe("2026-11-27T18:30:00.000Z");
    expect(r.bucket).toBe("HOUR");
    expect(isos(r.starts)).toEqual(hourly("2026-11-26T18:30:00Z", 24));
  });
  it("7 and 30 days end with Kolkata's today, by day", () => {
    const w = presetRange("7d", now, zone);
    expect(w.from.toISOString()).toBe("2026-11-20T18:30:00.000Z");
    expect(w.to.toISOString()).toBe("2026-11-27T18:30:00.000Z");
    expect(w.starts).toHaveLength(7);
    expect(w.starts[6]!.toISOString()).toBe("2026-11-26T18:30:00.000Z");
    const m = presetRange("30d", now, zone);
    expect(m.from.toISOString()).toBe("2026-10-28T18:30:00.000Z");
    expect(m.starts).toHaveLength(30);
    expect(m.bucket).toBe("DAY");
  });
  it("a UTC evening is already tomorrow in Kolkata", () => {
    const r = presetRange("today", new Date("2026-11-27T20:00:00Z"), zone);
    expect(r.from.toISOString()).toBe("2026-11-27T18:30:00.000Z");
  });
});

describe("presets in America/Los_Angeles across daylight saving", () => {
  const zone = "America/Los_Angeles";
  it("the day clocks go forward has 23 hours", () => {
    const r = presetRange("today", new Date("2026-03-08T20:00:00Z"), zone);
    expect(r.from.toISOString()).toBe("2026-03-08T08:00:00.000Z"); // 00:00 PST
    expect(r.to.toISOString()).toBe("2026-03-09T07:00:00.000Z"); // 00:00 PDT
    expect(isos(r.starts)).toEqual(hourly("2026-03-08T08:00:00Z", 23)); // 01:00 PST is followed by 03:00 PDT
  });
  it("the day clocks go back has 25 hours in 24 buckets: the repeated hour is one", () => {
    const r = presetRange("today", new Date("2026-11-01T20:00:00Z"), zone);
    expect(r.from.toISOString()).toBe("2026-11-01T07:00:00.000Z"); // 00:00 PDT
    expect(r.to.toISOString()).toBe("2026-11-02T08:00:00.000Z"); // 00:00 PST
    expect(r.starts).toHaveLength(24);
    expect(isos(r.starts.slice(0, 3))).toEqual(["2026-11-01T07:00:00.000Z", "2026-11-01T08:00:00.000Z", "2026-11-01T10:00:00.000Z"]);
  });
  it("7 days across the change start each day at local midnight", () => {
    const w = presetRange("7d", new Date("2026-03-10T19:00:00Z"), zone);
    expect(isos(w.starts)).toEqual([
      "2026-03-04T08:00:00.000Z",
      "2026-03-05T08:00:00.000Z",
      "2026-03-06T08:00:00.000Z",
      "2026-03-07T08:00:00.000Z",
      "2026-03-08T08:00:00.000Z",
      "2026-03-09T07:00:00.000Z",
      "2026-03-10T07:00:00.000Z",
    ]);
    expect(w.to.toISOString()).toBe("2026-03-11T07:00:00.000Z");
  });
});

describe("the URL's preset", () => {
  it("reads the preset from the URL, today by default", () => {
    expect(parsePreset("7d")).toBe("7d");
    expect(parsePreset("30d")).toBe("30d");
    expect(parsePreset("1y")).toBe("today");
    expect(parsePreset(null)).toBe("today");
  });
});

describe("pivot", () => {
  it("sums rows per bucket and series, zero where none, unknown buckets dropped", () => {
    const starts = [new Date("2026-11-25T00:00:00Z"), new Date("2026-11-26T00:00:00Z")];
    const rows = [
      { b: "2026-11-26T00:00:00Z", k: "succeeded", n: 2 },
      { b: "2026-11-26T00:00:00Z", k: "succeeded", n: 3 },
      { b: "2026-11-25T00:00:00Z", k: "failed", n: 1 },
      { b: "2026-11-20T00:00:00Z", k: "failed", n: 9 },
    ];
    const p = pivot(starts, rows, (r) => r.b, (r) => r.k, (r) => r.n);
    expect(p.series).toEqual(["failed", "succeeded"]);
    expect(p.values.get("succeeded")).toEqual([0, 5]);
    expect(p.values.get("failed")).toEqual([1, 0]);
  });
});
