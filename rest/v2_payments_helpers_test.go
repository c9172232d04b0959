package rest_test

import (
	"maps"
	"regexp"
	"slices"
	"testing"
)

// v2 calls carry `Authorization: api-key=<key>` and X-Profile-Id.
func v2Headers(key, profileID string) map[string]string {
	h := map[string]string{}
	if key != "" {
		h["Authorization"] = "api-key=" + key
	}
	if profileID != "" {
		h["X-Profile-Id"] = profileID
	}
	return h
}

func (c *client) v2(method, path, key, profileID string, body any) response {
	c.t.Helper()
	return c.doWith(method, path, "", body, v2Headers(key, profileID))
}

// createIntent makes an intent of the demo merchant's default profile.
func createIntent(t *testing.T, c *client, body map[string]any) response {
	t.Helper()
	d := c.srv.Demo
	return c.v2("POST", "/v2/payments/create-intent", d.SecretKey, d.ProfileID, body).must(t, 200)
}

func minimalIntent() map[string]any {
	return map[string]any{"amount_details": map[string]any{"currency": "USD", "order_amount": 6540}}
}

// intentMembers is the spec's payment intent object, member by member.
var intentMembers = []string{"id", "status", "amount_details", "client_secret", "profile_id", "capture_method",
	"customer_id", "customer_present", "setup_future_usage", "apply_mit_exemption", "payment_link_enabled",
	"request_incremental_authorization", "split_txns_enabled", "expires_on", "request_external_three_ds_authentication",
	"payment_type", "merchant_reference_id", "routing_algorithm_id", "authentication_type", "billing", "shipping",
	"description", "return_url", "statement_descriptor", "order_details", "allowed_payment_method_types", "metadata",
	"connector_metadata", "feature_metadata", "payment_link_config", "frm_metadata", "enable_partial_authorization"}

var amountDetailsMembers = []string{"order_amount", "currency", "external_tax_calculation", "surcharge_calculation",
	"shipping_cost", "order_tax_amount", "surcharge_amount", "tax_on_surcharge", "amount_captured"}

func assertMembers(t *testing.T, what string, obj map[string]any, want []string) {
	t.Helper()
	got := slices.Sorted(maps.Keys(obj))
	if w := slices.Sorted(slices.Values(want)); !slices.Equal(got, w) {
		t.Fatalf("%s members:\n got %v\nwant %v", what, got, w)
	}
}

var clientSecretValue = regexp.MustCompile(`"client_secret":"[^"]+"`)

// intentGolden compares an intent with its client secret (which embeds
// the payment id) and run-specific ids replaced.
func intentGolden(t *testing.T, name string, r response, pairs ...string) {
	t.Helper()
	raw := clientSecretValue.ReplaceAllString(string(r.Raw), `"client_secret":"{client secret}"`)
	golden(t, name, normalized([]byte(raw), append([]string{r.str("id"), "{payment id}"}, pairs...)...))
}

