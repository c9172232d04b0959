package rest_test

import (
	"fmt"
	"strings"
	"testing"
)

func withMembers(body map[string]any, members map[string]any) map[string]any {
	for k, v := range members {
		body[k] = v
	}
	return body
}

// connectorCase is one validation rule over the REST API.
type connectorCase struct {
	name   string
	body   any
	status int
	code   string
	// field must appear in the message (the offending member's path).
	field string
}

// body returns minimalConnector with the members of patch set, where a nil
// value deletes the member.
func body(patch map[string]any) map[string]any { return patched(minimalConnector(), patch) }

// patched sets the members of patch on b, where a nil value deletes the
// member, and returns b.
func patched(b, patch map[string]any) map[string]any {
	for k, v := range patch {
		if v == nil {
			delete(b, k)
		} else {
			b[k] = v
		}
	}
	return b
}

// pme wraps one RequestPaymentMethodTypes in payment_methods_enabled.
func pme(pmt map[string]any) map[string]any {
	return body(map[string]any{"payment_methods_enabled": []any{
		map[string]any{"payment_method": "card", "payment_method_types": []any{
			map[string]any{"payment_method_type": "credit"}, pmt,
		}},
	}})
}

const pmtPath = "payment_methods_enabled[0].payment_method_types[1]"

// frm wraps one FrmPaymentMethodType in frm_configs.
func frm(pmt map[string]any) map[string]any {
	return body(map[string]any{"frm_configs": []any{map[string]any{
		"gateway": "payment_processor",
		"payment_methods": []any{map[string]any{
			"payment_method": "card", "payment_method_types": []any{pmt},
		}},
	}}})
}

const frmPath = "frm_configs[0].payment_methods[0].payment_method_types[0]"

func frmType(patch map[string]any) map[string]any {
	t := map[string]any{"payment_method_type": "credit", "card_networks": "Visa", "flow": "pre", "action": "cancel_txn"}
	for k, v := range patch {
		if v == nil {
			delete(t, k)
		} else {
			t[k] = v
		}
	}
	return t
}

// account wraps a MerchantAccountData in additional_merchant_data.
func account(data map[string]any) map[string]any {
	return body(map[string]any{"additional_merchant_data": map[string]any{
		"open_banking_recipient_data": map[string]any{"account_data": data},
	}})
}

const accountPath = "additional_merchant_data.open_banking_recipient_data.account_data"

func manyKeys(n int) map[string]any {
	m := make(map[string]any, n)
	for i := range n {
		m[fmt.Sprintf("key_%02d", i)] = "value"
	}
	return m
}

