import { describe, expect, it } from "vitest";
import { parsePreset, pivot, presetRange } from "./ranges";

describe("presets", () => {
  const now = new Date(2026, 10, 27, 15, 42);
  it("today is local midnight to the next, by hour", () => {
    const r = presetRange("today", now);
    expect(r.from).toEqual(new Date(2026, 10, 27));
    expect(r.to).toEqual(new Date(2026, 10, 28));
    expect(r.bucket).toBe("HOUR");
    expect(r.starts[0]).toEqual(r.from);
    expect(new Set(r.starts.map((s) => s.getTime())).size).toBe(r.starts.length);
    expect(r.starts.every((s) => s >= r.from && s < r.to)).toBe(true);
  });
  it("7 and 30 days end with today, by day", () => {
    const w = presetRange("7d", now);
    expect(w.from).toEqual(new Date(2026, 10, 21));
    expect(w.to).toEqual(new Date(2026, 10, 28));
    expect(w.starts).toHaveLength(7);
    expect(w.starts[6]).toEqual(new Date(2026, 10, 27));
    const m = presetRange("30d", now);
    expect(m.from).toEqual(new Date(2026, 9, 29));
    expect(m.starts).toHaveLength(30);
    expect(m.bucket).toBe("DAY");
  });
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
