import { describe, expect, it } from "vitest";
import { dayStartIn, formatInstant, knownZone, usableZone, wallTime, zonedTime } from "./zone";

// Every expectation is an instant in UTC: none depends on the zone the
// tests run in (the browser's, in the dashboard), only on the zone named.
const iso = (d: Date) => d.toISOString();

describe("zonedTime", () => {
  it("finds a wall-clock time's instant in a zone with a half-hour offset", () => {
    expect(iso(zonedTime(2026, 11, 27, 0, "Asia/Kolkata"))).toBe("2026-11-26T18:30:00.000Z");
    expect(iso(zonedTime(2026, 11, 27, 15, "Asia/Kolkata"))).toBe("2026-11-27T09:30:00.000Z");
    expect(iso(zonedTime(2026, 12, 32, 0, "Asia/Kolkata"))).toBe("2026-12-31T18:30:00.000Z"); // day 32 rolls over
  });
  it("starts a skipped hour when the clocks land past it (Los Angeles, 8 March 2026)", () => {
    expect(iso(zonedTime(2026, 3, 8, 1, "America/Los_Angeles"))).toBe("2026-03-08T09:00:00.000Z");
    expect(iso(zonedTime(2026, 3, 8, 2, "America/Los_Angeles"))).toBe("2026-03-08T10:00:00.000Z");
    expect(iso(zonedTime(2026, 3, 8, 3, "America/Los_Angeles"))).toBe("2026-03-08T10:00:00.000Z");
  });
  it("takes the first of a repeated hour (Los Angeles, 1 November 2026)", () => {
    expect(iso(zonedTime(2026, 11, 1, 1, "America/Los_Angeles"))).toBe("2026-11-01T08:00:00.000Z");
    expect(iso(zonedTime(2026, 11, 1, 2, "America/Los_Angeles"))).toBe("2026-11-01T10:00:00.000Z");
  });
  it("starts a day whose midnight is skipped at 01:00 (Santiago, 6 September 2026), as the server's buckets do", () => {
    expect(iso(dayStartIn("2026-09-06", "America/Santiago"))).toBe("2026-09-06T04:00:00.000Z");
    expect(iso(dayStartIn("2026-09-05", "America/Santiago"))).toBe("2026-09-05T04:00:00.000Z");
    expect(iso(dayStartIn("2026-09-05", "America/Santiago", 1))).toBe("2026-09-06T04:00:00.000Z");
  });
});

describe("wall clocks and names", () => {
  it("reads an instant's wall clock in the zone named", () => {
    expect(wallTime(new Date("2026-11-27T20:00:00Z"), "Asia/Kolkata")).toEqual({
      year: 2026,
      month: 11,
      day: 28,
      hour: 1,
      minute: 30,
      second: 0,
    });
    expect(wallTime(new Date("2026-11-01T09:30:00Z"), "America/Los_Angeles").hour).toBe(1); // the second 01:30
  });
  it("writes instants in the zone named", () => {
    const at = "2026-11-27T20:00:00Z";
    expect(formatInstant(at, "Asia/Kolkata")).not.toBe(formatInstant(at, "America/Los_Angeles"));
    expect(formatInstant(at, "Asia/Kolkata")).toContain("28");
    expect(formatInstant(at, "America/Los_Angeles")).toContain("27");
  });
  it("falls back to UTC for a name the browser does not know", () => {
    expect(knownZone("Europe/Berlin")).toBe(true);
    expect(knownZone("Mars/Olympus_Mons")).toBe(false);
    expect(usableZone("Mars/Olympus_Mons")).toBe("UTC");
    expect(usableZone(null)).toBe("UTC");
    expect(usableZone("Asia/Kolkata")).toBe("Asia/Kolkata");
  });
});
