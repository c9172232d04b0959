// Business settings, for admins (updateMerchantTimeZone): the merchant's
// time zone, which the home page's ranges, the lists' day filters and every
// time shown follow. Saving reads `me` again (App), so the pages change at
// once; stored times do not change, they are kept in UTC.
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useMutation } from "urql";
import { errorText } from "../lib/errors";
import { browserTimeZone, knownZone } from "../lib/zone";
import { useTimeZone } from "../layout/TimeZone";
import { UpdateMerchantTimeZoneMutation } from "./operations";

/** The zones this browser offers to choose from (any IANA name may be typed). */
function zoneNames(): string[] {
  const supported = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return ["UTC", ...supported.filter((z) => z !== "UTC")];
}

export function BusinessSettings({ changed }: { changed: () => void }) {
  const current = useTimeZone();
  const [zone, setZone] = useState(current);
  const [problem, setProblem] = useState<string | null>(null);
  const [state, save] = useMutation(UpdateMerchantTimeZoneMutation);
  const heading = useRef<HTMLHeadingElement>(null);
  // The home page's "change" link lands here.
  useEffect(() => {
    if (window.location.hash === "#business-settings") heading.current?.scrollIntoView();
  }, []);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (state.fetching) return;
    const name = zone.trim();
    // A zone this browser cannot show would read as UTC here.
    if (!knownZone(name)) {
      setProblem(`"${name}" is not a time zone this browser knows: give an IANA name such as Europe/Berlin.`);
      return;
    }
    setProblem(null);
    const res = await save({ timeZone: name });
    if (res.data) changed();
  };
  const saved = state.data?.updateMerchantTimeZone.timeZone;
  const browser = browserTimeZone();
  return (
    <>
      <h2 id="business-settings" ref={heading}>
        Business settings
      </h2>
      <form className="card" aria-labelledby="business-settings" onSubmit={submit}>
        <div className="field">
          <label htmlFor="merchant-time-zone">Time zone</label>
          <input
            id="merchant-time-zone"
            list="time-zones"
            required
            autoComplete="off"
            spellCheck={false}
            aria-describedby="time-zone-hint"
            value={zone}
            onChange={(e) => setZone(e.target.value)}
          />
          <datalist id="time-zones">
            {zoneNames().map((z) => (
              <option key={z} value={z} />
            ))}
          </datalist>
        </div>
        <p id="time-zone-hint" className="muted">
          The home page's days, the lists' date filters and every time shown are in this zone, now {current}
          {browser !== current ? ` (this browser's is ${browser})` : ""}. An IANA name, such as Europe/Berlin.
        </p>
        {(problem || state.error) && (
          <p className="error" role="alert">
            {problem ?? errorText(state.error)}
          </p>
        )}
        <div className="row">
          <button type="submit" className="primary" disabled={state.fetching || zone.trim() === current}>
            {state.fetching ? "Saving…" : "Save time zone"}
          </button>
          {saved && saved === current && !state.fetching && (
            <span role="status" className="muted">
              Saved: {saved}.
            </span>
          )}
        </div>
      </form>
    </>
  );
}
