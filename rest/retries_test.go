package rest_test

import (
	"context"
	"testing"
	"time"

	"switchyard/internal/ids"
	"switchyard/internal/tenancy"
)

// retryMerchant is a routed merchant (stripe_test then adyen, and a third
// account when asked) whose default profile retries automatically.
type retryMerchant struct {
	routedMerchant
	id, checkoutID string
}

func newRetryMerchant(t *testing.T, c *client, id string, retries int, third bool) retryMerchant {
	t.Helper()
	m := retryMerchant{routedMerchant: newRoutedMerchant(t, c, id), id: id}
	if third {
		m.checkoutID = c.do("POST", "/account/"+id+"/connectors", m.key, map[string]any{
			"connector_type": "payment_processor", "connector_name": "checkout",
			"connector_account_details": map[string]any{"auth_type": "HeaderKey", "api_key": "sk_test_" + id + "_checkout"},
		}).must(t, 200).str("merchant_connector_id")
	}
	m.setRetries(t, c, retries > 0, retries)
	return m
}

func (m retryMerchant) setRetries(t *testing.T, c *client, enabled bool, max int) {
	t.Helper()
	c.do("POST", "/account/"+m.id+"/business_profile/"+m.profileID, m.key, map[string]any{
		"is_auto_retries_enabled": enabled, "max_auto_retries_enabled": max}).must(t, 200)
}

// sandbox sets an account's sandbox failure knobs.
func (m retryMerchant) sandbox(t *testing.T, c *client, mcaID string, knobs map[string]any) {
	t.Helper()
	c.do("POST", "/account/"+m.id+"/connectors/"+mcaID, m.key, map[string]any{
		"connector_type": "payment_processor", "metadata": map[string]any{"sandbox": knobs}}).must(t, 200)
}

func (m retryMerchant) pay(t *testing.T, c *client, number string) response {
	t.Helper()
	r := c.do("POST", "/payments", m.key, payment(map[string]any{"confirm": true, "payment_method": "card",
		"payment_method_data": card(number)})).must(t, 200)
	checkMoney(t, r)
	return r
}

// attemptsOf are a payment's attempts as (connector, status, error_code),
// in the order they were made.
func attemptsOf(r response) [][3]string {
	var out [][3]string
	for _, a := range r.list("attempts") {
		code, _ := a["error_code"].(string)
		out = append(out, [3]string{a["connector"].(string), a["status"].(string), code})
	}
	return out
}

func (m retryMerchant) rule(t *testing.T, c *client, connector, code, message, decision string) {
	t.Helper()
	c.do("POST", "/gsm", m.key, map[string]any{"connector": connector, "flow": "Authorize", "sub_flow": "sub_flow",
		"code": code, "message": message, "status": "failure", "decision": decision, "step_up_possible": false,
		"clear_pan_possible": false, "unified_code": "UE_9000", "unified_message": "Try another card network"}).must(t, 200)
}

// sandboxFailureMessage is the message the sandbox's failure_rate gives.
func sandboxFailureMessage(t *testing.T, c *client, m retryMerchant) string {
	t.Helper()
	m.sandbox(t, c, m.stripeID, map[string]any{"failure_rate": 1})
	m.setRetries(t, c, false, 0)
	r := m.pay(t, c, "4242424242424242")
	if r.str("status") != "failed" || r.str("error_code") != "processing_error" {
		t.Fatalf("failure_rate 1: %s", r.Raw)
	}
	return r.str("error_message")
}

