package rest_test

import "testing"

// TestEventsProfileList: POST /events/profile/list is the event list held
// to the caller's profile (X-Profile-Id); another profile sees none of them.
func TestEventsProfileList(t *testing.T) {
	c := newClient(t)
	rc := &hookReceiver{}
	withWebhook(t, c, rc, nil)
	d, key := c.srv.Demo, c.merchantKey()
	payID := c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "payment_method": "card",
		"payment_method_data": card("4242424242424242")})).str("payment_id")
	c.deliverAll(t)

	list := c.doWith("POST", "/events/profile/list", key, map[string]any{"object_id": payID}, map[string]string{"X-Profile-Id": d.ProfileID}).must(t, 200)
	events, _ := list.obj()["events"].([]any)
	if len(events) != 1 || events[0].(map[string]any)["profile_id"] != d.ProfileID {
		t.Fatalf("the profile's events: %s", list.Raw)
	}
	other := c.do("POST", "/account/"+d.MerchantID+"/business_profile", key, map[string]any{"profile_name": "other"}).must(t, 200).str("profile_id")
	if r := c.doWith("POST", "/events/profile/list", key, map[string]any{}, map[string]string{"X-Profile-Id": other}).must(t, 200); r.obj()["total_count"] != float64(0) {
		t.Fatalf("another profile sees: %s", r.Raw)
	}
	if r := c.doWith("POST", "/events/profile/list", key, map[string]any{"profile_id": other}, map[string]string{"X-Profile-Id": d.ProfileID}); r.Status != 404 || r.errCode() != "HE_02" {
		t.Fatalf("another profile named in the body: %s", r.Raw)
	}
	if r := c.do("POST", "/events/profile/list", key, map[string]any{}); r.Status != 400 || r.errCode() != "IR_04" {
		t.Fatalf("no profile: %s", r.Raw)
	}
}
