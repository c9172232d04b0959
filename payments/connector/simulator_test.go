package connector

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
	"testing"
	"time"
)

var ctx = context.Background()

const (
	attemptID = "pay_abc123_1"
	txnID     = "sim_" + attemptID
	amount    = int64(6540)
)

var captureMethods = []CaptureMethod{"", CaptureAutomatic, CaptureSequentialAutomatic, CaptureManual, CaptureManualMultiple}

// roundTrip stores metadata the way the domain does: as JSON.
func roundTrip(t *testing.T, md map[string]any) map[string]any {
	t.Helper()
	if md == nil {
		return nil
	}
	b, err := json.Marshal(md)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func account(name string) Account {
	return Account{
		ConnectorName:              name,
		MerchantConnectorAccountID: "mca_1",
		Credentials:                Credentials{"api_key": "sk_secret_value"},
		PaymentID:                  "pay_abc123",
		AttemptID:                  attemptID,
	}
}

func cardReq(number string, cm CaptureMethod) *AuthorizeRequest {
	return &AuthorizeRequest{
		Account:       account("stripe_test"),
		Amount:        amount,
		Currency:      "USD",
		CaptureMethod: cm,
		PaymentMethod: PaymentMethod{Type: MethodCard, Subtype: "credit", Card: &Card{
			Number: number, ExpMonth: "12", ExpYear: "2035", CVC: "123", HolderName: "Jane Doe",
		}},
		Billing: Address{Line1: "1 Main St", Zip: "94105"},
	}
}

func newSim() *Simulator {
	return &Simulator{Now: func() time.Time { return time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC) }}
}

// noLeak fails when v, printed or marshalled, contains one of secrets.
func noLeak(t *testing.T, v any, secrets ...string) {
	t.Helper()
	b, _ := json.Marshal(v)
	out := string(b) + fmt.Sprintf("%v %+v %#v", v, v, v)
	for _, s := range secrets {
		if s != "" && strings.Contains(out, s) {
			t.Errorf("output leaks %q: %s", s, out)
		}
	}
}

func wantSuccess(t *testing.T, r *PaymentResult, cm CaptureMethod) {
	t.Helper()
	if r.Decline != nil || r.RedirectRequired {
		t.Fatalf("want success, got %+v decline=%+v", r, r.Decline)
	}
	switch cm {
	case "", CaptureAutomatic, CaptureSequentialAutomatic:
		if r.Status != StatusCharged || r.AmountCaptured != amount || r.AmountCapturable != 0 {
			t.Fatalf("capture %q: want charged %d, got %s captured=%d capturable=%d", cm, amount, r.Status, r.AmountCaptured, r.AmountCapturable)
		}
	default:
		if r.Status != StatusAuthorized || r.AmountCaptured != 0 || r.AmountCapturable != amount {
			t.Fatalf("capture %q: want authorized %d, got %s captured=%d capturable=%d", cm, amount, r.Status, r.AmountCaptured, r.AmountCapturable)
		}
	}
	if r.ConnectorTransactionID != txnID {
		t.Errorf("transaction id %q", r.ConnectorTransactionID)
	}
}

func wantDecline(t *testing.T, r *PaymentResult, code, reason string) {
	t.Helper()
	if r.Status != StatusFailure || r.Decline == nil {
		t.Fatalf("want failure %s, got %s decline=%+v", code, r.Status, r.Decline)
	}
	if r.Decline.Code != code || r.Decline.Reason != reason {
		t.Errorf("decline = %+v, want code %s reason %s", r.Decline, code, reason)
	}
	if !strings.Contains(r.Decline.Message, reason) {
		t.Errorf("message %q does not name %s", r.Decline.Message, reason)
	}
	if r.AmountCaptured != 0 || r.AmountCapturable != 0 || r.RedirectRequired || r.NetworkTransactionID != "" {
		t.Errorf("failure with amounts or redirect: %+v", r)
	}
	if r.ConnectorTransactionID != txnID {
		t.Errorf("transaction id %q", r.ConnectorTransactionID)
	}
}