// TestConnectorCreateValidation: every rule of MerchantConnectorCreate is a
// 400 (or 404) with its code, naming the offending member by its path.
func TestConnectorCreateValidation(t *testing.T) {
	c := newClient(t)
	_, _, foreignProfile := otherMerchant(t, c, "merchant_foreign")
	long := strings.Repeat("x", 65)
	cases := []connectorCase{
		// The envelope.
		{"malformed json", `{"connector_type": "payment_processor",`, 400, "IR_06", ""},
		{"empty body", ``, 400, "IR_06", ""},
		{"array body", `[]`, 400, "IR_06", ""},
		{"trailing data", `{"connector_type":"payment_processor","connector_name":"stripe"} {}`, 400, "IR_06", ""},
		{"unknown member", body(map[string]any{"connector_secret": "x"}), 400, "IR_06", "connector_secret"},
		{"unknown member, case differs", body(map[string]any{"Connector_Name": "stripe"}), 400, "IR_06", "Connector_Name"},
		// Mandatory members.
		{"missing connector_type", body(map[string]any{"connector_type": nil}), 400, "IR_04", "connector_type"},
		{"null connector_type", `{"connector_type":null,"connector_name":"stripe"}`, 400, "IR_04", "connector_type"},
		{"missing connector_name", body(map[string]any{"connector_name": nil}), 400, "IR_04", "connector_name"},
		{"empty connector_name", body(map[string]any{"connector_name": ""}), 400, "IR_04", "connector_name"},
		// Closed enumerations at the top.
		{"connector_type outside the spec", body(map[string]any{"connector_type": "surcharge_processor"}), 400, "IR_07", "connector_type"},
		{"connector_type wrong type", body(map[string]any{"connector_type": 1}), 400, "IR_06", "connector_type"},
		{"unknown connector_name", body(map[string]any{"connector_name": "stripey"}), 400, "IR_07", "connector_name"},
		{"connector_name case differs", body(map[string]any{"connector_name": "Stripe"}), 400, "IR_07", "connector_name"},
		{"status", body(map[string]any{"status": "paused"}), 400, "IR_07", "status"},
		{"business_country", body(map[string]any{"business_country": "XX"}), 400, "IR_07", "business_country"},
		{"business_country lower case", body(map[string]any{"business_country": "us"}), 400, "IR_07", "business_country"},
		// Scalars and limits.
		{"profile_id over 64", body(map[string]any{"profile_id": long}), 400, "IR_07", "profile_id"},
		{"profile_id empty", body(map[string]any{"profile_id": ""}), 400, "IR_07", "profile_id"},
		{"profile_id unknown", body(map[string]any{"profile_id": "pro_nope"}), 404, "HE_02", "pro_nope"},
		{"profile_id of another merchant", body(map[string]any{"profile_id": foreignProfile}), 404, "HE_02", foreignProfile},
		{"connector_label empty", body(map[string]any{"connector_label": ""}), 400, "IR_07", "connector_label"},
		{"connector_label over 255", body(map[string]any{"connector_label": strings.Repeat("l", 256)}), 400, "IR_07", "connector_label"},
		{"business_label over 64", body(map[string]any{"business_label": long}), 400, "IR_07", "business_label"},
		{"business_sub_label over 64", body(map[string]any{"business_sub_label": long}), 400, "IR_07", "business_sub_label"},
		{"test_mode wrong type", body(map[string]any{"test_mode": "yes"}), 400, "IR_06", "test_mode"},
		{"disabled wrong type", body(map[string]any{"disabled": 0}), 400, "IR_06", "disabled"},
		{"metadata not an object", body(map[string]any{"metadata": []any{1}}), 400, "IR_06", "metadata"},
		{"pm_auth_config not an object", body(map[string]any{"pm_auth_config": "x"}), 400, "IR_06", "pm_auth_config"},
		{"merchant_connector_id wrong type", body(map[string]any{"merchant_connector_id": 5}), 400, "IR_06", "merchant_connector_id"},
		// connector_account_details.
		{"details not an object", body(map[string]any{"connector_account_details": "sk_x"}), 400, "IR_06", "connector_account_details"},
		{"details nested value over 500", body(map[string]any{"connector_account_details": map[string]any{"auth_key_map": map[string]any{"USD": map[string]any{"api_key": strings.Repeat("v", 501)}}}}), 400, "IR_07", "connector_account_details.auth_key_map.USD.api_key"},
		{"details 51 keys", body(map[string]any{"connector_account_details": manyKeys(51)}), 400, "IR_07", "connector_account_details"},
		{"details key over 40", body(map[string]any{"connector_account_details": map[string]any{strings.Repeat("k", 41): "v"}}), 400, "IR_07", "connector_account_details." + strings.Repeat("k", 41)},
		{"details value over 500", body(map[string]any{"connector_account_details": map[string]any{"api_key": strings.Repeat("v", 501)}}), 400, "IR_07", "connector_account_details.api_key"},
		{"details empty key", body(map[string]any{"connector_account_details": map[string]any{"": "v"}}), 400, "IR_07", "connector_account_details"},
		// payment_methods_enabled.
		{"pme not an array", body(map[string]any{"payment_methods_enabled": map[string]any{}}), 400, "IR_06", "payment_methods_enabled"},
		{"pme missing payment_method", body(map[string]any{"payment_methods_enabled": []any{map[string]any{"payment_method_types": []any{}}}}), 400, "IR_04", "payment_methods_enabled[0].payment_method"},
		{"pme payment_method", body(map[string]any{"payment_methods_enabled": []any{map[string]any{"payment_method": "cash"}}}), 400, "IR_07", "payment_methods_enabled[0].payment_method"},
		{"pme unknown member", body(map[string]any{"payment_methods_enabled": []any{map[string]any{"payment_method": "card", "enabled": true}}}), 400, "IR_06", "payment_methods_enabled[0].enabled"},
		{"pmt missing payment_method_type", pme(map[string]any{"payment_experience": "redirect_to_url"}), 400, "IR_04", pmtPath + ".payment_method_type"},
		{"pmt payment_method_type", pme(map[string]any{"payment_method_type": "visa_card"}), 400, "IR_07", pmtPath + ".payment_method_type"},
		{"pmt unknown member", pme(map[string]any{"payment_method_type": "credit", "priority": 1}), 400, "IR_06", pmtPath + ".priority"},
		{"pmt payment_experience", pme(map[string]any{"payment_method_type": "credit", "payment_experience": "popup"}), 400, "IR_07", pmtPath + ".payment_experience"},
		{"pmt card network", pme(map[string]any{"payment_method_type": "credit", "card_networks": []any{"Visa", "visa"}}), 400, "IR_07", pmtPath + ".card_networks[1]"},
		{"pmt card network wrong type", pme(map[string]any{"payment_method_type": "credit", "card_networks": []any{7}}), 400, "IR_06", pmtPath + ".card_networks[0]"},
		{"pmt card_networks not an array", pme(map[string]any{"payment_method_type": "credit", "card_networks": "Visa"}), 400, "IR_06", pmtPath + ".card_networks"},
		{"currencies missing type", pme(map[string]any{"payment_method_type": "credit", "accepted_currencies": map[string]any{"list": []any{"USD"}}}), 400, "IR_04", pmtPath + ".accepted_currencies.type"},
		{"currencies type", pme(map[string]any{"payment_method_type": "credit", "accepted_currencies": map[string]any{"type": "only"}}), 400, "IR_07", pmtPath + ".accepted_currencies.type"},
		{"currencies enable_only without list", pme(map[string]any{"payment_method_type": "credit", "accepted_currencies": map[string]any{"type": "enable_only"}}), 400, "IR_04", pmtPath + ".accepted_currencies.list"},
		{"currencies disable_only without list", pme(map[string]any{"payment_method_type": "credit", "accepted_currencies": map[string]any{"type": "disable_only"}}), 400, "IR_04", pmtPath + ".accepted_currencies.list"},
		{"currencies all_accepted with list", pme(map[string]any{"payment_method_type": "credit", "accepted_currencies": map[string]any{"type": "all_accepted", "list": []any{"USD"}}}), 400, "IR_07", pmtPath + ".accepted_currencies.list"},
		{"currency outside the set", pme(map[string]any{"payment_method_type": "credit", "accepted_currencies": map[string]any{"type": "enable_only", "list": []any{"USD", "XXX"}}}), 400, "IR_07", pmtPath + ".accepted_currencies.list[1]"},
		{"currencies unknown member", pme(map[string]any{"payment_method_type": "credit", "accepted_currencies": map[string]any{"type": "all_accepted", "except": []any{}}}), 400, "IR_06", pmtPath + ".accepted_currencies.except"},
		{"countries enable_only without list", pme(map[string]any{"payment_method_type": "credit", "accepted_countries": map[string]any{"type": "enable_only"}}), 400, "IR_04", pmtPath + ".accepted_countries.list"},
		{"countries all_accepted with list", pme(map[string]any{"payment_method_type": "credit", "accepted_countries": map[string]any{"type": "all_accepted", "list": []any{}}}), 400, "IR_07", pmtPath + ".accepted_countries.list"},
		{"country outside ISO 3166", pme(map[string]any{"payment_method_type": "credit", "accepted_countries": map[string]any{"type": "disable_only", "list": []any{"ZZ"}}}), 400, "IR_07", pmtPath + ".accepted_countries.list[0]"},
		{"countries list wrong type", pme(map[string]any{"payment_method_type": "credit", "accepted_countries": map[string]any{"type": "enable_only", "list": "US"}}), 400, "IR_06", pmtPath + ".accepted_countries.list"},
		{"minimum_amount negative", pme(map[string]any{"payment_method_type": "credit", "minimum_amount": -1}), 400, "IR_07", pmtPath + ".minimum_amount"},
		{"maximum_amount negative", pme(map[string]any{"payment_method_type": "credit", "maximum_amount": -5}), 400, "IR_07", pmtPath + ".maximum_amount"},
		{"minimum over maximum", pme(map[string]any{"payment_method_type": "credit", "minimum_amount": 10, "maximum_amount": 9}), 400, "IR_07", pmtPath + ".maximum_amount"},
		{"minimum_amount not an integer", pme(map[string]any{"payment_method_type": "credit", "minimum_amount": 1.5}), 400, "IR_06", pmtPath + ".minimum_amount"},
		{"maximum_amount over 2^53", pme(map[string]any{"payment_method_type": "credit", "maximum_amount": int64(1) << 60}), 400, "IR_07", pmtPath + ".maximum_amount"},
		{"recurring_enabled wrong type", pme(map[string]any{"payment_method_type": "credit", "recurring_enabled": "true"}), 400, "IR_06", pmtPath + ".recurring_enabled"},
		{"installment_payment_enabled wrong type", pme(map[string]any{"payment_method_type": "credit", "installment_payment_enabled": 1}), 400, "IR_06", pmtPath + ".installment_payment_enabled"},
		// connector_webhook_details.
		{"webhook missing merchant_secret", body(map[string]any{"connector_webhook_details": map[string]any{"additional_secret": "a"}}), 400, "IR_04", "connector_webhook_details.merchant_secret"},
		{"webhook missing additional_secret", body(map[string]any{"connector_webhook_details": map[string]any{"merchant_secret": "m"}}), 400, "IR_04", "connector_webhook_details.additional_secret"},
		{"webhook unknown member", body(map[string]any{"connector_webhook_details": map[string]any{"merchant_secret": "m", "additional_secret": "a", "url": "x"}}), 400, "IR_06", "connector_webhook_details.url"},
		{"webhook secret wrong type", body(map[string]any{"connector_webhook_details": map[string]any{"merchant_secret": 1, "additional_secret": "a"}}), 400, "IR_06", "connector_webhook_details.merchant_secret"},
		// frm_configs.
		{"frm missing gateway", body(map[string]any{"frm_configs": []any{map[string]any{"payment_methods": []any{}}}}), 400, "IR_04", "frm_configs[0].gateway"},
		{"frm gateway", body(map[string]any{"frm_configs": []any{map[string]any{"gateway": "signifyd", "payment_methods": []any{}}}}), 400, "IR_07", "frm_configs[0].gateway"},
		{"frm missing payment_methods", body(map[string]any{"frm_configs": []any{map[string]any{"gateway": "payment_vas"}}}), 400, "IR_04", "frm_configs[0].payment_methods"},
		{"frm unknown member", body(map[string]any{"frm_configs": []any{map[string]any{"gateway": "payment_vas", "payment_methods": []any{}, "mode": "x"}}}), 400, "IR_06", "frm_configs[0].mode"},
		{"frm payment_method missing", body(map[string]any{"frm_configs": []any{map[string]any{"gateway": "payment_vas", "payment_methods": []any{map[string]any{"flow": "pre"}}}}}), 400, "IR_04", "frm_configs[0].payment_methods[0].payment_method"},
		{"frm payment_method", body(map[string]any{"frm_configs": []any{map[string]any{"gateway": "payment_vas", "payment_methods": []any{map[string]any{"payment_method": "cheque"}}}}}), 400, "IR_07", "frm_configs[0].payment_methods[0].payment_method"},
		{"frm flow", body(map[string]any{"frm_configs": []any{map[string]any{"gateway": "payment_vas", "payment_methods": []any{map[string]any{"payment_method": "card", "flow": "during"}}}}}), 400, "IR_07", "frm_configs[0].payment_methods[0].flow"},
		{"frm type missing payment_method_type", frm(frmType(map[string]any{"payment_method_type": nil})), 400, "IR_04", frmPath + ".payment_method_type"},
		{"frm type missing card_networks", frm(frmType(map[string]any{"card_networks": nil})), 400, "IR_04", frmPath + ".card_networks"},
		{"frm type missing flow", frm(frmType(map[string]any{"flow": nil})), 400, "IR_04", frmPath + ".flow"},
		{"frm type missing action", frm(frmType(map[string]any{"action": nil})), 400, "IR_04", frmPath + ".action"},
		{"frm type payment_method_type", frm(frmType(map[string]any{"payment_method_type": "gold"})), 400, "IR_07", frmPath + ".payment_method_type"},
		{"frm type card_networks", frm(frmType(map[string]any{"card_networks": "Diners"})), 400, "IR_07", frmPath + ".card_networks"},
		{"frm type card_networks is one value", frm(frmType(map[string]any{"card_networks": []any{"Visa"}})), 400, "IR_06", frmPath + ".card_networks"},
		{"frm type flow", frm(frmType(map[string]any{"flow": "mid"})), 400, "IR_07", frmPath + ".flow"},
		{"frm type action", frm(frmType(map[string]any{"action": "block"})), 400, "IR_07", frmPath + ".action"},
		{"frm type unknown member", frm(frmType(map[string]any{"score": 10})), 400, "IR_06", frmPath + ".score"},
		// additional_merchant_data.
		{"amd missing recipient data", body(map[string]any{"additional_merchant_data": map[string]any{}}), 400, "IR_04", "additional_merchant_data.open_banking_recipient_data"},
		{"amd unknown member", body(map[string]any{"additional_merchant_data": map[string]any{"card_recipient_data": map[string]any{}}}), 400, "IR_06", "additional_merchant_data.card_recipient_data"},
		{"recipient none", body(map[string]any{"additional_merchant_data": map[string]any{"open_banking_recipient_data": map[string]any{}}}), 400, "IR_07", "additional_merchant_data.open_banking_recipient_data"},
		{"recipient two", body(map[string]any{"additional_merchant_data": map[string]any{"open_banking_recipient_data": map[string]any{"wallet_id": "w", "connector_recipient_id": "c"}}}), 400, "IR_07", "additional_merchant_data.open_banking_recipient_data"},
		{"recipient unknown member", body(map[string]any{"additional_merchant_data": map[string]any{"open_banking_recipient_data": map[string]any{"email": "x"}}}), 400, "IR_06", "additional_merchant_data.open_banking_recipient_data.email"},
		{"account none", account(map[string]any{}), 400, "IR_07", accountPath},
		{"account two variants", account(map[string]any{"sepa": map[string]any{"iban": "DE89370400440532013000", "name": "A"}, "sepa_instant": map[string]any{"iban": "DE89370400440532013000", "name": "A"}}), 400, "IR_07", accountPath},
		{"account unknown variant", account(map[string]any{"swift": map[string]any{}}), 400, "IR_06", accountPath + ".swift"},
		{"iban over 34", account(map[string]any{"iban": map[string]any{"iban": "GB" + strings.Repeat("1", 33), "name": "A"}}), 400, "IR_07", accountPath + ".iban.iban"},
		{"iban missing", account(map[string]any{"iban": map[string]any{"name": "A"}}), 400, "IR_04", accountPath + ".iban.iban"},
		{"iban missing name", account(map[string]any{"iban": map[string]any{"iban": "GB33BUKB20201555555555"}}), 400, "IR_04", accountPath + ".iban.name"},
		{"iban unknown member", account(map[string]any{"iban": map[string]any{"iban": "GB33BUKB20201555555555", "name": "A", "bic": "X"}}), 400, "IR_06", accountPath + ".iban.bic"},
		{"bacs account_number 7 digits", account(map[string]any{"bacs": map[string]any{"account_number": "1234567", "sort_code": "123456", "name": "A"}}), 400, "IR_07", accountPath + ".bacs.account_number"},
		{"bacs account_number letters", account(map[string]any{"bacs": map[string]any{"account_number": "1234567a", "sort_code": "123456", "name": "A"}}), 400, "IR_07", accountPath + ".bacs.account_number"},
		{"bacs sort_code 5 digits", account(map[string]any{"bacs": map[string]any{"account_number": "12345678", "sort_code": "12345", "name": "A"}}), 400, "IR_07", accountPath + ".bacs.sort_code"},
		{"bacs missing name", account(map[string]any{"bacs": map[string]any{"account_number": "12345678", "sort_code": "123456"}}), 400, "IR_04", accountPath + ".bacs.name"},
		{"faster_payments missing sort_code", account(map[string]any{"faster_payments": map[string]any{"account_number": "12345678", "name": "A"}}), 400, "IR_04", accountPath + ".faster_payments.sort_code"},
		{"faster_payments account_number 9 digits", account(map[string]any{"faster_payments": map[string]any{"account_number": "123456789", "sort_code": "123456", "name": "A"}}), 400, "IR_07", accountPath + ".faster_payments.account_number"},
		{"sepa missing iban", account(map[string]any{"sepa": map[string]any{"name": "A"}}), 400, "IR_04", accountPath + ".sepa.iban"},
		{"sepa_instant unknown member", account(map[string]any{"sepa_instant": map[string]any{"iban": "DE89370400440532013000", "name": "A", "x": 1}}), 400, "IR_06", accountPath + ".sepa_instant.x"},
		{"elixir account_number 25 digits", account(map[string]any{"elixir": map[string]any{"account_number": strings.Repeat("1", 25), "iban": "PL27114020040000300201355387", "name": "A"}}), 400, "IR_07", accountPath + ".elixir.account_number"},
		{"elixir iban 27", account(map[string]any{"elixir": map[string]any{"account_number": strings.Repeat("1", 26), "iban": "PL2711402004000030020135538", "name": "A"}}), 400, "IR_07", accountPath + ".elixir.iban"},
		{"bankgiro 6 digits", account(map[string]any{"bankgiro": map[string]any{"number": "540-965", "name": "A"}}), 400, "IR_07", accountPath + ".bankgiro.number"},
		{"bankgiro 9 digits", account(map[string]any{"bankgiro": map[string]any{"number": "540296561", "name": "A"}}), 400, "IR_07", accountPath + ".bankgiro.number"},
		{"plusgiro 1 digit", account(map[string]any{"plusgiro": map[string]any{"number": "4", "name": "A"}}), 400, "IR_07", accountPath + ".plusgiro.number"},
		{"plusgiro 9 digits", account(map[string]any{"plusgiro": map[string]any{"number": "478923456", "name": "A"}}), 400, "IR_07", accountPath + ".plusgiro.number"},
		{"plusgiro letters", account(map[string]any{"plusgiro": map[string]any{"number": "47a9-2", "name": "A"}}), 400, "IR_07", accountPath + ".plusgiro.number"},
		// connector_wallets_details.
		{"wallets unknown member", body(map[string]any{"connector_wallets_details": map[string]any{"venmo": map[string]any{}}}), 400, "IR_06", "connector_wallets_details.venmo"},
		{"wallet not an object", body(map[string]any{"connector_wallets_details": map[string]any{"google_pay": "key"}}), 400, "IR_06", "connector_wallets_details.google_pay"},
	}
	path := "/account/" + c.srv.Demo.MerchantID + "/connectors"
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := c.do("POST", path, c.srv.Demo.SecretKey, tc.body)
			if r.Status != tc.status || r.errCode() != tc.code || r.str("error", "type") != "invalid_request" {
				t.Fatalf("got %d %s, want %d %s", r.Status, r.Raw, tc.status, tc.code)
			}
			if msg := r.str("error", "message"); msg == "" || !strings.Contains(msg, tc.field) {
				t.Fatalf("message %q does not name %q", msg, tc.field)
			}
		})
	}
	// Nothing was created by any of them.
	if list := c.do("GET", path, c.srv.Demo.SecretKey, nil).must(t, 200); len(list.Body.([]any)) != 1 {
		t.Fatalf("a refused request created an account: %s", list.Raw)
	}
}

