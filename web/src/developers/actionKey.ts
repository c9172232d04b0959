// One idempotency key per intended action: every send of the same action
// (a double click, a retry after a network error) carries the same key, so
// the server acts once; a finished action takes a new key for the next.
import { useCallback, useState } from "react";
import { idempotencyKey } from "../lib/client";

export function useActionKey(): [string, () => void] {
  const [key, setKey] = useState(idempotencyKey);
  const renew = useCallback(() => setKey(idempotencyKey()), []);
  return [key, renew];
}
