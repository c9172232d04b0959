// The GraphQL client: urql's document cache over fetch, to the same
// origin's /graphql, with the session token as `Authorization: Bearer`.
// A new client is made for each session (sign-in, switch merchant, sign
// out), so nothing one merchant's session read is shown to the next.
import { Client, cacheExchange, fetchExchange, mapExchange, subscriptionExchange } from "@urql/core";
import { createClient as createWSClient } from "graphql-ws";
import { sessionEnded } from "./errors";

/** A client for the session token (none when signed out); ended is called when the server no longer knows the session. */
export function newClient(token: string | null, ended: () => void): Client {
  // Subscriptions go over one websocket to the same /graphql, opened when
  // the first one starts, with the session in connection_init (a browser
  // cannot set headers on a websocket).
  const ws = token
    ? createWSClient({
        url: `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/graphql`,
        connectionParams: { Authorization: `Bearer ${token}` },
        lazy: true,
        retryAttempts: 5,
      })
    : null;
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
      ...(ws
        ? [
            subscriptionExchange({
              forwardSubscription(request) {
                const input = { ...request, query: request.query || "" };
                return {
                  subscribe(sink) {
                    return { unsubscribe: ws.subscribe(input, sink) };
                  },
                };
              },
            }),
          ]
        : []),
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
