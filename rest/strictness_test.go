package rest_test

import (
	"strconv"
	"strings"
	"testing"
)

// TestUnknownMemberStrictness: per request type, exactly as Hyperswitch
// (reference/hyperswitch/strictness.md). Each row sends a valid body with
// an extra member zz_unknown put in one object; a refusing type answers
// 400 IR_06 invalid_request naming the member's full path, an ignoring one
// answers as if it were not there (200).
func TestUnknownMemberStrictness(t *testing.T) {
	c := newClient(t)
	d := c.srv.Demo
	secret, admin := c.merchantKey(), c.admin()
	v2 := v2Headers(d.SecretKey, d.ProfileID)

	// Each call makes what its route acts on afresh.
	openPayment := func() string { return c.pay("POST", "/payments", payment(nil)).must(t, 200).str("payment_id") }
	authorized := func() string {
		return c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "capture_method": "manual",
			"payment_method_data": card("4242424242424242")})).must(t, 200).str("payment_id")
	}
	succeeded := func() string {
		return c.pay("POST", "/payments", payment(map[string]any{"confirm": true,
			"payment_method_data": card("4242424242424242")})).must(t, 200).str("payment_id")
	}
	challenged := func() string {
		return c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "return_url": "https://shop.example/done",
			"payment_method_data": card("4000000000003220")})).must(t, 200).str("payment_id")
	}
	refund := func() string {
		return c.do("POST", "/refunds", secret, map[string]any{"payment_id": succeeded(), "amount": 100}).must(t, 200).str("refund_id")
	}
	customer := func() string {
		return c.do("POST", "/customers", secret, map[string]any{}).must(t, 200).str("customer_id")
	}
	intent := func() string { return createIntent(t, c, minimalIntent()).str("id") }
	n := 0
	unique := func(prefix string) string { n++; return prefix + strconv.Itoa(n) }

	// fullPayment confirms a card payment holding every nested object the
	// rows put the member in.
	fullPayment := func() map[string]any {
		pmd := card("4242424242424242")
		pmd["billing"] = billingAddress
		return payment(map[string]any{
			"confirm": true, "payment_method": "card", "payment_method_data": pmd,
			"billing": billingAddress, "shipping": billingAddress,
			"browser_info":       map[string]any{"user_agent": "Mozilla/5.0", "language": "en"},
			"order_details":      []any{map[string]any{"product_name": "Book", "quantity": 1, "amount": 10000}},
			"customer":           map[string]any{"id": "cus_strict", "name": "Jane"},
			"surcharge_details":  map[string]any{"surcharge_amount": 0, "tax_amount": 0},
			"connector_metadata": map[string]any{}, "feature_metadata": map[string]any{},
			"three_ds_data": map[string]any{"transaction_status": "Y"}, "ctp_service_details": map[string]any{},
		})
	}
	mandatePayment := func() map[string]any {
		return setupBody("cus_strict_mandate", "4242424242424242",
			map[string]any{"multi_use": map[string]any{"amount": 5000, "currency": "USD"}})
	}
	v2Confirm := func() map[string]any {
		return map[string]any{"payment_method_type": "card", "payment_method_subtype": "credit",
			"payment_method_data": map[string]any{"card": card("4242424242424242")["card"], "billing": billingAddress},
			"browser_info":        map[string]any{"user_agent": "Mozilla/5.0"}}
	}
	savedCard := func() map[string]any {
		return map[string]any{"payment_method": "card", "card": map[string]any{"card_number": "4242424242424242",
			"card_exp_month": "10", "card_exp_year": futureYear, "card_holder_name": "J"}}
	}
	connector := func() map[string]any { return fullConnector(d.ProfileID) }

	type row struct {
		name    string
		method  string
		path    func() string
		key     string            // api-key header
		headers map[string]string // v2 routes
		body    func() map[string]any
		at      string // the object zz_unknown goes in: "" is the body
		refused bool
	}
	fixed := func(p string) func() string { return func() string { return p } }
	// inPayment puts the member at `at` in a payment create body.
	inPayment := func(at string, body func() map[string]any, refused bool) row {
		return row{at, "POST", fixed("/payments"), secret, nil, body, at, refused}
	}
	rows := []row{
		// Top-level bodies.
		{"payments create", "POST", fixed("/payments"), secret, nil, fullPayment, "", true},
		{"payments update", "POST", func() string { return "/payments/" + openPayment() }, secret, nil,
			func() map[string]any { return map[string]any{"description": "x"} }, "", true},
		{"payments confirm", "POST", func() string { return "/payments/" + openPayment() + "/confirm" }, secret, nil,
			func() map[string]any { return map[string]any{"payment_method_data": card("4242424242424242")} }, "", true},
		{"payments capture", "POST", func() string { return "/payments/" + authorized() + "/capture" }, secret, nil,
			func() map[string]any { return map[string]any{"amount_to_capture": 1000} }, "", false},
		{"payments cancel", "POST", func() string { return "/payments/" + authorized() + "/cancel" }, secret, nil,
			func() map[string]any { return map[string]any{"cancellation_reason": "requested_by_customer"} }, "", false},
		{"session tokens", "POST", fixed("/payments/session_tokens"), secret, nil,
			func() map[string]any { return map[string]any{"payment_id": openPayment(), "wallets": []any{}} }, "", false},
		{"complete_authorize", "POST", func() string { return "/payments/" + succeeded() + "/complete_authorize" }, secret, nil,
			func() map[string]any { return map[string]any{"threeds_method_comp_ind": "Y"} }, "", false},
		{"3ds authentication", "POST", func() string { return "/payments/" + challenged() + "/3ds/authentication" }, secret, nil,
			func() map[string]any { return map[string]any{"device_channel": "BRW", "threeds_method_comp_ind": "N"} }, "", false},
		{"refunds create", "POST", fixed("/refunds"), secret, nil,
			func() map[string]any { return map[string]any{"payment_id": succeeded(), "amount": 100} }, "", true},
		{"refunds update", "POST", func() string { return "/refunds/" + refund() }, secret, nil,
			func() map[string]any { return map[string]any{"reason": "changed"} }, "", true},
		{"customers create (v1)", "POST", fixed("/customers"), secret, nil,
			func() map[string]any { return fullCustomer(unique("cus_strict_")) }, "", false},
		{"customers update (v1)", "POST", func() string { return "/customers/" + customer() }, secret, nil,
			func() map[string]any { return map[string]any{"name": "Jon"} }, "", false},
		{"customers create (v2)", "POST", fixed("/v2/customers"), "", v2,
			func() map[string]any {
				return map[string]any{"name": "Jon", "merchant_reference_id": unique("cus_strict_v2_")}
			}, "", true},
		{"ephemeral keys", "POST", fixed("/ephemeral_keys"), secret, nil,
			func() map[string]any { return map[string]any{"customer_id": customer()} }, "", false},
		{"payment_methods create", "POST", fixed("/payment_methods"), secret, nil, savedCard, "", true},
		{"payment_methods update", "POST", func() string {
			return "/payment_methods/" + c.do("POST", "/payment_methods", secret, savedCard()).must(t, 200).str("payment_method_id") + "/update"
		}, secret, nil, func() map[string]any { return map[string]any{"card": map[string]any{"card_exp_month": "11"}} }, "", true},
		{"accounts create", "POST", fixed("/accounts"), admin, nil,
			func() map[string]any { return merchantBody(unique("merchant_strict_")) }, "", true},
		{"accounts update", "POST", fixed("/accounts/" + d.MerchantID), admin, nil,
			func() map[string]any { return map[string]any{"merchant_id": d.MerchantID, "merchant_name": "x"} }, "", true},
		{"connectors create", "POST", fixed("/account/" + d.MerchantID + "/connectors"), secret, nil, minimalConnector, "", true},
		{"connectors update", "POST", fixed("/account/" + d.MerchantID + "/connectors/" + d.ConnectorAccount), secret, nil,
			func() map[string]any {
				return map[string]any{"connector_type": "payment_processor", "connector_label": "x"}
			}, "", true},
		{"profiles create", "POST", fixed("/account/" + d.MerchantID + "/business_profile"), secret, nil,
			func() map[string]any { return map[string]any{"profile_name": unique("strict_")} }, "", true},
		{"profiles update", "POST", fixed("/account/" + d.MerchantID + "/business_profile/" + d.ProfileID), secret, nil,
			func() map[string]any { return map[string]any{"profile_name": "renamed"} }, "", true},
		{"api_keys create", "POST", fixed("/api_keys/" + d.MerchantID), admin, nil,
			func() map[string]any { return map[string]any{"name": "k", "expiration": "never"} }, "", true},
		{"v2 create-intent", "POST", fixed("/v2/payments/create-intent"), "", v2, minimalIntent, "", true},
		{"v2 update-intent", "PUT", func() string { return "/v2/payments/" + intent() + "/update-intent" }, "", v2,
			func() map[string]any { return map[string]any{"description": "d"} }, "", true},
		{"v2 confirm-intent", "POST", func() string { return "/v2/payments/" + intent() + "/confirm-intent" }, "", v2, v2Confirm, "", true},

		// Nested objects that ignore unknown members, inside a refusing body.
		inPayment("billing", fullPayment, false),
		inPayment("billing.address", fullPayment, false),
		inPayment("billing.phone", fullPayment, false),
		inPayment("shipping.address", fullPayment, false),
		inPayment("payment_method_data.billing", fullPayment, false),
		inPayment("payment_method_data.card", fullPayment, false),
		inPayment("browser_info", fullPayment, false),
		inPayment("order_details[0]", fullPayment, false),
		inPayment("customer", fullPayment, false),
		inPayment("surcharge_details", fullPayment, false),
		inPayment("connector_metadata", fullPayment, false),
		inPayment("feature_metadata", fullPayment, false),
		inPayment("three_ds_data", fullPayment, false),
		inPayment("ctp_service_details", fullPayment, false),
		inPayment("mandate_data.mandate_type.multi_use", mandatePayment, false),
		{"customer address (v1)", "POST", fixed("/customers"), secret, nil,
			func() map[string]any { return fullCustomer(unique("cus_strict_")) }, "address", false},
		{"merchant_details.address", "POST", fixed("/accounts"), admin, nil,
			func() map[string]any { return merchantBody(unique("merchant_strict_")) }, "merchant_details.address", false},
		{"v2 payment_method_data.card", "POST", func() string { return "/v2/payments/" + intent() + "/confirm-intent" }, "", v2,
			v2Confirm, "payment_method_data.card", false},
		{"v2 browser_info", "POST", func() string { return "/v2/payments/" + intent() + "/confirm-intent" }, "", v2,
			v2Confirm, "browser_info", false},

		// Nested objects that refuse.
		inPayment("payment_method_data", fullPayment, true),
		inPayment("mandate_data", mandatePayment, true),
		inPayment("mandate_data.customer_acceptance", mandatePayment, true),
		inPayment("mandate_data.customer_acceptance.online", mandatePayment, true),
		{"payment_methods create card", "POST", fixed("/payment_methods"), secret, nil, savedCard, "card", true},
		{"merchant_details", "POST", fixed("/accounts"), admin, nil,
			func() map[string]any { return merchantBody(unique("merchant_strict_")) }, "merchant_details", true},
		{"webhook_details", "POST", fixed("/accounts"), admin, nil,
			func() map[string]any { return merchantBody(unique("merchant_strict_")) }, "webhook_details", true},
		{"payment_methods_enabled[]", "POST", fixed("/account/" + d.MerchantID + "/connectors"), secret, nil, connector, "payment_methods_enabled[0]", true},
	}
	for _, tc := range rows {
		t.Run(tc.name, func(t *testing.T) {
			body := tc.body()
			putUnknown(t, body, tc.at)
			r := c.doWith(tc.method, tc.path(), tc.key, body, tc.headers)
			member := "zz_unknown"
			if tc.at != "" {
				member = tc.at + ".zz_unknown"
			}
			if tc.refused {
				if r.Status != 400 || r.errCode() != "IR_06" || r.str("error", "type") != "invalid_request" ||
					!strings.Contains(r.str("error", "message"), member) {
					t.Fatalf("want 400 IR_06 invalid_request naming %s, got %d %s", member, r.Status, r.Raw)
				}
				return
			}
			if r.Status != 200 {
				t.Fatalf("want the member ignored (200), got %d %s", r.Status, r.Raw)
			}
		})
	}
}

// putUnknown adds zz_unknown to the object at path ("a.b[0].c") in body.
func putUnknown(t *testing.T, body map[string]any, path string) {
	t.Helper()
	obj := body
	if path != "" {
		for step := range strings.SplitSeq(path, ".") {
			name, index, indexed := strings.Cut(strings.TrimSuffix(step, "]"), "[")
			var next any = obj[name]
			if indexed {
				i, _ := strconv.Atoi(index)
				next = next.([]any)[i]
			}
			// Copy on the way down: the bodies share maps (billingAddress).
			m, ok := next.(map[string]any)
			if !ok {
				t.Fatalf("%s: no object at %s in %v", path, step, body)
			}
			cp := make(map[string]any, len(m)+1)
			for k, v := range m {
				cp[k] = v
			}
			if indexed {
				i, _ := strconv.Atoi(index)
				arr := append([]any(nil), obj[name].([]any)...)
				arr[i] = cp
				obj[name] = arr
			} else {
				obj[name] = cp
			}
			obj = cp
		}
	}
	obj["zz_unknown"] = "surprise"
}
