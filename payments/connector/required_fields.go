package connector

import (
	"slices"
	"strings"

	"switchyard/ent"
	"switchyard/payments/errs"
	"switchyard/payments/validate"
)

// The billing details a checkout asks its shopper for before it pays through
// a connector (Hyperswitch's "required fields", the dynamic fields its web
// SDK renders): those Hyperswitch's configuration lists for the connector and
// payment method, and those a connector account's sandbox object requires.
// Asking is the checkout's part. As in Hyperswitch, whether a confirm without
// them fails is the connector's: the sandbox's connectors take a payment
// without their table's fields, and refuse one without the fields the
// account's sandbox object requires (docs/sandbox.md).

// Field is a billing detail a checkout can ask for: where a confirm carries
// it, and how Hyperswitch's checkout shows it.
type Field struct {
	// Path is the member of the confirm request that carries the value,
	// e.g. payment_method_data.billing.address.line1.
	Path string
	// Key, DisplayName and FieldType are Hyperswitch's RequiredFieldInfo of
	// the field, as its payment method lists show it.
	Key, DisplayName string
	FieldType        any
	// Render is the SDK's field_render_type; Label, LabelKey (a key of the
	// SDK's locale strings), Autocomplete, Validation and Row its
	// presentation; Options the values of a drop-down.
	Render, Label, LabelKey, Autocomplete, Validation, Row string
	Options                                                []string
}

// Paths of the billing fields.
const (
	FieldFirstName   = "payment_method_data.billing.address.first_name"
	FieldLastName    = "payment_method_data.billing.address.last_name"
	FieldEmail       = "payment_method_data.billing.email"
	FieldLine1       = "payment_method_data.billing.address.line1"
	FieldLine2       = "payment_method_data.billing.address.line2"
	FieldCity        = "payment_method_data.billing.address.city"
	FieldState       = "payment_method_data.billing.address.state"
	FieldZip         = "payment_method_data.billing.address.zip"
	FieldCountry     = "payment_method_data.billing.address.country"
	FieldPhone       = "payment_method_data.billing.phone.number"
	FieldPhoneCCCode = "payment_method_data.billing.phone.country_code"
)

// fields are the billing fields, in the order a checkout shows them.
var fields = []Field{
	{Path: FieldFirstName, Key: "billing.address.first_name", DisplayName: "billing_first_name", FieldType: "user_billing_name",
		Render: "FirstName", Label: "First name", LabelKey: "billingNameLabel", Autocomplete: "given-name", Validation: "first_name", Row: "billing_name"},
	{Path: FieldLastName, Key: "billing.address.last_name", DisplayName: "billing_last_name", FieldType: "user_billing_name",
		Render: "LastName", Label: "Last name", Autocomplete: "family-name", Validation: "last_name", Row: "billing_name"},
	{Path: FieldEmail, Key: "billing.email", DisplayName: "email", FieldType: "user_email_address",
		Render: "Email", Label: "Email", LabelKey: "emailLabel", Autocomplete: "email", Validation: "email"},
	{Path: FieldLine1, Key: "billing.address.line1", DisplayName: "line1", FieldType: "user_address_line1",
		Label: "Address line 1", LabelKey: "line1Label", Autocomplete: "address-line1"},
	{Path: FieldLine2, Key: "billing.address.line2", DisplayName: "line2", FieldType: "user_address_line2",
		Label: "Address line 2", LabelKey: "line2Label", Autocomplete: "address-line2"},
	{Path: FieldCity, Key: "billing.address.city", DisplayName: "city", FieldType: "user_address_city",
		Label: "City", LabelKey: "cityLabel", Autocomplete: "address-level2"},
	{Path: FieldState, Key: "billing.address.state", DisplayName: "state", FieldType: "user_address_state",
		Render: "State", Label: "State", LabelKey: "stateLabel", Autocomplete: "address-level1"},
	{Path: FieldZip, Key: "billing.address.zip", DisplayName: "zip", FieldType: "user_address_pincode",
		Label: "Postal Code", LabelKey: "postalCodeLabel", Autocomplete: "postal-code"},
	{Path: FieldCountry, Key: "billing.address.country", DisplayName: "country",
		FieldType: map[string]any{"user_address_country": map[string]any{"options": []string{"ALL"}}},
		Render:    "Country", Label: "Country", LabelKey: "countryLabel", Autocomplete: "country", Options: validate.Countries.Values()},
	{Path: FieldPhoneCCCode, Key: "billing.phone.country_code", DisplayName: "dialing_code", FieldType: "user_phone_number_country_code",
		Render: "PhoneCountryCode", Label: "Country Code", LabelKey: "formFieldCountryCodeRequiredLabel", Autocomplete: "tel-country-code", Row: "billing_phone"},
	{Path: FieldPhone, Key: "billing.phone.number", DisplayName: "phone", FieldType: "user_phone_number",
		Render: "Phone", Label: "Phone Number", LabelKey: "formFieldPhoneNumberLabel", Autocomplete: "tel-national", Validation: "phone", Row: "billing_phone"},
}

// FieldOf returns the billing field at path, as a checkout of paymentMethod
// shows it: a card's billing name is its holder's name, one input the
// checkout splits, as Hyperswitch shows it beside the card.
func FieldOf(path, paymentMethod string) (Field, int, bool) {
	i := slices.IndexFunc(fields, func(f Field) bool { return f.Path == path })
	if i < 0 {
		return Field{}, 0, false
	}
	f := fields[i]
	if paymentMethod == "card" && (path == FieldFirstName || path == FieldLastName) {
		f.DisplayName, f.FieldType, f.Render, f.LabelKey, f.Row = "card_holder_name", "user_full_name", "CardHolderName", "cardHolderName", ""
		f.Label = "Card Holder Name"
	}
	return f, i, true
}

