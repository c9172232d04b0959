package rest_test

import (
	"slices"
	"strings"
	"testing"
)

// Paths of the billing fields a checkout may ask for.
const (
	fieldFirstName = "payment_method_data.billing.address.first_name"
	fieldLastName  = "payment_method_data.billing.address.last_name"
	fieldEmail     = "payment_method_data.billing.email"
	fieldLine1     = "payment_method_data.billing.address.line1"
	fieldCity      = "payment_method_data.billing.address.city"
	fieldState     = "payment_method_data.billing.address.state"
	fieldZip       = "payment_method_data.billing.address.zip"
	fieldCountry   = "payment_method_data.billing.address.country"
)

// fieldsProfile creates a profile of the demo merchant whose one connector
// account is connectorName, taking cards and Google Pay, with metadata.
func fieldsProfile(t *testing.T, c *client, connectorName string, metadata map[string]any) string {
	t.Helper()
	m := c.srv.Demo.MerchantID
	prof := c.do("POST", "/account/"+m+"/business_profile", c.merchantKey(), map[string]any{"profile_name": "fields " + connectorName}).must(t, 200)
	networks := []string{"Visa", "Mastercard"}
	body := map[string]any{
		"connector_type": "payment_processor", "connector_name": connectorName, "profile_id": prof.str("profile_id"),
		"connector_account_details": map[string]any{"auth_type": "HeaderKey", "api_key": "key_for_" + connectorName},
		"payment_methods_enabled": []any{
			map[string]any{"payment_method": "card", "payment_method_types": []any{
				map[string]any{"payment_method_type": "credit", "card_networks": networks},
				map[string]any{"payment_method_type": "debit", "card_networks": networks}}},
			map[string]any{"payment_method": "wallet", "payment_method_types": []any{
				map[string]any{"payment_method_type": "google_pay", "payment_experience": "invoke_sdk_client"}}},
		},
	}
	if metadata != nil {
		body["metadata"] = metadata
	}
	c.do("POST", "/account/"+m+"/connectors", c.merchantKey(), body).must(t, 200)
	return prof.str("profile_id")
}

// sdkRequiredFields evaluates the raw_configs of an SDK configuration as
// Hyperswitch's web SDK does for a connector and a payment method (its
// ConfigurationService): the default configs, overridden by every context
// whose condition the evaluation context holds, grouped by field
// ("<field>._<property>"); the fields whose is_required is true, in their
// field_display_order. It answers each field's write path and render type.
func sdkRequiredFields(t *testing.T, raw map[string]any, connectorName, paymentMethod string) (paths, renders []string) {
	t.Helper()
	resolved := map[string]any{}
	for k, v := range raw["default_configs"].(map[string]any) {
		resolved[k] = v
	}
	overrides := raw["overrides"].(map[string]any)
	evaluation := map[string]any{"connector": connectorName, "payment_method": paymentMethod, "payment_method_type": "Debit", "platform": "web"}
	for _, ctx := range raw["contexts"].([]any) {
		ctx := ctx.(map[string]any)
		holds := true
		for k, v := range ctx["condition"].(map[string]any) {
			holds = holds && evaluation[k] == v
		}
		if !holds {
			continue
		}
		for _, key := range ctx["override_with_keys"].([]any) {
			for k, v := range overrides[key.(string)].(map[string]any) {
				resolved[k] = v
			}
		}
	}
	groups := map[string]map[string]any{}
	for k, v := range resolved {
		base, prop, ok := strings.Cut(k, "._")
		if !ok {
			t.Fatalf("raw_configs key %q is not <field>._<property>", k)
		}
		if groups[base] == nil {
			groups[base] = map[string]any{}
		}
		groups[base][prop] = v
	}
	type field struct {
		path, render string
		order        float64
	}
	var fields []field
	for base, g := range groups {
		if g["is_required"] != true {
			continue
		}
		path, _ := g["confirm_request_write_path"].(string)
		if path == "" {
			path = base
		}
		render, _ := g["field_render_type"].(string)
		order, _ := g["field_display_order"].(float64)
		fields = append(fields, field{path, render, order})
	}
	slices.SortFunc(fields, func(a, b field) int { return int(a.order - b.order) })
	for _, f := range fields {
		paths, renders = append(paths, f.path), append(renders, f.render)
	}
	return paths, renders
}

