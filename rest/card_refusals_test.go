package rest_test

import "testing"

// Where Hyperswitch draws the line between the card checks it makes itself
// and what the connector refuses: its collections' "Create payment with
// Invalid card details" requests.

// invalidCardCreate is the collections' Payments - Create with a card.
func invalidCardCreate(number, month, year, cvc string) map[string]any {
	return map[string]any{
		"amount": 6540, "currency": "USD", "confirm": true, "capture_method": "automatic",
		"capture_on": "2022-09-10T10:11:12Z", "amount_to_capture": 6540, "customer_id": "StripeCustomer",
		"email": "guest@example.com", "name": "John Doe", "phone": "999999999", "phone_country_code": "+65",
		"description": "Its my first payment request", "authentication_type": "no_three_ds", "return_url": "https://duck.com",
		"payment_method": "card", "payment_method_data": map[string]any{"card": map[string]any{"card_number": number,
			"card_exp_month": month, "card_exp_year": year, "card_holder_name": "joseph Doe", "card_cvc": cvc}},
		"billing": collectionAddress, "shipping": collectionAddress,
		"statement_descriptor_name": "joseph", "statement_descriptor_suffix": "JS",
		"metadata": map[string]any{"udf1": "value1", "new_customer": "true", "login_date": "2019-09-10T10:11:12Z"},
	}
}

// TestInvalidCardDetails: the number (its characters, length from 8 to 19
// digits, Luhn), the CVC's length and the expiry are Hyperswitch's own
// checks, refused before any connector call with type invalid_request (the
// collections' assertions; "connector" appears in some of their test
// names only); a number that passes them goes to the connector, which
// refuses one no network issues as a failed payment, not an error.
func TestInvalidCardDetails(t *testing.T) {
	c := newClient(t)
	cases := []struct {
		name, number, month, year, cvc string
		code, message                  string
	}{
		// stripe: Payments - Create(Invalid card number)
		{"invalid card number", "123456", "10", "25", "123", "IR_06", "Json deserialize error: invalid card number length"},
		// stripe: Payments - Create(invalid CVV): the number is read first
		{"invalid number and CVV", "123456", "10", "30", "12345", "IR_06", "Json deserialize error: invalid card number length"},
		{"Luhn", "4242424242424241", "10", futureYear, "123", "IR_06", "Json deserialize error: card number invalid"},
		{"characters", "4242-4242-4242-424x", "10", futureYear, "123", "IR_06", "Json deserialize error: invalid character found in card number"},
		// stripe: Payments - Create(Invalid Exp Year)
		{"invalid expiry year", "4242424242424242", "10", "2022", "123", "IR_16", "Invalid Expiry Year"},
		// checkout: Payments - Create(Invalid Exp month)
		{"invalid expiry month", "4005519200000004", "13", "2023", "123", "IR_16", "Invalid Expiry Month"},
		// adyen_uk: Payments - Create(invalid CVV): the CVC before the expiry
		{"invalid CVV", "371449635398431", "10", "25", "12345", "IR_16", "Invalid card_cvc length"},
	}
	before := countPayments(t, c)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := c.pay("POST", "/payments", invalidCardCreate(tc.number, tc.month, tc.year, tc.cvc))
			if r.Status != 400 || r.str("error", "type") != "invalid_request" || r.errCode() != tc.code ||
				r.str("error", "message") != tc.message {
				t.Fatalf("%d %s, want 400 invalid_request %s %q", r.Status, r.Raw, tc.code, tc.message)
			}
		})
	}
	if n := countPayments(t, c); n != before {
		t.Fatalf("refused cards made %d payments", n-before)
	}
	// Eight digits pass Hyperswitch's checks; no network issues such a
	// card, so the sandbox connector declines it. Its BIN is not shown:
	// with the last four it would be the number.
	r := c.pay("POST", "/payments", invalidCardCreate("31415920", "10", futureYear, "123")).must(t, 200)
	if r.str("status") != "failed" || r.str("error_code") != "incorrect_number" ||
		r.str("payment_method_data", "card", "last4") != "5920" || r.str("payment_method_data", "card", "card_isin") != "" {
		t.Fatalf("an eight-digit number: %s", r.Raw)
	}
}
