package rest_test

import (
	"maps"
	"net/url"
	"reflect"
	"slices"
	"testing"
	"time"
)

// TestDisputeFilters: GET /disputes/filter lists the connector (with the
// account the disputes came through), currencies, statuses and stages of
// the merchant's disputes only; the profile route is the same, and another
// profile's or merchant's view is empty.
func TestDisputeFilters(t *testing.T) {
	c := newClient(t)
	d := c.srv.Demo
	key := d.SecretKey
	_, dp1 := disputedPayment(t, c, key, disputeFraudCard)
	disputedPayment(t, c, key, disputeNotReceivedCard)
	c.do("POST", "/disputes/accept/"+dp1, key, nil).must(t, 200)
	mca := c.do("GET", "/account/"+d.MerchantID+"/connectors/"+d.ConnectorAccount, key, nil).must(t, 200)

	wantConnector := map[string]any{"stripe_test": []any{map[string]any{"connector_label": mca.str("connector_label"),
		"merchant_connector_id": d.ConnectorAccount, "connector_type": mca.str("connector_type")}}}
	for _, tc := range []struct {
		name, path string
		headers    map[string]string
	}{
		{"merchant", "/disputes/filter", nil},
		{"profile route", "/disputes/profile/filter", nil},
		{"own profile", "/disputes/profile/filter", map[string]string{"X-Profile-Id": d.ProfileID}},
		{"admin", "/disputes/filter", map[string]string{"X-Merchant-Id": d.MerchantID}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := key
			if tc.name == "admin" {
				k = c.admin()
			}
			r := c.doWith("GET", tc.path, k, nil, tc.headers).must(t, 200)
			if !reflect.DeepEqual(r.obj()["connector"], wantConnector) {
				t.Errorf("connector = %v, want %v", r.obj()["connector"], wantConnector)
			}
			for member, want := range map[string][]any{"currency": {"USD"},
				"dispute_status": {"dispute_accepted", "dispute_opened"}, "dispute_stage": {"dispute"}} {
				if got, _ := r.obj()[member].([]any); !slices.Equal(got, want) {
					t.Errorf("%s = %v, want %v", member, got, want)
				}
			}
		})
	}

	empty := map[string]any{"connector": map[string]any{}, "currency": []any{}, "dispute_status": []any{}, "dispute_stage": []any{}}
	other := c.do("POST", "/account/"+d.MerchantID+"/business_profile", key, map[string]any{"profile_name": "other"}).must(t, 200).str("profile_id")
	_, bKey, _ := otherMerchant(t, c, "merchant_dispute_filters_b")
	for name, r := range map[string]response{
		"another profile":  c.doWith("GET", "/disputes/profile/filter", key, nil, map[string]string{"X-Profile-Id": other}),
		"another merchant": c.do("GET", "/disputes/filter", bKey, nil),
	} {
		if r.must(t, 200); !reflect.DeepEqual(r.Body, any(empty)) {
			t.Errorf("%s sees %s", name, r.Raw)
		}
	}
}

// TestDisputeAggregate: GET /disputes/aggregate counts the disputes
// received in [start_time, end_time] by status, every status present;
// the profile route and tenancy narrow it; start_time is required and the
// times must parse.
func TestDisputeAggregate(t *testing.T) {
	c := newClient(t)
	d := c.srv.Demo
	key := d.SecretKey
	begin := c.srv.Clock.Now().Add(-time.Minute).Truncate(time.Second)
	_, dp1 := disputedPayment(t, c, key, disputeFraudCard)
	c.do("POST", "/disputes/accept/"+dp1, key, nil).must(t, 200)
	c.srv.Clock.Advance(10 * time.Second)
	mid := c.srv.Clock.Now().Truncate(time.Second)
	disputedPayment(t, c, key, disputeNotReceivedCard)
	disputedPayment(t, c, key, disputeFraudCard)

	ts := func(t time.Time) string { return t.UTC().Format(time.RFC3339) }
	q := func(kv ...string) string {
		v := url.Values{}
		for i := 0; i < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return "?" + v.Encode()
	}
	other := c.do("POST", "/account/"+d.MerchantID+"/business_profile", key, map[string]any{"profile_name": "other"}).must(t, 200).str("profile_id")
	_, bKey, _ := otherMerchant(t, c, "merchant_dispute_aggregate_b")
	for _, tc := range []struct {
		name, path, key  string
		headers          map[string]string
		opened, accepted float64
	}{
		{"everything", "/disputes/aggregate" + q("start_time", ts(begin)), key, nil, 2, 1},
		{"from mid", "/disputes/aggregate" + q("start_time", ts(mid)), key, nil, 2, 0},
		{"until mid", "/disputes/aggregate" + q("start_time", ts(begin), "end_time", ts(mid.Add(-time.Second))), key, nil, 0, 1},
		{"end before start", "/disputes/aggregate" + q("start_time", ts(mid), "end_time", ts(begin)), key, nil, 0, 0},
		{"profile route", "/disputes/profile/aggregate" + q("start_time", ts(begin)), key, nil, 2, 1},
		{"own profile", "/disputes/profile/aggregate" + q("start_time", ts(begin)), key, map[string]string{"X-Profile-Id": d.ProfileID}, 2, 1},
		{"another profile", "/disputes/profile/aggregate" + q("start_time", ts(begin)), key, map[string]string{"X-Profile-Id": other}, 0, 0},
		{"another merchant", "/disputes/aggregate" + q("start_time", ts(begin)), bKey, nil, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := c.doWith("GET", tc.path, tc.key, nil, tc.headers).must(t, 200)
			counts, _ := r.obj()["status_with_count"].(map[string]any)
			want := map[string]any{"dispute_opened": tc.opened, "dispute_accepted": tc.accepted, "dispute_expired": 0.0,
				"dispute_cancelled": 0.0, "dispute_challenged": 0.0, "dispute_won": 0.0, "dispute_lost": 0.0}
			if !maps.Equal(counts, want) {
				t.Fatalf("status_with_count = %v, want %v", counts, want)
			}
		})
	}

	for _, tc := range []struct{ name, query, code string }{
		{"no start_time", "", "IR_04"},
		{"only end_time", q("end_time", ts(mid)), "IR_04"},
		{"bad start_time", q("start_time", "yesterday"), "IR_07"},
		{"bad end_time", q("start_time", ts(begin), "end_time", "soon"), "IR_07"},
		{"unknown parameter", q("start_time", ts(begin), "limit", "5"), "IR_06"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := c.do("GET", "/disputes/aggregate"+tc.query, key, nil)
			if r.Status != 400 || r.errCode() != tc.code {
				t.Fatalf("%d %s", r.Status, r.Raw)
			}
		})
	}
}
