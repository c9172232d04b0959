package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"switchyard/ent/paymentintent"
	"switchyard/ent/schema/schematype"
	"switchyard/internal/app"
	"switchyard/internal/tenancy"
	"switchyard/internal/testenv"
	"switchyard/payments/merchant"
)

type gqlResponse struct {
	Data   map[string]any `json:"data"`
	Errors []struct {
		Message    string         `json:"message"`
		Extensions map[string]any `json:"extensions"`
	} `json:"errors"`
}

func graphql(t *testing.T, url, key, query string) (int, gqlResponse) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"query": query})
	req, _ := http.NewRequest(http.MethodPost, url+"/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("api-key", key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out gqlResponse
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("graphql body %q: %v", raw, err)
	}
	return resp.StatusCode, out
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestBootOnBothBackends starts the whole app on SQLite and (in CI) MariaDB
// with Redis, and checks it is ready, has its demo merchant and answers GraphQL.
func TestBootOnBothBackends(t *testing.T) {
	for _, b := range testenv.Backends(t) {
		t.Run(b.Name, func(t *testing.T) {
			srv := testenv.NewServer(t, b.Open(t))
			if srv.Config.Database.Driver != b.Name {
				t.Fatalf("running on %s, want %s", srv.Config.Database.Driver, b.Name)
			}
			if code, body := get(t, srv.URL+"/health"); code != 200 {
				t.Fatalf("health: %d %s", code, body)
			}
			if code, body := get(t, srv.URL+"/health/ready"); code != 200 || !strings.Contains(body, `"ready"`) {
				t.Fatalf("ready: %d %s", code, body)
			}
			code, out := graphql(t, srv.URL, srv.Demo.SecretKey,
				`{ connectorAccounts(first: 10) { totalCount edges { node { id connectorName status } } } }`)
			if code != 200 || len(out.Errors) > 0 {
				t.Fatalf("graphql: %d %+v", code, out.Errors)
			}
			conn := out.Data["connectorAccounts"].(map[string]any)
			if conn["totalCount"].(float64) != 1 {
				t.Fatalf("want the demo connector account, got %v", conn)
			}
			node := conn["edges"].([]any)[0].(map[string]any)["node"].(map[string]any)
			if node["id"] != srv.Demo.ConnectorAccount || node["connectorName"] != app.DemoConnectorName || node["status"] != "active" {
				t.Fatalf("connector account: %v", node)
			}
		})
	}
}

