package rest_test

import (
	"context"
	"slices"
	"testing"

	"switchyard/ent/incrementalauthorization"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentintent"
)

// Authorization changes on a payment (incremental and extended
// authorization, void after capture), update_metadata, and the checkout
// SDK's eligibility and post_session_tokens calls.

// incrementablePayment is a manual-capture card payment in requires_capture
// (10000 USD) that asked for incremental authorization.
func incrementablePayment(t *testing.T, c *client, number string, members map[string]any) string {
	t.Helper()
	body := payment(map[string]any{"confirm": true, "capture_method": "manual", "payment_method": "card",
		"payment_method_data": card(number), "request_incremental_authorization": true})
	for k, v := range members {
		body[k] = v
	}
	r := c.pay("POST", "/payments", body).must(t, 200)
	if r.str("status") != "requires_capture" {
		t.Fatalf("set up requires_capture, got %s", r.Raw)
	}
	return r.str("payment_id")
}

func TestIncrementalAuthorization(t *testing.T) {
	c := newClient(t)
	id := incrementablePayment(t, c, "4242424242424242", nil)
	r := c.pay("POST", "/payments/"+id+"/incremental_authorization", map[string]any{"amount": 15000, "reason": "tip"}).must(t, 200)
	if r.str("status") != "requires_capture" || r.num("amount") != 15000 || r.num("amount_capturable") != 15000 || r.num("net_amount") != 15000 {
		t.Fatalf("after the increment: %s", r.Raw)
	}
	incs := r.list("incremental_authorizations")
	if len(incs) != 1 || incs[0]["status"] != "success" || incs[0]["amount"] != float64(15000) || incs[0]["previously_authorized_amount"] != float64(10000) {
		t.Fatalf("incremental_authorizations: %s", r.Raw)
	}
	// A capture after the increment takes the new total.
	cp := c.pay("POST", "/payments/"+id+"/capture", nil).must(t, 200)
	if cp.str("status") != "succeeded" || cp.received() != 15000 {
		t.Fatalf("capture after the increment: %s", cp.Raw)
	}
	// The payment's events: authorized and captured, none for the increment.
	if got := eventsOf(t, c, id); !slices.Contains(got, "payment_succeeded") {
		t.Fatalf("events %v", got)
	}
}

// TestIncrementalAuthorizationDeclined: the sandbox declines an increment
// above its threshold or of its no-increment card; the payment keeps what
// it had, and the increment says why.
func TestIncrementalAuthorizationDeclined(t *testing.T) {
	c := newClient(t)
	for _, tc := range []struct {
		name, number string
		amount       int64
	}{
		{"over the threshold", "4242424242424242", 1_000_001},
		{"no-increment card", "4000000000006975", 12000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := incrementablePayment(t, c, tc.number, nil)
			r := c.pay("POST", "/payments/"+id+"/incremental_authorization", map[string]any{"amount": tc.amount}).must(t, 200)
			incs := r.list("incremental_authorizations")
			if r.num("amount") != 10000 || r.num("amount_capturable") != 10000 || len(incs) != 1 ||
				incs[0]["status"] != "failure" || incs[0]["error_code"] != "card_declined" {
				t.Fatalf("declined increment: %s", r.Raw)
			}
			// The authorization stands: a capture takes the original amount.
			if cp := c.pay("POST", "/payments/"+id+"/capture", nil).must(t, 200); cp.received() != 10000 {
				t.Fatalf("capture: %s", cp.Raw)
			}
		})
	}
}

// TestIncrementalAuthorizationRefused: every refusal with its code.
func TestIncrementalAuthorizationRefused(t *testing.T) {
	c := newClient(t)
	for _, tc := range []struct {
		name   string
		setup  func(t *testing.T) string
		body   map[string]any
		status int
		code   string
	}{
		{"requires_payment_method", func(t *testing.T) string {
			return c.pay("POST", "/payments", payment(map[string]any{"request_incremental_authorization": true})).must(t, 200).str("payment_id")
		}, map[string]any{"amount": 20000}, 400, "IR_14"},
		{"succeeded", func(t *testing.T) string {
			return c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "payment_method": "card",
				"payment_method_data": card("4242424242424242"), "request_incremental_authorization": true})).must(t, 200).str("payment_id")
		}, map[string]any{"amount": 20000}, 400, "IR_14"},
		{"cancelled", func(t *testing.T) string {
			id := incrementablePayment(t, c, "4242424242424242", nil)
			c.pay("POST", "/payments/"+id+"/cancel", nil).must(t, 200)
			return id
		}, map[string]any{"amount": 20000}, 400, "IR_14"},
		{"not requested", func(t *testing.T) string {
			return incrementablePayment(t, c, "4242424242424242", map[string]any{"request_incremental_authorization": false})
		}, map[string]any{"amount": 20000}, 400, "IR_16"},
		{"amount not greater", func(t *testing.T) string {
			return incrementablePayment(t, c, "4242424242424242", nil)
		}, map[string]any{"amount": 10000}, 400, "IR_16"},
		{"amount missing", func(t *testing.T) string {
			return incrementablePayment(t, c, "4242424242424242", nil)
		}, map[string]any{"reason": "tip"}, 400, "IR_04"},
		{"unknown payment", func(t *testing.T) string { return "pay_nosuchpayment" }, map[string]any{"amount": 20000}, 404, "HE_02"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := tc.setup(t)
			r := c.pay("POST", "/payments/"+id+"/incremental_authorization", tc.body)
			if r.Status != tc.status || r.errCode() != tc.code {
				t.Fatalf("got %d %s, want %d %s: %s", r.Status, r.errCode(), tc.status, tc.code, r.Raw)
			}
		})
	}
}

