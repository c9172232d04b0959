package customer

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"switchyard/ent"
	"switchyard/ent/paymentintent"
	"switchyard/payments/validate"
)

func online() *CustomerAcceptance {
	return &CustomerAcceptance{AcceptanceType: "online", Online: &OnlineAcceptance{UserAgent: "Mozilla/5.0"}}
}

func TestCustomerAcceptanceValidate(t *testing.T) {
	const member = "customer_acceptance"
	for _, tc := range []struct {
		name string
		a    *CustomerAcceptance
		want *refusal
	}{
		{"none", nil, nil},
		{"online", online(), nil},
		{"offline", &CustomerAcceptance{AcceptanceType: "offline"}, nil},
		{"no type", &CustomerAcceptance{}, missing(member + ".acceptance_type")},
		{"unknown type", &CustomerAcceptance{AcceptanceType: "verbal"}, invalid(member+".acceptance_type", `"verbal"`)},
		{"online without online", &CustomerAcceptance{AcceptanceType: "online"},
			precondition(member+".online", "is required when")},
		{"online without user agent", &CustomerAcceptance{AcceptanceType: "online", Online: &OnlineAcceptance{IPAddress: "127.0.0.1"}},
			missing(member + ".online.user_agent")},
		{"offline with online details", &CustomerAcceptance{AcceptanceType: "offline", Online: &OnlineAcceptance{UserAgent: "x"}}, nil},
		{"offline with online details lacking user agent", &CustomerAcceptance{AcceptanceType: "offline", Online: &OnlineAcceptance{}},
			missing(member + ".online.user_agent")},
		{"ip address of 64", &CustomerAcceptance{AcceptanceType: "online",
			Online: &OnlineAcceptance{IPAddress: strings.Repeat("1", 64), UserAgent: "x"}}, nil},
		{"ip address of 65", &CustomerAcceptance{AcceptanceType: "online",
			Online: &OnlineAcceptance{IPAddress: strings.Repeat("1", 65), UserAgent: "x"}}, invalid(member+".online", "ip_address")},
		{"user agent of 1024", &CustomerAcceptance{AcceptanceType: "online",
			Online: &OnlineAcceptance{UserAgent: strings.Repeat("é", 1024)}}, nil},
		{"user agent of 1025", &CustomerAcceptance{AcceptanceType: "online",
			Online: &OnlineAcceptance{UserAgent: strings.Repeat("é", 1025)}}, invalid(member+".online", "user_agent")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkRefusal(t, tc.a.Validate(member), tc.want)
		})
	}
}

func TestCustomerAcceptanceWithAddress(t *testing.T) {
	a := online()
	a.WithAddress("10.0.0.1")
	if a.Online.IPAddress != "10.0.0.1" {
		t.Errorf("missing address not filled: %q", a.Online.IPAddress)
	}
	a.WithAddress("10.0.0.2")
	if a.Online.IPAddress != "10.0.0.1" {
		t.Errorf("given address replaced: %q", a.Online.IPAddress)
	}
	offline := &CustomerAcceptance{AcceptanceType: "offline"}
	offline.WithAddress("10.0.0.1")
	var none *CustomerAcceptance
	none.WithAddress("10.0.0.1")
	if offline.Online != nil {
		t.Error("an offline acceptance was given online details")
	}
}

