package web_test

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestDashboardPayouts: a merchant with a sandbox payout processor makes
// two payouts over GraphQL (one created at the processor and waiting for its fulfilment, one without a method
// yet) are listed in Payouts, newest first, and the status filter keeps
// one; the first one's page shows its masked card, its attempt and the
// Fulfil and Cancel actions; fulfilling it (a double click on the
// confirmation sends one request) makes it succeed, the server agrees, the
// actions go, and its event is listed. axe-core finds no serious or
// critical violation on either page.
func TestDashboardPayouts(t *testing.T) {
	d := newDashTab(t)
	merchantID := d.gql(`{ me { merchantID } }`, nil)["me"].(map[string]any)["merchantID"].(string)
	d.rest("POST", "/account/"+merchantID+"/connectors", map[string]any{"connector_type": "payout_processor",
		"connector_name": "stripe_test", "connector_label": "payouts",
		"connector_account_details": map[string]any{"auth_type": "HeaderKey", "api_key": "sk_test_dash_payouts"}})
	create := func(in map[string]any) string {
		out := d.gql(`mutation($in: CreatePayoutInput!) { createPayout(input: $in) { payout { payoutID status } } }`,
			map[string]any{"in": in})["createPayout"].(map[string]any)["payout"].(map[string]any)
		return out["payoutID"].(string)
	}
	card := map[string]any{"card": map[string]any{"cardNumber": "4242424242424242", "expiryMonth": "12",
		"expiryYear": fmt.Sprint(time.Now().Year() + 3), "cardHolderName": "Ada Lovelace"}}
	toFulfil := create(map[string]any{"amount": 1250, "currency": "USD", "payoutType": "card", "confirm": true,
		"payoutMethodData": card, "customerID": "cus_payee", "description": "March commission"})
	waiting := create(map[string]any{"amount": 700, "currency": "EUR", "payoutType": "card"})

	d.open("/payouts", "#payouts-title")
	listed := `[...document.querySelectorAll('[data-testid="payout-list"] tbody tr')].map(r => r.dataset.payoutId).join(",")`
	d.poll("both payouts listed", fmt.Sprintf(`%s === %q`, listed, waiting+","+toFulfil))
	if row := d.text(fmt.Sprintf(`tr[data-payout-id=%q]`, toFulfil)); !strings.Contains(row, "12.50 USD") ||
		!strings.Contains(row, "requires fulfillment") || !strings.Contains(row, "cus_payee") {
		d.fail("the payout's row: %s", row)
	}
	d.checkAxe("Payouts")
	d.open("/payouts?status=requires_fulfillment", "#payouts-title")
	d.poll("the filter keeps one", fmt.Sprintf(`%s === %q`, listed, toFulfil))

	d.click(fmt.Sprintf(`//tr[@data-payout-id=%q]//a`, toFulfil))
	d.poll("the payout's page", `!!document.querySelector('[data-testid="payout-status"]')`)
	facts := d.text(`dl.facts`)
	for _, want := range []string{toFulfil, "requires_fulfillment", "Card", "•••• 4242", "March commission"} {
		if !strings.Contains(facts, want) {
			d.fail("the payout's facts lack %q:\n%s", want, facts)
		}
	}
	if strings.Contains(d.eval(`document.body.innerText`), "4242424242424242") {
		d.fail("the page shows the card number")
	}
	if n := d.count(`[data-testid="payout-attempts"] tbody tr`); n != 1 {
		d.fail("the payout shows %d attempts, want 1", n)
	}
	d.checkAxe("a payout's page")
	d.click(`//button[text()="Fulfil payout"]`)
	d.clickTwice(`//form[@aria-label="Fulfil payout"]//button[@type="submit"]`)
	d.poll("fulfilled", `document.querySelector('[data-testid="payout-status"]').innerText === "success"`)
	if n := d.count(`div.actions button`); n != 0 {
		d.fail("a paid payout still offers %d actions", n)
	}
	got := d.rest("GET", "/payouts/"+toFulfil, nil).(map[string]any)
	if got["status"] != "success" {
		t.Fatalf("after Fulfil the server has %v", got)
	}
	d.poll("its event", `(document.querySelector('[data-testid="payout-events"]')?.innerText ?? "").includes("payout_success")`)
}