// TestAuthorizationChangesTenancy: another merchant's payment is 404 on
// every route.
func TestAuthorizationChangesTenancy(t *testing.T) {
	c := newClient(t)
	_, otherKey, _ := otherMerchant(t, c, "merchant_authz_other")
	id := incrementablePayment(t, c, "4242424242424242", nil)
	for _, call := range []struct {
		method, path string
		body         any
	}{
		{"POST", "/incremental_authorization", map[string]any{"amount": 20000}},
		{"POST", "/extend_authorization", nil},
		{"POST", "/cancel_post_capture", nil},
		{"GET", "/cancel_post_capture", nil},
		{"POST", "/update_metadata", map[string]any{"metadata": map[string]any{"a": "b"}}},
	} {
		r := c.do(call.method, "/payments/"+id+call.path, otherKey, call.body)
		if r.Status != 404 || r.errCode() != "HE_02" {
			t.Fatalf("%s %s with another merchant's key: %d %s", call.method, call.path, r.Status, r.Raw)
		}
	}
	// Nothing changed.
	if r := c.pay("GET", "/payments/"+id, nil).must(t, 200); r.num("amount") != 10000 || len(r.list("incremental_authorizations")) != 0 {
		t.Fatalf("after the foreign calls: %s", r.Raw)
	}
}

// TestIncrementalAuthorizationReplay: a replayed Idempotency-Key answers
// the first increment again and records no second one.
func TestIncrementalAuthorizationReplay(t *testing.T) {
	c := newClient(t)
	id := incrementablePayment(t, c, "4242424242424242", nil)
	body := map[string]any{"amount": 12500}
	headers := map[string]string{"Idempotency-Key": "inc-" + id}
	first := c.doWith("POST", "/payments/"+id+"/incremental_authorization", c.merchantKey(), body, headers).must(t, 200)
	again := c.doWith("POST", "/payments/"+id+"/incremental_authorization", c.merchantKey(), body, headers).must(t, 200)
	if again.Header.Get("Idempotent-Replayed") != "true" || string(again.Raw) != string(first.Raw) {
		t.Fatalf("replay: %q %s", again.Header.Get("Idempotent-Replayed"), again.Raw)
	}
	if r := c.pay("GET", "/payments/"+id, nil).must(t, 200); len(r.list("incremental_authorizations")) != 1 || r.num("amount") != 12500 {
		t.Fatalf("after the replay: %s", r.Raw)
	}
}

func TestExtendAuthorization(t *testing.T) {
	c := newClient(t)
	id := incrementablePayment(t, c, "4242424242424242", nil)
	r := c.pay("POST", "/payments/"+id+"/extend_authorization", nil).must(t, 200)
	if r.obj()["extended_authorization_applied"] != true || r.str("extended_authorization_last_applied_at") == "" || r.str("status") != "requires_capture" {
		t.Fatalf("extended: %s", r.Raw)
	}
	// The no-increment card's issuer refuses: recorded as not applied.
	refused := incrementablePayment(t, c, "4000000000006975", nil)
	if r := c.pay("POST", "/payments/"+refused+"/extend_authorization", nil).must(t, 200); r.obj()["extended_authorization_applied"] != false {
		t.Fatalf("refused extension: %s", r.Raw)
	}
	// Only requires_capture.
	done := c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "payment_method": "card",
		"payment_method_data": card("4242424242424242")})).must(t, 200).str("payment_id")
	if r := c.pay("POST", "/payments/"+done+"/extend_authorization", nil); r.Status != 400 || r.errCode() != "IR_14" {
		t.Fatalf("extend a succeeded payment: %s", r.Raw)
	}
}

