package rest_test

import (
	"strings"
	"testing"
)

// Bank debits take mandates, as Hyperswitch's Stripe connector sets them
// up for ACH, SEPA, BACS and BECS: the debit that sets the mandate up, then
// merchant-initiated debits on it, the account never kept.

// achMandateSetup is the request of Hyperswitch's Stripe Postman collection
// ("Bank Debit-ach": Payments - Create), but its `connector: ["stripe"]`,
// which would name an account the sandbox merchant does not have.
func achMandateSetup(customerID string) map[string]any {
	return map[string]any{
		"amount": 1800, "currency": "USD", "confirm": true, "business_label": "default", "capture_method": "automatic",
		"customer_id": customerID, "capture_on": "2022-09-10T10:11:12Z", "authentication_type": "three_ds",
		"email": "guest@example.com", "name": "John Doe", "phone": "999999999", "phone_country_code": "+65",
		"description": "Its my first payment request", "return_url": "https://google.com",
		"statement_descriptor_name": "Juspay", "statement_descriptor_suffix": "Router",
		"setup_future_usage": "off_session", "business_country": "US",
		"mandate_data": map[string]any{
			"customer_acceptance": map[string]any{"acceptance_type": "online", "accepted_at": "2022-09-10T10:11:12Z",
				"online": map[string]any{"ip_address": "123.32.25.123", "user_agent": "Mozilla/5.0 (Linux; Android 12)"}},
			"mandate_type": map[string]any{"single_use": map[string]any{"amount": 6540, "currency": "USD"}},
		},
		"payment_method": "bank_debit", "payment_method_type": "ach",
		"payment_method_data": map[string]any{"bank_debit": map[string]any{"ach_bank_debit": map[string]any{
			"billing_details": map[string]any{"name": "John Doe", "email": "johndoe@example.com"},
			"account_number":  "000123456789", "routing_number": "110000000"}}},
		"metadata": map[string]any{"order_details": map[string]any{"product_name": "Apple iphone 15", "quantity": 1,
			"amount": 1800, "account_name": "transaction_processing"}},
	}
}

// debitMandateSetup sets a multi_use mandate up with a bank debit.
func debitMandateSetup(customerID, currency, typ string, debit map[string]any) map[string]any {
	return map[string]any{"amount": 2500, "currency": currency, "confirm": true, "customer_id": customerID,
		"setup_future_usage": "off_session", "payment_method": "bank_debit", "payment_method_type": typ,
		"payment_method_data": map[string]any{"bank_debit": debit},
		"mandate_data": map[string]any{"customer_acceptance": acceptance,
			"mandate_type": map[string]any{"multi_use": map[string]any{"amount": 10000, "currency": currency}}}}
}

