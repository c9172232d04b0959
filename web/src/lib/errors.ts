// What the API's errors say to a person: the message, with the Hyperswitch
// code the API put in extensions (UR_01, IR_14, …) for support.
import type { CombinedError } from "@urql/core";

export function errorText(err: CombinedError | undefined): string | null {
  if (!err) return null;
  if (err.networkError) return "The server could not be reached. Check the connection and try again.";
  return err.graphQLErrors
    .map((e) => {
      const code = e.extensions?.["code"];
      return typeof code === "string" ? `${e.message} (${code})` : e.message;
    })
    .join(" ");
}

/**
 * Whether the error means the session is over: IR_01 is the API's answer to
 * a token it does not know (expired, signed out elsewhere, a changed role or
 * membership). IR_22, a role refused an operation, is not.
 */
export function sessionEnded(err: CombinedError | undefined): boolean {
  return !!err?.graphQLErrors.some((e) => e.extensions?.["code"] === "IR_01");
}

/** The request member an API error names (extensions.field: "code", "algorithm.data.rules[0].name"), if any. */
export function errorField(err: CombinedError | undefined): string | null {
  const field = err?.graphQLErrors[0]?.extensions?.["field"];
  return typeof field === "string" && field ? field : null;
}
