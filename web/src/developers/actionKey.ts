// One idempotency key per intended action: every send of the same action
// (a double click, a resend after a network error) carries the same key,
// so the server acts once. An answer settles the action and the next one
// takes a new key: the server keeps a refusal under its key too (replayed
// for the same arguments, IR_06 for others), so a corrected form needs a
// new one. No answer (a network error) or IR_16 (the first send still
// running) keeps the key.
import { useCallback, useState } from "react";
import type { CombinedError } from "@urql/core";
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { useMutation, type AnyVariables } from "urql";
import { idempotencyKey } from "../lib/client";

/** Whether an answer ends the action, so that the next send is a new one. */
export function settles(error: CombinedError | undefined): boolean {
  if (!error) return true;
  if (error.networkError) return false;
  return !error.graphQLErrors.some((e) => e.extensions?.["code"] === "IR_16");
}

export function useActionKey(): [string, (answer: { error?: CombinedError | undefined }) => void] {
  const [key, setKey] = useState(idempotencyKey);
  const settle = useCallback((answer: { error?: CombinedError | undefined }) => {
    if (settles(answer.error)) setKey(idempotencyKey());
  }, []);
  return [key, settle];
}

/**
 * useMutation for one intended action: its run sends the action's
 * idempotency key (useActionKey) and settles it with the answer.
 */
export function useKeyedMutation<D, V extends AnyVariables & { idempotencyKey?: string | null }>(doc: TypedDocumentNode<D, V>) {
  const [key, settle] = useActionKey();
  const [state, run] = useMutation(doc);
  const send = async (variables: Omit<V, "idempotencyKey">) => {
    const res = await run({ ...variables, idempotencyKey: key } as V);
    settle(res);
    return res;
  };
  return [state, send] as const;
}
