package rest_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestAmountToCapture: amount_to_capture, given on create, confirm or
// update, is what an automatic capture takes (the payment is then
// partially_captured and the rest of the authorization released); manual
// captures name their own amount; the stored value must stay within the
// amount.
func TestAmountToCapture(t *testing.T) {
	c := newClient(t)
	visa := card("4242424242424242")
	for _, tc := range []struct {
		name       string
		create     map[string]any // members of the create body (amount 10000)
		confirm    map[string]any // nil: create confirms
		status     string
		received   int64
		capturable int64
	}{
		{"automatic, on create", map[string]any{"confirm": true, "amount_to_capture": 6000, "payment_method_data": visa},
			nil, "partially_captured", 6000, 0},
		{"automatic, all of it", map[string]any{"confirm": true, "amount_to_capture": 10000, "payment_method_data": visa},
			nil, "succeeded", 10000, 0},
		{"automatic, given on create, confirmed later", map[string]any{"amount_to_capture": 2500},
			map[string]any{"payment_method_data": visa}, "partially_captured", 2500, 0},
		{"automatic, given on confirm", map[string]any{},
			map[string]any{"payment_method_data": visa, "amount_to_capture": 4000}, "partially_captured", 4000, 0},
		{"sequential_automatic", map[string]any{"confirm": true, "capture_method": "sequential_automatic",
			"amount_to_capture": 7000, "payment_method_data": visa}, nil, "partially_captured", 7000, 0},
		{"manual: the capture call decides", map[string]any{"confirm": true, "capture_method": "manual",
			"amount_to_capture": 7000, "payment_method_data": visa}, nil, "requires_capture", 0, 10000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := c.pay("POST", "/payments", payment(tc.create)).must(t, 200)
			if tc.confirm != nil {
				r = c.pay("POST", "/payments/"+r.str("payment_id")+"/confirm", tc.confirm).must(t, 200)
			}
			got := c.pay("GET", "/payments/"+r.str("payment_id"), nil).must(t, 200)
			if got.str("status") != tc.status || got.received() != tc.received || got.num("amount_capturable") != tc.capturable {
				t.Fatalf("status %s, received %d, capturable %d; want %s, %d, %d: %s", got.str("status"),
					got.received(), got.num("amount_capturable"), tc.status, tc.received, tc.capturable, got.Raw)
			}
			caps := got.list("captures")
			if tc.received > 0 && (len(caps) != 1 || caps[0]["amount"].(float64) != float64(tc.received)) {
				t.Fatalf("captures: %v", caps)
			}
			if tc.received == 0 {
				return
			}
			// Refunds are bounded by what was captured, not by the amount.
			over := c.do("POST", "/refunds", c.merchantKey(), map[string]any{"payment_id": r.str("payment_id"), "amount": tc.received + 1})
			if over.Status != http.StatusBadRequest || over.errCode() != "IR_13" {
				t.Fatalf("refund over the capture: %d %s", over.Status, over.Raw)
			}
			c.do("POST", "/refunds", c.merchantKey(), map[string]any{"payment_id": r.str("payment_id"), "amount": tc.received}).must(t, 200)
		})
	}

	t.Run("3-D Secure, then a partial automatic capture", func(t *testing.T) {
		r := c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "amount_to_capture": 3000,
			"payment_method_data": card("4000000000003063"), "return_url": "https://shop.example/done"})).must(t, 200)
		if r.str("status") != "requires_customer_action" {
			t.Fatalf("%s", r.Raw)
		}
		if resp := authenticate(t, r, "Approve"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("complete: %d", resp.StatusCode)
		}
		got := c.pay("GET", "/payments/"+r.str("payment_id"), nil).must(t, 200)
		if got.str("status") != "partially_captured" || got.received() != 3000 {
			t.Fatalf("%s", got.Raw)
		}
	})

	t.Run("a dispute is for what was captured", func(t *testing.T) {
		r := c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "amount_to_capture": 6000,
			"payment_method_data": card("4000000000000259")})).must(t, 200)
		disputes := r.list("disputes")
		if r.str("status") != "partially_captured" || len(disputes) != 1 || disputes[0]["amount"] != "6000" {
			t.Fatalf("%s", r.Raw)
		}
	})

	t.Run("validation", func(t *testing.T) {
		open := c.pay("POST", "/payments", payment(map[string]any{"amount_to_capture": 8000})).must(t, 200)
		id := open.str("payment_id")
		for _, tc := range []struct {
			name, path string
			body       map[string]any
		}{
			{"zero", "/payments", payment(map[string]any{"amount_to_capture": 0})},
			{"over the amount", "/payments", payment(map[string]any{"amount_to_capture": 10001})},
			{"update over the amount", "/payments/" + id, map[string]any{"amount_to_capture": 10001}},
			{"update lowers the amount under the stored value", "/payments/" + id, map[string]any{"amount": 5000}},
			{"confirm over the amount", "/payments/" + id + "/confirm", map[string]any{"amount_to_capture": 20000, "payment_method_data": visa}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := c.pay("POST", tc.path, tc.body)
				if r.Status != http.StatusBadRequest || r.errCode() != "IR_07" || !strings.Contains(r.str("error", "message"), "amount_to_capture") {
					t.Fatalf("%d %s", r.Status, r.Raw)
				}
			})
		}
		// Lowering both together is fine, and the new value is what is captured.
		c.pay("POST", "/payments/"+id, map[string]any{"amount": 5000, "amount_to_capture": 5000}).must(t, 200)
		got := c.pay("POST", "/payments/"+id+"/confirm", map[string]any{"payment_method_data": visa}).must(t, 200)
		if got.str("status") != "succeeded" || got.received() != 5000 {
			t.Fatalf("%s", got.Raw)
		}
	})
}

// TestAmountReceivedNullUntilCaptured: Hyperswitch's amount_received is
// null until a capture succeeds (a created, an authorized and a declined
// payment show null), then the amount captured so far.
func TestAmountReceivedNullUntilCaptured(t *testing.T) {
	c := newClient(t)
	isNull := func(r response) bool { v, present := r.obj()["amount_received"]; return present && v == nil }
	created := c.pay("POST", "/payments", payment(nil)).must(t, 200)
	declined := c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "payment_method_data": card("4000000000000002")})).must(t, 200)
	authorized := c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "capture_method": "manual",
		"payment_method_data": card("4242424242424242")})).must(t, 200)
	for _, r := range []response{created, declined, authorized} {
		if !isNull(r) {
			t.Fatalf("%s: amount_received %v, want null: %s", r.str("status"), r.obj()["amount_received"], r.Raw)
		}
	}
	id := authorized.str("payment_id")
	captured := c.pay("POST", "/payments/"+id+"/capture", map[string]any{"amount_to_capture": 3000}).must(t, 200)
	if isNull(captured) || captured.num("amount_received") != 3000 {
		t.Fatalf("after a capture of 3000: %v", captured.obj()["amount_received"])
	}
}
