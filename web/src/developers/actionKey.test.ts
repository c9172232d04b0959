import { CombinedError } from "@urql/core";
import { GraphQLError } from "graphql";
import { describe, expect, it } from "vitest";
import { settles } from "./actionKey";

const refused = (code: string) =>
  new CombinedError({ graphQLErrors: [new GraphQLError("refused", { extensions: { code } })] });

describe("an action's idempotency key", () => {
  it("is spent by an answer, a refusal included (the server keeps it under the key)", () => {
    expect(settles(undefined)).toBe(true);
    expect(settles(refused("IR_06"))).toBe(true);
    expect(settles(refused("IR_22"))).toBe(true);
  });
  it("is kept when no answer came or the first send still runs, so a resend acts once", () => {
    expect(settles(new CombinedError({ networkError: new Error("offline") }))).toBe(false);
    expect(settles(refused("IR_16"))).toBe(false);
  });
});
