package payments

import (
	"slices"
	"strings"
	"testing"
	"time"

	"switchyard/ent"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentintent"
	"switchyard/payments/customer"
	"switchyard/payments/routing"
)

// The rules of a confirm, without a database: which statuses take one and
// when a failed payment may be tried again, the client secret, what a
// publishable key may send, the routing hint of a refusal, and what the
// confirm writes on the payment and its new attempt.

// TestConfirmByStatus: a payment waiting for its payment method or its
// confirm takes one; a failed one is a manual retry for its profile and
// last attempt to decide; every other status refuses it.
func TestConfirmByStatus(t *testing.T) {
	for _, s := range intentStatuses {
		retry, err := confirmByStatus(s)
		wantRetry, want := false, error(ErrUnexpectedState("confirmed", s, confirmableStates))
		switch s {
		case paymentintent.StatusRequiresPaymentMethod, paymentintent.StatusRequiresConfirmation:
			want = nil
		case paymentintent.StatusFailed:
			wantRetry, want = true, nil
		}
		if !sameError(err, want) || retry != wantRetry {
			t.Errorf("confirm of a payment %s: manual retry %v, %v; want %v, %v", s, retry, err, wantRetry, want)
		}
	}
}

// TestManualRetryWindow: a failed payment may be confirmed again when its
// profile enables it, until half its client secret's lifetime has passed,
// counted in whole seconds.
func TestManualRetryWindow(t *testing.T) {
	created := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	cur := &ent.PaymentIntent{Status: paymentintent.StatusFailed, CreatedAt: created, ExpiresOn: created.Add(900 * time.Second)}
	on, off := true, false
	for _, tc := range []struct {
		name    string
		enabled *bool
		after   time.Duration
		want    string
	}{
		{"the profile says nothing", nil, 0, "precondition_failed"},
		{"the profile disables it", &off, 0, "precondition_failed"},
		{"at once", &on, 0, ""},
		{"at the cutoff", &on, 450 * time.Second, ""},
		{"within the cutoff's second", &on, 450*time.Second + 999*time.Millisecond, ""},
		{"a second past the cutoff", &on, 451 * time.Second, "precondition_failed"},
		{"disabled, past the cutoff", &off, time.Hour, "precondition_failed"},
	} {
		checkRefusal(t, tc.name, manualRetryWindow(cur, tc.enabled, created.Add(tc.after)), tc.want)
	}
	// Which refusal: the profile's is named before the window's.
	if err := manualRetryWindow(cur, &off, created.Add(time.Hour)); !strings.Contains(err.Error(), "enable `manual_retry`") {
		t.Errorf("disabled and past the cutoff: %v", err)
	}
}

// TestManualRetryAfter: a retry follows an attempt that failed at the
// connector, never one the router declined or a failed capture or void.
func TestManualRetryAfter(t *testing.T) {
	cur := &ent.PaymentIntent{ID: "pay_1", Status: paymentintent.StatusFailed}
	for _, tc := range []struct {
		name string
		last *ent.PaymentAttempt
		want string
	}{
		{"declined by the connector", &ent.PaymentAttempt{Status: paymentattempt.StatusFailure}, ""},
		{"authorization failed", &ent.PaymentAttempt{Status: paymentattempt.StatusAuthorizationFailed}, ""},
		{"authentication failed", &ent.PaymentAttempt{Status: paymentattempt.StatusAuthenticationFailed}, ""},
		{"declined by the router", &ent.PaymentAttempt{Status: paymentattempt.StatusRouterDeclined}, "precondition_failed"},
		{"capture failed", &ent.PaymentAttempt{Status: paymentattempt.StatusCaptureFailed}, "precondition_failed"},
		{"void failed", &ent.PaymentAttempt{Status: paymentattempt.StatusVoidFailed}, "precondition_failed"},
		{"no attempt: a broken payment", nil, "internal"},
	} {
		checkRefusal(t, tc.name, manualRetryAfter(cur, tc.last), tc.want)
	}
}

