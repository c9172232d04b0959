package rest_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"switchyard/internal/testenv"
)

// The payment method families beyond cards (docs/sandbox.md, "Other
// payment methods"): each in its Hyperswitch payment_method_data shape,
// with a way to succeed and a way to fail, through POST /payments and the
// sandbox's customer stand-in.

type familyRow struct {
	name          string
	method        string
	data          any
	currency      string
	status        string // after the confirm
	errorCode     string // when status is failed
	nextAction    string // when status is requires_customer_action
	approveStatus string // after POST /sandbox/payments/{id}/customer_action
	approve       bool
	approveCode   string // error_code after a decline
}

func familyRows() []familyRow {
	obj := func(k string, v any) map[string]any { return map[string]any{k: v} }
	empty := map[string]any{}
	return []familyRow{
		{name: "google_pay charged", method: "wallet", data: obj("wallet", obj("google_pay", map[string]any{
			"type": "CARD", "description": "Visa •••• 1111", "info": map[string]any{"card_network": "VISA", "card_details": "1111"},
			"tokenization_data": map[string]any{"type": "PAYMENT_GATEWAY", "token": "{}"}})), status: "succeeded"},
		{name: "apple_pay declined", method: "wallet", data: obj("wallet", obj("apple_pay", map[string]any{
			"payment_data": "eyJ9", "payment_method": map[string]any{"display_name": "Visa 0002", "network": "Visa", "type": "debit"},
			"transaction_identifier": "abc"})), status: "failed", errorCode: "card_declined"},
		{name: "paypal redirect approved", method: "wallet", data: obj("wallet", obj("paypal_redirect", empty)),
			status: "requires_customer_action", nextAction: "redirect_to_url", approve: true, approveStatus: "succeeded"},
		{name: "crypto declined", method: "crypto", data: obj("crypto", map[string]any{"pay_currency": "BTC", "network": "bitcoin"}),
			status: "requires_customer_action", nextAction: "redirect_to_url", approveStatus: "failed", approveCode: "payment_method_provider_decline"},
		{name: "reward approved", method: "reward", data: "reward", status: "requires_customer_action", nextAction: "redirect_to_url",
			approve: true, approveStatus: "succeeded"},
		{name: "ach transfer received", method: "bank_transfer", data: obj("bank_transfer", obj("ach_bank_transfer", obj("billing_details", nil))),
			status: "requires_customer_action", nextAction: "display_bank_transfer_information", approve: true, approveStatus: "succeeded"},
		{name: "sepa transfer never received", method: "bank_transfer", currency: "EUR",
			data:   obj("bank_transfer", obj("sepa_bank_transfer", map[string]any{"country": "NL"})),
			status: "requires_customer_action", nextAction: "display_bank_transfer_information", approveStatus: "failed", approveCode: "payment_method_provider_decline"},
		{name: "boleto paid", method: "voucher", currency: "BRL", data: obj("voucher", obj("boleto", map[string]any{"social_security_number": "56861752509"})),
			status: "requires_customer_action", nextAction: "display_voucher_information", approve: true, approveStatus: "succeeded"},
		{name: "oxxo expired", method: "voucher", currency: "MXN", data: obj("voucher", "oxxo"),
			status: "requires_customer_action", nextAction: "display_voucher_information", approveStatus: "failed", approveCode: "payment_method_provider_decline"},
		{name: "sepa debit charged", method: "bank_debit", currency: "EUR", data: obj("bank_debit", obj("sepa_bank_debit", map[string]any{
			"iban": "DE89370400440532013000", "bank_account_holder_name": "A. Schneider"})), status: "succeeded"},
		{name: "ach debit no account", method: "bank_debit", data: obj("bank_debit", obj("ach_bank_debit", map[string]any{
			"account_number": "000111111116", "routing_number": "110000000", "bank_account_holder_name": "John Doe",
			"bank_name": "ACH", "bank_type": "Checking", "bank_holder_type": "Personal"})), status: "failed", errorCode: "bank_account_declined"},
		{name: "givex charged", method: "gift_card", data: obj("gift_card", obj("givex", map[string]any{"number": "6036280000000000001", "cvc": "123"})),
			status: "succeeded"},
		{name: "givex without balance", method: "gift_card", data: obj("gift_card", obj("givex", map[string]any{"number": "6036280000000000002", "cvc": "123"})),
			status: "failed", errorCode: "gift_card_declined"},
		{name: "klarna", method: "pay_later", data: obj("pay_later", obj("klarna_redirect", empty)),
			status: "requires_customer_action", nextAction: "redirect_to_url", approve: true, approveStatus: "succeeded"},
		{name: "knet", method: "card_redirect", data: obj("card_redirect", obj("knet", empty)),
			status: "requires_customer_action", nextAction: "redirect_to_url", approve: true, approveStatus: "succeeded"},
		{name: "fps", method: "real_time_payment", currency: "GBP", data: obj("real_time_payment", obj("fps", empty)),
			status: "requires_customer_action", nextAction: "redirect_to_url", approveStatus: "failed", approveCode: "payment_method_provider_decline"},
		{name: "open banking", method: "open_banking", data: obj("open_banking", obj("open_banking_pis", empty)),
			status: "requires_customer_action", nextAction: "redirect_to_url", approve: true, approveStatus: "succeeded"},
		{name: "carrier billing", method: "mobile_payment", data: obj("mobile_payment", obj("direct_carrier_billing", map[string]any{"msisdn": "+15551234567"})),
			status: "requires_customer_action", nextAction: "redirect_to_url", approve: true, approveStatus: "succeeded"},
	}
}