func TestCancelPostCapture(t *testing.T) {
	c := newClient(t)
	succeeded := func(t *testing.T) string {
		t.Helper()
		return c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "payment_method": "card",
			"payment_method_data": card("4242424242424242")})).must(t, 200).str("payment_id")
	}
	id := succeeded(t)
	r := c.pay("POST", "/payments/"+id+"/cancel_post_capture", map[string]any{"cancellation_reason": "duplicate order"}).must(t, 200)
	if r.str("status") != "cancelled_post_capture" || r.str("cancellation_reason") != "duplicate order" {
		t.Fatalf("cancelled post capture: %s", r.Raw)
	}
	if got := c.pay("GET", "/payments/"+id+"/cancel_post_capture", nil).must(t, 200); got.str("status") != "cancelled_post_capture" {
		t.Fatalf("GET: %s", got.Raw)
	}
	if got := eventsOf(t, c, id); !slices.Contains(got, "payment_cancelled_post_capture") {
		t.Fatalf("events %v", got)
	}
	// No refund afterwards.
	if ref := c.do("POST", "/refunds", c.merchantKey(), map[string]any{"payment_id": id}); ref.Status != 400 {
		t.Fatalf("refund after the void: %s", ref.Raw)
	}

	for _, tc := range []struct {
		name  string
		setup func(t *testing.T) string
		code  string
	}{
		{"requires_capture", func(t *testing.T) string { return incrementablePayment(t, c, "4242424242424242", nil) }, "IR_14"},
		{"already cancelled post capture", func(t *testing.T) string { return id }, "IR_14"},
		{"refunded", func(t *testing.T) string {
			p := succeeded(t)
			c.do("POST", "/refunds", c.merchantKey(), map[string]any{"payment_id": p, "amount": 100}).must(t, 200)
			return p
		}, "IR_16"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.setup(t)
			if r := c.pay("POST", "/payments/"+p+"/cancel_post_capture", nil); r.Status != 400 || r.errCode() != tc.code {
				t.Fatalf("got %d %s, want 400 %s", r.Status, r.Raw, tc.code)
			}
		})
	}
}

func TestUpdateMetadata(t *testing.T) {
	c := newClient(t)
	id := incrementablePayment(t, c, "4242424242424242", map[string]any{"metadata": map[string]any{"order": "A1", "note": "x"}})
	r := c.do("POST", "/payments/"+id+"/update_metadata", c.merchantKey(), map[string]any{"metadata": map[string]any{"note": "y", "gift": true}}).must(t, 200)
	md, _ := r.obj()["metadata"].(map[string]any)
	if r.str("payment_id") != id || r.str("status") != "requires_capture" || md["order"] != "A1" || md["note"] != "y" || md["gift"] != true {
		t.Fatalf("merged metadata: %s", r.Raw)
	}
	if got := c.pay("GET", "/payments/"+id, nil).must(t, 200); got.obj()["metadata"].(map[string]any)["gift"] != true {
		t.Fatalf("stored metadata: %s", got.Raw)
	}
	// A payment waiting on its customer (a 3-D Secure challenge) takes it too.
	challenged := c.do("POST", "/payments", c.merchantKey(), payment(map[string]any{"confirm": true, "payment_method": "card",
		"payment_method_data": card("4000000000003063"), "authentication_type": "three_ds"})).must(t, 200)
	if challenged.str("status") != "requires_customer_action" {
		t.Fatalf("the challenge card: %s", challenged.Raw)
	}
	r = c.do("POST", "/payments/"+challenged.str("payment_id")+"/update_metadata", c.merchantKey(),
		map[string]any{"metadata": map[string]any{"step": "3ds"}}).must(t, 200)
	if r.str("status") != "requires_customer_action" || r.obj()["metadata"].(map[string]any)["step"] != "3ds" {
		t.Fatalf("metadata while the customer authenticates: %s", r.Raw)
	}
	fresh := c.pay("POST", "/payments", payment(nil)).must(t, 200).str("payment_id")
	for _, tc := range []struct {
		name, id string
		body     map[string]any
		code     string
	}{
		{"requires_payment_method", fresh, map[string]any{"metadata": map[string]any{"a": 1}}, "IR_14"},
		{"metadata missing", id, map[string]any{}, "IR_04"},
		{"unknown member", id, map[string]any{"metadata": map[string]any{}, "amount": 5}, "IR_06"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if r := c.do("POST", "/payments/"+tc.id+"/update_metadata", c.merchantKey(), tc.body); r.Status != 400 || r.errCode() != tc.code {
				t.Fatalf("got %d %s, want 400 %s", r.Status, r.Raw, tc.code)
			}
		})
	}
}