// completer answers a waiting attempt of connector as the customer would.
func completer(t *testing.T, sim *Simulator, connector string) func(r *PaymentResult, approved bool) *PaymentResult {
	return func(r *PaymentResult, approved bool) *PaymentResult {
		t.Helper()
		out, err := sim.CompleteAuthentication(ctx, &CompleteAuthenticationRequest{Account: account(connector),
			ConnectorTransactionID: r.ConnectorTransactionID, Approved: approved, ConnectorMetadata: roundTrip(t, r.ConnectorMetadata)})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
}

func TestRedirectMethods(t *testing.T) {
	sim := newSim()
	complete := completer(t, sim, "paypal_test")
	redirects := []PaymentMethod{
		{Type: MethodUPI, Subtype: "upi_collect", VPA: "success@upi"},
		{Type: MethodUPI, VPA: " Success@UPI "},
		{Type: MethodUPI, Subtype: "upi_intent"},
		{Type: MethodWallet, Subtype: "paypal"},
		{Type: MethodWallet, Subtype: "google_pay"},
		{Type: MethodPayLater, Subtype: "klarna"},
		{Type: MethodPayLater, Subtype: "affirm"},
		{Type: MethodBankRedirect, Subtype: "ideal"},
	}
	for _, pm := range redirects {
		for _, cm := range captureMethods {
			name := fmt.Sprintf("%s/%s/%s", pm.Type, pm.Subtype, cm)
			r, err := sim.Authorize(ctx, &AuthorizeRequest{Account: account("paypal_test"), Amount: amount, Currency: "INR", CaptureMethod: cm, PaymentMethod: pm})
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != StatusAuthenticationPending || !r.RedirectRequired || r.PaymentChecks != nil {
				t.Fatalf("%s: want redirect, got %+v", name, r)
			}
			ok := complete(r, true)
			wantSuccess(t, ok, cm)
			if ok.NetworkTransactionID != "" {
				t.Errorf("%s: network transaction id on a redirect method", name)
			}
			wantDecline(t, complete(r, false), "payment_method_provider_decline", "customer_declined")
			// Completing twice changes nothing.
			again := complete(ok, false)
			if again.Status != ok.Status {
				t.Errorf("%s: second completion %s", name, again.Status)
			}
		}
	}
	for vpa, want := range map[string][2]string{
		"failure@upi": {"payment_method_provider_decline", "payment_not_successful"},
		"someone@upi": {"invalid_upi_id", "invalid_upi_id"},
		"":            {"invalid_upi_id", "invalid_upi_id"},
	} {
		r, err := sim.Authorize(ctx, &AuthorizeRequest{Account: account("phonypay"), Amount: amount, Currency: "INR",
			PaymentMethod: PaymentMethod{Type: MethodUPI, Subtype: "upi_collect", VPA: vpa}})
		if err != nil {
			t.Fatal(err)
		}
		wantDecline(t, r, want[0], want[1])
	}
	r, _ := sim.Authorize(ctx, &AuthorizeRequest{Account: account("phonypay"), Amount: amount, PaymentMethod: PaymentMethod{Type: "network_token"}})
	wantDecline(t, r, "payment_method_not_supported", "payment_method_not_supported")
}

func TestAuthorizeRequestChecks(t *testing.T) {
	sim := newSim()
	req := cardReq("4242424242424242", "scheduled")
	r, _ := sim.Authorize(ctx, req)
	wantDecline(t, r, "capture_method_not_supported", "capture_method_not_supported")
	req = cardReq("4242424242424242", "")
	req.Amount = -1
	r, _ = sim.Authorize(ctx, req)
	wantDecline(t, r, "invalid_amount", "invalid_amount")
	// Type may be left empty when a card is given.
	req = cardReq("4242424242424242", "")
	req.PaymentMethod.Type = ""
	r, _ = sim.Authorize(ctx, req)
	wantSuccess(t, r, "")
}

func TestCaptureFlows(t *testing.T) {
	sim := newSim()
	auth, _ := sim.Authorize(ctx, cardReq("4000000000000259", CaptureManualMultiple))
	md := roundTrip(t, auth.ConnectorMetadata)
	capture := func(id string, amt int64) *CaptureResult {
		t.Helper()
		c, err := sim.Capture(ctx, &CaptureRequest{Account: account("x"), ConnectorTransactionID: txnID, CaptureID: id,
			AmountToCapture: amt, Currency: "USD", ConnectorMetadata: md})
		if err != nil {
			t.Fatal(err)
		}
		if c.ConnectorMetadata != nil {
			md = roundTrip(t, c.ConnectorMetadata)
		}
		return c
	}
	c1 := capture("cap_1", 1000)
	if c1.Status != StatusCharged || c1.ConnectorCaptureID != "sim_cap_cap_1" || c1.Decline != nil {
		t.Fatalf("capture 1: %+v", c1)
	}
	if c1.DisputeAfterSuccess == nil || c1.DisputeAfterSuccess.Reason != "fraudulent" {
		t.Errorf("dispute on capture: %+v", c1.DisputeAfterSuccess)
	}
	s, _ := sim.Sync(ctx, &SyncRequest{Account: account("x"), ConnectorMetadata: md})
	if s.Status != StatusCharged || s.AmountCaptured != 1000 || s.AmountCapturable != amount-1000 {
		t.Errorf("sync after partial capture: %+v", s)
	}
	c2 := capture("", 500)
	if c2.ConnectorCaptureID != "sim_cap_"+attemptID+"_2" {
		t.Errorf("capture id without CaptureID: %q", c2.ConnectorCaptureID)
	}
	s, _ = sim.Sync(ctx, &SyncRequest{Account: account("x"), ConnectorMetadata: md})
	if s.AmountCaptured != 1500 || s.AmountCapturable != amount-1500 {
		t.Errorf("sync after 2 captures: %+v", s)
	}
	// Void releases the rest of a manual_multiple authorization.
	v, _ := sim.Void(ctx, &VoidRequest{Account: account("x"), ConnectorMetadata: md})
	if v.Status != StatusVoided || v.AmountCaptured != 1500 || v.AmountCapturable != 0 {
		t.Errorf("void after partial captures: %+v", v)
	}

	if c := capture("cap_0", 0); c.Status != StatusFailure || c.Decline.Code != "invalid_amount" {
		t.Errorf("zero capture: %+v", c)
	}

	// Manual: one partial capture releases the rest.
	auth, _ = sim.Authorize(ctx, cardReq("4242424242424242", CaptureManual))
	md = roundTrip(t, auth.ConnectorMetadata)
	capture("cap_a", 2000)
	s, _ = sim.Sync(ctx, &SyncRequest{Account: account("x"), ConnectorMetadata: md})
	if s.Status != StatusCharged || s.AmountCaptured != 2000 || s.AmountCapturable != 0 {
		t.Errorf("manual partial capture: %+v", s)
	}

	// Full capture; without metadata the simulator still charges.
	c, err := sim.Capture(ctx, &CaptureRequest{Account: account("x"), CaptureID: "cap_z", AmountToCapture: amount})
	if err != nil || c.Status != StatusCharged || c.ConnectorCaptureID != "sim_cap_cap_z" || c.ConnectorMetadata != nil {
		t.Errorf("capture without metadata: %+v %v", c, err)
	}

	// Refused states.
	for _, n := range []string{"4000000000000002", "4000000000003063"} {
		auth, _ = sim.Authorize(ctx, cardReq(n, CaptureManual))
		md = roundTrip(t, auth.ConnectorMetadata)
		if c := capture("cap_x", 100); c.Status != StatusFailure || c.Decline.Code != "payment_intent_unexpected_state" {
			t.Errorf("%s: capture: %+v", n, c)
		}
	}
}

func TestVoid(t *testing.T) {
	sim := newSim()
	void := func(md map[string]any) *PaymentResult {
		t.Helper()
		r, err := sim.Void(ctx, &VoidRequest{Account: account("x"), ConnectorTransactionID: txnID, CancellationReason: "requested_by_customer", ConnectorMetadata: roundTrip(t, md)})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	auth, _ := sim.Authorize(ctx, cardReq("4242424242424242", CaptureManual))
	v := void(auth.ConnectorMetadata)
	if v.Status != StatusVoided || v.ConnectorTransactionID != txnID || v.AmountCapturable != 0 || v.Decline != nil {
		t.Fatalf("void: %+v", v)
	}
	if again := void(v.ConnectorMetadata); again.Status != StatusVoided {
		t.Errorf("void twice: %+v", again)
	}
	s, _ := sim.Sync(ctx, &SyncRequest{Account: account("x"), ConnectorMetadata: roundTrip(t, v.ConnectorMetadata)})
	if s.Status != StatusVoided {
		t.Errorf("sync after void: %s", s.Status)
	}
	// Pending authentication can be voided.
	auth, _ = sim.Authorize(ctx, cardReq("4000000000003063", CaptureAutomatic))
	if v := void(auth.ConnectorMetadata); v.Status != StatusVoided {
		t.Errorf("void pending: %+v", v)
	}
	// Nothing to void.
	for _, n := range []string{"4242424242424242", "4000000000000002"} {
		auth, _ = sim.Authorize(ctx, cardReq(n, CaptureAutomatic))
		v := void(auth.ConnectorMetadata)
		if v.Status != StatusFailure || v.Decline.Code != "payment_intent_unexpected_state" {
			t.Errorf("%s: void: %+v", n, v)
		}
		if v.ConnectorMetadata["status"] != auth.ConnectorMetadata["status"] {
			t.Errorf("%s: refused void changed the metadata", n)
		}
	}
	// Without metadata: voided.
	if v := void(nil); v.Status != StatusVoided {
		t.Errorf("void without metadata: %+v", v)
	}
}

func TestRefund(t *testing.T) {
	sim := newSim()
	refund := func(md map[string]any, id string, amt int64) (*RefundResult, error) {
		return sim.Refund(ctx, &RefundRequest{Account: account("x"), ConnectorTransactionID: txnID, RefundID: id,
			Amount: amt, Currency: "USD", Reason: "duplicate", ConnectorMetadata: roundTrip(t, md)})
	}
	auth, _ := sim.Authorize(ctx, cardReq("4242424242424242", CaptureAutomatic))
	for i, amt := range []int64{100, amount - 100} {
		r, err := refund(auth.ConnectorMetadata, fmt.Sprintf("ref_%d", i), amt)
		if err != nil || r.Status != RefundSucceeded || r.ConnectorRefundID != fmt.Sprintf("sim_ref_ref_%d", i) || r.Decline != nil {
			t.Errorf("refund %d: %+v %v", i, r, err)
		}
	}
	if r, _ := refund(auth.ConnectorMetadata, "ref_z", 0); r.Status != RefundFailed || r.Decline.Code != "invalid_amount" {
		t.Errorf("zero refund: %+v", r)
	}
	if r, _ := refund(nil, "ref_n", 10); r.Status != RefundSucceeded {
		t.Errorf("refund without metadata: %+v", r)
	}
	if _, err := refund(auth.ConnectorMetadata, "", 10); !errors.Is(err, ErrInvalidRequest) {
		t.Errorf("refund without id: %v", err)
	}
	failed, _ := sim.Authorize(ctx, cardReq("4000000000009995", CaptureAutomatic))
	if r, _ := refund(failed.ConnectorMetadata, "ref_f", 10); r.Status != RefundFailed || r.Decline.Reason != "payment_not_successful" {
		t.Errorf("refund of a failed payment: %+v", r)
	}
	// Authorized then captured, with metadata not updated: still refundable.
	authd, _ := sim.Authorize(ctx, cardReq("4242424242424242", CaptureManual))
	if r, _ := refund(authd.ConnectorMetadata, "ref_a", 10); r.Status != RefundSucceeded {
		t.Errorf("refund with stale metadata: %+v", r)
	}
}

func TestCompleteAuthenticationRoundTrip(t *testing.T) {
	sim := newSim()
	auth, _ := sim.Authorize(ctx, cardReq("4000003800000446", CaptureManual))
	md := roundTrip(t, auth.ConnectorMetadata)
	if md["status"] != "authentication_pending" || md["three_ds"] != "challenge" || md["card_last4"] != "0446" {
		t.Errorf("metadata %v", md)
	}
	ok, _ := sim.CompleteAuthentication(ctx, &CompleteAuthenticationRequest{Account: account("x"), ConnectorTransactionID: txnID, Approved: true, ConnectorMetadata: md})
	wantSuccess(t, ok, CaptureManual)
	if ok.NetworkTransactionID != "sim_nti_"+attemptID {
		t.Errorf("nti %q", ok.NetworkTransactionID)
	}
	// The authorization then captures.
	c, _ := sim.Capture(ctx, &CaptureRequest{Account: account("x"), CaptureID: "cap_1", AmountToCapture: amount, ConnectorMetadata: roundTrip(t, ok.ConnectorMetadata)})
	if c.Status != StatusCharged {
		t.Errorf("capture after 3DS: %+v", c)
	}
	// Repeated completion with the final metadata is idempotent.
	again, _ := sim.CompleteAuthentication(ctx, &CompleteAuthenticationRequest{Account: account("x"), Approved: false, ConnectorMetadata: roundTrip(t, ok.ConnectorMetadata)})
	if again.Status != StatusAuthorized {
		t.Errorf("repeat: %s", again.Status)
	}
}

func TestDeterministic(t *testing.T) {
	a, _ := newSim().Authorize(ctx, cardReq("4000000000000259", CaptureAutomatic))
	b, _ := newSim().Authorize(ctx, cardReq("4000000000000259", CaptureAutomatic))
	if !reflect.DeepEqual(a, b) {
		t.Errorf("results differ:\n%+v\n%+v", a, b)
	}
	req := cardReq("4242424242424242", "")
	req.AttemptID = "pay_other_1"
	c, _ := newSim().Authorize(ctx, req)
	if c.ConnectorTransactionID != "sim_pay_other_1" || c.ConnectorTransactionID == a.ConnectorTransactionID {
		t.Errorf("ids not attempt-based: %q", c.ConnectorTransactionID)
	}
}

func TestTransportErrors(t *testing.T) {
	sim := newSim()
	if _, err := sim.Authorize(ctx, nil); !errors.Is(err, ErrInvalidRequest) {
		t.Errorf("nil request: %v", err)
	}
	req := cardReq("4242424242424242", "")
	req.AttemptID = ""
	if _, err := sim.Authorize(ctx, req); !errors.Is(err, ErrInvalidRequest) {
		t.Errorf("no attempt id: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := sim.Authorize(cctx, cardReq("4242424242424242", "")); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: %v", err)
	}
	auth, _ := sim.Authorize(ctx, cardReq("4000000000003063", ""))
	if _, err := sim.CompleteAuthentication(ctx, &CompleteAuthenticationRequest{Account: account("x"), ConnectorTransactionID: "sim_other", ConnectorMetadata: auth.ConnectorMetadata}); !errors.Is(err, ErrInvalidRequest) {
		t.Errorf("foreign transaction: %v", err)
	}
	for _, md := range []map[string]any{nil, {}, {"foo": "bar"}, {"simulator": simulatorMarker, "status": "weird"}, {"simulator": simulatorMarker, "status": "charged", "amount": "x"}} {
		if _, err := sim.CompleteAuthentication(ctx, &CompleteAuthenticationRequest{Account: account("x"), ConnectorMetadata: md}); !errors.Is(err, ErrInvalidMetadata) {
			t.Errorf("complete with %v: %v", md, err)
		}
		if _, err := sim.Sync(ctx, &SyncRequest{Account: account("x"), ConnectorMetadata: md}); !errors.Is(err, ErrInvalidMetadata) {
			t.Errorf("sync with %v: %v", md, err)
		}
	}
	if _, err := sim.Capture(ctx, &CaptureRequest{Account: account("x"), AmountToCapture: 1, ConnectorMetadata: map[string]any{"foo": 1}}); !errors.Is(err, ErrInvalidMetadata) {
		t.Errorf("capture with foreign metadata: %v", err)
	}
	if _, err := sim.Void(ctx, nil); err == nil {
		t.Error("nil void")
	}
	if _, err := sim.Refund(ctx, nil); err == nil {
		t.Error("nil refund")
	}
	if _, err := sim.Capture(ctx, nil); err == nil {
		t.Error("nil capture")
	}
	if _, err := sim.Sync(ctx, nil); err == nil {
		t.Error("nil sync")
	}
	if _, err := sim.CompleteAuthentication(ctx, nil); err == nil {
		t.Error("nil complete")
	}
}

func TestNoCardDataEscapes(t *testing.T) {
	const pan, cvc = "4000000000003063", "987"
	req := cardReq(pan, CaptureManual)
	req.PaymentMethod.Card.CVC = cvc
	req.SetupFutureUsage = true
	req.Credentials = Credentials{"api_key": "sk_live_abcdef", "key1": "merchant_secret"}
	secrets := []string{pan, "sk_live_abcdef", "merchant_secret"}

	// The request itself, printed, marshalled or logged.
	for _, out := range []string{
		fmt.Sprintf("%v", req), fmt.Sprintf("%+v", req), fmt.Sprintf("%#v", req), fmt.Sprintf("%s", *req.PaymentMethod.Card),
		fmt.Sprint(req.PaymentMethod), fmt.Sprintf("%#v", req.Credentials),
	} {
		for _, s := range append(secrets, "CVC:"+cvc) {
			if strings.Contains(out, s) {
				t.Errorf("print leaks %q: %s", s, out)
			}
		}
		if !strings.Contains(out, "3063") && strings.Contains(out, "Card{") {
			t.Errorf("print lacks last4: %s", out)
		}
	}
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	lg := slog.New(slog.NewJSONHandler(&buf, nil))
	lg.Info("authorize", "card", *req.PaymentMethod.Card, "credentials", req.Credentials, "req", req)
	tlg := slog.New(slog.NewTextHandler(&buf, nil))
	tlg.Info("authorize", "card", req.PaymentMethod.Card, "credentials", req.Credentials, "req", req)
	for _, out := range []string{string(b), buf.String()} {
		for _, s := range append(secrets, `"`+cvc+`"`, "="+cvc) {
			if strings.Contains(out, s) {
				t.Errorf("output leaks %q: %s", s, out)
			}
		}
	}

	// Every result of the flow.
	sim := newSim()
	auth, _ := sim.Authorize(ctx, req)
	done, _ := sim.CompleteAuthentication(ctx, &CompleteAuthenticationRequest{Account: req.Account, Approved: true, ConnectorMetadata: auth.ConnectorMetadata})
	capt, _ := sim.Capture(ctx, &CaptureRequest{Account: req.Account, CaptureID: "c", AmountToCapture: 10, ConnectorMetadata: done.ConnectorMetadata})
	ref, _ := sim.Refund(ctx, &RefundRequest{Account: req.Account, RefundID: "r", Amount: 10, ConnectorMetadata: capt.ConnectorMetadata})
	for _, v := range []any{auth, done, capt, ref} {
		noLeak(t, v, secrets...)
		b, _ := json.Marshal(v)
		if strings.Contains(string(b), cvc) {
			t.Errorf("result leaks the CVC: %s", b)
		}
	}
	// Invalid numbers do not leak either.
	bad, _ := sim.Authorize(ctx, cardReq("4000000000003064", ""))
	noLeak(t, bad, "4000000000003064")
}

// memLedger is a Ledger in memory; fail makes Put fail.
type memLedger struct {
	m    map[string][]byte
	fail bool
}

func (l *memLedger) Put(_ context.Context, id string, b []byte) error {
	if l.fail {
		return errors.New("ledger down")
	}
	l.m[id] = b
	return nil
}

func (l *memLedger) Get(_ context.Context, id string) ([]byte, error) { return l.m[id], nil }

// TestSyncRemembersWhatWasNeverRecorded: with a ledger, Sync without
// metadata (the caller crashed before recording the answer) answers what
// the simulator decided for the attempt, and ErrTransactionNotFound for an
// attempt it was never sent. A simulator that cannot record still answers
// (it stands in for a remote connector), and a Sync then finds nothing.
func TestSyncRemembersWhatWasNeverRecorded(t *testing.T) {
	ledger := &memLedger{m: map[string][]byte{}}
	s := &Simulator{Ledger: ledger}
	for i, tc := range []struct {
		number string
		want   Status
	}{
		{"4242424242424242", StatusCharged},
		{"4000000000000002", StatusFailure},
		{"4000000000003063", StatusAuthenticationPending},
	} {
		req := cardReq(tc.number, CaptureAutomatic)
		req.AttemptID = fmt.Sprintf("att_ledger_%d", i)
		res, err := s.Authorize(ctx, req)
		if err != nil || res.Status != tc.want {
			t.Fatalf("%s: %v %v", tc.number, res, err)
		}
		synced, err := s.Sync(ctx, &SyncRequest{Account: req.Account})
		if err != nil || synced.Status != tc.want || synced.ConnectorTransactionID != res.ConnectorTransactionID ||
			synced.AmountCaptured != res.AmountCaptured {
			t.Fatalf("%s: sync %+v %v, authorize said %+v", tc.number, synced, err, res)
		}
	}
	unseen := account("stripe_test")
	unseen.AttemptID = "att_never_sent"
	if _, err := s.Sync(ctx, &SyncRequest{Account: unseen}); !errors.Is(err, ErrTransactionNotFound) {
		t.Fatalf("sync of an attempt never sent: %v", err)
	}
	ledger.fail = true
	req := cardReq("4242424242424242", CaptureAutomatic)
	req.AttemptID = "att_unrecorded"
	if res, err := s.Authorize(ctx, req); err != nil || res.Status != StatusCharged {
		t.Fatalf("authorize without its ledger: %+v %v", res, err)
	}
	if _, err := s.Sync(ctx, &SyncRequest{Account: req.Account}); !errors.Is(err, ErrTransactionNotFound) {
		t.Fatalf("sync of an unrecorded attempt: %v", err)
	}
	for _, b := range ledger.m {
		noLeak(t, string(b), "4242424242424242")
	}
}

// TestSyncCaptureAndRefundFromTheLedger: the ledger answers for captures
// and refunds whose answers were never recorded, Sync prefers the ledger's
// latest state over stale metadata (a void whose answer was lost), and a
// capture or refund never sent is ErrTransactionNotFound.
func TestSyncCaptureAndRefundFromTheLedger(t *testing.T) {
	s := &Simulator{Ledger: &memLedger{m: map[string][]byte{}}}
	req := cardReq("4242424242424242", CaptureManual)
	req.AttemptID = "pa_ledger_capture"
	auth, err := s.Authorize(ctx, req)
	if err != nil || auth.Status != StatusAuthorized {
		t.Fatalf("authorize: %+v %v", auth, err)
	}
	cp, err := s.Capture(ctx, &CaptureRequest{Account: req.Account, CaptureID: "cap_1", AmountToCapture: 600,
		Currency: "USD", ConnectorMetadata: auth.ConnectorMetadata})
	if err != nil || cp.Status != StatusCharged {
		t.Fatalf("capture: %+v %v", cp, err)
	}
	synced, err := s.SyncCapture(ctx, &CaptureSyncRequest{Account: req.Account, CaptureID: "cap_1"})
	if err != nil || synced.Status != StatusCharged || synced.ConnectorCaptureID != "sim_cap_cap_1" {
		t.Fatalf("sync capture: %+v %v", synced, err)
	}
	ref, err := s.Refund(ctx, &RefundRequest{Account: req.Account, RefundID: "ref_1", Amount: 100, Currency: "USD",
		ConnectorMetadata: cp.ConnectorMetadata})
	if err != nil || ref.Status != RefundSucceeded {
		t.Fatalf("refund: %+v %v", ref, err)
	}
	if got, err := s.SyncRefund(ctx, &RefundSyncRequest{Account: req.Account, RefundID: "ref_1"}); err != nil ||
		got.Status != RefundSucceeded || got.ConnectorRefundID != "sim_ref_ref_1" {
		t.Fatalf("sync refund: %+v %v", got, err)
	}
	if _, err := s.SyncCapture(ctx, &CaptureSyncRequest{Account: req.Account, CaptureID: "cap_never"}); !errors.Is(err, ErrTransactionNotFound) {
		t.Fatalf("sync of a capture never sent: %v", err)
	}
	if _, err := s.SyncRefund(ctx, &RefundSyncRequest{Account: req.Account, RefundID: "ref_never"}); !errors.Is(err, ErrTransactionNotFound) {
		t.Fatalf("sync of a refund never sent: %v", err)
	}

	void := cardReq("4242424242424242", CaptureManual)
	void.AttemptID = "pa_ledger_void"
	auth, _ = s.Authorize(ctx, void)
	if v, err := s.Void(ctx, &VoidRequest{Account: void.Account, ConnectorMetadata: auth.ConnectorMetadata}); err != nil || v.Status != StatusVoided {
		t.Fatalf("void: %+v %v", v, err)
	}
	// The caller still holds the authorization's metadata: the ledger wins.
	if got, err := s.Sync(ctx, &SyncRequest{Account: void.Account, ConnectorMetadata: auth.ConnectorMetadata}); err != nil || got.Status != StatusVoided {
		t.Fatalf("sync after a lost void answer: %+v %v", got, err)
	}
	// Without a ledger a sync of a capture cannot be answered.
	if _, err := NewSimulator().SyncCapture(ctx, &CaptureSyncRequest{Account: req.Account, CaptureID: "cap_1"}); !errors.Is(err, ErrInvalidRequest) {
		t.Fatalf("sync capture without a ledger: %v", err)
	}
}