// fullIntent sets every member of PaymentsCreateIntentRequest, with the
// documented nested shapes.
func fullIntent() map[string]any {
	address := map[string]any{
		"address": map[string]any{"city": "San Francisco", "country": "US", "line1": "1467 Harrison Street",
			"line2": "Harrison Street", "line3": "Suite 4", "zip": "94122", "state": "California",
			"first_name": "Jane", "last_name": "Doe", "origin_zip": "94107"},
		"phone": map[string]any{"number": "9123456789", "country_code": "+1"},
		"email": "jane@example.com",
	}
	return map[string]any{
		"amount_details": map[string]any{"order_amount": 6540, "currency": "USD", "shipping_cost": 500,
			"order_tax_amount": 120, "skip_external_tax_calculation": "skip", "skip_surcharge_calculation": "skip",
			"surcharge_amount": 30, "tax_on_surcharge": 3},
		"merchant_reference_id": "order_2024_0001",
		"routing_algorithm_id":  "routing_algo_1",
		"capture_method":        "manual",
		"authentication_type":   "three_ds",
		"billing":               address,
		"shipping":              address,
		"customer_id":           "cus_0123456789abcdef0123456789abcdef",
		"customer_present":      "absent",
		"description":           "It's my first payment request",
		"return_url":            "https://shop.example.com/return",
		"setup_future_usage":    "off_session",
		"apply_mit_exemption":   "Apply",
		"statement_descriptor":  "Switchyard Shop",
		"order_details": []any{
			map[string]any{"product_name": "Apple iPhone 16", "quantity": 1, "amount": 6000,
				"product_img_link": "https://img.example.com/16.png", "product_id": "iphone16", "category": "phones",
				"sub_category": "smart", "brand": "Apple", "product_type": "physical", "sku": "IP16", "requires_shipping": true,
				"tax_rate": 0.2, "total_tax_amount": 100},
			map[string]any{"product_name": "Case", "quantity": 2, "amount": 270},
		},
		"allowed_payment_method_types": []string{"credit", "debit"},
		"metadata":                     map[string]any{"udf1": "some-value", "nested": map[string]any{"k": 1}},
		"connector_metadata": map[string]any{
			"apple_pay": map[string]any{"session_token_data": map[string]any{
				"payment_processing_details_at": "Connector", "certificate": "cert", "certificate_keys": "keys",
				"merchant_identifier": "merchant.com.example", "display_name": "Shop", "initiative": "web",
				"initiative_context": "shop.example.com", "merchant_business_country": "US"}},
			"airwallex": map[string]any{"payload": "payload"},
			"noon":      map[string]any{"order_category": "pay"},
			"braintree": map[string]any{"merchant_account_id": "ma_1", "merchant_config_currency": "USD"},
			"adyen":     map[string]any{"testing": map[string]any{"holder_name": "Jane Doe"}},
		},
		"feature_metadata": map[string]any{
			"redirect_response": map[string]any{"param": "p", "json_payload": map[string]any{"a": "b"}},
			"search_tags":       []string{"vip", "mobile"},
			"apple_pay_recurring_details": map[string]any{
				"payment_description": "Monthly plan", "management_url": "https://shop.example.com/manage",
				"billing_agreement": "agreement",
				"regular_billing": map[string]any{"label": "Plan", "recurring_payment_start_date": "2025-01-01T00:00:00Z",
					"recurring_payment_end_date": "2026-01-01T00:00:00Z", "recurring_payment_interval_unit": "month",
					"recurring_payment_interval_count": 1},
			},
		},
		"payment_link_enabled": "Enable",
		"payment_link_config": map[string]any{
			"theme": "#4E6ADD", "logo": "https://shop.example.com/logo.png", "seller_name": "Shop", "sdk_layout": "accordion",
			"display_sdk_only": true, "enabled_saved_payment_method": false, "hide_card_nickname_field": true,
			"show_card_form_by_default": true,
			"transaction_details": []any{map[string]any{"key": "Policy-Number", "value": "297472368473924",
				"ui_configuration": map[string]any{"position": 5, "is_key_bold": true, "is_value_bold": false}}},
			"background_image":         map[string]any{"url": "https://shop.example.com/bg.png", "position": "left", "size": "cover"},
			"details_layout":           "layout1",
			"payment_form_label_type":  "floating",
			"show_card_terms":          "auto",
			"skip_status_screen":       true,
			"is_setup_mandate_flow":    false,
			"payment_button_text":      "Pay now",
			"payment_link_ui_rules":    map[string]any{"#submit": map[string]any{"color": "red"}},
			"payment_form_header_text": "Checkout",
		},
		"request_incremental_authorization":        "true",
		"session_expiry":                           1200,
		"frm_metadata":                             map[string]any{"score": "low"},
		"request_external_three_ds_authentication": "Enable",
		"force_3ds_challenge":                      false,
		"merchant_connector_details":               map[string]any{"ignored": true},
		"enable_partial_authorization":             true,
	}
}
