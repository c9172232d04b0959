package connector

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"switchyard/payments/errs"
)

// knobbed is a card authorization for an account with the sandbox object f,
// on a simulator with a ledger, under its own attempt id.
func knobbed(s *Simulator, number string, cm CaptureMethod, f SandboxFailures, attempt string) (*AuthorizeRequest, *PaymentResult, error) {
	req := cardReq(number, cm)
	req.AttemptID = attempt
	req.Sandbox = f
	res, err := s.Authorize(ctx, req)
	return req, res, err
}

func ledgerSim() *Simulator {
	sim := newSim()
	sim.Ledger = &memLedger{m: map[string][]byte{}}
	return sim
}

// TestSandboxFailureRate: rate 1 declines every authorization with the
// configured code and message (or processing_error and a message naming
// failure_rate), charging nothing, and Sync answers the same failure from
// the ledger; rate 0 leaves the card to decide; 0.3 declines about 30%.
func TestSandboxFailureRate(t *testing.T) {
	sim := ledgerSim()
	req, res, err := knobbed(sim, "4242424242424242", CaptureAutomatic,
		SandboxFailures{FailureRate: 1, ErrorCode: "do_not_honor", ErrorMessage: "Do not honor."}, "att_rate_1")
	if err != nil || res.Status != StatusFailure || res.Decline == nil || res.Decline.Code != "do_not_honor" ||
		res.Decline.Message != "Do not honor." || res.AmountCaptured != 0 || res.AmountCapturable != 0 {
		t.Fatalf("rate 1: %+v %v", res, err)
	}
	synced, err := sim.Sync(ctx, &SyncRequest{Account: req.Account, ConnectorTransactionID: res.ConnectorTransactionID})
	if err != nil || synced.Status != StatusFailure || synced.Decline.Code != "do_not_honor" || synced.AmountCaptured != 0 {
		t.Fatalf("sync of a failure_rate decline: %+v %v", synced, err)
	}
	// A 3-D Secure card is failed before its challenge; the defaults name failure_rate.
	_, res, err = knobbed(sim, "4000000000003063", CaptureAutomatic, SandboxFailures{FailureRate: 1}, "att_rate_default")
	if err != nil || res.Status != StatusFailure || res.Decline.Code != CodeProcessingError ||
		!strings.Contains(res.Decline.Message, "failure_rate (1)") || res.RedirectRequired {
		t.Fatalf("rate 1, defaults: %+v %v", res, err)
	}
	// Rate 0: the cards keep their meaning.
	_, res, _ = knobbed(sim, "4242424242424242", CaptureManual, SandboxFailures{ErrorCode: "x"}, "att_rate_0_ok")
	if res.Status != StatusAuthorized {
		t.Fatalf("rate 0, success card: %+v", res)
	}
	_, res, _ = knobbed(sim, "4000000000009995", CaptureAutomatic, SandboxFailures{}, attemptID)
	wantDecline(t, res, CodeCardDeclined, ReasonInsufficientFunds)
	_, res, _ = knobbed(sim, "4000000000003063", CaptureAutomatic, SandboxFailures{}, "att_rate_0_3ds")
	if res.Status != StatusAuthenticationPending || !res.RedirectRequired {
		t.Fatalf("rate 0, 3-D Secure card: %+v", res)
	}
	// 0.3 over 400 authorizations: between 20% and 40% declined.
	failed := 0
	for i := range 400 {
		_, res, err := knobbed(sim, "4242424242424242", CaptureAutomatic, SandboxFailures{FailureRate: 0.3}, fmt.Sprintf("att_share_%d", i))
		if err != nil {
			t.Fatal(err)
		}
		switch res.Status {
		case StatusFailure:
			if res.Decline.Code != CodeProcessingError {
				t.Fatalf("declined with %+v", res.Decline)
			}
			failed++
		case StatusCharged:
		default:
			t.Fatalf("status %s", res.Status)
		}
	}
	if failed < 80 || failed > 160 {
		t.Fatalf("failure_rate 0.3 declined %d of 400", failed)
	}
}

