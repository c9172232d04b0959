package payments

import (
	"strings"
	"testing"

	"switchyard/ent/schema/schematype"
	"switchyard/payments/customer"
	"switchyard/payments/errs"
	"switchyard/payments/validate"
)

// The rules of a payment's members, without a database: every refusal of
// validate, the amount and currency rules, and the required members. Each
// row names what it checks; the refusal is shown as the failure it is (the
// errs catalogue's name) and the member it names ("" when the input
// passes).

// refusalOf is err as the failure it is and the member it names.
func refusalOf(err error) string {
	if err == nil {
		return ""
	}
	e, ok := errs.As(err)
	if !ok {
		return "not a domain error: " + err.Error()
	}
	name := "unnamed"
	if f := e.Failure(); f != nil {
		name = f.Error()
	}
	if e.Field == "" {
		return name
	}
	return name + " " + e.Field
}

// sameError reports whether err is want, as the client reads it.
func sameError(err, want error) bool {
	if err == nil || want == nil {
		return err == nil && want == nil
	}
	return err.Error() == want.Error()
}

func checkRefusal(t *testing.T, name string, err error, want string) {
	t.Helper()
	if got := refusalOf(err); got != want {
		t.Errorf("%s: refusal %q, want %q (%v)", name, got, want, err)
	}
}

func TestValidateAmount(t *testing.T) {
	setup, normal := "setup_mandate", "normal"
	for _, tc := range []struct {
		name   string
		amount int64
		ptype  *string
		want   string
	}{
		{"zero without a payment type", 0, nil, "invalid_value amount"},
		{"zero for a normal payment", 0, &normal, "invalid_value amount"},
		{"zero sets up a mandate", 0, &setup, ""},
		{"one minor unit", 1, nil, ""},
		{"the maximum", validate.MaxAmount, nil, ""},
		{"one over the maximum", validate.MaxAmount + 1, nil, "invalid_value amount"},
		{"one over the maximum for setup_mandate", validate.MaxAmount + 1, &setup, "invalid_value amount"},
		{"negative", -1, nil, "invalid_value amount"},
		{"negative for setup_mandate", -1, &setup, "invalid_value amount"},
	} {
		checkRefusal(t, tc.name, validateAmount(tc.amount, tc.ptype), tc.want)
	}
}

func TestValidateCurrency(t *testing.T) {
	for _, tc := range []struct {
		name, currency, want string
	}{
		{"missing", "", "missing_field currency"},
		{"US dollar", "USD", ""},
		{"euro", "EUR", ""},
		{"yen, no minor unit", "JPY", ""},
		{"lower case", "usd", "invalid_value currency"},
		{"not ISO 4217", "ZZZ", "invalid_value currency"},
		{"too long", "USDD", "invalid_value currency"},
	} {
		checkRefusal(t, tc.name, validateCurrency(tc.currency), tc.want)
	}
}

func TestRequireAmount(t *testing.T) {
	amount, currency := int64(100), "USD"
	for _, tc := range []struct {
		name     string
		amount   *int64
		currency *string
		want     string
	}{
		{"both given", &amount, &currency, ""},
		{"no amount", nil, &currency, "missing_field amount_details.order_amount"},
		{"no currency", &amount, nil, "missing_field amount_details.currency"},
		{"neither: the amount is named first", nil, nil, "missing_field amount_details.order_amount"},
	} {
		a, c, err := RequireAmount(tc.amount, tc.currency, "amount_details.order_amount", "amount_details.currency")
		checkRefusal(t, tc.name, err, tc.want)
		if err == nil && (a != amount || c != currency) {
			t.Errorf("%s: got %d %s", tc.name, a, c)
		}
	}
}

func str(s string) *string { return &s }

func i64(v int64) *int64 { return &v }

// orderLines are n lines of one unit at each amount.
func orderLines(amounts ...int64) []schematype.OrderDetail {
	out := make([]schematype.OrderDetail, len(amounts))
	for i, a := range amounts {
		out[i] = schematype.OrderDetail{ProductName: "item", Quantity: 1, Amount: a}
	}
	return out
}

