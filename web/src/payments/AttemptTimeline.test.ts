import { describe, expect, it } from "vitest";
import { errorOf, retryReason, routingOf, type TimelineAttempt } from "./AttemptTimeline";

const attempt = (over: Partial<TimelineAttempt>): TimelineAttempt => ({
  id: "att",
  status: "failure",
  amount: 100,
  currency: "USD",
  createdAt: "2026-11-27T09:00:00Z",
  ...over,
});

describe("the attempt timeline", () => {
  it("says the last attempt led nowhere", () => {
    expect(retryReason(attempt({ connector: "stripe_test" }), undefined)).toBeNull();
  });
  it("names the connector retried on and the failure behind it", () => {
    const failed = attempt({ connector: "stripe_test", errorCode: "service_unavailable" });
    expect(retryReason(failed, attempt({ connector: "adyen", status: "charged" }))).toBe(
      "Retried on adyen after service_unavailable",
    );
  });
  it("tells a 3-D Secure step-up on the same connector from a move", () => {
    const failed = attempt({ connector: "adyen", errorCode: "do_not_honor", authenticationType: "no_three_ds" });
    expect(retryReason(failed, attempt({ connector: "adyen", authenticationType: "three_ds" }))).toBe(
      "Retried with 3-D Secure on adyen after do_not_honor",
    );
  });
  it("writes the routing decision and the error in words", () => {
    expect(routingOf(attempt({ routingApproach: "rule_based_routing", routingKind: "advanced", routingRule: "eu cards" }))).toBe(
      "rule based routing · advanced algorithm · rule “eu cards”",
    );
    expect(routingOf(attempt({}))).toBe("—");
    expect(errorOf({ errorCode: "card_declined", errorMessage: "Your card was declined" })).toBe("card_declined: Your card was declined");
    expect(errorOf({})).toBe("—");
  });
});
