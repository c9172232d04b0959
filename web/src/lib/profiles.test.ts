import { describe, expect, it } from "vitest";
import { chosenProfile, defaultProfile, profileLabel, searchWithProfile, unknownProfile, type ProfileOption } from "./profiles";

const main: ProfileOption = { id: "pro_main", profileID: "pro_main", profileName: "default", isDefault: true };
const eu: ProfileOption = { id: "pro_eu", profileID: "pro_eu", profileName: "EU shop", isDefault: false };
const us: ProfileOption = { id: "pro_us", profileID: "pro_us", profileName: "US shop", isDefault: false };
const profiles = [main, eu, us];
const q = (s: string) => new URLSearchParams(s);

describe("the profile in the URL", () => {
  it("is the default one when the URL names none", () => {
    expect(chosenProfile(profiles, "pro_main", q(""))).toBe(main);
    expect(chosenProfile(profiles, "pro_main", q("after=abc"))).toBe(main);
  });

  it("is the one ?profile= names", () => {
    expect(chosenProfile(profiles, "pro_main", q("profile=pro_eu"))).toBe(eu);
    expect(chosenProfile(profiles, "pro_main", q("profile=pro_us&x=1"))).toBe(us);
  });

  it("is the default one when ?profile= names a profile the merchant does not have", () => {
    expect(chosenProfile(profiles, "pro_main", q("profile=pro_other"))).toBe(main);
    expect(chosenProfile(profiles, "pro_main", q("profile="))).toBe(main);
    expect(unknownProfile(profiles, q("profile=pro_other"))).toBe("pro_other");
    expect(unknownProfile(profiles, q("profile=pro_eu"))).toBeNull();
    expect(unknownProfile(profiles, q(""))).toBeNull();
    // Not said before the profiles are known.
    expect(unknownProfile([], q("profile=pro_eu"))).toBeNull();
  });

  it("finds the default by the merchant's defaultProfileID, then the mark, then the oldest", () => {
    expect(defaultProfile(profiles, "pro_us")).toBe(us);
    expect(defaultProfile(profiles, null)).toBe(main);
    expect(defaultProfile([eu, us], undefined)).toBe(eu);
    expect(defaultProfile([], "pro_main")).toBeUndefined();
    expect(chosenProfile([], "pro_main", q("profile=pro_eu"))).toBeUndefined();
  });

  it("writes the choice and keeps the page's other parameters", () => {
    expect(searchWithProfile(q(""), "pro_eu", "pro_main")).toBe("?profile=pro_eu");
    expect(searchWithProfile(q("range=7d"), "pro_eu", "pro_main")).toBe("?range=7d&profile=pro_eu");
    expect(searchWithProfile(q("profile=pro_eu"), "pro_us", "pro_main")).toBe("?profile=pro_us");
  });

  it("leaves the default profile out of the URL", () => {
    expect(searchWithProfile(q("profile=pro_eu"), "pro_main", "pro_main")).toBe("");
    expect(searchWithProfile(q("profile=pro_eu&range=7d"), "pro_main", "pro_main")).toBe("?range=7d");
    expect(searchWithProfile(q(""), "", "pro_main")).toBe("");
  });

  it("round-trips: the URL written chooses the profile chosen", () => {
    for (const p of profiles) {
      const search = searchWithProfile(q("profile=pro_us&range=30d"), p.profileID, "pro_main");
      expect(chosenProfile(profiles, "pro_main", q(search.slice(1)))).toBe(p);
      expect(q(search.slice(1)).get("range")).toBe("30d");
    }
  });
});

describe("the picker's labels", () => {
  it("name each profile with its id and mark the default", () => {
    expect(profileLabel(main, "pro_main")).toBe("default (pro_main), the default profile");
    expect(profileLabel(eu, "pro_main")).toBe("EU shop (pro_eu)");
    expect(profileLabel(eu, "pro_eu")).toBe("EU shop (pro_eu), the default profile");
    expect(profileLabel(main, null)).toBe("default (pro_main), the default profile");
  });
});