// methodFields are the required_fields of a payment method type in the
// client route's payment_methods_enabled.
func methodFields(t *testing.T, r response, pm, pmt string) []map[string]any {
	t.Helper()
	for _, m := range r.list("payment_methods_enabled") {
		if m["payment_method"] == pm && m["payment_method_type"] == pmt {
			var out []map[string]any
			list, ok := m["required_fields"].([]any)
			if !ok {
				t.Fatalf("%s %s has no required_fields list: %v", pm, pmt, m)
			}
			for _, f := range list {
				out = append(out, f.(map[string]any))
			}
			return out
		}
	}
	t.Fatalf("%s %s is not enabled: %s", pm, pmt, r.Raw)
	return nil
}

// TestCheckoutServesRequiredBillingFields: a connector that needs billing
// details for cards (Hyperswitch's configuration for Cybersource: the card
// holder's name, the billing email and address) makes the SDK
// configuration's raw_configs ask for them when the shopper pays by card
// through it, and the client route and the payment method list name them;
// a connector that needs nothing beyond the card asks for nothing; a
// connector account's sandbox object adds the fields it requires, for every
// method it takes.
func TestCheckoutServesRequiredBillingFields(t *testing.T) {
	c := newClient(t)
	pk := c.srv.Demo.PublishableKey
	cyber := fieldsProfile(t, c, "cybersource", nil)
	declared := fieldsProfile(t, c, "stripe", map[string]any{"city": "Berlin",
		"sandbox": map[string]any{"required_fields": []string{fieldZip, fieldEmail}}})

	for _, tc := range []struct {
		name, profile, connector string
		card, wallet             []string
	}{
		{name: "cybersource", profile: cyber, connector: "cybersource",
			card: []string{fieldFirstName, fieldLastName, fieldEmail, fieldLine1, fieldCity, fieldState, fieldZip, fieldCountry}},
		{name: "nothing beyond the card", connector: "stripe_test"},
		{name: "declared by the account", profile: declared, connector: "stripe",
			card: []string{fieldEmail, fieldZip}, wallet: []string{fieldEmail, fieldZip}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			members := map[string]any{}
			if tc.profile != "" {
				members["profile_id"] = tc.profile
			}
			id, secret := checkoutPayment(t, c, "", members)

			cfg := c.do("GET", "/v1/sdk/configs/web/sdk_config.json?client_secret="+secret, pk, nil).must(t, 200)
			raw, _ := cfg.obj()["raw_configs"].(map[string]any)
			if raw == nil || raw["contexts"] == nil || raw["overrides"] == nil || raw["default_configs"] == nil {
				t.Fatalf("raw_configs is not a Superposition configuration: %s", cfg.Raw)
			}
			card, renders := sdkRequiredFields(t, raw, tc.connector, "Card")
			if !slices.Equal(card, tc.card) {
				t.Fatalf("the SDK asks for %v for a card through %s, want %v\nraw_configs: %s", card, tc.connector, tc.card, cfg.Raw)
			}
			if len(card) > 0 && tc.connector == "cybersource" && (renders[0] != "CardHolderName" || renders[2] != "Email" || renders[7] != "Country") {
				t.Fatalf("render types %v: the card holder's name, then the email, ..., the country", renders)
			}
			if wallet, _ := sdkRequiredFields(t, raw, tc.connector, "Wallet"); !slices.Equal(wallet, tc.wallet) {
				t.Fatalf("the SDK asks for %v for Google Pay through %s, want %v", wallet, tc.connector, tc.wallet)
			}
			if other, _ := sdkRequiredFields(t, raw, "adyen", "Card"); len(other) > 0 {
				t.Fatalf("fields asked for a connector the profile does not have: %v", other)
			}

			client := c.do("GET", "/payments/"+id+"/client?client_secret="+secret, pk, nil).must(t, 200)
			for _, pmt := range []string{"credit", "debit"} {
				var got []string
				for _, f := range methodFields(t, client, "card", pmt) {
					got = append(got, f["required_field"].(string))
					if f["display_name"] == "" || f["field_type"] == nil {
						t.Fatalf("RequiredFieldInfo without its name or type: %v", f)
					}
				}
				if !slices.Equal(got, tc.card) {
					t.Fatalf("client route: card %s required_fields %v, want %v", pmt, got, tc.card)
				}
			}

			list := c.do("GET", "/account/payment_methods?client_secret="+secret, pk, nil).must(t, 200)
			for _, m := range list.list("payment_methods") {
				if m["payment_method"] != "card" {
					continue
				}
				for _, pt := range m["payment_method_types"].([]any) {
					fields := pt.(map[string]any)["required_fields"].(map[string]any)
					if len(fields) != len(tc.card) {
						t.Fatalf("payment method list: %d required fields, want %d: %v", len(fields), len(tc.card), fields)
					}
					if len(tc.card) > 0 && fields["billing.email"].(map[string]any)["required_field"] != fieldEmail {
						t.Fatalf("payment method list: billing.email is %v", fields["billing.email"])
					}
				}
			}
		})
	}
}