func TestClientSecretRefusal(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	secret := "pay_1_secret_abc"
	for _, tc := range []struct {
		name      string
		given     *string
		expiresOn time.Time
		message   string // "" when the secret is accepted
	}{
		{"the payment's secret", &secret, now.Add(time.Second), ""},
		{"none given", nil, now.Add(time.Second), "client_secret was not provided"},
		{"empty", str(""), now.Add(time.Second), "client_secret was not provided"},
		{"another payment's", str("pay_2_secret_abc"), now.Add(time.Second), "does not match"},
		{"a prefix of it", str("pay_1_secret_ab"), now.Add(time.Second), "does not match"},
		{"expired this instant", &secret, now, "has expired"},
		{"expired earlier", &secret, now.Add(-time.Hour), "has expired"},
		{"a wrong one, expired: the mismatch is told", str("pay_2_secret_abc"), now.Add(-time.Hour), "does not match"},
	} {
		err := clientSecretRefusal(tc.given, secret, tc.expiresOn, now)
		if (err == nil) != (tc.message == "") || err != nil && !strings.Contains(err.Error(), tc.message) {
			t.Errorf("%s: %v, want it to say %q", tc.name, err, tc.message)
		}
	}
}

// TestHoldClientMembers: a publishable key may echo the payment's own
// customer, payment type and surcharge, which are then dropped, and change
// none of them.
func TestHoldClientMembers(t *testing.T) {
	payer := &ent.Customer{CustomerID: "cus_1"}
	cur := &ent.PaymentIntent{PaymentType: "normal", SurchargeAmount: i64(50), TaxOnSurcharge: i64(5)}
	plain := &ent.PaymentIntent{PaymentType: "normal"}
	for _, tc := range []struct {
		name  string
		cur   *ent.PaymentIntent
		payer *ent.Customer
		f     PaymentFields
		want  string
	}{
		{name: "nothing held", cur: cur, payer: payer},
		{name: "the payment's own customer echoed", cur: cur, payer: payer, f: PaymentFields{Customer: &customer.CustomerInput{Named: true, ID: "cus_1"}}},
		{name: "another customer", cur: cur, payer: payer, f: PaymentFields{Customer: &customer.CustomerInput{Named: true, ID: "cus_2"}}, want: "forbidden customer_id"},
		{name: "a customer for a guest payment", cur: cur, f: PaymentFields{Customer: &customer.CustomerInput{Named: true, ID: "cus_1"}}, want: "forbidden customer_id"},
		{name: "the own customer with new details", cur: cur, payer: payer, f: PaymentFields{Customer: &customer.CustomerInput{Named: true, ID: "cus_1", Name: str("Eve")}}, want: "forbidden customer_id"},
		{name: "details without a customer", cur: cur, payer: payer, f: PaymentFields{Customer: &customer.CustomerInput{Email: str("e@example.com")}}, want: "forbidden customer"},
		{name: "the payment type echoed", cur: cur, payer: payer, f: PaymentFields{PaymentType: str("normal")}},
		{name: "another payment type", cur: cur, payer: payer, f: PaymentFields{PaymentType: str("new_mandate")}, want: "forbidden payment_type"},
		{name: "the surcharge echoed", cur: cur, payer: payer, f: PaymentFields{SurchargeAmount: i64(50), TaxOnSurcharge: i64(5)}},
		{name: "another surcharge", cur: cur, payer: payer, f: PaymentFields{SurchargeAmount: i64(40), TaxOnSurcharge: i64(5)}, want: "invalid_request_data surcharge_details"},
		{name: "the surcharge without its tax", cur: cur, payer: payer, f: PaymentFields{SurchargeAmount: i64(50)}, want: "invalid_request_data surcharge_details"},
		{name: "a surcharge of nothing on a payment without one", cur: plain, f: PaymentFields{SurchargeAmount: i64(0)}},
		{name: "a surcharge on a payment without one", cur: plain, f: PaymentFields{SurchargeAmount: i64(1)}, want: "invalid_request_data surcharge_details"},
		{name: "the other members pass", cur: cur, payer: payer, f: PaymentFields{Description: str("gift"), Metadata: map[string]any{"k": "v"}}},
	} {
		f := tc.f
		err := holdClientMembers(tc.cur, tc.payer, &f)
		checkRefusal(t, tc.name, err, tc.want)
		if err == nil && (f.Customer != nil || f.PaymentType != nil || f.SurchargeAmount != nil || f.TaxOnSurcharge != nil) {
			t.Errorf("%s: an echo was kept: %+v", tc.name, f)
		}
		if err == nil && tc.f.Description != nil && f.Description == nil {
			t.Errorf("%s: a member the key may send was dropped", tc.name)
		}
	}
}