// TestConnectorValidBodies: the boundary values of each rule are accepted.
func TestConnectorValidBodies(t *testing.T) {
	c := newClient(t)
	path := "/account/" + c.srv.Demo.MerchantID + "/connectors"
	n := 0
	label := func(b map[string]any) map[string]any {
		n++
		b["connector_label"] = fmt.Sprintf("valid_%d", n)
		return b
	}
	for name, b := range map[string]map[string]any{
		"50 keys":               body(map[string]any{"connector_account_details": manyKeys(50)}),
		"key 40, value 500":     body(map[string]any{"connector_account_details": map[string]any{strings.Repeat("k", 40): strings.Repeat("v", 500)}}),
		"profile_id given":      body(map[string]any{"profile_id": c.srv.Demo.ProfileID}),
		"iban 34":               account(map[string]any{"iban": map[string]any{"iban": "MT" + strings.Repeat("1", 32), "name": "A"}}),
		"faster_payments":       account(map[string]any{"faster_payments": map[string]any{"account_number": "12345678", "sort_code": "123456", "name": "A"}}),
		"sepa":                  account(map[string]any{"sepa": map[string]any{"iban": "FR1420041010050500013M02606", "name": "A"}}),
		"sepa_instant":          account(map[string]any{"sepa_instant": map[string]any{"iban": "DE89370400440532013000", "name": "A", "connector_recipient_id": nil}}),
		"elixir":                account(map[string]any{"elixir": map[string]any{"account_number": "12345678901234567890123456", "iban": "PL27114020040000300201355387", "name": "A"}}),
		"bankgiro 7":            account(map[string]any{"bankgiro": map[string]any{"number": "540-9656", "name": "A"}}),
		"bankgiro 8":            account(map[string]any{"bankgiro": map[string]any{"number": "5402-9656", "name": "A"}}),
		"plusgiro 2":            account(map[string]any{"plusgiro": map[string]any{"number": "4-7", "name": "A"}}),
		"plusgiro 8":            account(map[string]any{"plusgiro": map[string]any{"number": "12345678", "name": "A"}}),
		"wallet_id":             body(map[string]any{"additional_merchant_data": map[string]any{"open_banking_recipient_data": map[string]any{"wallet_id": "w_1"}}}),
		"connector_recipient":   body(map[string]any{"additional_merchant_data": map[string]any{"open_banking_recipient_data": map[string]any{"connector_recipient_id": "r_1"}}}),
		"every wallet":          body(map[string]any{"connector_wallets_details": map[string]any{"apple_pay_combined": map[string]any{}, "apple_pay": map[string]any{}, "amazon_pay": map[string]any{}, "samsung_pay": map[string]any{}, "paze": map[string]any{}, "google_pay": map[string]any{}}}),
		"test connector":        body(map[string]any{"connector_name": "fauxpay", "connector_type": "vault_processor"}),
		"nulls everywhere":      body(map[string]any{"connector_label": nil, "profile_id": nil, "payment_methods_enabled": nil, "status": nil, "connector_wallets_details": nil}),
		"inactive":              body(map[string]any{"status": "inactive", "disabled": true}),
		"every card network":    pme(map[string]any{"payment_method_type": "debit", "card_networks": []any{"Visa", "Mastercard", "AmericanExpress", "JCB", "DinersClub", "Discover", "CartesBancaires", "UnionPay", "Interac", "RuPay", "Maestro", "Star", "Pulse", "Accel", "Nyce"}}),
		"empty enable_only":     pme(map[string]any{"payment_method_type": "debit", "accepted_currencies": map[string]any{"type": "enable_only", "list": []any{}}}),
		"frm without types":     body(map[string]any{"frm_configs": []any{map[string]any{"gateway": "payment_vas", "payment_methods": []any{map[string]any{"payment_method": "card"}}}}}),
		"no credentials at all": body(map[string]any{"connector_account_details": nil}),
	} {
		t.Run(name, func(t *testing.T) {
			r := c.do("POST", path, c.srv.Demo.SecretKey, label(b))
			if r.Status != 200 {
				t.Fatalf("got %d %s", r.Status, r.Raw)
			}
		})
	}
}

