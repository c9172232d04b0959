// A value to copy (an invitation link, a new secret key): shown read-only,
// selected on focus, with a button that puts it on the clipboard.
import { useState } from "react";

export function CopyField({ label, value, testId }: { label: string; value: string; testId?: string }) {
  const [copied, setCopied] = useState(false);
  const id = `copy-${label.toLowerCase().replaceAll(/[^a-z0-9]+/g, "-")}`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="row">
        <input id={id} className="copy" readOnly value={value} data-testid={testId} onFocus={(e) => e.currentTarget.select()} />
        <button
          type="button"
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(value);
              setCopied(true);
            } catch {
              // No clipboard (an insecure origin, a refused permission): the
              // field is selected so that the person copies it themselves.
              document.getElementById(id)?.focus();
            }
          }}
        >
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
    </div>
  );
}