// TestEligibility: the SDK's question before confirm, with the
// publishable key and the client secret, on both routes.
func TestEligibility(t *testing.T) {
	c := newClient(t)
	pk := c.srv.Demo.PublishableKey
	created := c.pay("POST", "/payments", payment(nil)).must(t, 200)
	id, secret := created.str("payment_id"), created.str("client_secret")
	for _, path := range []string{"/eligibility", "/eligibility_check"} {
		ok := c.do("POST", "/payments/"+id+path, pk, map[string]any{"client_secret": secret, "payment_method_type": "card",
			"payment_method_subtype": "credit", "payment_token": "token_x"}).must(t, 200)
		if ok.str("payment_id") != id || ok.str("sdk_next_action", "next_action") != "confirm" {
			t.Fatalf("%s card: %s", path, ok.Raw)
		}
		deny := c.do("POST", "/payments/"+id+path, pk, map[string]any{"client_secret": secret, "payment_method_type": "crypto",
			"payment_token": "token_x"}).must(t, 200)
		na, _ := deny.obj()["sdk_next_action"].(map[string]any)
		if d, _ := na["next_action"].(map[string]any)["deny"].(map[string]any); d["message"] == nil || na["should_block_confirm"] != true {
			t.Fatalf("%s crypto: %s", path, deny.Raw)
		}
		if wrong := c.do("POST", "/payments/"+id+path, pk, map[string]any{"client_secret": id + "_secret_wrong",
			"payment_method_type": "card", "payment_token": "token_x"}); wrong.Status/100 != 4 {
			t.Fatalf("%s wrong secret: %s", path, wrong.Raw)
		}
	}
}

func TestPostSessionTokens(t *testing.T) {
	c := newClient(t)
	pk := c.srv.Demo.PublishableKey
	created := c.pay("POST", "/payments", payment(nil)).must(t, 200)
	id, secret := created.str("payment_id"), created.str("client_secret")
	r := c.do("POST", "/payments/"+id+"/post_session_tokens", pk, map[string]any{"client_secret": secret,
		"payment_method": "wallet", "payment_method_type": "paypal"}).must(t, 200)
	na, _ := r.obj()["next_action"].(map[string]any)
	data, _ := na["next_action_data"].(map[string]any)
	if r.str("status") != "requires_payment_method" || na["type"] != "invoke_sdk_client" || data["order_id"] == nil || data["next_action"] != "confirm" {
		t.Fatalf("post session tokens: %s", r.Raw)
	}
	if again := c.do("POST", "/payments/"+id+"/post_session_tokens", pk, map[string]any{"client_secret": secret,
		"payment_method": "wallet", "payment_method_type": "paypal"}).must(t, 200); string(again.Raw) != string(r.Raw) {
		t.Fatalf("asked again: %s", again.Raw)
	}
	if card := c.do("POST", "/payments/"+id+"/post_session_tokens", pk, map[string]any{"client_secret": secret,
		"payment_method": "card", "payment_method_type": "credit"}); card.Status != 400 || card.errCode() != "IR_20" {
		t.Fatalf("card: %s", card.Raw)
	}
}