// TestSandboxOutage: every authorization fails with service_unavailable,
// whatever the card or the other knobs; an authorized payment's capture,
// void and refund are refused with it and change nothing; the syncs get no
// answer until the outage ends.
func TestSandboxOutage(t *testing.T) {
	sim := ledgerSim()
	down := SandboxFailures{Outage: true, Timeout: true, FailureRate: 1, ErrorCode: "other"}
	for _, number := range []string{"4242424242424242", "4000000000003063", "4000000000000002"} {
		_, res, err := knobbed(sim, number, CaptureAutomatic, down, "att_outage_"+number)
		if err != nil || res.Status != StatusFailure || res.Decline.Code != CodeServiceUnavailable ||
			!strings.Contains(res.Decline.Message, "unavailable") || res.AmountCaptured != 0 {
			t.Fatalf("%s in an outage: %+v %v", number, res, err)
		}
	}

	req, auth, err := knobbed(sim, "4242424242424242", CaptureManual, SandboxFailures{}, "att_before_outage")
	if err != nil || auth.Status != StatusAuthorized {
		t.Fatalf("authorize: %+v %v", auth, err)
	}
	acct := req.Account
	acct.Sandbox = SandboxFailures{Outage: true}
	md := roundTrip(t, auth.ConnectorMetadata)
	cp, err := sim.Capture(ctx, &CaptureRequest{Account: acct, ConnectorTransactionID: auth.ConnectorTransactionID,
		CaptureID: "cap_outage", AmountToCapture: amount, ConnectorMetadata: md})
	if err != nil || cp.Status != StatusFailure || cp.Decline.Code != CodeServiceUnavailable {
		t.Fatalf("capture in an outage: %+v %v", cp, err)
	}
	void, err := sim.Void(ctx, &VoidRequest{Account: acct, ConnectorTransactionID: auth.ConnectorTransactionID, ConnectorMetadata: md})
	if err != nil || void.Status != StatusFailure || void.Decline.Code != CodeServiceUnavailable {
		t.Fatalf("void in an outage: %+v %v", void, err)
	}
	ref, err := sim.Refund(ctx, &RefundRequest{Account: acct, ConnectorTransactionID: auth.ConnectorTransactionID,
		RefundID: "ref_outage", Amount: 100, ConnectorMetadata: md})
	if err != nil || ref.Status != RefundFailed || ref.Decline.Code != CodeServiceUnavailable {
		t.Fatalf("refund in an outage: %+v %v", ref, err)
	}
	if _, err := sim.Sync(ctx, &SyncRequest{Account: acct, ConnectorMetadata: md}); !errors.Is(err, errSandboxOutage) {
		t.Fatalf("sync in an outage: %v", err)
	}
	if _, err := sim.SyncCapture(ctx, &CaptureSyncRequest{Account: acct, CaptureID: "cap_outage"}); !errors.Is(err, errSandboxOutage) {
		t.Fatalf("capture sync in an outage: %v", err)
	}
	if _, err := sim.SyncRefund(ctx, &RefundSyncRequest{Account: acct, RefundID: "ref_outage"}); !errors.Is(err, errSandboxOutage) {
		t.Fatalf("refund sync in an outage: %v", err)
	}
	// Once it is over: the authorization stands untouched, and the
	// refusals are what the syncs report.
	synced, err := sim.Sync(ctx, &SyncRequest{Account: req.Account, ConnectorMetadata: md})
	if err != nil || synced.Status != StatusAuthorized || synced.AmountCapturable != amount || synced.AmountCaptured != 0 {
		t.Fatalf("sync after the outage: %+v %v", synced, err)
	}
	if c, err := sim.SyncCapture(ctx, &CaptureSyncRequest{Account: req.Account, CaptureID: "cap_outage"}); err != nil ||
		c.Status != StatusFailure || c.Decline.Code != CodeServiceUnavailable {
		t.Fatalf("capture sync after the outage: %+v %v", c, err)
	}
	if r, err := sim.SyncRefund(ctx, &RefundSyncRequest{Account: req.Account, RefundID: "ref_outage"}); err != nil ||
		r.Status != RefundFailed {
		t.Fatalf("refund sync after the outage: %+v %v", r, err)
	}
}