// TestConnectorUpdateValidation: MerchantConnectorUpdate is closed, needs
// connector_type and validates like create.
func TestConnectorUpdateValidation(t *testing.T) {
	c := newClient(t)
	m, key := c.srv.Demo.MerchantID, c.srv.Demo.SecretKey
	mca := c.do("POST", "/account/"+m+"/connectors", key, minimalConnector()).must(t, 200).str("merchant_connector_id")
	path := "/account/" + m + "/connectors/" + mca
	upd := func(members map[string]any) map[string]any {
		return patched(map[string]any{"connector_type": "payment_processor"}, members)
	}
	cases := []connectorCase{
		{"missing connector_type", upd(map[string]any{"connector_type": nil, "status": "inactive"}), 400, "IR_04", "connector_type"},
		{"connector_type", upd(map[string]any{"connector_type": "bank"}), 400, "IR_07", "connector_type"},
		{"connector_name is not updatable", upd(map[string]any{"connector_name": "adyen"}), 400, "IR_06", "connector_name"},
		{"profile_id is not updatable", upd(map[string]any{"profile_id": c.srv.Demo.ProfileID}), 400, "IR_06", "profile_id"},
		{"business_country is not updatable", upd(map[string]any{"business_country": "US"}), 400, "IR_06", "business_country"},
		{"status", upd(map[string]any{"status": "on"}), 400, "IR_07", "status"},
		{"label empty", upd(map[string]any{"connector_label": ""}), 400, "IR_07", "connector_label"},
		{"details nested 51 keys", upd(map[string]any{"connector_account_details": map[string]any{"auth_key_map": manyKeys(51)}}), 400, "IR_07", "connector_account_details.auth_key_map"},
		{"details 51 keys", upd(map[string]any{"connector_account_details": manyKeys(51)}), 400, "IR_07", "connector_account_details"},
		{"pme card network", upd(map[string]any{"payment_methods_enabled": []any{map[string]any{"payment_method": "card", "payment_method_types": []any{map[string]any{"payment_method_type": "credit", "card_networks": []any{"Amex"}}}}}}), 400, "IR_07", "payment_methods_enabled[0].payment_method_types[0].card_networks[0]"},
		{"webhook missing secret", upd(map[string]any{"connector_webhook_details": map[string]any{"merchant_secret": "m"}}), 400, "IR_04", "connector_webhook_details.additional_secret"},
		{"frm action", upd(map[string]any{"frm_configs": []any{map[string]any{"gateway": "payment_vas", "payment_methods": []any{map[string]any{"payment_method": "card", "payment_method_types": []any{frmType(map[string]any{"action": "x"})}}}}}}), 400, "IR_07", frmPath + ".action"},
		{"account data", upd(map[string]any{"additional_merchant_data": map[string]any{"open_banking_recipient_data": map[string]any{"account_data": map[string]any{"bacs": map[string]any{"account_number": "1", "sort_code": "123456", "name": "A"}}}}}), 400, "IR_07", accountPath + ".bacs.account_number"},
		{"wallets unknown member", upd(map[string]any{"connector_wallets_details": map[string]any{"apple": map[string]any{}}}), 400, "IR_06", "connector_wallets_details.apple"},
		{"malformed json", `{"connector_type":`, 400, "IR_06", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := c.do("POST", path, key, tc.body)
			if r.Status != tc.status || r.errCode() != tc.code {
				t.Fatalf("got %d %s, want %d %s", r.Status, r.Raw, tc.status, tc.code)
			}
			if msg := r.str("error", "message"); msg == "" || !strings.Contains(msg, tc.field) {
				t.Fatalf("message %q does not name %q", msg, tc.field)
			}
		})
	}
	// None of them changed the account.
	got := c.do("GET", path, key, nil).must(t, 200)
	if got.str("status") != "active" || got.str("connector_label") != "default_stripe" {
		t.Fatalf("a refused update changed the account: %s", got.Raw)
	}
	// Auth: no key, and an unknown id.
	if r := c.do("POST", path, "", upd(nil)); r.Status != 401 || r.errCode() != "IR_01" {
		t.Fatalf("no key: %d %s", r.Status, r.Raw)
	}
	if r := c.do("POST", "/account/"+m+"/connectors/mca_nope", key, upd(nil)); r.Status != 404 || r.errCode() != "HE_02" {
		t.Fatalf("unknown id: %d %s", r.Status, r.Raw)
	}
}
