// The GraphQL client: urql's document cache over fetch, to the same
// origin's /graphql, with the session token as `Authorization: Bearer`.
// A new client is made for each session (sign-in, switch merchant, sign
// out), so nothing one merchant's session read is shown to the next.
import { Client, cacheExchange, fetchExchange, mapExchange } from "@urql/core";
import { sessionEnded } from "./errors";

/** A client for the session token (none when signed out); ended is called when the server no longer knows the session. */
export function newClient(token: string | null, ended: () => void): Client {
  return new Client({
    url: "/graphql",
    exchanges: [
      cacheExchange,
      // Any answer may be the first to say the session is over.
      mapExchange({
        onError(error) {
          if (token && sessionEnded(error)) ended();
        },
      }),
      fetchExchange,
    ],
    // POST only: a GET of /graphql from a browser tab is the playground's.
    preferGetMethod: false,
    requestPolicy: "cache-and-network",
    fetchOptions: () => (token ? { headers: { Authorization: `Bearer ${token}` } } : {}),
  });
}

/** A new idempotency key for one action: a double click sends the same key, so the server acts once. */
export function idempotencyKey(): string {
  return `dash-${crypto.randomUUID()}`;
}
