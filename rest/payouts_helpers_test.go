package rest_test

import (
	"testing"
)

// payoutProcessor adds a payout_processor account (connector name) to the
// demo merchant's default profile, enabling card, bank and wallet payouts,
// and returns its id.
func payoutProcessor(t *testing.T, c *client, name string) string {
	t.Helper()
	return payoutProcessorWith(t, c, name, nil)
}

// payoutProcessorWith is payoutProcessor with the account's metadata.
func payoutProcessorWith(t *testing.T, c *client, name string, metadata map[string]any) string {
	t.Helper()
	return c.do("POST", "/account/"+c.srv.Demo.MerchantID+"/connectors", c.merchantKey(), map[string]any{
		"metadata":       metadata,
		"connector_type": "payout_processor", "connector_name": name,
		"connector_account_details": map[string]any{"auth_type": "HeaderKey", "api_key": "sk_payout_test_1234"},
		"payment_methods_enabled": []any{
			map[string]any{"payment_method": "card", "payment_method_types": []any{map[string]any{"payment_method_type": "debit"}}},
			map[string]any{"payment_method": "bank_transfer", "payment_method_types": []any{
				map[string]any{"payment_method_type": "ach"}, map[string]any{"payment_method_type": "bacs"},
				map[string]any{"payment_method_type": "sepa"}, map[string]any{"payment_method_type": "pix"}}},
			map[string]any{"payment_method": "wallet", "payment_method_types": []any{
				map[string]any{"payment_method_type": "paypal"}, map[string]any{"payment_method_type": "venmo"}}},
		},
	}).must(t, 200).str("merchant_connector_id")
}

// payoutCard is a card payout method.
func payoutCard(number string) map[string]any {
	return map[string]any{"card": map[string]any{"card_number": number, "expiry_month": "12", "expiry_year": "2035",
		"card_holder_name": "Ada Lovelace"}}
}

// payoutRequestOf is a payout create request with members over the
// defaults (1000 USD minor units, card 4242…).
func payoutRequestOf(members map[string]any) map[string]any {
	req := map[string]any{"amount": 1000, "currency": "USD", "payout_type": "card",
		"payout_method_data": payoutCard("4242424242424242"), "customer_id": "cus_payee",
		"description": "a payout", "entity_type": "Individual"}
	for k, v := range members {
		if v == nil {
			delete(req, k)
			continue
		}
		req[k] = v
	}
	return req
}

// createPayout creates a payout with the demo key; it must answer 200.
func createPayout(t *testing.T, c *client, members map[string]any) response {
	t.Helper()
	return c.do("POST", "/payouts/create", c.merchantKey(), payoutRequestOf(members)).must(t, 200)
}

// payoutStatus is the payout's status as GET shows it.
func payoutStatus(t *testing.T, c *client, id string) string {
	t.Helper()
	return c.do("GET", "/payouts/"+id, c.merchantKey(), nil).must(t, 200).str("status")
}

// payoutsWithWebhook is a client whose demo merchant has a payout
// processor and a webhook endpoint: the receiver and its signing key.
func payoutsWithWebhook(t *testing.T) (*client, *hookReceiver, string) {
	t.Helper()
	c := newClient(t)
	payoutProcessor(t, c, "adyen")
	rc := &hookReceiver{}
	return c, rc, withWebhook(t, c, rc, nil)
}
