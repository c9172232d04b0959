package ids

import (
	"regexp"
	"strings"
	"testing"
)

func TestFormats(t *testing.T) {
	tests := []struct {
		name string
		got  string
		re   string
	}{
		{"payment", New(Payment), `^pay_[0-9A-Za-z]{24}$`},
		{"merchant", New(Merchant), `^merchant_[0-9A-Za-z]{24}$`},
		{"secret key", SecretKey(), `^snd_[0-9A-Za-z]{32}$`},
		{"publishable key", PublishableKey(), `^pk_snd_[0-9A-Za-z]{32}$`},
		{"client secret", ClientSecret("pay_abc"), `^pay_abc_secret_[0-9A-Za-z]{24}$`},
		{"base62", Base62(7), `^[0-9A-Za-z]{7}$`},
		{"base62 empty", Base62(0), `^$`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !regexp.MustCompile(tt.re).MatchString(tt.got) {
				t.Errorf("%q does not match %s", tt.got, tt.re)
			}
		})
	}
}

func TestUnique(t *testing.T) {
	const n = 100_000
	seen := make(map[string]struct{}, n)
	for range n {
		id := New(Payment)
		if _, dup := seen[id]; dup {
			t.Fatalf("duplicate id %q", id)
		}
		seen[id] = struct{}{}
	}
}

// TestBase62Unbiased runs a chi-square test over character counts. With
// modulo bias (byte % 62 without rejection) the first 8 characters would be
// 25% more likely and the statistic would be in the thousands.
func TestBase62Unbiased(t *testing.T) {
	const perChar = 10_000
	s := Base62(62 * perChar)
	var counts [256]int
	for i := range len(s) {
		counts[s[i]]++
	}
	var chi2 float64
	for i := range len(alphabet) {
		d := float64(counts[alphabet[i]] - perChar)
		chi2 += d * d / perChar
	}
	// 61 degrees of freedom: mean 61, sd ≈ 11; 130 is beyond p = 1e-5.
	if chi2 > 130 {
		t.Errorf("chi-square = %.1f over 61 d.f.; base62 looks biased", chi2)
	}
}

func TestPrefixOf(t *testing.T) {
	tests := []struct{ id, want string }{
		{New(Payment), Payment},
		{New(Attempt), Attempt},
		{New(ConnectorAccount), ConnectorAccount},
		{New(Merchant), Merchant},
		{PublishableKey(), "pk"},
		{SecretKey(), "snd"},
		{ClientSecret("pay_abc"), Payment},
		{"pay_", "pay"},
		{"_x", ""},
		{"nounderscore", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := PrefixOf(tt.id); got != tt.want {
			t.Errorf("PrefixOf(%q) = %q, want %q", tt.id, got, tt.want)
		}
	}
}

func TestPrefixesDistinct(t *testing.T) {
	all := []string{Payment, Attempt, Capture, IncrementalAuthorization, Refund, Dispute, Mandate,
		Customer, ConnectorAccount, Event, DeliveryAttempt, WebhookTask, PaymentMethod, Profile, APIKey, Merchant}
	seen := map[string]bool{}
	for _, p := range all {
		if seen[p] || p == "" || strings.Contains(p, "_") {
			t.Errorf("prefix %q is empty, repeated or contains _", p)
		}
		seen[p] = true
	}
}
