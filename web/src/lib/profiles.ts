// Which business profile a page shows, kept in its URL: ?profile=pro_… for
// any but the merchant's default profile, which is the page without it. A
// profile the merchant does not have (a stale or foreign link) shows the
// default one. Apart from the picker so that it runs without a browser.

/** A profile as the picker lists it. */
export interface ProfileOption {
  id: string;
  profileID: string;
  profileName: string;
  isDefault: boolean;
}

/** The URL parameter that names the chosen profile. */
export const profileParam = "profile";

/** The merchant's default profile: defaultProfileID, else the one marked default, else the oldest. */
export function defaultProfile<P extends ProfileOption>(profiles: readonly P[], defaultProfileID?: string | null): P | undefined {
  return profiles.find((p) => p.profileID === defaultProfileID) ?? profiles.find((p) => p.isDefault) ?? profiles[0];
}

/** The profile the URL chooses: ?profile= when it is one of the merchant's, else the default one. */
export function chosenProfile<P extends ProfileOption>(
  profiles: readonly P[],
  defaultProfileID: string | null | undefined,
  search: URLSearchParams,
): P | undefined {
  const wanted = search.get(profileParam);
  return profiles.find((p) => p.profileID === wanted) ?? defaultProfile(profiles, defaultProfileID);
}

/** Whether the URL names a profile the merchant does not have (only known once the profiles are). */
export function unknownProfile(profiles: readonly ProfileOption[], search: URLSearchParams): string | null {
  const wanted = search.get(profileParam);
  return wanted && profiles.length > 0 && !profiles.some((p) => p.profileID === wanted) ? wanted : null;
}

/**
 * The query string ("?…", or "" for none) that chooses profileID, keeping
 * the page's other parameters: the default profile is the URL without
 * ?profile=, so a link to it keeps following the default.
 */
export function searchWithProfile(search: URLSearchParams, profileID: string, defaultProfileID: string | null | undefined): string {
  const next = new URLSearchParams(search);
  if (!profileID || profileID === defaultProfileID) next.delete(profileParam);
  else next.set(profileParam, profileID);
  const s = next.toString();
  return s ? `?${s}` : "";
}

/** How the picker names a profile: its name and id, the default one marked. */
export function profileLabel(p: ProfileOption, defaultProfileID: string | null | undefined): string {
  const isDefault = defaultProfileID ? p.profileID === defaultProfileID : p.isDefault;
  return `${p.profileName} (${p.profileID})${isDefault ? ", the default profile" : ""}`;
}
