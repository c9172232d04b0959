// An API error, or a form's own complaint, said to a person and announced
// (role="alert"); nothing when there is none.
import type { CombinedError } from "@urql/core";
import { errorText } from "../lib/errors";

export function ErrorAlert({ error, text }: { error?: CombinedError | undefined; text?: string | null }) {
  const said = text ?? errorText(error);
  return said ? (
    <p className="error" role="alert">
      {said}
    </p>
  ) : null;
}
