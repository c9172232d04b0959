package customer

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestPaymentCustomer: customer_id and customer.id name one customer;
// details may come without one.
func TestPaymentCustomer(t *testing.T) {
	jane := CustomerInput{Name: ptr("Jane")}
	for _, tc := range []struct {
		name       string
		customerID *string
		objectID   *string
		details    CustomerInput
		want       *CustomerInput
		refused    *refusal
	}{
		{name: "nothing", want: nil},
		{name: "customer_id", customerID: ptr("cus_1"), want: &CustomerInput{ID: "cus_1", Named: true}},
		{name: "customer.id", objectID: ptr("cus_1"), want: &CustomerInput{ID: "cus_1", Named: true}},
		{name: "both, agreeing", customerID: ptr("cus_1"), objectID: ptr("cus_1"), details: jane,
			want: &CustomerInput{ID: "cus_1", Named: true, Name: ptr("Jane")}},
		{name: "both, disagreeing", customerID: ptr("cus_1"), objectID: ptr("cus_2"),
			refused: invalid("customer.id", "must equal customer_id")},
		{name: "details without an id", details: jane, want: &CustomerInput{Name: ptr("Jane")}},
		{name: "an id of its own in the details is not read", details: CustomerInput{ID: "cus_x", Named: true}, want: nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := PaymentCustomer(tc.customerID, tc.objectID, tc.details)
			checkRefusal(t, err, tc.refused)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestUpiRequestData: the variants given (null is not given) and the
// collect's VPA.
func TestUpiRequestData(t *testing.T) {
	for _, tc := range []struct {
		name string
		body string
		want *UpiData
	}{
		{"collect", `{"upi_collect": {"vpa_id": "a@upi"}}`, &UpiData{Collect: true, CollectVPA: ptr("a@upi")}},
		{"collect without a VPA", `{"upi_collect": {}}`, &UpiData{Collect: true}},
		{"intent", `{"upi_intent": {}}`, &UpiData{Intent: true}},
		{"qr", `{"upi_qr": {}}`, &UpiData{QRCode: true}},
		{"null variants", `{"upi_intent": null, "upi_qr": null}`, &UpiData{}},
		{"empty", `{}`, &UpiData{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var u UpiRequest
			if err := json.Unmarshal([]byte(tc.body), &u); err != nil {
				t.Fatal(err)
			}
			if got := u.Data(); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
	if (*UpiRequest)(nil).Data() != nil {
		t.Error("no upi is no data")
	}
}

// TestAddFamilies: each family given is read, one not given (nil or null)
// is not, and of two refusals the first by name is reported.
func TestAddFamilies(t *testing.T) {
	for _, tc := range []struct {
		name     string
		families map[string]any
		variants map[string][]string
		crypto   bool
		refused  *refusal
	}{
		{name: "none given", families: map[string]any{"wallet": nil, "crypto": json.RawMessage(nil),
			"voucher": json.RawMessage("null"), "pay_later": map[string]any(nil)}},
		{name: "an object naming its variant", families: map[string]any{"wallet": map[string]any{"paypal_redirect": map[string]any{}}},
			variants: map[string][]string{"wallet": {"paypal_redirect"}}},
		{name: "raw JSON", families: map[string]any{"voucher": json.RawMessage(`"oxxo"`)},
			variants: map[string][]string{"voucher": {"oxxo"}}},
		{name: "crypto", families: map[string]any{"crypto": map[string]any{}}, crypto: true},
		{name: "crypto not an object", families: map[string]any{"crypto": json.RawMessage(`1`)},
			refused: invalid("payment_method_data.crypto", "must be an object")},
		{name: "two refusals, the first by name", families: map[string]any{
			"wallet": json.RawMessage(`1`), "bank_debit": json.RawMessage(`1`)},
			refused: invalid("payment_method_data.bank_debit", "must be an object")},
		{name: "sepa without an iban", families: map[string]any{"bank_debit": map[string]any{"sepa_bank_debit": map[string]any{}}},
			refused: missing("payment_method_data.bank_debit.sepa_bank_debit.iban")},
		{name: "not JSON", families: map[string]any{"wallet": func() {}},
			refused: invalid("payment_method_data.wallet", "must be a JSON object")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d PaymentMethodData
			err := d.AddFamilies(tc.families)
			checkRefusal(t, err, tc.refused)
			if tc.refused != nil {
				return
			}
			if !reflect.DeepEqual(d.Variants, tc.variants) || d.Crypto != tc.crypto {
				t.Errorf("variants %v crypto %v; want %v %v", d.Variants, d.Crypto, tc.variants, tc.crypto)
			}
		})
	}
}
