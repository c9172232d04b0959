package rest_test

import (
	"context"
	"strings"
	"testing"

	"switchyard/ent/paymentintent"
	"switchyard/internal/tenancy"
)

// The customer's consent (customer_acceptance) as Hyperswitch's checkout
// SDK sends it: a top-level object whose online member has the browser's
// user_agent and no ip_address, which the browser cannot know.

// sdkAcceptance is the SDK's customer_acceptance, with online's members.
func sdkAcceptance(online map[string]any) map[string]any {
	a := map[string]any{"acceptance_type": "online", "accepted_at": "2026-01-02T03:04:05.678Z"}
	if online != nil {
		a["online"] = online
	}
	return a
}

// keptConsent is the consent a payment keeps beside its card (it sets up
// no mandate, so no mandate shows it).
func keptConsent(t *testing.T, c *client, paymentID string) map[string]any {
	t.Helper()
	pi, err := c.srv.Store.Client.PaymentIntent.Query().Where(paymentintent.PaymentID(paymentID)).
		Only(tenancy.System(context.Background()))
	if err != nil {
		t.Fatal(err)
	}
	return pi.CustomerAcceptance
}

// TestCustomerAcceptanceVariants: an online consent without ip_address, one
// with it, and an offline one are each accepted wherever a client sends
// them: ticking "save card" in the checkout on a payment that is not
// off_session keeps the card and the consent, with no mandate; on an
// off_session payment the same body sets up a mandate; mandate_data sets
// one up too. An online consent is kept with the address it came with, or
// else with the address the request came from (the connection's peer).
func TestCustomerAcceptanceVariants(t *testing.T) {
	c := newClient(t)
	pk := c.srv.Demo.PublishableKey
	const peer = "127.0.0.1"
	variants := []struct {
		name       string
		acceptance map[string]any
		wantIP     any // the kept online.ip_address; nil: no online member
	}{
		{"online without ip_address", sdkAcceptance(map[string]any{"user_agent": "Mozilla/5.0 (X11; Linux x86_64)"}), peer},
		{"online with ip_address", sdkAcceptance(map[string]any{"user_agent": "Mozilla/5.0", "ip_address": "203.0.113.7"}), "203.0.113.7"},
		{"online with a null ip_address", sdkAcceptance(map[string]any{"user_agent": "Mozilla/5.0", "ip_address": nil}), peer},
		{"offline", map[string]any{"acceptance_type": "offline"}, nil},
	}
	ipOf := func(a map[string]any) any {
		online, _ := a["online"].(map[string]any)
		if online == nil {
			return nil
		}
		return online["ip_address"]
	}
	for i, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			customer := "cus_consent_" + strings.Repeat("x", i+1)

			// "Save card" ticked in the checkout: the card is kept, no mandate.
			id, secret := checkoutPayment(t, c, customer, nil)
			r := c.do("POST", "/payments/"+id+"/confirm", pk, sdkCardConfirm(secret, "4242424242424242",
				map[string]any{"customer_acceptance": v.acceptance})).must(t, 200)
			if r.str("status") != "succeeded" || r.obj()["mandate_id"] != nil || r.obj()["mandate_data"] != nil {
				t.Fatalf("saving the card: %s", r.Raw)
			}
			kept := keptConsent(t, c, id)
			if kept["acceptance_type"] != v.acceptance["acceptance_type"] || ipOf(kept) != v.wantIP {
				t.Fatalf("the kept consent: %v, want ip_address %v", kept, v.wantIP)
			}
			pms := savedMethods(t, c, customer)
			if len(pms) != 1 || pms[0]["card"].(map[string]any)["last4_digits"] != "4242" || pms[0]["recurring_enabled"] != false {
				t.Fatalf("the kept card: %v", pms)
			}

			// The same body on an off_session payment sets up a mandate.
			id, secret = checkoutPayment(t, c, customer, map[string]any{"setup_future_usage": "off_session"})
			r = c.do("POST", "/payments/"+id+"/confirm", pk, sdkCardConfirm(secret, "5555555555554444",
				map[string]any{"customer_acceptance": v.acceptance})).must(t, 200)
			if r.str("status") != "succeeded" || !strings.HasPrefix(r.str("mandate_id"), "man_") {
				t.Fatalf("a mandate from the checkout: %s", r.Raw)
			}
			m := c.do("GET", "/mandates/"+r.str("mandate_id"), c.merchantKey(), nil).must(t, 200)
			if got := ipOf(m.obj()["customer_acceptance"].(map[string]any)); got != v.wantIP {
				t.Fatalf("the mandate's consent has ip_address %v, want %v: %s", got, v.wantIP, m.Raw)
			}

			// mandate_data, from the merchant's server.
			r = c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "customer_id": customer,
				"setup_future_usage": "off_session", "payment_method": "card", "payment_method_data": card("4242424242424242"),
				"mandate_data": map[string]any{"customer_acceptance": v.acceptance}})).must(t, 200)
			m = c.do("GET", "/mandates/"+r.str("mandate_id"), c.merchantKey(), nil).must(t, 200)
			if got := ipOf(m.obj()["customer_acceptance"].(map[string]any)); r.str("status") != "succeeded" || got != v.wantIP {
				t.Fatalf("mandate_data's consent has ip_address %v, want %v: %s", got, v.wantIP, m.Raw)
			}
		})
	}
}