// TestMandateRequestValidate: every refusal of a mandate request, for
// single_use and multi_use, and its amounts and dates at their limits.
func TestMandateRequestValidate(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	limits := func(amount int64, currency string) *MandateLimits {
		return &MandateLimits{Amount: &amount, Currency: &currency}
	}
	dated := func(from, to time.Time) *MandateLimits {
		l := limits(1000, "USD")
		l.StartDate, l.EndDate = &from, &to
		return l
	}
	for _, kind := range []string{"single_use", "multi_use"} {
		single := kind == "single_use"
		field := "mandate_data.mandate_type." + kind
		noLimits := (*refusal)(nil)
		if single {
			noLimits = missing(field) // single_use names its amount and currency
		}
		for _, tc := range []struct {
			name string
			m    MandateRequest
			want *refusal
		}{
			{"no limits", MandateRequest{}, noLimits},
			{"limits", MandateRequest{Limits: limits(1000, "USD")}, nil},
			{"with acceptance", MandateRequest{CustomerAcceptance: online(), Limits: limits(1000, "USD")}, nil},
			{"bad acceptance", MandateRequest{CustomerAcceptance: &CustomerAcceptance{}, Limits: limits(1000, "USD")},
				missing("mandate_data.customer_acceptance.acceptance_type")},
			{"update_mandate_id", MandateRequest{UpdateMandateID: ptr("man_1"), Limits: limits(1000, "USD")},
				invalid("mandate_data.update_mandate_id")},
			{"no amount", MandateRequest{Limits: &MandateLimits{Currency: ptr("USD")}}, missing(field + ".amount")},
			{"amount 0", MandateRequest{Limits: limits(0, "USD")}, invalid(field+".amount", "between 1 and")},
			{"amount -1", MandateRequest{Limits: limits(-1, "USD")}, invalid(field+".amount", "between 1 and")},
			{"amount 1", MandateRequest{Limits: limits(1, "USD")}, nil},
			{"largest amount", MandateRequest{Limits: limits(validate.MaxAmount, "USD")}, nil},
			{"over the largest amount", MandateRequest{Limits: limits(validate.MaxAmount+1, "USD")}, invalid(field+".amount", "between 1 and")},
			{"no currency", MandateRequest{Limits: &MandateLimits{Amount: ptr(int64(1))}}, missing(field + ".currency")},
			{"unknown currency", MandateRequest{Limits: limits(1, "XXY")}, invalid(field+".currency", `"XXY"`)},
			{"lower-case currency", MandateRequest{Limits: limits(1, "usd")}, invalid(field+".currency", `"usd"`)},
			{"start before end", MandateRequest{Limits: dated(start, start.Add(time.Second))}, nil},
			{"start at end", MandateRequest{Limits: dated(start, start)}, precondition(field+".start_date", "must be before")},
			{"start after end", MandateRequest{Limits: dated(start.Add(time.Hour), start)}, precondition(field+".start_date", "must be before")},
			{"start only", MandateRequest{Limits: &MandateLimits{Amount: ptr(int64(1)), Currency: ptr("EUR"), StartDate: &start}}, nil},
			{"end only", MandateRequest{Limits: &MandateLimits{Amount: ptr(int64(1)), Currency: ptr("EUR"), EndDate: &start}}, nil},
		} {
			t.Run(kind+"/"+tc.name, func(t *testing.T) {
				tc.m.SingleUse = single
				checkRefusal(t, tc.m.Validate(), tc.want)
			})
		}
	}
}

// TestMandateRequestStored: what a payment keeps of a mandate request
// (mandate_data) reads back as the same request.
func TestMandateRequestStored(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, m := range []*MandateRequest{
		{},
		{SingleUse: true, Limits: &MandateLimits{Amount: ptr(int64(500)), Currency: ptr("EUR")}},
		{CustomerAcceptance: online(), Limits: &MandateLimits{Amount: ptr(int64(9)), Currency: ptr("USD"),
			StartDate: &start, Metadata: map[string]any{"plan": "gold"}}},
	} {
		stored := m.AsMap()
		back, err := mandateRequestOf(stored)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, m) {
			t.Errorf("stored %v, read back %+v, want %+v", stored, back, m)
		}
		kind := "multi_use"
		if m.SingleUse {
			kind = "single_use"
		}
		if _, ok := stored["mandate_type"].(map[string]any)[kind]; !ok {
			t.Errorf("stored %v: no %s", stored, kind)
		}
	}
}