// TestAutomaticRetries: with automatic retries on, an outage on the first
// connector of the route is retried on the next and succeeds there, two
// attempts recorded in order; a soft decline is retried only when the
// merchant's GSM rule says retry; a hard decline never is; the profile's
// budget bounds the tries; and a timeout (outcome unknown) is never
// retried elsewhere.
func TestAutomaticRetries(t *testing.T) {
	c := newClient(t)

	t.Run("outage falls back to the next connector", func(t *testing.T) {
		m := newRetryMerchant(t, c, "merchant_retry_outage", 1, false)
		m.sandbox(t, c, m.stripeID, map[string]any{"outage": true})
		r := m.pay(t, c, "4242424242424242")
		got := attemptsOf(r)
		if r.str("status") != "succeeded" || r.str("connector") != "adyen" || r.str("merchant_connector_id") != m.adyenID || len(got) != 2 ||
			got[0] != [3]string{"stripe_test", "failure", "service_unavailable"} || got[1] != [3]string{"adyen", "charged", ""} {
			t.Fatalf("want a failed attempt on stripe_test then a charge on adyen: %v\n%s", got, r.Raw)
		}
		if r.received() != 10000 || len(r.list("captures")) != 1 {
			t.Fatalf("charged once: %s", r.Raw)
		}
		// Retries off: the outage fails the payment, one attempt.
		m.setRetries(t, c, false, 0)
		r = m.pay(t, c, "4242424242424242")
		if got := attemptsOf(r); r.str("status") != "failed" || len(got) != 1 || r.str("error_code") != "service_unavailable" {
			t.Fatalf("without retries: %v %s", got, r.Raw)
		}
	})

	t.Run("a soft decline follows the merchant's rule", func(t *testing.T) {
		m := newRetryMerchant(t, c, "merchant_retry_rules", 1, false)
		message := sandboxFailureMessage(t, c, m)
		m.setRetries(t, c, true, 1)
		// No rule: not retried.
		if got := attemptsOf(m.pay(t, c, "4242424242424242")); len(got) != 1 {
			t.Fatalf("no rule, no retry: %v", got)
		}
		m.rule(t, c, "stripe_test", "processing_error", message, "retry")
		r := m.pay(t, c, "4242424242424242")
		got := attemptsOf(r)
		if r.str("status") != "succeeded" || len(got) != 2 || got[0][2] != "processing_error" || got[1][0] != "adyen" {
			t.Fatalf("a retry rule: %v %s", got, r.Raw)
		}
		if a := r.list("attempts")[0]; a["unified_code"] != "UE_9000" || a["unified_message"] != "Try another card network" {
			t.Fatalf("the rule's unified code on the failed attempt: %v", a)
		}
		c.do("POST", "/gsm/update", m.key, map[string]any{"connector": "stripe_test", "flow": "Authorize", "sub_flow": "sub_flow",
			"code": "processing_error", "message": message, "decision": "do_default"}).must(t, 200)
		if got := attemptsOf(m.pay(t, c, "4242424242424242")); len(got) != 1 {
			t.Fatalf("do_default: %v", got)
		}
	})

	t.Run("a rule with step-up retries the same connector with 3-D Secure first", func(t *testing.T) {
		m := newRetryMerchant(t, c, "merchant_retry_step_up", 1, false)
		message := sandboxFailureMessage(t, c, m)
		m.setRetries(t, c, true, 2)
		c.do("POST", "/gsm", m.key, map[string]any{"connector": "stripe_test", "flow": "Authorize", "sub_flow": "sub_flow",
			"code": "processing_error", "message": message, "status": "failure", "decision": "retry",
			"step_up_possible": true, "clear_pan_possible": false}).must(t, 200)
		r := m.pay(t, c, "4242424242424242")
		got := attemptsOf(r)
		auth := func(i int) any { return r.list("attempts")[i]["authentication_type"] }
		if r.str("status") != "succeeded" || len(got) != 3 || got[0][0] != "stripe_test" || auth(0) != nil ||
			got[1][0] != "stripe_test" || auth(1) != "three_ds" || got[2] != [3]string{"adyen", "charged", ""} {
			t.Fatalf("step-up, then the next connector: %v %s", got, r.Raw)
		}
	})

	t.Run("a hard decline is never retried", func(t *testing.T) {
		m := newRetryMerchant(t, c, "merchant_retry_hard", 3, false)
		// Even a rule saying retry does not move a stolen card or a
		// do-not-honour to another connector.
		for _, tc := range []struct{ number, code, message string }{
			{"4000000000009979", "card_declined", ""},
			{"4000000000000002", "card_declined", ""},
		} {
			first := m.pay(t, c, tc.number)
			if first.str("status") != "failed" {
				t.Fatalf("%s: %s", tc.number, first.Raw)
			}
			c.do("POST", "/gsm", m.key, map[string]any{"connector": "stripe_test", "flow": "Authorize", "sub_flow": "sub_flow",
				"code": first.str("error_code"), "message": first.str("error_message"), "status": "failure", "decision": "retry",
				"step_up_possible": false, "clear_pan_possible": false})
			r := m.pay(t, c, tc.number)
			if got := attemptsOf(r); r.str("status") != "failed" || len(got) != 1 {
				t.Fatalf("%s with a retry rule: %v %s", tc.number, got, r.Raw)
			}
		}
	})

	t.Run("the budget bounds the tries", func(t *testing.T) {
		m := newRetryMerchant(t, c, "merchant_retry_budget", 1, true)
		for _, id := range []string{m.stripeID, m.adyenID, m.checkoutID} {
			m.sandbox(t, c, id, map[string]any{"outage": true})
		}
		r := m.pay(t, c, "4242424242424242")
		if got := attemptsOf(r); r.str("status") != "failed" || len(got) != 2 || got[0][0] != "stripe_test" || got[1][0] != "adyen" {
			t.Fatalf("one retry: %v %s", got, r.Raw)
		}
		m.setRetries(t, c, true, 5)
		r = m.pay(t, c, "4242424242424242")
		if got := attemptsOf(r); r.str("status") != "failed" || len(got) != 3 || got[2][0] != "checkout" {
			t.Fatalf("the route ends first: %v %s", got, r.Raw)
		}
		m.sandbox(t, c, m.checkoutID, map[string]any{})
		r = m.pay(t, c, "4242424242424242")
		if got := attemptsOf(r); r.str("status") != "succeeded" || len(got) != 3 || got[2] != [3]string{"checkout", "charged", ""} {
			t.Fatalf("the third connector takes it: %v %s", got, r.Raw)
		}
	})

	t.Run("a timeout is not retried elsewhere", func(t *testing.T) {
		m := newRetryMerchant(t, c, "merchant_retry_timeout", 2, false)
		m.sandbox(t, c, m.stripeID, map[string]any{"timeout": true})
		r := m.pay(t, c, "4242424242424242")
		if got := attemptsOf(r); r.str("status") != "processing" || len(got) != 1 {
			t.Fatalf("a timeout: %v %s", got, r.Raw)
		}
	})

	t.Run("a replay returns the retried payment", func(t *testing.T) {
		m := newRetryMerchant(t, c, "merchant_retry_replay", 1, false)
		m.sandbox(t, c, m.stripeID, map[string]any{"outage": true})
		key := "retry-" + ids.Base62(12)
		body := payment(map[string]any{"confirm": true, "payment_method": "card", "payment_method_data": card("4242424242424242")})
		first := c.doWith("POST", "/payments", m.key, body, map[string]string{"Idempotency-Key": key}).must(t, 200)
		again := c.doWith("POST", "/payments", m.key, body, map[string]string{"Idempotency-Key": key}).must(t, 200)
		if first.str("payment_id") != again.str("payment_id") || len(attemptsOf(again)) != 2 || again.str("status") != "succeeded" {
			t.Fatalf("replay: %s\n%s", first.Raw, again.Raw)
		}
		now := c.do("GET", "/payments/"+first.str("payment_id"), m.key, nil).must(t, 200)
		if len(attemptsOf(now)) != 2 {
			t.Fatalf("the replay made an attempt: %s", now.Raw)
		}
	})
}