// TestConfirmInputCheck: the members of a confirm are checked against the
// payment, and held to it for a publishable key only.
func TestConfirmInputCheck(t *testing.T) {
	cur := &ent.PaymentIntent{Amount: 1000, PaymentType: "setup_mandate"}
	for _, tc := range []struct {
		name   string
		in     ConfirmInput
		client bool
		want   string
	}{
		{name: "nothing given", in: ConfirmInput{}},
		{name: "a secret key changes the payment type", in: ConfirmInput{PaymentFields: PaymentFields{PaymentType: str("normal")}}},
		{name: "a publishable key may not", in: ConfirmInput{PaymentFields: PaymentFields{PaymentType: str("normal")}}, client: true, want: "forbidden payment_type"},
		{name: "the members are checked", in: ConfirmInput{PaymentFields: PaymentFields{CaptureMethod: str("later")}}, want: "invalid_value capture_method"},
		{name: "amount_to_capture against the payment's amount", in: ConfirmInput{PaymentFields: PaymentFields{AmountToCapture: i64(1001)}}, want: "invalid_value amount_to_capture"},
		{name: "the payment method is checked", in: ConfirmInput{PaymentFields: PaymentFields{PaymentMethod: &customer.PaymentMethodInput{Type: "card"}}},
			want: "missing_field payment_method_data.card"},
		{name: "a mandate with a payment method", in: ConfirmInput{PaymentFields: PaymentFields{MandateID: str("man_1"),
			PaymentMethod: &customer.PaymentMethodInput{Type: "wallet", Subtype: "apple_pay"}}}, want: "invalid_value payment_method_data"},
		{name: "a mandate charged at confirm", in: ConfirmInput{PaymentFields: PaymentFields{MandateID: str("man_1"), OffSession: new(bool)}},
			want: "precondition_failed off_session"},
	} {
		checkRefusal(t, tc.name, tc.in.check(cur, nil, tc.client), tc.want)
	}
}