func TestEveryPaymentMethodFamily(t *testing.T) {
	c := newClient(t)
	hooks := &hookReceiver{}
	withWebhook(t, c, hooks, nil)
	for _, row := range familyRows() {
		t.Run(row.name, func(t *testing.T) {
			body := map[string]any{"confirm": true, "payment_method": row.method, "payment_method_data": row.data,
				"return_url": "https://shop.example/done"}
			if row.currency != "" {
				body["currency"] = row.currency
			}
			r := c.pay("POST", "/payments", payment(body)).must(t, 200)
			if r.str("status") != row.status || r.str("payment_method") != row.method {
				t.Fatalf("status %s payment_method %s, want %s %s: %s", r.str("status"), r.str("payment_method"), row.status, row.method, r.Raw)
			}
			if row.errorCode != "" && r.str("error_code") != row.errorCode {
				t.Fatalf("error_code %q, want %q", r.str("error_code"), row.errorCode)
			}
			if row.nextAction == "" {
				if r.obj()["next_action"] != nil {
					t.Fatalf("next_action on a settled payment: %s", r.Raw)
				}
				return
			}
			next, _ := r.obj()["next_action"].(map[string]any)
			if next["type"] != row.nextAction {
				t.Fatalf("next_action %v, want %s", next, row.nextAction)
			}
			checkNextAction(t, next, r.obj()["amount"].(float64))
			id := r.str("payment_id")
			done := c.pay("POST", "/sandbox/payments/"+id+"/customer_action", map[string]any{"approve": row.approve}).must(t, 200)
			if done.str("status") != row.approveStatus || done.obj()["next_action"] != nil {
				t.Fatalf("after the customer: %s, want %s and no next_action", done.Raw, row.approveStatus)
			}
			if row.approveCode != "" && done.str("error_code") != row.approveCode {
				t.Fatalf("error_code %q, want %q", done.str("error_code"), row.approveCode)
			}
			if row.approveStatus == "succeeded" && done.obj()["amount_received"].(float64) != r.obj()["amount"].(float64) {
				t.Fatalf("amount_received %v", done.obj()["amount_received"])
			}
			// Nothing waits any more: a second answer is refused.
			if again := c.pay("POST", "/sandbox/payments/"+id+"/customer_action", map[string]any{"approve": true}); again.Status != 400 || again.errCode() != "IR_14" {
				t.Fatalf("second answer: %d %s", again.Status, again.Raw)
			}
		})
	}

	// The received transfer's payment_succeeded webhook went out.
	c.deliverAll(t)
	hooks.mu.Lock()
	defer hooks.mu.Unlock()
	succeeded := map[string]bool{}
	for _, b := range hooks.bodies {
		var ev struct {
			EventType string `json:"event_type"`
			Content   struct {
				Object struct {
					PaymentMethod string `json:"payment_method"`
				} `json:"object"`
			} `json:"content"`
		}
		if err := json.Unmarshal(b, &ev); err != nil {
			t.Fatal(err)
		}
		if ev.EventType == "payment_succeeded" {
			succeeded[ev.Content.Object.PaymentMethod] = true
		}
	}
	for _, m := range []string{"bank_transfer", "voucher", "bank_debit", "gift_card", "wallet", "reward"} {
		if !succeeded[m] {
			t.Errorf("no payment_succeeded webhook for a %s payment (got %v)", m, succeeded)
		}
	}
}

// checkNextAction checks the customer's instructions: a page to visit, or
// the bank details and a reference to pay into, with nothing received yet.
func checkNextAction(t *testing.T, next map[string]any, amount float64) {
	t.Helper()
	switch next["type"] {
	case "redirect_to_url":
		if u, _ := next["redirect_to_url"].(string); !strings.Contains(u, "/sandbox/authenticate/") {
			t.Fatalf("redirect_to_url %q", u)
		}
	case "display_bank_transfer_information":
		d, _ := next["bank_transfer_steps_and_charges_details"].(map[string]any)
		recv, _ := d["receiver"].(map[string]any)
		if recv["amount_received"] != float64(0) || recv["amount_remaining"] != amount {
			t.Fatalf("receiver %v", recv)
		}
		if len(d) != 2 {
			t.Fatalf("want one set of bank details beside receiver: %v", d)
		}
		for k, v := range d {
			if k == "receiver" {
				continue
			}
			if details, _ := v.(map[string]any); len(details) < 2 {
				t.Fatalf("bank details %s: %v", k, v)
			}
		}
	case "display_voucher_information":
		if ref, _ := next["voucher_details"].(string); !strings.HasPrefix(ref, "SY") {
			t.Fatalf("voucher_details %v", next["voucher_details"])
		}
	}
}

