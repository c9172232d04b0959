package graph_test

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"switchyard/internal/testenv"
)

// TestWebhookSettingsConcurrentPatches: patches of different members sent
// at once all land (the merge happens under the profile's row lock, not
// from a read made before it), round after round.
func TestWebhookSettingsConcurrentPatches(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	c := newGQL(t, srv.URL, srv.Demo.SecretKey)
	profileID := srv.Demo.ProfileID
	pick := func(round int, a, b string) string {
		if round%2 == 0 {
			return a
		}
		return b
	}
	for round := range 6 {
		patches := map[string]string{
			"webhookURL":             fmt.Sprintf("%q", fmt.Sprintf("https://hooks.example.com/r%d", round)),
			"deliveryEnabled":        fmt.Sprint(round%2 == 0),
			"paymentStatusesEnabled": fmt.Sprintf("[%q]", pick(round, "succeeded", "failed")),
			"refundStatusesEnabled":  fmt.Sprintf("[%q]", pick(round, "succeeded", "failed")),
			"enabledEventTypes":      fmt.Sprintf("[%q]", pick(round, "payment_succeeded", "refund_succeeded")),
			"webhookVersion":         fmt.Sprintf("%q", fmt.Sprintf("v%d", round)),
			"webhookUsername":        fmt.Sprintf("%q", fmt.Sprintf("user%d", round)),
		}
		var (
			wg   sync.WaitGroup
			mu   sync.Mutex
			errs []string
		)
		for member, value := range patches {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := c.do(fmt.Sprintf(`mutation { updateProfileWebhookSettings(profileID: %q, input: {%s: %s}) { profile { id } } }`,
					profileID, member, value), nil)
				if len(r.Errors) > 0 {
					mu.Lock()
					errs = append(errs, r.Raw)
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if len(errs) > 0 {
			t.Fatalf("round %d: %v", round, errs)
		}
		var out struct {
			Profile struct {
				WebhookSettings struct {
					WebhookURL, WebhookVersion, WebhookUsername                      string
					DeliveryEnabled                                                  bool
					PaymentStatusesEnabled, RefundStatusesEnabled, EnabledEventTypes []string
				}
			}
		}
		c.must(fmt.Sprintf(`{ profile: node(id: %q) { ... on Profile { webhookSettings { webhookURL webhookVersion webhookUsername
			deliveryEnabled paymentStatusesEnabled refundStatusesEnabled enabledEventTypes } } } }`, profileID), nil, &out)
		got := out.Profile.WebhookSettings
		want := []bool{
			got.WebhookURL == fmt.Sprintf("https://hooks.example.com/r%d", round),
			got.DeliveryEnabled == (round%2 == 0),
			slices.Equal(got.PaymentStatusesEnabled, []string{pick(round, "succeeded", "failed")}),
			slices.Equal(got.RefundStatusesEnabled, []string{pick(round, "succeeded", "failed")}),
			slices.Equal(got.EnabledEventTypes, []string{pick(round, "payment_succeeded", "refund_succeeded")}),
			got.WebhookVersion == fmt.Sprintf("v%d", round),
			got.WebhookUsername == fmt.Sprintf("user%d", round),
		}
		if slices.Contains(want, false) {
			t.Fatalf("round %d: a patch was lost: %+v", round, got)
		}
	}
}

// TestWebhookSigningKey: the profile's signing key is shown on demand to an
// admin's session and to the merchant's secret key, as REST shows it, and
// it is the key the profile's webhooks are signed with; a developer's
// session is refused it, and another merchant's profile is not found (null).
func TestWebhookSigningKey(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	admin, _ := signUp(t, srv.URL, "owner@keys.example", "Keys shop")
	ac := bearer(t, srv.URL, admin.Token)
	var profiles struct {
		MerchantAccount struct {
			Profiles struct {
				Edges []struct {
					Node struct{ ID, WebhookSigningKey string }
				}
			}
		}
	}
	ac.must(`{ merchantAccount { profiles(first: 1) { edges { node { id webhookSigningKey } } } } }`, nil, &profiles)
	node := profiles.MerchantAccount.Profiles.Edges[0].Node
	if len(node.WebhookSigningKey) != 64 {
		t.Fatalf("the admin sees signing key %q", node.WebhookSigningKey)
	}
	status, body, err := testenv.Call(srv.URL, "GET", "/account/"+admin.MerchantID+"/business_profile/"+node.ID, srv.Config.AdminAPIKey, nil)
	if err != nil || status != 200 || !strings.Contains(string(body), `"payment_response_hash_key":"`+node.WebhookSigningKey+`"`) {
		t.Fatalf("REST shows another key: %d %s %v", status, body, err)
	}
	dev := member(t, srv.URL, ac, "dev@keys.example", "DEVELOPER")
	if e := bearer(t, srv.URL, dev.Token).fails("IR_22", fmt.Sprintf(`{ node(id: %q) { ... on Profile { webhookSigningKey } } }`, node.ID), nil); e.Message == "" {
		t.Fatal("a developer was shown the signing key")
	}
	// The demo merchant's secret key reads its own profile's key, and
	// finds no profile of the other merchant.
	demo := newGQL(t, srv.URL, srv.Demo.SecretKey)
	var own struct {
		Node struct{ WebhookSigningKey string }
	}
	demo.must(`query($id: ID!) { node(id: $id) { ... on Profile { webhookSigningKey } } }`, map[string]any{"id": srv.Demo.ProfileID}, &own)
	if len(own.Node.WebhookSigningKey) != 64 || own.Node.WebhookSigningKey == node.WebhookSigningKey {
		t.Fatalf("the demo merchant's own key: %q", own.Node.WebhookSigningKey)
	}
	if r := demo.do(fmt.Sprintf(`{ node(id: %q) { ... on Profile { webhookSigningKey } } }`, node.ID), nil); r.Raw != `{"data":{"node":null}}` {
		t.Fatalf("another merchant's profile answered: %s", r.Raw)
	}
}