// TestCustomerAcceptanceErrorsNameTheMemberSent: a consent Hyperswitch
// refuses is refused naming the member the client sent: customer_acceptance
// at the top, mandate_data.customer_acceptance inside mandate_data, never
// one it did not send; and nothing is charged.
func TestCustomerAcceptanceErrorsNameTheMemberSent(t *testing.T) {
	c := newClient(t)
	pk := c.srv.Demo.PublishableKey
	cases := []struct {
		name       string
		acceptance map[string]any
		inMandate  bool
		code       string
		member     string
	}{
		{"online without user_agent", sdkAcceptance(map[string]any{"ip_address": "203.0.113.7"}), false, "IR_04", "customer_acceptance.online.user_agent"},
		{"online without online", sdkAcceptance(nil), false, "IR_16", "customer_acceptance.online"},
		{"no acceptance_type", map[string]any{"online": map[string]any{"user_agent": "x"}}, false, "IR_04", "customer_acceptance.acceptance_type"},
		{"an unknown acceptance_type", map[string]any{"acceptance_type": "verbal"}, false, "IR_07", "customer_acceptance.acceptance_type"},
		{"a long user_agent", sdkAcceptance(map[string]any{"user_agent": strings.Repeat("u", 1025)}), false, "IR_07", "customer_acceptance.online"},
		{"mandate_data online without user_agent", sdkAcceptance(map[string]any{}), true, "IR_04", "mandate_data.customer_acceptance.online.user_agent"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			id, secret := checkoutPayment(t, c, "cus_consent_errors", map[string]any{"setup_future_usage": "off_session"})
			more := map[string]any{"customer_acceptance": tc.acceptance}
			if tc.inMandate {
				more = map[string]any{"mandate_data": map[string]any{"customer_acceptance": tc.acceptance}}
			}
			r := c.do("POST", "/payments/"+id+"/confirm", pk, sdkCardConfirm(secret, "4242424242424242", more))
			msg := r.str("error", "message")
			if r.Status != 400 || r.errCode() != tc.code || !strings.Contains(msg, tc.member) ||
				(!tc.inMandate && strings.Contains(msg, "mandate_data")) {
				t.Fatalf("%d %s, want 400 %s naming %s", r.Status, r.Raw, tc.code, tc.member)
			}
			if got := c.do("GET", "/payments/"+id, c.merchantKey(), nil).must(t, 200); got.str("status") != "requires_payment_method" {
				t.Fatalf("a refused confirm changed the payment: %s", got.Raw)
			}
		})
	}
}

// TestCheckoutSavesThenPaysWithTheCard walks Hyperswitch's checkout as the
// SDK calls it: "save card" ticked on a payment for a customer keeps the
// card; the next payment of that customer lists it (****4242) and pays with
// it by the SDK's saved-card body (payment_token, card_cvc, customer_id and
// customer_acceptance again), charged with the connector's token, keeping
// no second card; a consent given when the payment is created keeps the
// card its later confirm pays with.
func TestCheckoutSavesThenPaysWithTheCard(t *testing.T) {
	c := newClient(t)
	pk := c.srv.Demo.PublishableKey
	consent := sdkAcceptance(map[string]any{"user_agent": "Mozilla/5.0"})
	id, secret := checkoutPayment(t, c, "cus_sdk_saver", nil)
	c.do("POST", "/payments/"+id+"/confirm", pk, sdkCardConfirm(secret, "4242424242424242",
		map[string]any{"customer_acceptance": consent})).must(t, 200)

	nid, nsecret := checkoutPayment(t, c, "cus_sdk_saver", nil)
	list := c.do("GET", "/payments/"+nid+"/client?client_secret="+nsecret, pk, nil).must(t, 200).list("customer_payment_methods")
	if len(list) != 1 || list[0]["payment_method_data"].(map[string]any)["card"].(map[string]any)["last4_digits"] != "4242" ||
		list[0]["requires_cvv"] != true {
		t.Fatalf("the checkout's saved cards: %v", list)
	}
	r := c.do("POST", "/payments/"+nid+"/confirm", pk, map[string]any{"client_secret": nsecret, "payment_method": "card",
		"payment_token": list[0]["payment_token"], "card_cvc": "123", "customer_id": "cus_sdk_saver",
		"customer_acceptance": consent, "payment_type": "normal", "return_url": "https://shop.example/return"}).must(t, 200)
	if r.str("status") != "succeeded" || r.str("payment_method_data", "card", "last4") != "4242" ||
		r.str("payment_method_id") != list[0]["payment_method_id"] {
		t.Fatalf("paying with the saved card: %s", r.Raw)
	}
	if n := len(savedMethods(t, c, "cus_sdk_saver")); n != 1 {
		t.Fatalf("the customer has %d saved methods, want 1", n)
	}

	// The consent given at create, the card at a later confirm.
	created := c.pay("POST", "/payments", payment(map[string]any{"customer_id": "cus_sdk_later",
		"customer_acceptance": acceptance})).must(t, 200)
	c.do("POST", "/payments/"+created.str("payment_id")+"/confirm", pk,
		sdkCardConfirm(created.str("client_secret"), "5555555555554444", nil)).must(t, 200)
	if pms := savedMethods(t, c, "cus_sdk_later"); len(pms) != 1 {
		t.Fatalf("a consent given at create kept %d cards: %v", len(pms), pms)
	}
}