// TestCheckMandateMembers: every refusal of what a create, update or
// confirm asks of mandates, before anything is read.
func TestCheckMandateMembers(t *testing.T) {
	setUp := &MandateRequest{Limits: &MandateLimits{Amount: ptr(int64(1)), Currency: ptr("USD")}}
	yes, no := ptr(true), ptr(false)
	type call struct{ creating, confirming bool }
	create, createConfirm, update, confirm := call{true, false}, call{true, true}, call{false, false}, call{false, true}
	for _, tc := range []struct {
		name string
		f    MandateMembers
		call call
		want *refusal
	}{
		{"nothing", MandateMembers{}, create, nil},
		{"set-up on create", MandateMembers{Mandate: setUp, HasCustomer: true}, create, nil},
		{"set-up on create without customer", MandateMembers{Mandate: setUp}, create, precondition("customer_id", msgMandateCustomer)},
		{"set-up on update without customer", MandateMembers{Mandate: setUp}, update, nil},
		{"set-up on confirm without customer", MandateMembers{Mandate: setUp}, confirm, nil},
		{"invalid set-up", MandateMembers{Mandate: &MandateRequest{SingleUse: true}, HasCustomer: true}, create,
			missing("mandate_data.mandate_type.single_use")},
		{"invalid set-up before customer", MandateMembers{Mandate: &MandateRequest{SingleUse: true}}, create,
			missing("mandate_data.mandate_type.single_use")},
		{"charge on create and confirm", MandateMembers{MandateID: ptr("man_1"), HasCustomer: true, OffSession: yes}, createConfirm, nil},
		{"charge on confirm", MandateMembers{MandateID: ptr("man_1")}, confirm, nil},
		{"charge on confirm off_session", MandateMembers{MandateID: ptr("man_1"), OffSession: yes}, confirm, nil},
		{"empty mandate_id", MandateMembers{MandateID: ptr("")}, confirm, invalid("mandate_id", "1 to 64")},
		{"mandate_id of 64", MandateMembers{MandateID: ptr(strings.Repeat("m", 64))}, confirm, nil},
		{"mandate_id of 65", MandateMembers{MandateID: ptr(strings.Repeat("m", 65))}, confirm, invalid("mandate_id", "1 to 64")},
		{"set-up and charge", MandateMembers{Mandate: setUp, MandateID: ptr("man_1"), HasCustomer: true}, confirm,
			invalid("recurring_details", "got both")},
		{"charge with a card", MandateMembers{MandateID: ptr("man_1"), HasPaymentMethod: true}, confirm,
			invalid("payment_method_data")},
		{"charge on create without confirm", MandateMembers{MandateID: ptr("man_1"), HasCustomer: true, OffSession: yes}, create,
			precondition("confirm", msgMandateConfirm)},
		{"charge on update", MandateMembers{MandateID: ptr("man_1")}, update, precondition("confirm", msgMandateConfirm)},
		{"charge on create without customer", MandateMembers{MandateID: ptr("man_1"), OffSession: yes}, createConfirm,
			missing("customer_id")},
		{"charge on create without off_session", MandateMembers{MandateID: ptr("man_1"), HasCustomer: true}, createConfirm,
			missing("off_session")},
		{"charge on create on-session", MandateMembers{MandateID: ptr("man_1"), HasCustomer: true, OffSession: no}, createConfirm,
			precondition("off_session", msgMandateOffSession)},
		{"charge on confirm on-session", MandateMembers{MandateID: ptr("man_1"), OffSession: no}, confirm,
			precondition("off_session", msgMandateOffSession)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkRefusal(t, CheckMandateMembers(tc.f, tc.call.creating, tc.call.confirming), tc.want)
		})
	}
}

