import { describe, expect, it } from "vitest";
import { disputeFilters, disputesWhere } from "./filters";

describe("dispute filters ⇄ URL", () => {
  it("round-trips statuses, stages, days and the payment", () => {
    const f = {
      statuses: ["dispute_opened" as const, "dispute_lost" as const],
      stages: ["pre_arbitration" as const],
      from: "2026-11-01",
      to: null,
      paymentID: "pay_9",
    };
    const q = disputeFilters.toSearch(f).toString();
    expect(q).toBe("status=dispute_opened%2Cdispute_lost&stage=pre_arbitration&from=2026-11-01&payment=pay_9");
    expect(disputeFilters.parse(new URLSearchParams(q))).toEqual(f);
  });
  it("keeps statuses and stages apart, and drops unknown ones", () => {
    const f = disputeFilters.parse(new URLSearchParams("status=dispute,dispute_won&stage=dispute_won,dispute"));
    expect(f.statuses).toEqual(["dispute_won"]);
    expect(f.stages).toEqual(["dispute"]);
    expect(disputeFilters.has(disputeFilters.parse(new URLSearchParams("stage=final")))).toBe(false);
  });
  it("asks for the disputes of the merchant's days", () => {
    const f = disputeFilters.parse(new URLSearchParams("status=dispute_opened&stage=dispute&to=2026-11-27"));
    expect(disputesWhere(f, "Asia/Kolkata")).toEqual({
      disputeStatusIn: ["dispute_opened"],
      disputeStageIn: ["dispute"],
      createdAtLT: "2026-11-27T18:30:00.000Z",
    });
    expect(disputesWhere(disputeFilters.none, "Asia/Kolkata")).toBeNull();
  });
});