// Groups of Hyperswitch's required-fields configuration. Its email() (the
// payment's top-level email) is the billing email here: a checkout's
// publishable key may set the billing details, not the payment's customer.
var (
	fullName       = []string{FieldFirstName, FieldLastName}
	billingAddress = []string{FieldCity, FieldState, FieldZip, FieldCountry, FieldLine1}
	billingEmail   = []string{FieldEmail}
)

func join(groups ...[]string) []string { return slices.Concat(groups...) }

// cardFields are the billing fields Hyperswitch's required-fields
// configuration lists for a card (credit and debit alike) paid through
// each connector, mandate and non-mandate fields together as its SDK
// configuration serves them; the card's own number, expiry and CVC are the
// card form's. A connector not listed asks for nothing beyond the card.
var cardFields = map[string][]string{
	"aci":           fullName,
	"adyen":         fullName,
	"bambora":       join(fullName, billingEmail),
	"bankofamerica": join(billingEmail, fullName, billingAddress),
	"barclaycard":   join(fullName, billingAddress),
	"bluesnap":      join(billingEmail, fullName),
	"coinbase":      {FieldFirstName},
	"cybersource":   join(fullName, billingEmail, billingAddress),
	"datatrans":     join(billingEmail, fullName),
	"deutschebank":  join(billingEmail, billingAddress, fullName),
	"dlocal":        join(fullName, []string{FieldCountry}),
	"elavon":        billingEmail,
	"fiuu":          {FieldEmail, FieldFirstName},
	"forte":         fullName,
	"hipay":         join(billingEmail, billingAddress, fullName),
	"helcim":        join(fullName, []string{FieldZip, FieldLine1}),
	"mollie":        fullName,
	"multisafepay":  join(fullName, []string{FieldLine1, FieldLine2, FieldCity, FieldZip, FieldCountry}),
	"nexixpay":      fullName,
	"nmi":           join(fullName, []string{FieldZip}),
	"noon":          fullName,
	"novalnet":      join(fullName, billingEmail),
	"paybox":        join(billingEmail, fullName, []string{FieldLine1, FieldCity, FieldZip, FieldCountry}),
	"payload":       join(billingEmail, fullName, []string{FieldLine1, FieldCity, FieldZip, FieldState, FieldCountry}),
	"payme":         join(billingEmail, fullName),
	"powertranz":    fullName,
	"rapyd":         fullName,
	"stax":          fullName,
	"trustpay":      join(fullName, []string{FieldLine1, FieldCity, FieldZip, FieldCountry}),
	"wellsfargo":    join(fullName, billingEmail, billingAddress),
	"worldline":     {FieldCountry},
	"worldpay":      {FieldFirstName},
	"xendit":        {FieldEmail, FieldPhone},
	"zen":           billingEmail,
}

// RequiredFields are the billing fields a checkout asks for before it pays
// with paymentMethod through mca: its connector's (Hyperswitch's
// configuration) and those its sandbox object requires, each once, in the
// order a checkout shows them.
func RequiredFields(mca *ent.MerchantConnectorAccount, paymentMethod string) []string {
	var out []string
	if paymentMethod == "card" {
		out = append(out, cardFields[mca.ConnectorName]...)
	}
	declared, _ := SandboxRequiredFields(mca.Metadata) // checked when stored
	return orderFields(append(out, declared...))
}

// orderFields sorts paths in the order a checkout shows them, each once.
func orderFields(paths []string) []string {
	slices.SortFunc(paths, func(a, b string) int {
		_, i, _ := FieldOf(a, "")
		_, j, _ := FieldOf(b, "")
		return i - j
	})
	return slices.Compact(paths)
}

// MergeFields adds paths to the list into, keeping the checkout's order.
func MergeFields(into, paths []string) []string {
	return orderFields(append(slices.Clone(into), paths...))
}

// SandboxRequiredFields reads required_fields of a connector account's
// sandbox object: the billing fields the account's connector requires. A
// confirm through the account without one of them is refused (IR_04 naming
// it) before the connector is called, and the checkout asks for them.
// Absent or null is none; anything else must be an array of the fields'
// paths (IR_07 naming metadata.sandbox.required_fields).
func SandboxRequiredFields(metadata map[string]any) ([]string, error) {
	obj, _ := metadata[SandboxMetadataKey].(map[string]any)
	raw, ok := obj["required_fields"]
	if !ok || raw == nil {
		return nil, nil
	}
	const path = "metadata." + SandboxMetadataKey + ".required_fields"
	list, ok := raw.([]any)
	if !ok {
		return nil, errs.InvalidValue(path, "must be an array of field paths, not %s", jsonKindOf(raw))
	}
	out := make([]string, 0, len(list))
	for i, v := range list {
		s, _ := v.(string)
		if _, _, known := FieldOf(s, ""); !known {
			return nil, errs.InvalidValue(validate.Indexed(path, i), "must be one of %s", strings.Join(FieldPaths(), ", "))
		}
		out = append(out, s)
	}
	return orderFields(out), nil
}

// FieldPaths are the paths of the billing fields, in the checkout's order.
func FieldPaths() []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = f.Path
	}
	return out
}