// strandIncrement puts an approved increment back to the moment it was
// recorded and sent: processing, the payment and its attempt at the amount
// before it, aged past the recovery window. With forget, the connector
// never received it.
func strandIncrement(t *testing.T, c *client, paymentID string, forget bool) {
	t.Helper()
	ctx, db := systemDB(c)
	pi := intentOf(t, c, paymentID)
	inc, err := db.IncrementalAuthorization.Query().Where(incrementalauthorization.PaymentIntentID(pi.ID)).Only(ctx)
	if err != nil {
		t.Fatal(err)
	}
	back := inc.PreviouslyAuthorizedAmount
	if err := db.IncrementalAuthorization.UpdateOneID(inc.ID).SetStatus(incrementalauthorization.StatusProcessing).
		ClearConnectorAuthorizationID().SetModifiedAt(aged).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if err := db.PaymentIntent.UpdateOneID(pi.ID).SetAmount(back).SetAmountCapturable(back).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if err := db.PaymentAttempt.UpdateOneID(inc.AttemptID).SetAmount(back).SetNetAmount(back).SetAmountCapturable(back).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if forget {
		if err := c.srv.Redis.Client.Del(context.Background(), "simledger:{"+inc.ID+"}").Err(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRecoveryOfAnIncrement: an increment a crash left processing is
// settled by the recovery pass with the connector's answer; one the
// connector never saw fails and changes nothing.
func TestRecoveryOfAnIncrement(t *testing.T) {
	c := newClient(t)
	for _, tc := range []struct {
		name           string
		forget         bool
		status         string
		amount, capble int64
	}{
		{"the connector approved it", false, "success", 14000, 14000},
		{"the connector never saw it", true, "failure", 10000, 10000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := incrementablePayment(t, c, "4242424242424242", nil)
			c.pay("POST", "/payments/"+id+"/incremental_authorization", map[string]any{"amount": 14000}).must(t, 200)
			strandIncrement(t, c, id, tc.forget)
			// A stranded increment holds the payment: another is refused.
			if r := c.pay("POST", "/payments/"+id+"/incremental_authorization", map[string]any{"amount": 16000}); r.Status != 400 || r.errCode() != "IR_14" {
				t.Fatalf("increment beside a processing one: %s", r.Raw)
			}
			recoverNow(t, c, 1)
			r := c.pay("GET", "/payments/"+id, nil).must(t, 200)
			incs := r.list("incremental_authorizations")
			if len(incs) != 1 || incs[0]["status"] != tc.status || r.num("amount") != tc.amount || r.num("amount_capturable") != tc.capble {
				t.Fatalf("after recovery: %s", r.Raw)
			}
		})
	}
}

// TestRefundBesideACancelOfWhatIsLeft: a cancel of a partly captured
// payment on its way (its attempt void_initiated, the payment still
// partially_captured_and_capturable) voids only what was not captured:
// what was captured is refunded meanwhile. (The payment model found this:
// such a refund was refused as if a void after capture were on its way.)
func TestRefundBesideACancelOfWhatIsLeft(t *testing.T) {
	c := newClient(t)
	id := c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "payment_method": "card",
		"capture_method": "manual_multiple", "payment_method_data": card("4242424242424242")})).must(t, 200).str("payment_id")
	c.pay("POST", "/payments/"+id+"/capture", map[string]any{"amount_to_capture": 4000}).must(t, 200)
	pi := intentOf(t, c, id)
	if pi.Status != paymentintent.StatusPartiallyCapturedAndCapturable {
		t.Fatalf("after a partial capture the payment is %s", pi.Status)
	}
	// The moment the cancel was recorded and sent.
	ctx, db := systemDB(c)
	if err := db.PaymentAttempt.UpdateOneID(*pi.ActiveAttemptID).SetStatus(paymentattempt.StatusVoidInitiated).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	r := c.do("POST", "/refunds", c.merchantKey(), map[string]any{"payment_id": id, "amount": 4000}).must(t, 200)
	if r.str("status") != "succeeded" || r.num("amount") != 4000 {
		t.Fatalf("refund beside the cancel: %s", r.Raw)
	}
	if r := c.do("POST", "/refunds", c.merchantKey(), map[string]any{"payment_id": id, "amount": 1}); r.Status != 400 || r.errCode() != "IR_13" {
		t.Fatalf("a refund beyond what was captured: %s", r.Raw)
	}
}

// TestRecoveryOfAVoidAfterCapture: a void after capture a crash left
// void_initiated refuses refunds, and the recovery pass settles it with
// the connector's answer: cancelled_post_capture, with its event.
func TestRecoveryOfAVoidAfterCapture(t *testing.T) {
	c := newClient(t)
	id := c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "payment_method": "card",
		"payment_method_data": card("4242424242424242")})).must(t, 200).str("payment_id")
	c.pay("POST", "/payments/"+id+"/cancel_post_capture", nil).must(t, 200)
	// Back to the moment the void was recorded and sent.
	ctx, db := systemDB(c)
	pi := intentOf(t, c, id)
	if err := db.PaymentAttempt.UpdateOneID(*pi.ActiveAttemptID).SetStatus(paymentattempt.StatusVoidInitiated).
		SetModifiedAt(aged).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if err := db.PaymentIntent.UpdateOneID(pi.ID).SetStatus(paymentintent.StatusSucceeded).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	dropEvents(t, c, pi)
	if r := c.do("POST", "/refunds", c.merchantKey(), map[string]any{"payment_id": id}); r.Status != 400 || r.errCode() != "IR_14" {
		t.Fatalf("refund beside the void: %s", r.Raw)
	}
	recoverNow(t, c, 1)
	if r := c.pay("GET", "/payments/"+id, nil).must(t, 200); r.str("status") != "cancelled_post_capture" {
		t.Fatalf("after recovery: %s", r.Raw)
	}
	if got := eventsOf(t, c, id); !slices.Contains(got, "payment_cancelled_post_capture") {
		t.Fatalf("events %v", got)
	}
}
