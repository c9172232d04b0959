package customer

import (
	"strings"
	"testing"

	"switchyard/ent/schema/schematype"
)

// TestCustomerInputValidate: what a payment gives of its customer fits the
// columns it is kept in, each member at its limit and one character over.
func TestCustomerInputValidate(t *testing.T) {
	members := []struct {
		field string
		max   int
		set   func(in *CustomerInput, v *string)
	}{
		{"customer.name", maxCustomerName, func(in *CustomerInput, v *string) { in.Name = v }},
		{"customer.email", maxCustomerEmail, func(in *CustomerInput, v *string) { in.Email = v }},
		{"customer.phone", maxCustomerPhone, func(in *CustomerInput, v *string) { in.Phone = v }},
		{"customer.phone_country_code", maxCustomerPhoneCountryCode, func(in *CustomerInput, v *string) { in.PhoneCountryCode = v }},
	}
	for _, m := range members {
		t.Run(m.field, func(t *testing.T) {
			in := &CustomerInput{ID: "cus_1", Named: true}
			m.set(in, ptr(""))
			checkRefusal(t, in.Validate(), nil)
			m.set(in, ptr(strings.Repeat("é", m.max))) // characters, not bytes
			checkRefusal(t, in.Validate(), nil)
			m.set(in, ptr(strings.Repeat("é", m.max+1)))
			checkRefusal(t, in.Validate(), invalid(m.field, "at most"))
		})
	}
	if err := (&CustomerInput{}).Validate(); err != nil {
		t.Errorf("no details: %v", err)
	}
}

func TestCustomerInputDetails(t *testing.T) {
	if d := (&CustomerInput{ID: "cus_1", Named: true}).Details(); d != nil {
		t.Errorf("no details given: %+v", d)
	}
	for _, in := range []*CustomerInput{{Name: ptr("A")}, {Email: ptr("a@b.c")}, {Phone: ptr("1")}, {PhoneCountryCode: ptr("+1")}} {
		d := in.Details()
		if d == nil || d.Name != in.Name || d.Email != in.Email || d.Phone != in.Phone || d.PhoneCountryCode != in.PhoneCountryCode {
			t.Errorf("%+v: details %+v", in, d)
		}
	}
}

// TestCustomerDetailsValidate: Hyperswitch's limits on a customer's
// create and update.
func TestCustomerDetailsValidate(t *testing.T) {
	long := strings.Repeat("x", 256)
	full := strings.Repeat("x", 255)
	for _, tc := range []struct {
		name string
		d    CustomerDetails
		want *refusal
	}{
		{"nothing", CustomerDetails{}, nil},
		{"at the limits", CustomerDetails{Name: &full, Phone: &full, PhoneCountryCode: &full, Description: &full,
			TaxRegistrationID: &full, Email: ptr("jane@example.com")}, nil},
		{"long name", CustomerDetails{Name: &long}, invalid("name", "at most 255")},
		{"long phone", CustomerDetails{Phone: &long}, invalid("phone", "at most 255")},
		{"long phone country code", CustomerDetails{PhoneCountryCode: &long}, invalid("phone_country_code", "at most 255")},
		{"long description", CustomerDetails{Description: &long}, invalid("description", "at most 255")},
		{"long tax registration id", CustomerDetails{TaxRegistrationID: &long}, invalid("tax_registration_id", "at most 255")},
		{"not an e-mail", CustomerDetails{Email: ptr("jane")}, invalid("email", "email address")},
		{"e-mail with a name", CustomerDetails{Email: ptr("Jane <jane@example.com>")}, invalid("email", "email address")},
		{"long e-mail", CustomerDetails{Email: ptr(strings.Repeat("j", 250) + "@ex.com")}, invalid("email", "at most 255")},
		{"address", CustomerDetails{Address: &schematype.Address{Country: ptr("NL"), City: ptr("Utrecht")}}, nil},
		{"address country", CustomerDetails{Address: &schematype.Address{Country: ptr("Netherlands")}}, invalid("address.country")},
		{"shipping address line", CustomerDetails{ShippingAddress: &schematype.Address{Line1: ptr(strings.Repeat("l", 201))}},
			invalid("default_shipping_address.line1", "at most 200")},
		{"document", CustomerDetails{DocumentDetails: &schematype.CustomerDocument{DocumentType: "cpf", DocumentNumber: "123"}}, nil},
		{"document without type", CustomerDetails{DocumentDetails: &schematype.CustomerDocument{DocumentNumber: "123"}},
			missing("document_details.document_type")},
		{"document of unknown type", CustomerDetails{DocumentDetails: &schematype.CustomerDocument{DocumentType: "passport", DocumentNumber: "1"}},
			invalid("document_details.document_type")},
		{"document without number", CustomerDetails{DocumentDetails: &schematype.CustomerDocument{DocumentType: "cnpj"}},
			invalid("document_details.document_number", "1 to 255")},
		{"document number of 255", CustomerDetails{DocumentDetails: &schematype.CustomerDocument{DocumentType: "other", DocumentNumber: full}}, nil},
		{"document number of 256", CustomerDetails{DocumentDetails: &schematype.CustomerDocument{DocumentType: "psn", DocumentNumber: long}},
			invalid("document_details.document_number", "1 to 255")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkRefusal(t, tc.d.Validate(), tc.want)
		})
	}
}

func TestCheckCustomerID(t *testing.T) {
	for _, tc := range []struct {
		id   string
		want *refusal
	}{
		{"cus_1", nil},
		{"A-z_09", nil},
		{strings.Repeat("c", MaxCustomerID), nil},
		{"", invalid("customer_id", "1 to 64")},
		{strings.Repeat("c", MaxCustomerID+1), invalid("customer_id", "1 to 64")},
		{"cus 1", invalid("customer_id", "1 to 64")},
		{"cus.1", invalid("customer_id", "1 to 64")},
		{"cüs", invalid("customer_id", "1 to 64")},
	} {
		t.Run(tc.id, func(t *testing.T) {
			checkRefusal(t, CheckCustomerID("customer_id", tc.id), tc.want)
		})
	}
}
