package connector

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

const pass, fail, unav = CheckPass, CheckFail, CheckUnavailable

// TestCardTable runs every row of the sandbox card table (docs/sandbox.md)
// with every capture method.
func TestCardTable(t *testing.T) {
	type row struct {
		numbers []string
		// kind: success, decline, challenge, challenge_nsf, onsession, nocharge, invalid
		kind           string
		code, reason   string
		checks         PaymentChecks
		dispute        *DisputeSpec
		noPaymentCheck bool
	}
	allPass := PaymentChecks{pass, pass, pass}
	rows := []row{
		{numbers: []string{"4242424242424242", "4111111111111111", "5555555555554444", "378282246310005", "371449635398431", "6011111111111117", "38000000000006", "3566002020360505"}, kind: "success", checks: allPass},
		{numbers: []string{"4000000000000077"}, kind: "success", checks: allPass},
		{numbers: []string{"4000000000000002", "5105105105105100"}, kind: "decline", code: "card_declined", reason: "generic_decline", checks: allPass},
		{numbers: []string{"4000000000009995"}, kind: "decline", code: "card_declined", reason: "insufficient_funds", checks: allPass},
		{numbers: []string{"4000000000009987"}, kind: "decline", code: "card_declined", reason: "lost_card", checks: allPass},
		{numbers: []string{"4000000000009979"}, kind: "decline", code: "card_declined", reason: "stolen_card", checks: allPass},
		{numbers: []string{"4000000000000069"}, kind: "decline", code: "expired_card", reason: "expired_card", checks: allPass},
		{numbers: []string{"4000000000000127"}, kind: "decline", code: "incorrect_cvc", reason: "incorrect_cvc", checks: PaymentChecks{fail, pass, pass}},
		{numbers: []string{"4000000000000119"}, kind: "decline", code: "processing_error", reason: "processing_error", checks: allPass},
		{numbers: []string{"4000000000000101"}, kind: "success", checks: PaymentChecks{fail, pass, pass}},
		{numbers: []string{"4000000000000036"}, kind: "success", checks: PaymentChecks{pass, pass, fail}},
		{numbers: []string{"4000000000000028"}, kind: "success", checks: PaymentChecks{pass, fail, pass}},
		{numbers: []string{"4000000000003063", "4000002760003184", "4000003800000446", "4000000000003220"}, kind: "challenge", checks: allPass},
		{numbers: []string{"4000008260003178"}, kind: "challenge_nsf", checks: allPass},
		{numbers: []string{"4000002500003155"}, kind: "onsession", checks: allPass},
		{numbers: []string{"4000000000000259"}, kind: "success", checks: allPass, dispute: &DisputeSpec{"fraudulent", "10.4"}},
		{numbers: []string{"4000000000002685"}, kind: "success", checks: allPass, dispute: &DisputeSpec{"product_not_received", "13.1"}},
		{numbers: []string{"4000000000000341"}, kind: "nocharge", checks: allPass},
		{numbers: []string{"4242424242424241", "4000000000000001", "42424242424", "4242", "4242abcd42424242", "", "42424242424242424242"}, kind: "invalid", code: "invalid_card_data", reason: "invalid_card_data", noPaymentCheck: true},
		{numbers: []string{"4012888888881881", "4000056655665556", "5200828282828210", "6200000000000005", "4242 4242 4242 4242", "4000-0000-0000-0077", "424242424242", "6205500000000000004"}, kind: "success", checks: allPass},
	}
	sim := newSim()
	for _, rw := range rows {
		for _, number := range rw.numbers {
			for _, cm := range captureMethods {
				t.Run(fmt.Sprintf("%s/%s/%s", rw.kind, number, cm), func(t *testing.T) {
					req := cardReq(number, cm)
					r, err := sim.Authorize(ctx, req)
					if err != nil {
						t.Fatal(err)
					}
					noLeak(t, r, req.PaymentMethod.Card.Number, "sk_secret_value")
					if len(number) > 8 {
						noLeak(t, r, strings.NewReplacer(" ", "", "-", "").Replace(number))
					}
					if !rw.noPaymentCheck {
						if r.PaymentChecks == nil || *r.PaymentChecks != rw.checks {
							t.Errorf("checks = %+v, want %+v", r.PaymentChecks, rw.checks)
						}
					}
					if !reflect.DeepEqual(r.DisputeAfterSuccess, rw.dispute) {
						t.Errorf("dispute = %+v, want %+v", r.DisputeAfterSuccess, rw.dispute)
					}
					md := roundTrip(t, r.ConnectorMetadata)
					switch rw.kind {
					case "success":
						wantSuccess(t, r, cm)
						if r.NetworkTransactionID != "sim_nti_"+attemptID {
							t.Errorf("network transaction id %q", r.NetworkTransactionID)
						}
					case "decline", "invalid":
						wantDecline(t, r, rw.code, rw.reason)
						if rw.kind == "invalid" && r.PaymentChecks != nil {
							t.Errorf("invalid card with checks %+v", r.PaymentChecks)
						}
					case "nocharge":
						wantDecline(t, r, "card_declined", "generic_decline")
						if !strings.Contains(r.Decline.Message, "saved") {
							t.Errorf("message %q", r.Decline.Message)
						}
					case "challenge", "challenge_nsf", "onsession":
						if r.Status != StatusAuthenticationPending || !r.RedirectRequired || r.Decline != nil || r.AmountCaptured != 0 {
							t.Fatalf("want challenge, got %+v", r)
						}
						// Approve.
						ok, err := sim.CompleteAuthentication(ctx, &CompleteAuthenticationRequest{
							Account: account("stripe_test"), ConnectorTransactionID: r.ConnectorTransactionID,
							Approved: true, ConnectorMetadata: md,
						})
						if err != nil {
							t.Fatal(err)
						}
						if rw.kind == "challenge_nsf" {
							wantDecline(t, ok, "card_declined", "insufficient_funds")
						} else {
							wantSuccess(t, ok, cm)
						}
						if *ok.PaymentChecks != rw.checks {
							t.Errorf("checks after challenge = %+v", ok.PaymentChecks)
						}
						// Decline.
						no, err := sim.CompleteAuthentication(ctx, &CompleteAuthenticationRequest{
							Account: account("stripe_test"), ConnectorTransactionID: r.ConnectorTransactionID,
							Approved: false, ConnectorMetadata: md,
						})
						if err != nil {
							t.Fatal(err)
						}
						wantDecline(t, no, "authentication_failed", "authentication_failed")
						// Sync follows each branch.
						for _, res := range []*PaymentResult{r, ok, no} {
							s, err := sim.Sync(ctx, &SyncRequest{Account: account("x"), ConnectorTransactionID: txnID, ConnectorMetadata: roundTrip(t, res.ConnectorMetadata)})
							if err != nil {
								t.Fatal(err)
							}
							if s.Status != res.Status || s.AmountCaptured != res.AmountCaptured || s.RedirectRequired != res.RedirectRequired ||
								!reflect.DeepEqual(s.Decline, res.Decline) {
								t.Errorf("sync = %+v, want %+v", s, res)
							}
						}
					}
					// Sync reproduces the authorization.
					s, err := sim.Sync(ctx, &SyncRequest{Account: account("x"), ConnectorMetadata: md})
					if err != nil {
						t.Fatal(err)
					}
					s.ConnectorMetadata, r.ConnectorMetadata = nil, nil
					if !reflect.DeepEqual(s, r) {
						t.Errorf("sync = %+v, want %+v", s, r)
					}
				})
			}
		}
	}
}

