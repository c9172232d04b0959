package rest_test

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestEventObjectIsTheRetrievedPayment: a payment event's content.object is
// what GET /payments/{id} then shows, byte for byte as JSON values, whether
// the settling transaction read the payment's records back or knew them
// (a first attempt settling, see firstAttemptView): automatic and manual
// capture, a partial automatic capture, a decline, card checks, a customer,
// a 3-D Secure challenge, and a dispute opening with the charge.
func TestEventObjectIsTheRetrievedPayment(t *testing.T) {
	c := newClient(t)
	rc := &hookReceiver{}
	withWebhook(t, c, rc, nil)
	cases := []struct {
		name    string
		members map[string]any
		status  string
	}{
		{"automatic capture", map[string]any{"payment_method_data": card("4242424242424242")}, "succeeded"},
		{"manual capture", map[string]any{"payment_method_data": card("4242424242424242"), "capture_method": "manual"}, "requires_capture"},
		{"partial automatic capture", map[string]any{"payment_method_data": card("4242424242424242"), "amount_to_capture": 4000}, "partially_captured"},
		{"declined", map[string]any{"payment_method_data": card("4000000000000002")}, "failed"},
		{"card checks", map[string]any{"payment_method_data": card("4000000000000101")}, "succeeded"},
		{"with a customer", map[string]any{"payment_method_data": card("4242424242424242"), "customer_id": "cus_event_object",
			"email": "jane@example.com"}, "succeeded"},
		{"3-D Secure challenge", map[string]any{"payment_method_data": card("4000000000003063"), "authentication_type": "three_ds"}, "requires_customer_action"},
		{"a dispute opens", map[string]any{"payment_method_data": card("4000000000000259")}, "succeeded"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			members := map[string]any{"confirm": true, "payment_method": "card"}
			for k, v := range tc.members {
				members[k] = v
			}
			r := c.do("POST", "/payments", c.merchantKey(), payment(members)).must(t, 200)
			id := r.str("payment_id")
			if r.str("status") != tc.status {
				t.Fatalf("status %s, want %s: %s", r.str("status"), tc.status, r.Raw)
			}
			c.deliverAll(t)
			got := c.do("GET", "/payments/"+id, c.merchantKey(), nil).must(t, 200)
			object := eventObject(t, rc, id, tc.status)
			var want, sent any
			_ = json.Unmarshal([]byte(got.Raw), &want)
			_ = json.Unmarshal(object, &sent)
			if !reflect.DeepEqual(sent, want) {
				t.Fatalf("event content.object:\n%s\nGET /payments/%s:\n%s", object, id, got.Raw)
			}
		})
	}
}

// eventObject is the content.object of the delivered event of the payment
// in that status.
func eventObject(t *testing.T, rc *hookReceiver, paymentID, status string) json.RawMessage {
	t.Helper()
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for _, b := range rc.bodies {
		var body struct {
			Content struct {
				Object json.RawMessage `json:"object"`
			} `json:"content"`
		}
		var head struct {
			PaymentID string `json:"payment_id"`
			Status    string `json:"status"`
		}
		if json.Unmarshal(b, &body) != nil || json.Unmarshal(body.Content.Object, &head) != nil {
			continue
		}
		if head.PaymentID == paymentID && head.Status == status {
			return body.Content.Object
		}
	}
	t.Fatalf("no event of payment %s in status %s among %d deliveries", paymentID, status, len(rc.bodies))
	return nil
}