// TestPaymentFieldsValidate is every refusal of validate, with the values
// at each limit that pass. The amount is 1000 unless the row says.
func TestPaymentFieldsValidate(t *testing.T) {
	long := func(n int) *string { return str(strings.Repeat("a", n)) }
	tooManyTypes := make([]string, maxAllowedPaymentMethodTy+1)
	for i := range tooManyTypes {
		tooManyTypes[i] = "credit"
	}
	for _, tc := range []struct {
		name   string
		f      PaymentFields
		amount int64
		want   string
	}{
		{name: "nothing given", want: ""},
		// capture_method
		{name: "capture automatic", f: PaymentFields{CaptureMethod: str("automatic")}},
		{name: "capture manual", f: PaymentFields{CaptureMethod: str("manual")}},
		{name: "capture manual_multiple", f: PaymentFields{CaptureMethod: str("manual_multiple")}},
		{name: "capture sequential_automatic", f: PaymentFields{CaptureMethod: str("sequential_automatic")}},
		// Not built: Hyperswitch refuses it as a flow it does not support.
		{name: "capture scheduled is not built", f: PaymentFields{CaptureMethod: str("scheduled")}, want: "flow_not_supported"},
		{name: "capture unknown", f: PaymentFields{CaptureMethod: str("later")}, want: "invalid_value capture_method"},
		{name: "capture in capitals", f: PaymentFields{CaptureMethod: str("Manual")}, want: "invalid_value capture_method"},
		// setup_future_usage
		{name: "setup_future_usage off_session", f: PaymentFields{SetupFutureUsage: str("off_session")}},
		{name: "setup_future_usage on_session", f: PaymentFields{SetupFutureUsage: str("on_session")}},
		{name: "setup_future_usage unknown", f: PaymentFields{SetupFutureUsage: str("never")}, want: "invalid_value setup_future_usage"},
		{name: "setup_future_usage empty", f: PaymentFields{SetupFutureUsage: str("")}, want: "invalid_value setup_future_usage"},
		// additional amounts: 0 to the maximum
		{name: "shipping_cost zero", f: PaymentFields{ShippingCost: i64(0)}},
		{name: "shipping_cost maximum", f: PaymentFields{ShippingCost: i64(validate.MaxAmount)}},
		{name: "shipping_cost over the maximum", f: PaymentFields{ShippingCost: i64(validate.MaxAmount + 1)}, want: "invalid_value shipping_cost"},
		{name: "shipping_cost negative", f: PaymentFields{ShippingCost: i64(-1)}, want: "invalid_value shipping_cost"},
		{name: "order_tax_amount negative", f: PaymentFields{OrderTaxAmount: i64(-1)}, want: "invalid_value order_tax_amount"},
		{name: "surcharge_amount over the maximum", f: PaymentFields{SurchargeAmount: i64(validate.MaxAmount + 1)}, want: "invalid_value surcharge_amount"},
		{name: "tax_on_surcharge negative", f: PaymentFields{TaxOnSurcharge: i64(-1)}, want: "invalid_value tax_on_surcharge"},
		// return_url
		{name: "return_url https", f: PaymentFields{ReturnURL: str("https://shop.example/done")}},
		{name: "return_url relative", f: PaymentFields{ReturnURL: str("/done")}, want: "invalid_value return_url"},
		{name: "return_url ftp", f: PaymentFields{ReturnURL: str("ftp://shop.example/done")}, want: "invalid_value return_url"},
		{name: "return_url without a host", f: PaymentFields{ReturnURL: str("https:///done")}, want: "invalid_value return_url"},
		{name: "return_url 2048 characters", f: PaymentFields{ReturnURL: str("https://a.example/" + strings.Repeat("a", 2048-18))}},
		{name: "return_url 2049 characters", f: PaymentFields{ReturnURL: str("https://a.example/" + strings.Repeat("a", 2049-18))}, want: "invalid_value return_url"},
		// business_country
		{name: "business_country US", f: PaymentFields{BusinessCountry: str("US")}},
		{name: "business_country unknown", f: PaymentFields{BusinessCountry: str("XX")}, want: "invalid_value business_country"},
		// amount_to_capture: 1 to the amount
		{name: "amount_to_capture one", f: PaymentFields{AmountToCapture: i64(1)}},
		{name: "amount_to_capture the amount", f: PaymentFields{AmountToCapture: i64(1000)}},
		{name: "amount_to_capture zero", f: PaymentFields{AmountToCapture: i64(0)}, want: "invalid_value amount_to_capture"},
		{name: "amount_to_capture negative", f: PaymentFields{AmountToCapture: i64(-1)}, want: "invalid_value amount_to_capture"},
		{name: "amount_to_capture over the amount", f: PaymentFields{AmountToCapture: i64(1001)}, want: "invalid_value amount_to_capture"},
		// texts
		{name: "description at its limit", f: PaymentFields{Description: long(maxDescription)}},
		{name: "description over its limit", f: PaymentFields{Description: long(maxDescription + 1)}, want: "invalid_value description"},
		{name: "description counts characters, not bytes", f: PaymentFields{Description: str(strings.Repeat("é", maxDescription))}},
		{name: "v2 statement_descriptor at its limit", f: PaymentFields{IntentStatementDescriptor: long(maxIntentStatementDesc)}},
		{name: "v2 statement_descriptor over its limit", f: PaymentFields{IntentStatementDescriptor: long(maxIntentStatementDesc + 1)}, want: "invalid_value statement_descriptor"},
		{name: "v2 statement_descriptor without a letter", f: PaymentFields{IntentStatementDescriptor: str("12345")}, want: "invalid_value statement_descriptor"},
		{name: "statement_descriptor at its column", f: PaymentFields{StatementDescriptor: long(maxStatementDescriptor)}},
		{name: "statement_descriptor over its column", f: PaymentFields{StatementDescriptor: long(maxStatementDescriptor + 1)}, want: "invalid_value statement_descriptor"},
		{name: "statement_descriptor_suffix over its column", f: PaymentFields{StatementDescriptorSuffix: long(maxStatementDescriptorSuffix + 1)}, want: "invalid_value statement_descriptor_suffix"},
		{name: "merchant_order_reference_id over its column", f: PaymentFields{MerchantOrderReferenceID: long(maxMerchantOrderReferenceID + 1)}, want: "invalid_value merchant_order_reference_id"},
		{name: "business_label over its column", f: PaymentFields{BusinessLabel: long(maxBusinessLabel + 1)}, want: "invalid_value business_label"},
		{name: "business_sub_label over its column", f: PaymentFields{BusinessSubLabel: long(maxBusinessSubLabel + 1)}, want: "invalid_value business_sub_label"},
		{name: "routing_algorithm_id over its column", f: PaymentFields{RoutingAlgorithmID: long(maxRoutingAlgorithmID + 1)}, want: "invalid_value routing_algorithm_id"},
		{name: "merchant_reference_id at its limit", f: PaymentFields{MerchantReferenceID: long(maxMerchantReferenceID)}},
		{name: "merchant_reference_id empty", f: PaymentFields{MerchantReferenceID: str("")}, want: "invalid_value merchant_reference_id"},
		{name: "merchant_reference_id over its limit", f: PaymentFields{MerchantReferenceID: long(maxMerchantReferenceID + 1)}, want: "invalid_value merchant_reference_id"},
		// session_expiry: 0 to a week
		{name: "session_expiry zero", f: PaymentFields{SessionExpiry: i64(0)}},
		{name: "session_expiry a week", f: PaymentFields{SessionExpiry: i64(maxSessionExpiry)}},
		{name: "session_expiry over a week", f: PaymentFields{SessionExpiry: i64(maxSessionExpiry + 1)}, want: "invalid_value session_expiry"},
		{name: "session_expiry negative", f: PaymentFields{SessionExpiry: i64(-1)}, want: "invalid_value session_expiry"},
		// the customer
		{name: "customer named", f: PaymentFields{Customer: &customer.CustomerInput{Named: true, ID: "cus_1"}}},
		{name: "customer details only", f: PaymentFields{Customer: &customer.CustomerInput{Name: str("Ada")}}},
		{name: "customer_id empty", f: PaymentFields{Customer: &customer.CustomerInput{Named: true}}, want: "invalid_value customer_id"},
		{name: "customer_id over its limit", f: PaymentFields{Customer: &customer.CustomerInput{Named: true, ID: strings.Repeat("c", customer.MaxCustomerID+1)}}, want: "invalid_value customer_id"},
		{name: "customer name over its column", f: PaymentFields{Customer: &customer.CustomerInput{Name: long(10_000)}}, want: "invalid_value customer.name"},
		// allowed_payment_method_types
		{name: "allowed_payment_method_types known", f: PaymentFields{AllowedPaymentMethodTypes: []string{"credit", "debit"}}},
		{name: "allowed_payment_method_types unknown", f: PaymentFields{AllowedPaymentMethodTypes: []string{"credit", "iou"}}, want: "invalid_value allowed_payment_method_types[1]"},
		{name: "allowed_payment_method_types too many", f: PaymentFields{AllowedPaymentMethodTypes: tooManyTypes}, want: "invalid_value allowed_payment_method_types"},
		// order_details against the amount
		{name: "order lines summing to the amount", f: PaymentFields{OrderDetails: orderLines(600, 400)}},
		{name: "order lines short of the amount", f: PaymentFields{OrderDetails: orderLines(600, 300)}, want: "invalid_value order_details"},
		{name: "order lines summing to a new amount", f: PaymentFields{OrderDetails: orderLines(500)}, amount: 500},
		{name: "order line without a name", f: PaymentFields{OrderDetails: []schematype.OrderDetail{{Quantity: 1, Amount: 1000}}}, want: "missing_field order_details[0].product_name"},
		{name: "order line of no units", f: PaymentFields{OrderDetails: []schematype.OrderDetail{{ProductName: "x", Amount: 1000}}}, want: "invalid_value order_details[0].quantity"},
		{name: "order line negative", f: PaymentFields{OrderDetails: orderLines(1001, -1)}, want: "invalid_value order_details[1].amount"},
		{name: "order line of an unknown type", f: PaymentFields{OrderDetails: []schematype.OrderDetail{{ProductName: "x", Quantity: 1, Amount: 1000, ProductType: str("food")}}}, want: "invalid_value order_details[0].product_type"},
		{name: "order lines over the maximum amount", f: PaymentFields{OrderDetails: orderLines(validate.MaxAmount, 1)}, want: "invalid_value order_details"},
		// addresses and the payment method
		{name: "billing of an unknown country", f: PaymentFields{Billing: &schematype.AddressWrapper{Address: &schematype.Address{Country: str("XX")}}}, want: "invalid_value billing.address.country"},
		{name: "shipping e-mail not an address", f: PaymentFields{Shipping: &schematype.AddressWrapper{Email: str("nobody")}}, want: "invalid_value shipping.email"},
		{name: "card payment method without its card", f: PaymentFields{PaymentMethod: &customer.PaymentMethodInput{Type: "card"}}, want: "missing_field payment_method_data.card"},
		// the first refusal in validate's order is the answer
		{name: "a closed set before the texts", f: PaymentFields{Description: long(maxDescription + 1), CaptureMethod: str("later")}, want: "invalid_value capture_method"},
		{name: "the texts before the customer", f: PaymentFields{Customer: &customer.CustomerInput{Named: true}, SessionExpiry: i64(-1)}, want: "invalid_value session_expiry"},
		{name: "the customer before the order lines", f: PaymentFields{OrderDetails: orderLines(1), Customer: &customer.CustomerInput{Named: true}}, want: "invalid_value customer_id"},
	} {
		amount := tc.amount
		if amount == 0 {
			amount = 1000
		}
		checkRefusal(t, tc.name, tc.f.validate(amount, nil), tc.want)
	}
}