// TestCheckMandateIntent: the payment as confirm will authorize it.
func TestCheckMandateIntent(t *testing.T) {
	offSession := ptr(paymentintent.SetupFutureUsageOffSession)
	onSession := ptr(paymentintent.SetupFutureUsageOnSession)
	stored := (&MandateRequest{}).AsMap()
	card := &PaymentMethodInput{Type: "card"}
	for _, tc := range []struct {
		name   string
		pi     ent.PaymentIntent
		method *PaymentMethodInput
		want   *refusal
	}{
		{"plain payment", ent.PaymentIntent{}, card, nil},
		{"set-up", ent.PaymentIntent{MandateData: stored, CustomerID: ptr("c"), SetupFutureUsage: offSession}, card, nil},
		{"set-up, method not yet given", ent.PaymentIntent{MandateData: stored, CustomerID: ptr("c"), SetupFutureUsage: offSession}, nil, nil},
		{"set-up and charge", ent.PaymentIntent{MandateData: stored, MandateID: ptr("man_1")}, nil,
			invalid("recurring_details", "got both")},
		{"set-up without customer", ent.PaymentIntent{MandateData: stored, SetupFutureUsage: offSession}, card,
			precondition("customer_id", msgMandateCustomer)},
		{"set-up without future usage", ent.PaymentIntent{MandateData: stored, CustomerID: ptr("c")}, card,
			precondition("setup_future_usage", msgMandateFutureUsage)},
		{"set-up on-session", ent.PaymentIntent{MandateData: stored, CustomerID: ptr("c"), SetupFutureUsage: onSession}, card,
			precondition("setup_future_usage", msgMandateFutureUsage)},
		{"set-up with SEPA debit", ent.PaymentIntent{MandateData: stored, CustomerID: ptr("c"), SetupFutureUsage: offSession},
			&PaymentMethodInput{Type: "bank_debit", Variant: "sepa_bank_debit"}, nil},
		{"set-up with a debit that takes none", ent.PaymentIntent{MandateData: stored, CustomerID: ptr("c"), SetupFutureUsage: offSession},
			&PaymentMethodInput{Type: "bank_debit", Variant: "sepa_guarenteed_bank_debit"},
			invalid("mandate_data", "not bank_debit sepa_guarenteed_bank_debit")},
		{"set-up with a wallet", ent.PaymentIntent{MandateData: stored, CustomerID: ptr("c"), SetupFutureUsage: offSession},
			&PaymentMethodInput{Type: "wallet"}, invalid("mandate_data", "not wallet")},
		{"charge", ent.PaymentIntent{MandateID: ptr("man_1"), CustomerID: ptr("c"), OffSession: ptr(true)}, nil, nil},
		{"charge without customer", ent.PaymentIntent{MandateID: ptr("man_1"), OffSession: ptr(true)}, nil, missing("customer_id")},
		{"charge without off_session", ent.PaymentIntent{MandateID: ptr("man_1"), CustomerID: ptr("c")}, nil,
			precondition("off_session", msgMandateOffSession)},
		{"charge on-session", ent.PaymentIntent{MandateID: ptr("man_1"), CustomerID: ptr("c"), OffSession: ptr(false)}, nil,
			precondition("off_session", msgMandateOffSession)},
		{"charge with a card", ent.PaymentIntent{MandateID: ptr("man_1"), CustomerID: ptr("c"), OffSession: ptr(true)}, card,
			invalid("payment_method_data")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkRefusal(t, CheckMandateIntent(&tc.pi, tc.method), tc.want)
		})
	}
}

// TestResolveAcceptance: what a top-level customer_acceptance asks of a
// payment, as Hyperswitch's get_mandate_type decides it.
func TestResolveAcceptance(t *testing.T) {
	a := online()
	own := &CustomerAcceptance{AcceptanceType: "offline"}
	for _, tc := range []struct {
		name        string
		given       *MandateRequest
		stored      map[string]any
		acceptance  *CustomerAcceptance
		offSession  bool
		wantMandate *MandateRequest
		wantConsent *CustomerAcceptance
	}{
		{"no acceptance", &MandateRequest{SingleUse: true}, nil, nil, true, &MandateRequest{SingleUse: true}, nil},
		{"no acceptance, nothing else", nil, nil, nil, true, nil, nil},
		{"given mandate without consent", &MandateRequest{}, nil, a, false, &MandateRequest{CustomerAcceptance: a}, nil},
		{"given mandate with its own", &MandateRequest{CustomerAcceptance: own}, nil, a, false, &MandateRequest{CustomerAcceptance: own}, nil},
		{"stored mandate without consent", nil, (&MandateRequest{SingleUse: true}).AsMap(), a, false,
			&MandateRequest{SingleUse: true, CustomerAcceptance: a}, nil},
		{"stored mandate with its own", nil, (&MandateRequest{CustomerAcceptance: own}).AsMap(), a, true, nil, nil},
		{"off_session payment", nil, nil, a, true, &MandateRequest{CustomerAcceptance: a}, nil},
		{"on-session payment: consent to keep the card", nil, nil, a, false, nil, a},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, consent, err := ResolveAcceptance(tc.given, tc.stored, tc.acceptance, tc.offSession)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(m, tc.wantMandate) || consent != tc.wantConsent {
				t.Errorf("mandate %+v consent %+v; want %+v %+v", m, consent, tc.wantMandate, tc.wantConsent)
			}
		})
	}
}
