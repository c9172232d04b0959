package rest_test

import (
	"maps"
	"slices"
	"testing"

	"switchyard/rest"
)

// TestPublishableConfirmCannotChangeTheCharge walks every member a
// publishable key may send to confirm (the allowlist the route applies),
// each with the value an attacker holding the page's client secret would
// send, and proves that none changes what is charged, to whom, or through
// which account: each is refused and leaves the payment confirmable, or
// pays exactly what the merchant set (6,540 + a 500 surcharge + 50 of tax
// on it), for the payment's own customer, through the account the
// merchant's routing picks. The merchant's advanced rule sends mandate
// set-ups to adyen, so a payment type the browser could change would also
// move the payment to another account.
func TestPublishableConfirmCannotChangeTheCharge(t *testing.T) {
	c := newClient(t)
	m := newRoutedMerchant(t, c, "merchant_client_members")
	pk := c.do("GET", "/accounts/merchant_client_members", c.admin(), nil).must(t, 200).str("publishable_key")
	rule := m.configure(t, c, "set-ups elsewhere", program(priorityOf("stripe_test"),
		ruleOf("set-ups", priorityOf("adyen"), when(cond("payment_type", "equal", "enum_variant", "setup_mandate")))))
	c.do("POST", "/routing/"+rule+"/activate", m.key, nil).must(t, 200)

	// Another customer's saved card, whose token this browser must not use.
	c.do("POST", "/payments", m.key, savingPayment("cus_other", "5555555555554444", "on_session")).must(t, 200)
	otherToken := func() string {
		id, secret := clientPayment(t, c, m.key, "cus_other")
		list := c.do("GET", "/payments/"+id+"/client?client_secret="+secret, pk, nil).must(t, 200).list("customer_payment_methods")
		if len(list) != 1 {
			t.Fatalf("cus_other's saved card: %v", list)
		}
		return list[0]["payment_token"].(string)
	}()

	const charged = 6540 + 500 + 50
	cases := map[string]struct {
		value any
		code  string         // "" when the confirm succeeds
		with  map[string]any // members it needs beside it
	}{
		"client_secret":           {nil, "", nil}, // every case sends it
		"payment_id":              {"the path's", "", nil},
		"payment_method":          {"card", "", nil},
		"payment_method_type":     {"debit", "", nil},
		"payment_method_data":     {nil, "", nil}, // every card case sends it
		"browser_info":            {map[string]any{"ip_address": "198.51.100.9", "user_agent": "x"}, "", nil},
		"billing":                 {billingAddress, "", nil},
		"shipping":                {billingAddress, "", nil},
		"return_url":              {"https://elsewhere.example/back", "", nil},
		"setup_future_usage":      {"off_session", "", nil},
		"customer_acceptance":     {acceptance, "", map[string]any{"setup_future_usage": "off_session"}},
		"payment_experience":      {"redirect_to_url", "", nil},
		"payment_token":           {otherToken, "IR_16", nil},
		"all_keys_required":       {true, "", nil},
		"ctp_service_details":     {map[string]any{"merchant_transaction_id": "x"}, "", nil},
		"threeds_method_comp_ind": {"N", "", nil},
		"payment_type":            {"setup_mandate", "IR_22", nil},
		"mandate_data":            {map[string]any{"customer_acceptance": acceptance}, "", map[string]any{"setup_future_usage": "off_session"}},
		"installment_data":        {map[string]any{"number_of_installments": 12, "billing_frequency": "month"}, "", nil},
		"surcharge_details":       {map[string]any{"surcharge_amount": 0}, "IR_06", nil},
		"card_cvc":                {"999", "", nil},
		"customer_id":             {"cus_other", "IR_22", nil},
	}
	// Echoes of what the payment says already, which the SDK sends.
	echoes := map[string]any{
		"payment_type":      "normal",
		"surcharge_details": map[string]any{"surcharge_amount": 500, "tax_amount": 50},
		"customer_id":       "cus_a1",
	}
	// Other values that change the charge, each refused.
	more := []struct {
		member string
		value  any
		code   string
	}{
		{"surcharge_details", map[string]any{"surcharge_amount": 500}, "IR_06"}, // the tax dropped
		{"surcharge_details", map[string]any{"surcharge_amount": 500, "tax_amount": 0}, "IR_06"},
		{"surcharge_details", map[string]any{"surcharge_amount": 9000, "tax_amount": 50}, "IR_06"},
		{"payment_type", "recurring_mandate", "IR_22"},
		{"customer_id", "cus_a2", "IR_22"},
	}
	if got, want := slices.Sorted(maps.Keys(cases)), slices.Sorted(maps.Keys(rest.ClientSettableMembers())); !slices.Equal(got, want) {
		t.Fatalf("the cases %v must be the members a publishable key may send, %v", got, want)
	}

	confirm := func(name, member string, value any, code string, with map[string]any) {
		t.Helper()
		id, secret := clientPayment(t, c, m.key, "cus_a1")
		body := sdkCardConfirm(secret, "4242424242424242", with)
		switch member {
		case "client_secret", "payment_method_data":
		case "payment_id":
			body["payment_id"] = id
		case "payment_token":
			delete(body, "payment_method_data")
			body["payment_token"], body["card_cvc"] = value, "123"
		default:
			body[member] = value
		}
		r := c.do("POST", "/payments/"+id+"/confirm", pk, body)
		if code != "" {
			if r.Status < 400 || r.Status >= 500 || r.errCode() != code {
				t.Fatalf("%s: %d %s, want %s", name, r.Status, r.Raw, code)
			}
			// Refused whole: the payment is as the merchant made it, and
			// still pays what it says.
			r = c.do("POST", "/payments/"+id+"/confirm", pk, sdkCardConfirm(secret, "4242424242424242", nil))
		}
		r.must(t, 200)
		checkMoney(t, r)
		if r.str("status") != "succeeded" || r.num("amount_received") != charged || r.num("net_amount") != charged ||
			r.num("amount") != 6540 || r.str("customer_id") != "cus_a1" || r.str("connector") != "stripe_test" ||
			r.str("merchant_connector_id") != m.stripeID {
			t.Fatalf("%s: the charge changed: %s", name, r.Raw)
		}
	}
	for _, member := range slices.Sorted(maps.Keys(cases)) {
		tc := cases[member]
		confirm(member, member, tc.value, tc.code, tc.with)
		if echo, ok := echoes[member]; ok {
			confirm(member+" (its own value)", member, echo, "", nil)
		}
	}
	for _, tc := range more {
		confirm(tc.member, tc.member, tc.value, tc.code, nil)
	}
}

// clientPayment is an unconfirmed payment of 6,540 with a surcharge of 500
// and 50 of tax on it, as a merchant's server creates it for the checkout.
func clientPayment(t *testing.T, c *client, key, customer string) (id, secret string) {
	t.Helper()
	r := c.do("POST", "/payments", key, map[string]any{"amount": 6540, "currency": "USD", "customer_id": customer,
		"return_url": "https://shop.example/return", "surcharge_details": map[string]any{"surcharge_amount": 500, "tax_amount": 50}}).must(t, 200)
	if r.num("net_amount") != 7090 {
		t.Fatalf("created: %s", r.Raw)
	}
	return r.str("payment_id"), r.str("client_secret")
}