func TestPaymentMethodFamilyRefusals(t *testing.T) {
	c := newClient(t)
	cases := []struct {
		name       string
		method     any
		data       any
		code, want string
	}{
		{"two wallets", "wallet", map[string]any{"wallet": map[string]any{"paypal_redirect": map[string]any{}, "google_pay": map[string]any{}}}, "IR_07", "payment_method_data.wallet"},
		{"two families", "wallet", map[string]any{"wallet": map[string]any{"paypal_redirect": map[string]any{}}, "crypto": map[string]any{}}, "IR_07", "wallet and crypto"},
		{"family disagrees", "card", map[string]any{"bank_transfer": map[string]any{"ach_bank_transfer": map[string]any{}}}, "IR_07", "payment_method"},
		{"sepa debit without iban", "bank_debit", map[string]any{"bank_debit": map[string]any{"sepa_bank_debit": map[string]any{"bank_account_holder_name": "A"}}}, "IR_04", "payment_method_data.bank_debit.sepa_bank_debit.iban"},
		{"ach debit without account", "bank_debit", map[string]any{"bank_debit": map[string]any{"ach_bank_debit": map[string]any{"routing_number": "110000000"}}}, "IR_04", "payment_method_data.bank_debit.ach_bank_debit.account_number"},
		{"givex without number", "gift_card", map[string]any{"gift_card": map[string]any{"givex": map[string]any{"cvc": "1"}}}, "IR_04", "payment_method_data.gift_card.givex.number"},
		{"bare name not allowed", "wallet", "wallet", "IR_07", "payment_method_data"},
		{"unknown member", "wallet", map[string]any{"wallets": map[string]any{}}, "IR_06", "payment_method_data.wallets"},
		{"network token", "card", map[string]any{"network_token": map[string]any{}}, "IR_19", "network_token"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "payment_method": tc.method, "payment_method_data": tc.data}))
			if r.Status != 400 || r.errCode() != tc.code || !strings.Contains(string(r.Raw), tc.want) {
				t.Fatalf("%d %s, want 400 %s naming %s", r.Status, r.Raw, tc.code, tc.want)
			}
		})
	}
	// The customer stand-in: only for a payment that waits, of this merchant.
	paid := c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "payment_method_data": card("4242424242424242")})).must(t, 200)
	if r := c.pay("POST", "/sandbox/payments/"+paid.str("payment_id")+"/customer_action", map[string]any{"approve": true}); r.Status != 400 || r.errCode() != "IR_14" {
		t.Fatalf("settled payment: %d %s", r.Status, r.Raw)
	}
	if r := c.pay("POST", "/sandbox/payments/"+paid.str("payment_id")+"/customer_action", map[string]any{}); r.Status != 400 || r.errCode() != "IR_04" {
		t.Fatalf("no approve: %d %s", r.Status, r.Raw)
	}
	if r := c.pay("POST", "/sandbox/payments/pay_nobody/customer_action", map[string]any{"approve": true}); r.Status != 404 {
		t.Fatalf("unknown payment: %d %s", r.Status, r.Raw)
	}
}

// TestBankAndGiftCardDataAreNotKept: a bank debit's IBAN and a gift card's
// number and CVC go to the connector only, like a card's.
func TestBankAndGiftCardDataAreNotKept(t *testing.T) {
	c := newClient(t)
	const iban, gift, giftCVC = "DE75512108001245126199", "6036280000000000001", "5719"
	for _, data := range []map[string]any{
		{"bank_debit": map[string]any{"sepa_bank_debit": map[string]any{"iban": iban, "bank_account_holder_name": "A. Schneider"}}},
		{"gift_card": map[string]any{"givex": map[string]any{"number": gift, "cvc": giftCVC}}},
	} {
		// Created first and confirmed later: the method waits in the vault.
		created := c.pay("POST", "/payments", payment(map[string]any{"currency": "EUR", "payment_method_data": data})).must(t, 200)
		r := c.pay("POST", "/payments/"+created.str("payment_id")+"/confirm", map[string]any{}).must(t, 200)
		if r.str("status") != "succeeded" {
			t.Fatalf("payment: %s", r.Raw)
		}
		for _, s := range []string{iban, gift, giftCVC} {
			if strings.Contains(string(r.Raw), s) || strings.Contains(string(created.Raw), s) {
				t.Fatalf("the answer shows %s", s)
			}
		}
	}
	for _, v := range dumpDatabase(t, c) {
		for _, s := range []string{iban, gift, `"` + giftCVC + `"`} {
			if strings.Contains(string(v.value), s) {
				t.Errorf("%s.%s holds %s", v.table, v.column, s)
			}
		}
	}
	ctx := context.Background()
	for _, k := range testenv.RedisKeys(t, c.srv.Redis.Client, "*") {
		if c.srv.Redis.Client.Type(ctx, k).Val() != "string" {
			continue
		}
		v := c.srv.Redis.Client.Get(ctx, k).Val()
		for _, s := range []string{iban, gift} {
			if strings.Contains(v, s) {
				t.Errorf("redis %s holds %s", k, s)
			}
		}
	}
}
