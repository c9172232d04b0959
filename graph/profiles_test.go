package graph_test

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"entgo.io/ent/dialect"

	"switchyard/internal/ids"
	"switchyard/internal/testenv"
)

const createProfileDoc = `mutation($in: CreateProfileInput!, $k: String) { createProfile(input: $in, idempotencyKey: $k) {
	replayed profile { id profileID profileName isDefault returnURL webhookSettings { webhookURL deliveryEnabled enabledEventTypes } } } }`

type createdProfile struct {
	CreateProfile struct {
		Replayed bool
		Profile  struct {
			ID, ProfileID, ProfileName string
			IsDefault                  bool
			ReturnURL                  *string
			WebhookSettings            struct {
				WebhookURL        *string
				DeliveryEnabled   bool
				EnabledEventTypes []string
			}
		}
	}
}

// TestCreateProfile: an admin's session makes a second profile through
// REST's operation, with its name, return URL and webhook settings; the
// same idempotency key makes it once; REST lists it and shows its own
// signing key; the merchant's secret key may make one too, as on REST.
func TestCreateProfile(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	admin, apiKey := signUp(t, srv.URL, "owner@profiles.example", "Profiles shop")
	ac := bearer(t, srv.URL, admin.Token)
	in := map[string]any{"profileName": "EU shop", "returnURL": "https://eu.example.com/back",
		"webhookSettings": map[string]any{"webhookURL": "https://eu.example.com/hooks", "enabledEventTypes": []string{"payment_succeeded"}}}
	var first, again createdProfile
	ac.must(createProfileDoc, map[string]any{"in": in, "k": "new-profile-1"}, &first)
	p := first.CreateProfile.Profile
	if first.CreateProfile.Replayed || !strings.HasPrefix(p.ProfileID, "pro_") || p.ID != p.ProfileID || p.ProfileName != "EU shop" ||
		p.IsDefault || p.ReturnURL == nil || *p.ReturnURL != "https://eu.example.com/back" ||
		p.WebhookSettings.WebhookURL == nil || *p.WebhookSettings.WebhookURL != "https://eu.example.com/hooks" ||
		!p.WebhookSettings.DeliveryEnabled || strings.Join(p.WebhookSettings.EnabledEventTypes, ",") != "payment_succeeded" {
		t.Fatalf("createProfile made %+v", first.CreateProfile)
	}
	ac.must(createProfileDoc, map[string]any{"in": in, "k": "new-profile-1"}, &again)
	if !again.CreateProfile.Replayed || again.CreateProfile.Profile.ProfileID != p.ProfileID {
		t.Fatalf("the same key again: %+v", again.CreateProfile)
	}

	// REST sees the same profiles: the default one and this one, each with its own key.
	status, body, err := testenv.Call(srv.URL, "GET", "/account/"+admin.MerchantID+"/business_profile", apiKey, nil)
	if err != nil || status != 200 {
		t.Fatalf("REST list: %d %s %v", status, body, err)
	}
	var listed []struct {
		ProfileID      string `json:"profile_id"`
		ProfileName    string `json:"profile_name"`
		HashKey        string `json:"payment_response_hash_key"`
		WebhookDetails struct {
			WebhookURL string `json:"webhook_url"`
		} `json:"webhook_details"`
	}
	if err := json.Unmarshal(body, &listed); err != nil || len(listed) != 2 {
		t.Fatalf("REST lists %s (%v)", body, err)
	}
	if l := listed[1]; l.ProfileID != p.ProfileID || l.ProfileName != "EU shop" || l.WebhookDetails.WebhookURL != "https://eu.example.com/hooks" ||
		len(l.HashKey) != 64 || l.HashKey == listed[0].HashKey {
		t.Fatalf("REST shows %+v beside %+v", l, listed[0])
	}

	// The secret key may, as POST /account/{id}/business_profile lets it;
	// without a name the profile is profile_<n>.
	var byKey createdProfile
	newGQL(t, srv.URL, apiKey).must(createProfileDoc, map[string]any{"in": map[string]any{}}, &byKey)
	if byKey.CreateProfile.Profile.ProfileName != "profile_3" || byKey.CreateProfile.Profile.WebhookSettings.WebhookURL != nil {
		t.Fatalf("a profile without a name: %+v", byKey.CreateProfile.Profile)
	}
	var m struct {
		MerchantAccount struct {
			DefaultProfileID string
			Profiles         struct{ TotalCount int }
		}
	}
	ac.must(`{ merchantAccount { defaultProfileID profiles(first: 10) { totalCount } } }`, nil, &m)
	if m.MerchantAccount.Profiles.TotalCount != 3 || m.MerchantAccount.DefaultProfileID == p.ProfileID {
		t.Fatalf("the merchant has %+v", m.MerchantAccount)
	}
}