// TestConfirmNeedsTheBillingFieldsTheConnectorRequires: a confirm through
// a connector account whose sandbox object requires billing fields is
// refused, before the connector is called and with nothing written, with
// Hyperswitch's IR_04 naming the first field it lacks; the payment method's
// billing and the payment's own both count; with them the payment
// succeeds and carries them. Hyperswitch's configuration alone (a
// cybersource account) asks the checkout, and the sandbox takes the
// payment without them.
func TestConfirmNeedsTheBillingFieldsTheConnectorRequires(t *testing.T) {
	c := newClient(t)
	requiring := fieldsProfile(t, c, "stripe", map[string]any{
		"sandbox": map[string]any{"required_fields": []string{fieldLine1, fieldEmail, fieldZip}}})
	cyber := fieldsProfile(t, c, "cybersource", nil)

	billing := func(email string, address map[string]any) map[string]any {
		b := map[string]any{"address": address}
		if email != "" {
			b["email"] = email
		}
		return b
	}
	withBilling := func(b map[string]any) map[string]any {
		pm := card("4242424242424242")
		if b != nil {
			pm["billing"] = b
		}
		return pm
	}
	for _, tc := range []struct {
		name, profile string
		// onPayment is the payment's billing, set when it is created.
		onPayment, onMethod map[string]any
		missing             string
	}{
		{name: "no billing", profile: requiring, missing: fieldEmail},
		{name: "email only", profile: requiring, onMethod: billing("jane@example.com", nil), missing: fieldLine1},
		{name: "blank line1", profile: requiring, onMethod: billing("jane@example.com", map[string]any{"line1": " ", "zip": "94105"}), missing: fieldLine1},
		{name: "no zip", profile: requiring, onMethod: billing("jane@example.com", map[string]any{"line1": "1 Main St"}), missing: fieldZip},
		{name: "all on the method", profile: requiring,
			onMethod: billing("jane@example.com", map[string]any{"line1": "1 Main St", "zip": "94105", "city": "San Francisco"})},
		{name: "the payment's billing counts", profile: requiring, onPayment: billing("", map[string]any{"line1": "1 Main St", "zip": "94105"}),
			onMethod: billing("jane@example.com", nil)},
		{name: "cybersource's table asks, the sandbox does not require", profile: cyber},
	} {
		t.Run(tc.name, func(t *testing.T) {
			members := map[string]any{"profile_id": tc.profile}
			if tc.onPayment != nil {
				members["billing"] = tc.onPayment
			}
			id, _ := checkoutPayment(t, c, "", members)
			r := c.pay("POST", "/payments/"+id+"/confirm", map[string]any{"payment_method": "card", "payment_method_data": withBilling(tc.onMethod)})
			if tc.missing != "" {
				if r.Status != 400 || r.errCode() != "IR_04" || r.str("error", "message") != "Missing required param: "+tc.missing {
					t.Fatalf("confirm without %s: %d %s", tc.missing, r.Status, r.Raw)
				}
				got := c.pay("GET", "/payments/"+id, nil).must(t, 200)
				if got.str("status") != "requires_payment_method" || got.str("connector") != "" || len(got.list("attempts")) != 0 {
					t.Fatalf("a refused confirm wrote the payment: %s", got.Raw)
				}
				return
			}
			r.must(t, 200)
			if r.str("status") != "succeeded" {
				t.Fatalf("confirm: %s", r.Raw)
			}
			if tc.onMethod != nil {
				pmBilling := r.obj()["payment_method_data"].(map[string]any)["billing"].(map[string]any)
				if pmBilling["email"] != "jane@example.com" {
					t.Fatalf("the payment does not carry the billing it was paid with: %s", r.Raw)
				}
			}
		})
	}

	// The checkout's own confirm (the publishable key and the client
	// secret) carries what it asked for to the payment.
	id, secret := checkoutPayment(t, c, "", map[string]any{"profile_id": requiring})
	body := sdkCardConfirm(secret, "4242424242424242", nil)
	pmd := body["payment_method_data"].(map[string]any)
	pmd["billing"] = billing("shopper@example.com", map[string]any{"line1": "9 Elm St", "zip": "10001", "city": "New York",
		"state": "NY", "country": "US", "first_name": "Sam", "last_name": "Shopper"})
	c.do("POST", "/payments/"+id+"/confirm", c.srv.Demo.PublishableKey, body).must(t, 200)
	got := c.pay("GET", "/payments/"+id, nil).must(t, 200)
	b := got.obj()["payment_method_data"].(map[string]any)["billing"].(map[string]any)
	if got.str("status") != "succeeded" || b["email"] != "shopper@example.com" || b["address"].(map[string]any)["line1"] != "9 Elm St" {
		t.Fatalf("the checkout's payment: %s", got.Raw)
	}
}