// TestBankDebitMandates: an ACH, SEPA, BACS or BECS debit with
// setup_future_usage off_session and mandate_data sets up an active
// mandate for its bank debit; a merchant-initiated payment on it debits the
// account again, through the same connector account; the account number
// is shown and kept nowhere.
func TestBankDebitMandates(t *testing.T) {
	c := newClient(t)
	cases := []struct {
		name, typ, currency, account string
		setup                        map[string]any
	}{
		{"ach (Hyperswitch's collection)", "ach", "USD", "000123456789", achMandateSetup("klarna")},
		{"sepa", "sepa", "EUR", "DE89370400440532013000", debitMandateSetup("cus_sepa", "EUR", "sepa",
			map[string]any{"sepa_bank_debit": map[string]any{"iban": "DE89370400440532013000", "bank_account_holder_name": "A. Schneider"}})},
		{"bacs", "bacs", "GBP", "00012345", debitMandateSetup("cus_bacs", "GBP", "bacs",
			map[string]any{"bacs_bank_debit": map[string]any{"account_number": "00012345", "sort_code": "108800", "bank_account_holder_name": "J. Smith"}})},
		{"becs", "becs", "AUD", "000123456", debitMandateSetup("cus_becs", "AUD", "becs",
			map[string]any{"becs_bank_debit": map[string]any{"account_number": "000123456", "bsb_number": "000000", "bank_account_holder_name": "J. Smith"}})},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			setup := c.pay("POST", "/payments", tc.setup).must(t, 200)
			mandateID := setup.str("mandate_id")
			if setup.str("status") != "succeeded" || !strings.HasPrefix(mandateID, "man_") || setup.str("payment_method") != "bank_debit" {
				t.Fatalf("setup: %s", setup.Raw)
			}
			m := c.pay("GET", "/mandates/"+mandateID, nil).must(t, 200)
			if m.str("status") != "active" || m.str("payment_method") != "bank_debit" || m.str("payment_method_type") != tc.typ ||
				!strings.HasPrefix(m.str("payment_method_id"), "pm_") || m.obj()["card"] != nil {
				t.Fatalf("GET /mandates/%s: %s", mandateID, m.Raw)
			}
			customerID := setup.str("customer_id")
			again := c.pay("POST", "/payments", map[string]any{"amount": 1500, "currency": tc.currency, "confirm": true,
				"off_session": true, "customer_id": customerID, "mandate_id": mandateID}).must(t, 200)
			if again.str("status") != "succeeded" || again.str("mandate_id") != mandateID || again.str("payment_method") != "bank_debit" ||
				again.str("payment_method_type") != tc.typ || again.str("merchant_connector_id") != setup.str("merchant_connector_id") {
				t.Fatalf("recurring debit: %s", again.Raw)
			}
			for _, r := range []response{setup, m, again} {
				if strings.Contains(string(r.Raw), tc.account) {
					t.Fatalf("an answer shows the account: %s", r.Raw)
				}
			}
		})
	}
	// The Stripe collection's mandate is single_use for 6540: its one
	// recurring debit above spent it.
	setup := c.pay("POST", "/payments", achMandateSetup("klarna")).must(t, 200)
	over := c.pay("POST", "/payments", map[string]any{"amount": 7000, "currency": "USD", "confirm": true,
		"off_session": true, "customer_id": "klarna", "mandate_id": setup.str("mandate_id")})
	if over.Status != 400 || over.errCode() != "HE_03" {
		t.Fatalf("a debit over a single_use mandate's amount: %d %s", over.Status, over.Raw)
	}
	for _, v := range dumpDatabase(t, c) {
		for _, tc := range cases {
			if strings.Contains(string(v.value), tc.account) {
				t.Errorf("%s.%s holds the %s account", v.table, v.column, tc.name)
			}
		}
	}
}

// TestBankDebitMandateRefusals: a debit the bank refuses sets no mandate up
// (and keeps no payment method); the sandbox sets mandates up for cards and
// the four debits only, so another debit or family is refused before any
// connector call.
func TestBankDebitMandateRefusals(t *testing.T) {
	c := newClient(t)
	declined := c.pay("POST", "/payments", debitMandateSetup("cus_nsf", "USD", "ach",
		map[string]any{"ach_bank_debit": map[string]any{"account_number": "000222222227", "routing_number": "110000000"}})).must(t, 200)
	if declined.str("status") != "failed" || declined.obj()["mandate_id"] != nil {
		t.Fatalf("declined setup: %s", declined.Raw)
	}
	if r := c.pay("GET", "/customers/cus_nsf/payment_methods", nil).must(t, 200); len(r.list("customer_payment_methods")) != 0 {
		t.Fatalf("a declined debit kept a payment method: %s", r.Raw)
	}
	for name, body := range map[string]map[string]any{
		"sepa guaranteed debit": debitMandateSetup("cus_g", "EUR", "sepa_guarenteed_debit",
			map[string]any{"sepa_guarenteed_bank_debit": map[string]any{"iban": "DE89370400440532013000", "bank_account_holder_name": "A"}}),
		"bank transfer": patched(debitMandateSetup("cus_t", "USD", "ach", nil), map[string]any{"payment_method": "bank_transfer",
			"payment_method_data": map[string]any{"bank_transfer": map[string]any{"ach_bank_transfer": map[string]any{}}}}),
	} {
		r := c.pay("POST", "/payments", body)
		if r.Status != 400 || r.errCode() != "IR_07" || !strings.Contains(r.str("error", "message"), "mandate_data") {
			t.Fatalf("%s: %d %s", name, r.Status, r.Raw)
		}
	}
}
