package events

import (
	"encoding/json"
	"testing"
)

// TestWebhookBodyIsJSONMarshal: the hand-built body is what json.Marshal
// gives, escapes included, for objects json.Marshal made.
func TestWebhookBodyIsJSONMarshal(t *testing.T) {
	objects := []any{
		map[string]any{"payment_id": "pay_1", "amount": 1000, "status": "succeeded"},
		map[string]any{"description": `<b>"quoted" & 'single'</b>`, "emoji": "☃ \u2028", "nested": []any{1.5, nil, true}},
		[]any{},
	}
	for _, merchant := range []string{"merchant_1", `merchant<&>"x"`} {
		for _, o := range objects {
			obj, err := json.Marshal(o)
			if err != nil {
				t.Fatal(err)
			}
			b := webhookBody{MerchantID: merchant, EventID: "evt_1", EventType: "payment_succeeded",
				Content: eventContent{Type: "payment_details", Object: obj}, Timestamp: "2026-11-26T10:00:00Z"}
			want, err := json.Marshal(b)
			if err != nil {
				t.Fatal(err)
			}
			got, err := marshalWebhookBody(b)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Fatalf("hand-built:\n%s\njson.Marshal:\n%s", got, want)
			}
		}
	}
	if _, err := marshalWebhookBody(webhookBody{}); err == nil {
		t.Fatal("a body without its object was made")
	}
}