func TestChecksUnavailableWithoutData(t *testing.T) {
	for _, n := range []string{"4242424242424242", "4000000000000101", "4000000000000028", "4000000000000036"} {
		req := cardReq(n, CaptureAutomatic)
		req.PaymentMethod.Card.CVC = ""
		req.Billing = Address{}
		r, err := newSim().Authorize(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		want := PaymentChecks{unav, unav, unav}
		switch n {
		case "4000000000000101":
			want.CVCCheck = fail
		case "4000000000000028":
			want.AddressLine1Check = fail
		case "4000000000000036":
			want.AddressPostalCodeCheck = fail
		}
		if *r.PaymentChecks != want {
			t.Errorf("%s: checks %+v, want %+v", n, r.PaymentChecks, want)
		}
	}
}

func TestThreeDSRequestedOnOrdinaryCardIsFrictionless(t *testing.T) {
	req := cardReq("4242424242424242", CaptureAutomatic)
	req.AuthenticationType = ThreeDS
	r, err := newSim().Authorize(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	wantSuccess(t, r, CaptureAutomatic)
	if r.ConnectorMetadata["three_ds"] != "frictionless" {
		t.Errorf("metadata %v", r.ConnectorMetadata)
	}
	// A challenge card challenges even when no_three_ds was asked for.
	req = cardReq("4000000000003220", CaptureAutomatic)
	req.AuthenticationType = NoThreeDS
	r, _ = newSim().Authorize(ctx, req)
	if r.Status != StatusAuthenticationPending || !r.RedirectRequired {
		t.Errorf("no_three_ds challenge card: %+v", r)
	}
}

func TestOffSessionCard3155(t *testing.T) {
	sim := newSim()
	for _, cm := range captureMethods {
		req := cardReq("4000002500003155", cm)
		req.OffSession = true
		r, err := sim.Authorize(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		wantSuccess(t, r, cm)
		if r.ConnectorMetadata["three_ds"] != "exempt_off_session" {
			t.Errorf("metadata %v", r.ConnectorMetadata)
		}
		// Other challenge cards still challenge off-session (the table makes
		// no exception for them).
		req = cardReq("4000002760003184", cm)
		req.OffSession = true
		r, _ = sim.Authorize(ctx, req)
		if r.Status != StatusAuthenticationPending {
			t.Errorf("3184 off-session: %s", r.Status)
		}
	}
}

func TestSavedCardMandateToken(t *testing.T) {
	sim := newSim()
	save := func(number string) *PaymentResult {
		t.Helper()
		req := cardReq(number, CaptureAutomatic)
		req.SetupFutureUsage = true
		r, err := sim.Authorize(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	charge := func(token string, offSession bool, amt int64) *PaymentResult {
		t.Helper()
		req := &AuthorizeRequest{Account: account("adyen_test"), Amount: amt, Currency: "USD", OffSession: offSession,
			PaymentMethod: PaymentMethod{Type: MethodCard, ConnectorMandateID: token}}
		r, err := sim.Authorize(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}

	r := save("4242424242424242")
	if r.ConnectorMandateID != "sim_pm_ok_4242_"+attemptID {
		t.Fatalf("mandate id %q", r.ConnectorMandateID)
	}
	if got := charge(r.ConnectorMandateID, true, amount); got.Status != StatusCharged || got.PaymentChecks.CVCCheck != unav {
		t.Errorf("MIT with token: %+v", got)
	}

	// Without SetupFutureUsage: no token.
	if r, _ := sim.Authorize(ctx, cardReq("4242424242424242", "")); r.ConnectorMandateID != "" {
		t.Errorf("unexpected token %q", r.ConnectorMandateID)
	}

	// 3155: token after the challenge; off-session charge needs none.
	r = save("4000002500003155")
	if r.Status != StatusAuthenticationPending || r.ConnectorMandateID != "" {
		t.Fatalf("3155 save: %+v", r)
	}
	done, _ := sim.CompleteAuthentication(ctx, &CompleteAuthenticationRequest{Account: account("x"), Approved: true, ConnectorMetadata: roundTrip(t, r.ConnectorMetadata)})
	if done.Status != StatusCharged || done.ConnectorMandateID == "" {
		t.Fatalf("3155 approve: %+v", done)
	}
	if got := charge(done.ConnectorMandateID, true, amount); got.Status != StatusCharged {
		t.Errorf("3155 MIT: %s", got.Status)
	}
	if got := charge(done.ConnectorMandateID, false, amount); got.Status != StatusAuthenticationPending {
		t.Errorf("3155 on-session with token: %s", got.Status)
	}

	// 0341: saving works, the charge is declined.
	r = save("4000000000000341")
	wantDecline(t, r, "card_declined", "generic_decline")
	if r.ConnectorMandateID == "" {
		t.Fatal("0341 should be saveable")
	}
	wantDecline(t, charge(r.ConnectorMandateID, true, amount), "card_declined", "generic_decline")
	// A zero-amount verification of 0341 succeeds.
	req := cardReq("4000000000000341", CaptureAutomatic)
	req.Amount = 0
	req.SetupFutureUsage = true
	v, _ := sim.Authorize(ctx, req)
	if v.Status != StatusCharged || v.AmountCaptured != 0 || v.ConnectorMandateID == "" {
		t.Errorf("0341 verification: %+v", v)
	}

	// Disputes follow the saved card.
	r = save("4000000000000259")
	if got := charge(r.ConnectorMandateID, true, amount); got.DisputeAfterSuccess == nil || got.DisputeAfterSuccess.Reason != "fraudulent" {
		t.Errorf("dispute via token: %+v", got.DisputeAfterSuccess)
	}

	for _, bad := range []string{"pm_123", "sim_pm_", "sim_pm_nope_4242_x", "sim_pm_ok_4242"} {
		wantDecline(t, charge(bad, true, amount), "resource_missing", "resource_missing")
	}
}

func TestExpiry(t *testing.T) {
	sim := newSim() // July 2026
	tests := []struct {
		month, year string
		code        string
	}{
		{"7", "26", ""},
		{"07", "2026", ""},
		{"", "", ""}, // no expiry given: accepted
		{"6", "2026", "expired_card"},
		{"12", "20", "expired_card"},
		{"13", "2030", "invalid_card_data"},
		{"12", "203", "invalid_card_data"},
	}
	for _, tc := range tests {
		req := cardReq("4242424242424242", CaptureAutomatic)
		req.PaymentMethod.Card.ExpMonth, req.PaymentMethod.Card.ExpYear = tc.month, tc.year
		r, err := sim.Authorize(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if tc.code == "" {
			wantSuccess(t, r, CaptureAutomatic)
			continue
		}
		wantDecline(t, r, tc.code, tc.code)
	}
}

func TestInvalidCardDataMessages(t *testing.T) {
	r, _ := newSim().Authorize(ctx, cardReq("4242424242424241", ""))
	if !strings.Contains(r.Decline.Message, "Luhn") || !strings.Contains(r.Decline.Message, "4241") ||
		!strings.Contains(r.Decline.Message, "card_number") {
		t.Errorf("message %q", r.Decline.Message)
	}
	req := cardReq("", "")
	req.PaymentMethod.Card = nil
	r, _ = newSim().Authorize(ctx, req)
	wantDecline(t, r, "invalid_card_data", "invalid_card_data")
}