// TestCreateProfileRefusals: what REST refuses, createProfile refuses with
// the same code and member (a name in use is HE_01, as REST's POST answers
// it), and only admins' sessions may run it.
func TestCreateProfileRefusals(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	admin, apiKey := signUp(t, srv.URL, "owner@refusals.example", "Refusals shop")
	ac := bearer(t, srv.URL, admin.Token)
	ac.must(createProfileDoc, map[string]any{"in": map[string]any{"profileName": "EU shop"}}, nil)
	for _, tc := range []struct {
		name        string
		in          map[string]any
		rest        map[string]any
		code, field string
	}{
		{"a name in use", map[string]any{"profileName": "EU shop"}, map[string]any{"profile_name": "EU shop"}, "HE_01", "profile_name"},
		{"sign-up's default name", map[string]any{"profileName": "default"}, map[string]any{"profile_name": "default"}, "HE_01", "profile_name"},
		{"an empty name", map[string]any{"profileName": ""}, map[string]any{"profile_name": ""}, "IR_07", "profile_name"},
		{"a name too long", map[string]any{"profileName": strings.Repeat("n", 65)}, map[string]any{"profile_name": strings.Repeat("n", 65)}, "IR_07", "profile_name"},
		{"a relative return URL", map[string]any{"returnURL": "/back"}, map[string]any{"return_url": "/back"}, "IR_07", "return_url"},
		{"a webhook URL that is not one", map[string]any{"webhookSettings": map[string]any{"webhookURL": "ftp://x"}},
			map[string]any{"webhook_details": map[string]any{"webhook_url": "ftp://x"}}, "IR_07", "webhook_details.webhook_url"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := bearer(t, srv.URL, admin.Token).fails(tc.code, createProfileDoc, map[string]any{"in": tc.in, "k": "refused-" + strings.ReplaceAll(t.Name(), "/", "-")})
			if e.Extensions["field"] != tc.field {
				t.Errorf("GraphQL names member %v, want %s", e.Extensions["field"], tc.field)
			}
			status, body, err := testenv.Call(srv.URL, "POST", "/account/"+admin.MerchantID+"/business_profile", apiKey, tc.rest)
			if err != nil || status != 400 || !strings.Contains(string(body), fmt.Sprintf(`"code":%q`, tc.code)) {
				t.Errorf("REST answers %d %s %v", status, body, err)
			}
		})
	}

	for _, role := range []string{"DEVELOPER", "OPERATOR", "VIEWER"} {
		s := member(t, srv.URL, ac, strings.ToLower(role)+"@refusals.example", role)
		e := bearer(t, srv.URL, s.Token).fails("IR_22", createProfileDoc, map[string]any{"in": map[string]any{"profileName": "By " + role}})
		if !strings.Contains(e.Message, "may not run createProfile") {
			t.Errorf("%s: %s", role, e.Message)
		}
	}
	var m struct {
		MerchantAccount struct{ Profiles struct{ TotalCount int } }
	}
	ac.must(`{ merchantAccount { profiles(first: 10) { totalCount } } }`, nil, &m)
	if m.MerchantAccount.Profiles.TotalCount != 2 {
		t.Fatalf("%d profiles after the refusals, want 2", m.MerchantAccount.Profiles.TotalCount)
	}
}

