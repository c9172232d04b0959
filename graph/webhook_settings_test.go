package graph_test

import (
	"fmt"
	"slices"
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