func TestRoutingHint(t *testing.T) {
	mca := "mca_1"
	for _, tc := range []struct {
		name  string
		names []string
		mcaID *string
		want  string
	}{
		{"nothing named", nil, nil, ""},
		{"an account named", nil, &mca, " with merchant_connector_id mca_1"},
		{"the account wins over names", []string{"stripe"}, &mca, " with merchant_connector_id mca_1"},
		{"one connector", []string{"stripe"}, nil, " named stripe"},
		{"two connectors", []string{"stripe", "adyen"}, nil, " named stripe or adyen"},
		{"three connectors", []string{"stripe", "adyen", "checkout"}, nil, " named stripe, adyen or checkout"},
	} {
		if got := routingHint(tc.names, tc.mcaID); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestMarkProcessing is what a confirm writes on the payment before the
// connector call.
func TestMarkProcessing(t *testing.T) {
	mca := &ent.MerchantConnectorAccount{ID: "mca_1", ConnectorName: "stripe"}
	for _, tc := range []struct {
		name    string
		method  customer.PaymentMethodInput
		subtype string
		network string
	}{
		{name: "a card, its network from its number", method: customer.PaymentMethodInput{Type: "card", Subtype: "credit",
			Card: &customer.CardInput{Number: "4242424242424242"}}, subtype: "credit", network: "Visa"},
		{name: "a card's network given", method: customer.PaymentMethodInput{Type: "card",
			Card: &customer.CardInput{Number: "4242424242424242", Network: str("CartesBancaires")}}, network: "CartesBancaires"},
		{name: "a wallet", method: customer.PaymentMethodInput{Type: "wallet", Subtype: "apple_pay"}, subtype: "apple_pay"},
	} {
		m := ent.NewClient().PaymentIntent.Update().Mutation()
		markProcessing(m, "att_1", mca, &tc.method)
		status, _ := m.Status()
		active, _ := m.ActiveAttemptID()
		conn, _ := m.Connector()
		account, _ := m.MerchantConnectorID()
		pm, _ := m.PaymentMethod()
		if status != paymentintent.StatusProcessing || active != "att_1" || conn != "stripe" || account != "mca_1" || pm != tc.method.Type {
			t.Errorf("%s: %s %s %s %s %s", tc.name, status, active, conn, account, pm)
		}
		subtype, _ := m.PaymentMethodType()
		network, _ := m.CardNetwork()
		if subtype != tc.subtype || network != tc.network {
			t.Errorf("%s: subtype %q network %q, want %q %q", tc.name, subtype, network, tc.subtype, tc.network)
		}
	}
}

// TestAttemptMethodOf is which saved payment method an attempt refers to.
func TestAttemptMethodOf(t *testing.T) {
	cus := "cus_row"
	usage := paymentintent.SetupFutureUsageOffSession
	card := &customer.CardInput{Number: "4242424242424242"}
	for _, tc := range []struct {
		name string
		pi   ent.PaymentIntent
		m    customer.PaymentMethodInput
		want attemptMethod
	}{
		{"a new card, nothing kept", ent.PaymentIntent{}, customer.PaymentMethodInput{Type: "card", Card: card}, methodNone},
		{"a mandate charged", ent.PaymentIntent{MandateData: map[string]any{}}, customer.PaymentMethodInput{Type: "card",
			Mandate: &ent.Mandate{}, Saved: &ent.PaymentMethod{}}, methodOfMandate},
		{"a saved card", ent.PaymentIntent{CustomerID: &cus, SetupFutureUsage: &usage}, customer.PaymentMethodInput{Type: "card",
			Saved: &ent.PaymentMethod{}}, methodSaved},
		{"a mandate set up", ent.PaymentIntent{CustomerID: &cus, MandateData: map[string]any{}}, customer.PaymentMethodInput{Type: "card", Card: card}, methodForMandate},
		{"a card kept for the customer", ent.PaymentIntent{CustomerID: &cus, SetupFutureUsage: &usage}, customer.PaymentMethodInput{Type: "card", Card: card}, methodToKeep},
		{"a card kept without a customer: nothing", ent.PaymentIntent{SetupFutureUsage: &usage}, customer.PaymentMethodInput{Type: "card", Card: card}, methodNone},
		{"a wallet kept: no card, nothing", ent.PaymentIntent{CustomerID: &cus, SetupFutureUsage: &usage}, customer.PaymentMethodInput{Type: "wallet"}, methodNone},
	} {
		if got := attemptMethodOf(&tc.pi, &tc.m); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestWriteAttempt is what a new attempt records of its payment, route and
// payment method.
func TestWriteAttempt(t *testing.T) {
	pi := &ent.PaymentIntent{ID: "pay_row", Amount: 1000, ShippingCost: i64(100), OrderTaxAmount: i64(20), Currency: "USD",
		CaptureMethod: paymentintent.CaptureMethodManual}
	d := &routing.Decision{Approach: routing.StraightThrough, Candidates: []*ent.MerchantConnectorAccount{
		{ID: "mca_1", ConnectorName: "stripe"}, {ID: "mca_2", ConnectorName: "adyen"}}}
	c := ent.NewClient().PaymentAttempt.Create()
	writeAttempt(c, pi, "att_1", d, &customer.PaymentMethodInput{Type: "card", Subtype: "credit"}, methodNone)
	m := c.Mutation()
	status, _ := m.Status()
	amount, _ := m.Amount()
	net, _ := m.NetAmount()
	conn, _ := m.Connector()
	candidates, _ := m.RoutingCandidates()
	_, kind := m.RoutingKind()
	_, pmID := m.PaymentMethodID()
	if status != paymentattempt.StatusPending || amount != 1000 || net != 1120 || conn != "stripe" ||
		!slices.Equal(candidates, []string{"mca_1", "mca_2"}) || kind || pmID {
		t.Errorf("attempt: %s %d %d %s %v routing kind %v payment method %v", status, amount, net, conn, candidates, kind, pmID)
	}

	c = ent.NewClient().PaymentAttempt.Create()
	saved := &ent.PaymentMethod{ID: "pm_1"}
	writeAttempt(c, pi, "att_2", d, &customer.PaymentMethodInput{Type: "card", Saved: saved, ConnectorMandateID: "tok",
		Mandate: &ent.Mandate{ID: "man_1"}}, methodOfMandate)
	mandate, _ := c.Mutation().MandateID()
	token, _ := c.Mutation().PaymentToken()
	pm, _ := c.Mutation().PaymentMethodID()
	if mandate != "man_1" || token != "tok" || pm != "pm_1" {
		t.Errorf("a mandate's attempt: mandate %q token %q payment method %q", mandate, token, pm)
	}
}