// TestEventsOfOneProfile: the event log asks for one profile's events with
// events(where: {profileID}), as the dashboard's profile picker does: a
// payment on the second profile is in its log and not in the default
// profile's, and each log counts its own. On MariaDB the page and its count
// read the index on (merchant_id, profile_id, created_at, id), not every
// event of the merchant.
func TestEventsOfOneProfile(t *testing.T) {
	srv, counter := testenv.NewCountingServer(t, testenv.Database(t))
	key := srv.Demo.SecretKey
	c := newGQL(t, srv.URL, key)
	var made createdProfile
	c.must(createProfileDoc, map[string]any{"in": map[string]any{"profileName": "Second"}}, &made)
	second := made.CreateProfile.Profile.ProfileID
	restCall(t, srv.URL, "POST", "/account/"+srv.Demo.MerchantID+"/connectors", key, map[string]any{
		"connector_type": "payment_processor", "connector_name": "stripe_test", "profile_id": second,
		"connector_account_details": map[string]any{"auth_type": "HeaderKey", "api_key": "sandbox_simulator"},
	})
	pay := func(extra map[string]any) string {
		body := map[string]any{"amount": 1500, "currency": "USD", "confirm": true, "payment_method": "card",
			"payment_method_data": map[string]any{"card": map[string]any{
				"card_number": "4242424242424242", "card_exp_month": "12", "card_exp_year": "2040", "card_cvc": "123"}}}
		for k, v := range extra {
			body[k] = v
		}
		out := restCall(t, srv.URL, "POST", "/payments", key, body)
		if out["status"] != "succeeded" {
			t.Fatalf("payment %v", out)
		}
		return out["payment_id"].(string)
	}
	onDefault := pay(nil)
	onSecond := pay(map[string]any{"profile_id": second})

	logOf := func(profileID string) (objects []string, total int) {
		var out struct {
			Events struct {
				TotalCount int
				Edges      []struct {
					Node struct{ ObjectID, ProfileID string }
				}
			}
		}
		reqID := "profile-log-" + ids.Base62(12)
		c.with("X-Request-Id", reqID).must(`query($p: String) { events(first: 20, where: {profileID: $p}) { totalCount edges { node { objectID profileID } } } }`,
			map[string]any{"p": profileID}, &out)
		if srv.Store.Dialect == dialect.MySQL {
			checkEventPlans(t, srv, counter.Statements(reqID), counter.Args(reqID))
		}
		for _, e := range out.Events.Edges {
			if e.Node.ProfileID != profileID {
				t.Fatalf("profile %s's log has an event of %s", profileID, e.Node.ProfileID)
			}
			objects = append(objects, e.Node.ObjectID)
		}
		return objects, out.Events.TotalCount
	}
	secondLog, secondTotal := logOf(second)
	defaultLog, defaultTotal := logOf(srv.Demo.ProfileID)
	if len(secondLog) == 0 || secondTotal != len(secondLog) || slices.ContainsFunc(secondLog, func(o string) bool { return o != onSecond }) {
		t.Fatalf("the second profile's log: %v (%d in all), want only %s", secondLog, secondTotal, onSecond)
	}
	if len(defaultLog) == 0 || defaultTotal != len(defaultLog) || slices.Contains(defaultLog, onSecond) || !slices.Contains(defaultLog, onDefault) {
		t.Fatalf("the default profile's log: %v (%d in all), want %s and not %s", defaultLog, defaultTotal, onDefault, onSecond)
	}
}

// checkEventPlans EXPLAINs each statement that reads events by profile: it
// must use the profile's index.
func checkEventPlans(t *testing.T, srv *testenv.Server, statements []string, args [][]any) {
	t.Helper()
	seen := 0
	for i, q := range statements {
		if !strings.Contains(q, "`events`") || !strings.Contains(q, "`profile_id`") {
			continue
		}
		seen++
		var id, selectType, table, typ, possible, key, keyLen, ref, rows, extra sql.NullString
		if err := srv.Store.DB.QueryRow("EXPLAIN "+q, args[i]...).Scan(&id, &selectType, &table, &typ, &possible, &key, &keyLen, &ref, &rows, &extra); err != nil {
			t.Fatalf("EXPLAIN %s: %v", q, err)
		}
		if key.String != "event_merchant_id_profile_id_created_at_id" || strings.Contains(extra.String, "filesort") {
			t.Errorf("the event log reads by %q (%s, %s):\n%s", key.String, typ.String, extra.String, q)
		}
	}
	if seen == 0 {
		t.Fatalf("no statement read events by profile among %v", statements)
	}
}