// TestSandboxTimeout: the authorization gets no answer (an error, at once)
// and a later Sync reports it failed with code timeout, nothing charged;
// the sync answers even while timeout is still set.
func TestSandboxTimeout(t *testing.T) {
	sim := ledgerSim()
	req, res, err := knobbed(sim, "4242424242424242", CaptureAutomatic, SandboxFailures{Timeout: true}, "att_timeout")
	if !errors.Is(err, ErrSandboxTimeout) || res != nil {
		t.Fatalf("timeout: %+v %v", res, err)
	}
	synced, err := sim.Sync(ctx, &SyncRequest{Account: req.Account})
	if err != nil || synced.Status != StatusFailure || synced.Decline.Code != CodeTimeout ||
		synced.AmountCaptured != 0 || synced.ConnectorTransactionID != "sim_att_timeout" {
		t.Fatalf("sync after a timeout: %+v %v", synced, err)
	}
	if st, err := decodeState(roundTrip(t, synced.ConnectorMetadata)); err != nil || st.Status != StatusFailure {
		t.Fatalf("metadata after the sync: %+v %v", st, err)
	}
}

// TestParseSandboxFailures: only metadata.sandbox is read, null is
// absent, and every refusal is IR_07 naming the member's path.
func TestParseSandboxFailures(t *testing.T) {
	parse := func(js string) (SandboxFailures, error) {
		var md map[string]any
		if err := json.Unmarshal([]byte(js), &md); err != nil {
			t.Fatal(err)
		}
		return ParseSandboxFailures(md)
	}
	for js, want := range map[string]SandboxFailures{
		`null`:                             {},
		`{"city": "NY", "sandbox_x": 1}`:   {},
		`{"sandbox": null}`:                {},
		`{"sandbox": {}}`:                  {},
		`{"sandbox": {"failure_rate": 0}}`: {},
		`{"sandbox": {"webhooks": true}}`:  {Webhooks: true},
		`{"sandbox": {"failure_rate": 1, "error_code": "do_not_honor", "error_message": "No.", "outage": false, "timeout": true}}`: {
			FailureRate: 1, ErrorCode: "do_not_honor", ErrorMessage: "No.", Timeout: true},
		`{"sandbox": {"failure_rate": 0.25, "error_code": null, "outage": true}}`: {FailureRate: 0.25, Outage: true},
	} {
		if got, err := parse(js); err != nil || got != want {
			t.Errorf("%s: %+v %v, want %+v", js, got, err, want)
		}
	}
	for js, field := range map[string]string{
		`{"sandbox": 1}`:                                                 "metadata.sandbox",
		`{"sandbox": [1]}`:                                               "metadata.sandbox",
		`{"sandbox": {"rate": 1}}`:                                       "metadata.sandbox.rate",
		`{"sandbox": {"failure_rate": 1.01}}`:                            "metadata.sandbox.failure_rate",
		`{"sandbox": {"failure_rate": -0.1}}`:                            "metadata.sandbox.failure_rate",
		`{"sandbox": {"failure_rate": "0.5"}}`:                           "metadata.sandbox.failure_rate",
		`{"sandbox": {"error_code": 5}}`:                                 "metadata.sandbox.error_code",
		`{"sandbox": {"error_code": ""}}`:                                "metadata.sandbox.error_code",
		`{"sandbox": {"error_message": {}}}`:                             "metadata.sandbox.error_message",
		`{"sandbox": {"outage": "true"}}`:                                "metadata.sandbox.outage",
		`{"sandbox": {"timeout": 1}}`:                                    "metadata.sandbox.timeout",
		`{"sandbox": {"webhooks": "yes"}}`:                               "metadata.sandbox.webhooks",
		`{"sandbox": {"error_code": "` + strings.Repeat("c", 65) + `"}}`: "metadata.sandbox.error_code",
	} {
		_, err := parse(js)
		e, ok := errs.As(err)
		if !ok || !errors.Is(err, errs.ErrInvalidValue) || e.Field != field {
			t.Errorf("%s: %v, want %s on %s", js, err, errs.ErrInvalidValue, field)
		}
	}
}