// TestBootstrapReusesWhatItMade: a second start on the same data reuses the
// merchant, the profile, the connector account and the secret key, and
// names the demo's own connector account even when the merchant has made
// newer ones on the same profile.
func TestBootstrapReusesWhatItMade(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	first := *srv.Demo
	status, body, err := testenv.Call(srv.URL, http.MethodPost, "/account/"+first.MerchantID+"/connectors", first.SecretKey, map[string]any{
		"connector_type": "payment_processor", "connector_name": "adyen", "profile_id": first.ProfileID,
		"connector_account_details": map[string]any{"auth_type": "HeaderKey", "api_key": "newer_account"}})
	if err != nil || status != http.StatusOK {
		t.Fatalf("a newer connector account: %d %s %v", status, body, err)
	}
	again, err := srv.Bootstrap(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if again.Created || again.SecretKey != first.SecretKey || again.ProfileID != first.ProfileID ||
		again.ConnectorAccount != first.ConnectorAccount || again.PublishableKey != first.PublishableKey {
		t.Fatalf("second bootstrap made new things:\nfirst %+v\nagain %+v", first, *again)
	}
}

// TestGraphQLRequiresAKey: no key, a wrong key, or a publishable key gets
// 401 IR_01 and no data.
func TestGraphQLRequiresAKey(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	for name, key := range map[string]string{
		"none":        "",
		"unknown":     "snd_doesnotexist",
		"publishable": srv.Demo.PublishableKey,
	} {
		t.Run(name, func(t *testing.T) {
			code, out := graphql(t, srv.URL, key, `{ paymentIntents(first: 1) { totalCount } }`)
			if code != http.StatusUnauthorized || out.Data != nil || len(out.Errors) != 1 ||
				out.Errors[0].Extensions["code"] != "IR_01" {
				t.Fatalf("got %d %+v %+v", code, out.Data, out.Errors)
			}
		})
	}
}

// TestGraphQLTenantScoping: two merchants each see only their own payments
// in the connection, and node() on the other's id is null.
func TestGraphQLTenantScoping(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	ctx := context.Background()
	admin := tenancy.WithPrincipal(ctx, tenancy.Principal{Kind: tenancy.KindAdmin})
	other, err := srv.Merchants.CreateMerchantAccount(admin, merchant.MerchantAccountInput{MerchantID: "merchant_other"})
	if err != nil {
		t.Fatal(err)
	}
	otherCtx := tenancy.ForMerchant(admin, other.Merchant.ID)
	_, otherKey, err := srv.Merchants.CreateAPIKey(otherCtx, merchant.APIKeyInput{Name: "other"})
	if err != nil {
		t.Fatal(err)
	}
	demoCtx := tenancy.ForMerchant(admin, srv.Demo.MerchantID)
	seed := func(ctx context.Context, profileID string, n int) []string {
		var out []string
		for i := 0; i < n; i++ {
			p, err := srv.Store.Client.PaymentIntent.Create().
				SetPaymentID(strings.ToLower(profileID[len(profileID)-6:]) + "_" + string(rune('a'+i))).
				SetProfileID(profileID).SetAmount(int64(100 * (i + 1))).SetCurrency(schematype.Currency("USD")).
				SetClientSecret("secret").SetExpiresOn(time.Now().Add(15 * time.Minute)).
				Save(ctx)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, p.ID)
		}
		return out
	}
	demoPays := seed(demoCtx, srv.Demo.ProfileID, 3)
	otherPays := seed(otherCtx, other.DefaultProfile.ID, 2)

	for _, tc := range []struct {
		name    string
		key     string
		own     []string
		foreign []string
	}{
		{"demo", srv.Demo.SecretKey, demoPays, otherPays},
		{"other", otherKey, otherPays, demoPays},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out := graphql(t, srv.URL, tc.key,
				`{ paymentIntents(first: 10) { totalCount edges { node { id merchantID } } } }`)
			if code != 200 || len(out.Errors) > 0 {
				t.Fatalf("%d %+v", code, out.Errors)
			}
			conn := out.Data["paymentIntents"].(map[string]any)
			if int(conn["totalCount"].(float64)) != len(tc.own) {
				t.Fatalf("totalCount %v, want %d", conn["totalCount"], len(tc.own))
			}
			seen := map[string]bool{}
			for _, e := range conn["edges"].([]any) {
				seen[e.(map[string]any)["node"].(map[string]any)["id"].(string)] = true
			}
			for _, id := range tc.own {
				if !seen[id] {
					t.Errorf("own payment %s missing", id)
				}
			}
			for _, id := range tc.foreign {
				if seen[id] {
					t.Errorf("foreign payment %s visible", id)
				}
				_, out := graphql(t, srv.URL, tc.key, `{ node(id: "`+id+`") { id } }`)
				if out.Data["node"] != nil || len(out.Errors) > 0 {
					t.Errorf("node(%s) = %v %v, want null", id, out.Data["node"], out.Errors)
				}
			}
			_, out = graphql(t, srv.URL, tc.key, `{ node(id: "`+tc.own[0]+`") { id } }`)
			if n, _ := out.Data["node"].(map[string]any); n == nil || n["id"] != tc.own[0] {
				t.Errorf("node(own) = %v", out.Data["node"])
			}
		})
	}

	// The data layer itself fails closed without a principal.
	if _, err := srv.Store.Client.PaymentIntent.Query().Where(paymentintent.IDIn(demoPays...)).All(ctx); err == nil {
		t.Fatal("a query without a principal must fail")
	}
}

// TestProfileHeaderMustBelongToTheMerchant: X-Profile-Id naming another
// merchant's profile (or none) is a 404, like any foreign id.
func TestProfileHeaderMustBelongToTheMerchant(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	admin := tenancy.WithPrincipal(context.Background(), tenancy.Principal{Kind: tenancy.KindAdmin})
	other, err := srv.Merchants.CreateMerchantAccount(admin, merchant.MerchantAccountInput{MerchantID: "merchant_other"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, profile string
		status        int
	}{
		{"own profile", srv.Demo.ProfileID, 200},
		{"foreign profile", other.DefaultProfile.ID, 404},
		{"unknown profile", "pro_doesnotexist", 404},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPost, srv.URL+"/graphql",
				strings.NewReader(`{"query":"{ profiles(first: 5) { totalCount } }"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "api-key="+srv.Demo.SecretKey)
			req.Header.Set("X-Profile-Id", tc.profile)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.status, body)
			}
			if tc.status == 404 && !strings.Contains(string(body), "HE_02") {
				t.Fatalf("want HE_02: %s", body)
			}
		})
	}
}
