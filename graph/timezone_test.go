package graph_test

import (
	"strings"
	"testing"

	"switchyard/internal/testenv"
)

// TestMerchantTimeZone: a merchant's time zone is UTC unless its sign-up
// gave one; me and merchantAccount read it; an admin (and the admin key)
// changes it with updateMerchantTimeZone, audited; an unknown zone is IR_07
// on timeZone, in sign-up and in the mutation alike, never a 500, and
// changes nothing; other roles and a secret key are refused.
func TestMerchantTimeZone(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	const read = `{ me { merchantTimeZone } merchantAccount { timeZone } }`
	zoneOf := func(c gql) string {
		t.Helper()
		var out struct {
			Me              struct{ MerchantTimeZone string }
			MerchantAccount struct{ TimeZone string }
		}
		c.must(read, nil, &out)
		if out.Me.MerchantTimeZone != out.MerchantAccount.TimeZone {
			t.Fatalf("me says %q, the merchant account %q", out.Me.MerchantTimeZone, out.MerchantAccount.TimeZone)
		}
		return out.Me.MerchantTimeZone
	}
	var apiKey string // the last sign-up's secret key
	signUpIn := func(email, zone string) gql {
		t.Helper()
		var out struct {
			SignUp struct {
				Session         struct{ Token string }
				MerchantAccount struct{ TimeZone string }
				APIKey          string
			}
		}
		vars := map[string]any{"e": email, "z": zone}
		if zone == "" {
			vars["z"] = nil // absent
		}
		newGQL(t, srv.URL, "").must(`mutation($e: String!, $z: String) { signUp(email: $e, password: "correct horse battery",
			merchantName: "Zones", timeZone: $z) { session { token } merchantAccount { timeZone } apiKey } }`,
			vars, &out)
		if want := map[bool]string{true: "UTC", false: zone}[zone == ""]; out.SignUp.MerchantAccount.TimeZone != want {
			t.Fatalf("signed up with %q: the merchant's zone is %q", zone, out.SignUp.MerchantAccount.TimeZone)
		}
		apiKey = out.SignUp.APIKey
		return bearer(t, srv.URL, out.SignUp.Session.Token)
	}

	// Sign-up: UTC without a zone, the one given with one, none made with a bad one.
	if z := zoneOf(signUpIn("utc@zones.example", "")); z != "UTC" {
		t.Fatalf("a merchant signed up without a zone is in %q", z)
	}
	e := newGQL(t, srv.URL, "").fails("IR_07", `mutation { signUp(email: "mars@zones.example", password: "correct horse battery",
		merchantName: "Mars", timeZone: "Mars/Olympus_Mons") { apiKey } }`, nil)
	if e.Extensions["field"] != "timeZone" || !strings.Contains(e.Message, "Mars/Olympus_Mons") {
		t.Fatalf("a sign-up with an unknown zone: %+v", e)
	}
	admin := signUpIn("mars@zones.example", "Asia/Kolkata") // the refused sign-up made no user
	if z := zoneOf(admin); z != "Asia/Kolkata" {
		t.Fatalf("signed up in Asia/Kolkata, the merchant is in %q", z)
	}

	// The admin changes it; each change is audited.
	set := `mutation($z: String!) { updateMerchantTimeZone(timeZone: $z) { id timeZone } }`
	var changed struct{ UpdateMerchantTimeZone struct{ ID, TimeZone string } }
	admin.must(set, map[string]any{"z": "America/Los_Angeles"}, &changed)
	if changed.UpdateMerchantTimeZone.TimeZone != "America/Los_Angeles" || zoneOf(admin) != "America/Los_Angeles" {
		t.Fatalf("after updateMerchantTimeZone: %+v, me %q", changed, zoneOf(admin))
	}
	if log := auditLog(t, admin); log[0].Operation != "updateMerchantTimeZone" || log[0].UserEmail != "mars@zones.example" {
		t.Fatalf("the audit log's newest entry: %+v", log[0])
	}

	// Names that are no IANA zone are refused on timeZone and change nothing.
	for _, bad := range []string{"", "Local", "Mars/Olympus_Mons", "../../etc/passwd", "Europe/Berlin ", "GMT+5:30",
		strings.Repeat("A", 65), "Europe/\u0000Berlin"} {
		e := admin.fails("IR_07", set, map[string]any{"z": bad})
		if e.Extensions["field"] != "timeZone" {
			t.Errorf("%q: %+v", bad, e)
		}
	}
	if z := zoneOf(admin); z != "America/Los_Angeles" {
		t.Fatalf("refused changes left the zone %q", z)
	}

	// Other roles and a merchant's secret key may not; the admin key may.
	for _, role := range []string{"VIEWER", "OPERATOR", "DEVELOPER"} {
		m := member(t, srv.URL, admin, strings.ToLower(role)+"@zones.example", role)
		c := bearer(t, srv.URL, m.Token)
		if e := c.fails("IR_22", set, map[string]any{"z": "Europe/Berlin"}); !strings.Contains(e.Message, "updateMerchantTimeZone") {
			t.Errorf("%s: %+v", role, e)
		}
		if z := zoneOf(c); z != "America/Los_Angeles" { // every member reads it
			t.Errorf("%s reads %q", role, z)
		}
	}
	var me struct{ Me struct{ MerchantID string } }
	admin.must(`{ me { merchantID } }`, nil, &me)
	newGQL(t, srv.URL, apiKey).fails("IR_22", set, map[string]any{"z": "Europe/Berlin"})
	platform := newGQL(t, srv.URL, srv.Config.AdminAPIKey).with("X-Merchant-Id", me.Me.MerchantID)
	platform.must(set, map[string]any{"z": "Europe/Berlin"}, nil)
	if z := zoneOf(admin); z != "Europe/Berlin" {
		t.Fatalf("after the admin key's change: %q", z)
	}
}
