package gsm

import "testing"

// TestIsHardDecline: the issuer answers no rule may retry, matched on the
// error code, the reason or the decline code; soft declines and outages
// are left to the merchant's rules.
func TestIsHardDecline(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    Failure
		hard bool
	}{
		{"do not honour", Failure{Code: "card_declined", Reason: "generic_decline"}, true},
		{"do not honour by decline code", Failure{Code: "05", DeclineCode: "do_not_honor"}, true},
		{"stolen card", Failure{Code: "card_declined", Reason: "stolen_card"}, true},
		{"lost card", Failure{Code: "card_declined", Reason: "lost_card"}, true},
		{"pick up card", Failure{Code: "card_declined", DeclineCode: "pickup_card"}, true},
		{"fraud", Failure{Code: "fraudulent"}, true},
		{"expired", Failure{Code: "expired_card"}, true},
		{"wrong CVC", Failure{Code: "incorrect_cvc"}, true},
		{"bad card data", Failure{Code: "invalid_card_data"}, true},
		{"failed 3-D Secure", Failure{Code: "authentication_failed"}, true},
		{"processing error", Failure{Code: "processing_error", Reason: "processing_error"}, false},
		{"insufficient funds", Failure{Code: "card_declined", Reason: "insufficient_funds"}, false},
		{"outage", Failure{Code: "service_unavailable"}, false},
		{"unknown", Failure{Code: "E1234", Message: "Acquirer error"}, false},
	} {
		if got := IsHardDecline(tc.f); got != tc.hard {
			t.Errorf("%s: hard %v, want %v", tc.name, got, tc.hard)
		}
	}
}