// TestClosedSets: each member that is one of a closed set takes a value of
// its set, exactly as spelled, and refuses any other, naming itself.
func TestClosedSets(t *testing.T) {
	for _, tc := range []struct {
		member      string
		set         func(*PaymentFields, *string)
		valid, typo string
	}{
		{"authentication_type", func(f *PaymentFields, v *string) { f.AuthenticationType = v }, "three_ds", "3ds"},
		{"payment_type", func(f *PaymentFields, v *string) { f.PaymentType = v }, "setup_mandate", "mandate"},
		{"customer_present", func(f *PaymentFields, v *string) { f.CustomerPresent = v }, "absent", "yes"},
		{"apply_mit_exemption", func(f *PaymentFields, v *string) { f.ApplyMitExemption = v }, "Apply", "apply"},
		{"payment_link_enabled", func(f *PaymentFields, v *string) { f.PaymentLinkEnabled = v }, "Skip", "enable"},
		{"split_txns_enabled", func(f *PaymentFields, v *string) { f.SplitTxnsEnabled = v }, "skip", "Enable"},
		{"request_incremental_authorization", func(f *PaymentFields, v *string) { f.RequestIncrementalAuthorization = v }, "default", "yes"},
		{"request_external_three_ds_authentication", func(f *PaymentFields, v *string) { f.RequestExternalThreeDSAuthentication = v }, "Enable", "enable"},
		{"amount_details.external_tax_calculation", func(f *PaymentFields, v *string) { f.ExternalTaxCalculation = v }, "calculate", "Skip"},
		{"amount_details.surcharge_calculation", func(f *PaymentFields, v *string) { f.SurchargeCalculation = v }, "skip", "Calculate"},
	} {
		for _, v := range []struct {
			value, want string
		}{{tc.valid, ""}, {tc.typo, "invalid_value " + tc.member}, {"", "invalid_value " + tc.member}} {
			var f PaymentFields
			tc.set(&f, &v.value)
			checkRefusal(t, tc.member+" "+v.value, f.validate(1000, nil), v.want)
		}
	}
}

// TestRequestFlags: v1's booleans as the strings the domain keeps (v2's).
func TestRequestFlags(t *testing.T) {
	yes, no := true, false
	for _, tc := range []struct {
		name      string
		requested *bool
		flag      func(*bool) *string
		want      *string
	}{
		{"incremental, not given", nil, IncrementalAuthorizationFlag, nil},
		{"incremental", &yes, IncrementalAuthorizationFlag, ptr("true")},
		{"no incremental", &no, IncrementalAuthorizationFlag, ptr("false")},
		{"external 3DS, not given", nil, ExternalThreeDSFlag, nil},
		{"external 3DS", &yes, ExternalThreeDSFlag, ptr("Enable")},
		{"no external 3DS", &no, ExternalThreeDSFlag, ptr("Skip")},
	} {
		got := tc.flag(tc.requested)
		if (got == nil) != (tc.want == nil) || got != nil && *got != *tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
