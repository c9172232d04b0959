package rest_test

import "testing"

// Fuzz targets of the billing routes that read a body (fuzz_test.go's
// shape): never a 5xx, always the error envelope.

// profiled is the secret key with the demo profile (X-Profile-Id).
func profiled(x fx) map[string]string {
	return map[string]string{"api-key": x.secretKey, "X-Profile-Id": x.profile}
}

func at(path string) func(fx) string { return func(fx) string { return path } }

var subscriptionSeed = map[string]any{"item_price_id": "price_fuzz", "customer_id": "cus_fuzz", "coupon_code": "C",
	"payment_details": map[string]any{"return_url": "https://shop.example/r", "payment_method": "card",
		"payment_method_data": card("4242424242424242")}}

func FuzzSubscriptionCreate(f *testing.F) {
	fuzzRoute(f, "POST", profiled, at("/subscriptions/create"), subscriptionSeed, map[string]any{"item_price_id": ""})
}

func FuzzSubscriptionCreateConfirm(f *testing.F) {
	fuzzRoute(f, "POST", profiled, at("/subscriptions"), subscriptionSeed)
}

func FuzzSubscriptionConfirm(f *testing.F) {
	fuzzRoute(f, "POST", profiled, at("/subscriptions/sub_fuzz/confirm"), map[string]any{"client_secret": "x",
		"payment_details": map[string]any{"payment_method": "card", "payment_method_data": card("4242424242424242")}})
}

func FuzzSubscriptionUpdate(f *testing.F) {
	fuzzRoute(f, "PUT", profiled, at("/subscriptions/sub_fuzz/update"), map[string]any{"plan_id": "item_x", "item_price_id": "price_x"})
}

func FuzzSubscriptionPause(f *testing.F) {
	fuzzRoute(f, "POST", profiled, at("/subscriptions/sub_fuzz/pause"), map[string]any{"pause_option": "specific_date", "pause_at": "2031-01-01T00:00:00Z"})
}

func FuzzSubscriptionResume(f *testing.F) {
	fuzzRoute(f, "POST", profiled, at("/subscriptions/sub_fuzz/resume"), map[string]any{"resume_option": "immediately", "charges_handling": "invoice_immediately"})
}

func FuzzSubscriptionCancel(f *testing.F) {
	fuzzRoute(f, "POST", profiled, at("/subscriptions/sub_fuzz/cancel"), map[string]any{"cancel_option": "end_of_term", "cancel_reason_code": "r"})
}

func FuzzCatalogueItemCreate(f *testing.F) {
	fuzzRoute(f, "POST", secret, at("/subscriptions/catalogue/items"), map[string]any{"item_type": "plan", "name": "Basic", "metadata": map[string]any{"a": 1}})
}

func FuzzCataloguePriceCreate(f *testing.F) {
	fuzzRoute(f, "POST", secret, at("/subscriptions/catalogue/items/item_fuzz/prices"), map[string]any{"amount": 1000, "currency": "USD", "interval": "Month", "trial_period": 7, "trial_period_unit": "Day"})
}

func FuzzCouponCreate(f *testing.F) {
	fuzzRoute(f, "POST", secret, at("/subscriptions/catalogue/coupons"), map[string]any{"code": "Q", "discount_type": "percentage", "percent_off_bps": 2500, "duration": "once"},
		map[string]any{"code": "F", "discount_type": "fixed_amount", "amount_off": 100, "currency": "USD", "duration": "forever", "valid_till": "2031-01-01T00:00:00Z"})
}

func FuzzTestClockCreate(f *testing.F) {
	fuzzRoute(f, "POST", secret, at("/test_helpers/test_clocks"), map[string]any{"name": "c", "frozen_time": "2030-01-31T10:00:00Z"})
}

func FuzzTestClockAdvance(f *testing.F) {
	fuzzRoute(f, "POST", secret, at("/test_helpers/test_clocks/clock_fuzz/advance"), map[string]any{"frozen_time": "2030-03-01T00:00:00Z"})
}