// TestSandboxRequiredFieldsChecked: required_fields of a connector
// account's sandbox object is an array of the billing fields' paths; any
// other value is IR_07 naming it.
func TestSandboxRequiredFieldsChecked(t *testing.T) {
	c := newClient(t)
	path := "/account/" + c.srv.Demo.MerchantID + "/connectors"
	for _, tc := range []struct {
		name  string
		value any
		field string
	}{
		{"a string", fieldEmail, "metadata.sandbox.required_fields"},
		{"an object", map[string]any{"email": true}, "metadata.sandbox.required_fields"},
		{"the payment's email", []any{"email"}, "metadata.sandbox.required_fields[0]"},
		{"a card field", []any{fieldZip, "payment_method_data.card.card_number"}, "metadata.sandbox.required_fields[1]"},
		{"a number", []any{1}, "metadata.sandbox.required_fields[0]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := c.do("POST", path, c.merchantKey(), body(map[string]any{"metadata": map[string]any{
				"sandbox": map[string]any{"required_fields": tc.value}}}))
			if r.Status != 400 || r.errCode() != "IR_07" || !strings.Contains(r.str("error", "message"), tc.field+":") {
				t.Fatalf("required_fields %v: %d %s", tc.value, r.Status, r.Raw)
			}
		})
	}
	r := c.do("POST", path, c.merchantKey(), body(map[string]any{"metadata": map[string]any{
		"sandbox": map[string]any{"required_fields": []any{fieldCountry, fieldFirstName}, "failure_rate": 0}}})).must(t, 200)
	if got := r.obj()["metadata"].(map[string]any)["sandbox"].(map[string]any)["required_fields"].([]any); len(got) != 2 {
		t.Fatalf("the account keeps its sandbox object as given: %s", r.Raw)
	}
}

// TestRetryPassesOverAConnectorThatRequiresMissingFields: an automatic
// retry does not go to a connector account whose sandbox object requires a
// billing field the payment lacks (it would refuse the payment unseen); it
// goes to the next one, and to that account when the payment has the field.
func TestRetryPassesOverAConnectorThatRequiresMissingFields(t *testing.T) {
	c := newClient(t)
	m := newRetryMerchant(t, c, "merchant_retry_fields", 2, true)
	m.sandbox(t, c, m.stripeID, map[string]any{"outage": true})
	m.sandbox(t, c, m.adyenID, map[string]any{"required_fields": []string{fieldEmail}})

	r := m.pay(t, c, "4242424242424242")
	if got := attemptsOf(r); r.str("status") != "succeeded" || len(got) != 2 || got[0][0] != "stripe_test" || got[1] != [3]string{"checkout", "charged", ""} {
		t.Fatalf("without the email, adyen is passed over: %v %s", got, r.Raw)
	}
	pm := card("4242424242424242")
	pm["billing"] = map[string]any{"email": "jane@example.com"}
	r = c.do("POST", "/payments", m.key, payment(map[string]any{"confirm": true, "payment_method": "card", "payment_method_data": pm})).must(t, 200)
	if got := attemptsOf(r); r.str("status") != "succeeded" || len(got) != 2 || got[1] != [3]string{"adyen", "charged", ""} {
		t.Fatalf("with the email, adyen takes the retry: %v %s", got, r.Raw)
	}
}