// TestGSMRules: the /gsm routes create, read, update and delete a
// merchant's rules in Hyperswitch's shapes, refuse what Hyperswitch
// refuses, and keep each merchant's rules to itself.
func TestGSMRules(t *testing.T) {
	c := newClient(t)
	m := newRoutedMerchant(t, c, "merchant_gsm")
	other := newRoutedMerchant(t, c, "merchant_gsm_other")
	key := map[string]any{"connector": "adyen", "flow": "Authorize", "sub_flow": "sub_flow", "code": "14", "message": "Invalid card number"}
	rule := func(extra map[string]any) map[string]any {
		out := map[string]any{"status": "failure", "decision": "retry", "step_up_possible": false, "clear_pan_possible": false}
		for k, v := range key {
			out[k] = v
		}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	created := c.do("POST", "/gsm", m.key, rule(map[string]any{"error_category": "soft_decline", "unified_code": "UE_1000"})).must(t, 200)
	if created.str("decision") != "retry" || created.str("feature") != "retry" || created.str("error_category") != "soft_decline" ||
		created.str("feature_data", "retry", "decision") != "retry" {
		t.Fatalf("created: %s", created.Raw)
	}
	if r := c.do("POST", "/gsm", m.key, rule(nil)); r.Status != 400 || r.errCode() != "IR_38" {
		t.Fatalf("the same rule twice: %d %s", r.Status, r.Raw)
	}
	if r := c.do("POST", "/gsm/get", m.key, key).must(t, 200); r.str("unified_code") != "UE_1000" {
		t.Fatalf("get: %s", r.Raw)
	}
	upd := c.do("POST", "/gsm/update", m.key, map[string]any{"connector": "adyen", "flow": "Authorize", "sub_flow": "sub_flow",
		"code": "14", "message": "Invalid card number", "feature_data": map[string]any{"retry": map[string]any{
			"decision": "do_default", "step_up_possible": true, "clear_pan_possible": false, "alternate_network_possible": true}}}).must(t, 200)
	if upd.str("decision") != "do_default" || upd.obj()["step_up_possible"] != true || upd.str("unified_code") != "UE_1000" {
		t.Fatalf("update: %s", upd.Raw)
	}
	// Another merchant sees none of it, and cannot change it.
	for _, path := range []string{"/gsm/get", "/gsm/update", "/gsm/delete"} {
		if r := c.do("POST", path, other.key, key); r.Status != 404 || r.errCode() != "IR_37" {
			t.Fatalf("%s by another merchant: %d %s", path, r.Status, r.Raw)
		}
	}
	del := c.do("POST", "/gsm/delete", m.key, key).must(t, 200)
	if del.obj()["gsm_rule_delete"] != true || del.str("code") != "14" {
		t.Fatalf("delete: %s", del.Raw)
	}
	if r := c.do("POST", "/gsm/get", m.key, key); r.Status != 404 {
		t.Fatalf("get after delete: %d %s", r.Status, r.Raw)
	}

	without := func(member string) map[string]any {
		out := rule(nil)
		delete(out, member)
		return out
	}
	for _, tc := range []struct {
		name string
		body map[string]any
		code string
	}{
		{"no connector", without("connector"), "IR_04"},
		{"no flow", without("flow"), "IR_04"},
		{"no sub_flow", without("sub_flow"), "IR_04"},
		{"no code", without("code"), "IR_04"},
		{"no message", without("message"), "IR_04"},
		{"no status", without("status"), "IR_04"},
		{"no decision", without("decision"), "IR_04"},
		{"an unknown connector", rule(map[string]any{"connector": "acme_pay"}), "IR_07"},
		{"an unknown decision", rule(map[string]any{"decision": "maybe"}), "IR_07"},
		{"requeue, not in the v1 GsmDecision", rule(map[string]any{"decision": "requeue"}), "IR_07"},
		{"an unknown error category", rule(map[string]any{"error_category": "bad_luck"}), "IR_07"},
		{"an unknown feature", rule(map[string]any{"feature": "refund"}), "IR_07"},
		{"an unknown standardised code", rule(map[string]any{"standardised_code": "bad_luck"}), "IR_07"},
		{"an unknown member", rule(map[string]any{"priority": 1}), "IR_06"},
	} {
		r := c.do("POST", "/gsm", m.key, tc.body)
		if r.Status/100 != 4 || r.errCode() != tc.code {
			t.Errorf("%s: %d %s, want %s", tc.name, r.Status, r.Raw, tc.code)
		}
	}
}

// TestRetryCrashRecovery: a crash between a retry's attempt being recorded
// and its connector answering leaves the payment processing with that
// attempt pending; the recovery pass settles it from what the second
// connector did: charged once if it was called, failed and charged
// nothing if the call never left.
func TestRetryCrashRecovery(t *testing.T) {
	c := newClient(t)
	m := newRetryMerchant(t, c, "merchant_retry_crash", 1, false)
	m.sandbox(t, c, m.stripeID, map[string]any{"outage": true})
	for _, tc := range []struct {
		name   string
		forget bool
		status string
	}{
		{"the second connector was called", false, "succeeded"},
		{"the crash came before the call", true, "failed"},
	} {
		id := m.pay(t, c, "4242424242424242").str("payment_id")
		strand(t, c, id, tc.forget, true)
		if n, err := c.srv.Payments.RecoverStranded(tenancy.System(context.Background()), 2*time.Minute, 100); err != nil || n < 1 {
			t.Fatalf("%s: recovery settled %d (%v)", tc.name, n, err)
		}
		r := c.do("GET", "/payments/"+id, m.key, nil).must(t, 200)
		checkMoney(t, r)
		got := attemptsOf(r)
		if r.str("status") != tc.status || len(got) != 2 || got[0][0] != "stripe_test" || got[1][0] != "adyen" {
			t.Fatalf("%s: %v %s", tc.name, got, r.Raw)
		}
		want := 0
		if tc.status == "succeeded" {
			want = 1
		}
		if len(r.list("captures")) != want {
			t.Fatalf("%s: captures %v", tc.name, r.list("captures"))
		}
	}
}
