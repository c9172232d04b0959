// The merchant's time zone for every page under the signed-in frame: the
// days the filters name, the home page's ranges and every time shown are
// the merchant's (me.merchantTimeZone), not the browser's.
import { createContext, useContext } from "react";
import { formatInstant } from "../lib/zone";

const TimeZoneContext = createContext("UTC");

/** Gives the pages under it the merchant's time zone (a name the browser knows: lib/zone's usableZone). */
export const TimeZoneProvider = TimeZoneContext.Provider;

/** The merchant's IANA time zone. */
export function useTimeZone(): string {
  return useContext(TimeZoneContext);
}

/** An instant as a <time>, written in the merchant's time zone. */
export function Time({ value, className }: { value: string; className?: string }) {
  const timeZone = useTimeZone();
  return (
    <time className={className} dateTime={value}>
      {formatInstant(value, timeZone)}
    </time>
  );
}

/** formatInstant in the merchant's time zone, for text that is not a <time> of its own. */
export function useFormatInstant(): (iso: string) => string {
  const timeZone = useTimeZone();
  return (iso) => formatInstant(iso, timeZone);
}
