package customer

import (
	"testing"

	"switchyard/ent/schema/schematype"
	"switchyard/payments/cards"
	"switchyard/payments/errs"
)

func testCard(edit func(c *CardInput)) *CardInput {
	c := &CardInput{Number: "4242424242424242", ExpMonth: "12", ExpYear: "2099", CVC: "123"}
	if edit != nil {
		edit(c)
	}
	return c
}

// TestPaymentMethodInputValidate: the payment method on its own, every
// family's required data and every card refusal, in Hyperswitch's order.
func TestPaymentMethodInputValidate(t *testing.T) {
	card := func(edit func(c *CardInput)) PaymentMethodInput {
		return PaymentMethodInput{Type: "card", Card: testCard(edit)}
	}
	for _, tc := range []struct {
		name string
		pm   PaymentMethodInput
		want *refusal
	}{
		{"card", card(nil), nil},
		{"card without CVC", card(func(c *CardInput) { c.CVC = "" }), nil},
		{"card with its network", card(func(c *CardInput) { c.Network = ptr("Visa") }), nil},
		{"card with an unknown network", card(func(c *CardInput) { c.Network = ptr("VisaX") }),
			invalid("payment_method_data.card.card_network")},
		{"no card", PaymentMethodInput{Type: "card"}, missing("payment_method_data.card")},
		{"saved card", PaymentMethodInput{Type: "card", SavedToken: "pm_1"}, nil},
		{"saved card and card details", PaymentMethodInput{Type: "card", SavedToken: "pm_1", Card: testCard(nil)},
			invalid("payment_token", "saved card")},
		{"no number", card(func(c *CardInput) { c.Number = "" }), missing(cards.FieldCardNumber)},
		{"number with letters", card(func(c *CardInput) { c.Number = "4242abcd42424242" }),
			unreadable(cards.FieldCardNumber, cards.ReasonNumberCharacters)},
		{"short number", card(func(c *CardInput) { c.Number = "4242" }), unreadable(cards.FieldCardNumber, cards.ReasonNumberLength)},
		{"number failing Luhn", card(func(c *CardInput) { c.Number = "4242424242424241" }),
			unreadable(cards.FieldCardNumber, cards.ReasonNumberInvalid)},
		{"no month", card(func(c *CardInput) { c.ExpMonth = "" }), missing(cards.FieldExpMonth)},
		{"no year", card(func(c *CardInput) { c.ExpYear = "" }), missing(cards.FieldExpYear)},
		{"CVC of 2", card(func(c *CardInput) { c.CVC = "12" }), precondition(cards.FieldCVC, cards.ReasonCVCLength)},
		{"CVC of 4", card(func(c *CardInput) { c.CVC = "1234" }), nil},
		{"CVC of 5", card(func(c *CardInput) { c.CVC = "12345" }), precondition(cards.FieldCVC, cards.ReasonCVCLength)},
		{"CVC not a number", card(func(c *CardInput) { c.CVC = "12a" }), invalid(cards.FieldCVC, "must be a number")},
		{"month 0", card(func(c *CardInput) { c.ExpMonth = "0" }), precondition(cards.FieldExpMonth, cards.ReasonExpiryMonth)},
		{"month 13", card(func(c *CardInput) { c.ExpMonth = "13" }), precondition(cards.FieldExpMonth, cards.ReasonExpiryMonth)},
		{"month not a number", card(func(c *CardInput) { c.ExpMonth = "ab" }), invalid(cards.FieldExpMonth, "must be a number")},
		{"two-digit year", card(func(c *CardInput) { c.ExpYear = "99" }), nil},
		{"three-digit year", card(func(c *CardInput) { c.ExpYear = "209" }), precondition(cards.FieldExpYear, cards.ReasonExpiryYear)},
		{"past year", card(func(c *CardInput) { c.ExpYear = "2001" }), precondition(cards.FieldExpYear, cards.ReasonExpiryYear)},
		{"CVC before expiry", card(func(c *CardInput) { c.CVC, c.ExpYear = "1", "2001" }), precondition(cards.FieldCVC, cards.ReasonCVCLength)},
		{"billing", PaymentMethodInput{Type: "card", Card: testCard(nil),
			Billing: &schematype.AddressWrapper{Address: &schematype.Address{Country: ptr("US")}}}, nil},
		{"billing before the card", PaymentMethodInput{Type: "card",
			Billing: &schematype.AddressWrapper{Address: &schematype.Address{Country: ptr("USA")}}},
			invalid("payment_method_data.billing.address.country")},
		{"unknown type", PaymentMethodInput{Type: "card", Subtype: "platinum", Card: testCard(nil)}, invalid("payment_method_type", `"platinum"`)},
		{"known type", PaymentMethodInput{Type: "card", Subtype: "credit", Card: testCard(nil)}, nil},
		{"upi collect", PaymentMethodInput{Type: "upi", Subtype: "upi_collect", VPA: "success@upi"}, nil},
		{"upi collect without VPA", PaymentMethodInput{Type: "upi", Subtype: "upi_collect"}, missing("payment_method_data.upi.upi_collect.vpa_id")},
		{"upi without VPA nor type", PaymentMethodInput{Type: "upi"}, missing("payment_method_data.upi.upi_collect.vpa_id")},
		{"upi intent", PaymentMethodInput{Type: "upi", Subtype: "upi_intent"}, nil},
		{"bank debit", PaymentMethodInput{Type: "bank_debit", Variant: "ach_bank_debit", BankAccount: "000123456789"}, nil},
		{"bank debit without account", PaymentMethodInput{Type: "bank_debit", Variant: "ach_bank_debit"},
			missing("payment_method_data.bank_debit.ach_bank_debit.account_number")},
		{"SEPA debit without IBAN", PaymentMethodInput{Type: "bank_debit", Variant: "sepa_bank_debit"},
			missing("payment_method_data.bank_debit.sepa_bank_debit.iban")},
		{"bank debit without variant", PaymentMethodInput{Type: "bank_debit"}, missing("payment_method_data.bank_debit")},
		{"gift card", PaymentMethodInput{Type: "gift_card", Variant: "givex", GiftCard: &GiftCardInput{Number: "6036280000000000000"}}, nil},
		{"gift card without number", PaymentMethodInput{Type: "gift_card", Variant: "givex", GiftCard: &GiftCardInput{}},
			missing("payment_method_data.gift_card.givex.number")},
		{"BHN gift card without number", PaymentMethodInput{Type: "gift_card", Variant: "bhn_card_network"},
			missing("payment_method_data.gift_card.bhn_card_network.account_number")},
		{"gift card without variant", PaymentMethodInput{Type: "gift_card"}, missing("payment_method_data.gift_card")},
		{"paysafecard", PaymentMethodInput{Type: "gift_card", Variant: "pay_safe_card"}, nil},
		{"wallet", PaymentMethodInput{Type: "wallet", Variant: "paypal_redirect"}, nil},
		{"no family", PaymentMethodInput{}, missing("payment_method")},
		{"network token", PaymentMethodInput{Type: "network_token"}, &refusal{errs.ErrNotSupported, "", "not supported: network_token"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkRefusal(t, tc.pm.Validate(), tc.want)
		})
	}
	for _, family := range Families {
		pm := PaymentMethodInput{Type: family, Card: testCard(nil), VPA: "a@upi", BankAccount: "1", GiftCard: &GiftCardInput{Number: "1"}}
		if err := pm.Validate(); err != nil {
			t.Errorf("%s with its data: %v", family, err)
		}
	}
}

// TestPaymentMethodDataMethod: a request's payment_method_data names
// exactly one method, which payment_method must agree with.
func TestPaymentMethodDataMethod(t *testing.T) {
	for _, tc := range []struct {
		name              string
		d                 PaymentMethodData
		method, subtype   *string
		wantType, wantSub string
		wantVariant       string
		want              *refusal
	}{
		{name: "card", d: PaymentMethodData{Card: testCard(nil)}, wantType: "card"},
		{name: "card as credit", d: PaymentMethodData{Card: testCard(nil)}, method: ptr("card"), subtype: ptr("credit"),
			wantType: "card", wantSub: "credit"},
		{name: "card said to be a wallet", d: PaymentMethodData{Card: testCard(nil)}, method: ptr("wallet"),
			want: invalid("payment_method", `is "wallet", but payment_method_data holds card data`)},
		{name: "upi collect", d: PaymentMethodData{Upi: &UpiData{Collect: true, CollectVPA: ptr("a@upi")}}, wantType: "upi", wantSub: "upi_collect"},
		{name: "upi intent", d: PaymentMethodData{Upi: &UpiData{Intent: true}}, wantType: "upi", wantSub: "upi_intent"},
		{name: "upi qr", d: PaymentMethodData{Upi: &UpiData{QRCode: true}}, wantType: "upi", wantSub: "upi_qr"},
		{name: "empty upi", d: PaymentMethodData{Upi: &UpiData{}}, want: invalid("payment_method_data.upi", "upi_collect")},
		{name: "paypal", d: PaymentMethodData{Variants: map[string][]string{"wallet": {"paypal_redirect"}}},
			wantType: "wallet", wantSub: "paypal", wantVariant: "paypal_redirect"},
		{name: "ACH transfer", d: PaymentMethodData{Variants: map[string][]string{"bank_transfer": {"ach_bank_transfer"}}},
			wantType: "bank_transfer", wantSub: "ach", wantVariant: "ach_bank_transfer"},
		{name: "two wallets", d: PaymentMethodData{Variants: map[string][]string{"wallet": {"paypal_redirect", "apple_pay"}}},
			want: invalid("payment_method_data.wallet", "exactly one wallet")},
		{name: "no wallet", d: PaymentMethodData{Variants: map[string][]string{"wallet": {}}},
			want: invalid("payment_method_data.wallet", "exactly one wallet")},
		{name: "crypto", d: PaymentMethodData{Crypto: true}, wantType: "crypto", wantSub: "crypto_currency"},
		{name: "reward", d: PaymentMethodData{Reward: true}, wantType: "reward"},
		{name: "nothing", d: PaymentMethodData{}, want: invalid("payment_method_data", "must hold one payment method")},
		{name: "card and upi", d: PaymentMethodData{Card: testCard(nil), Upi: &UpiData{Intent: true}},
			want: invalid("payment_method_data", "card and upi")},
		{name: "card and reward", d: PaymentMethodData{Card: testCard(nil), Reward: true},
			want: invalid("payment_method_data", "card and reward")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pm, err := tc.d.Method(tc.method, tc.subtype)
			checkRefusal(t, err, tc.want)
			if tc.want != nil {
				return
			}
			if pm.Type != tc.wantType || pm.Subtype != tc.wantSub || pm.Variant != tc.wantVariant {
				t.Errorf("type %q subtype %q variant %q; want %q %q %q", pm.Type, pm.Subtype, pm.Variant, tc.wantType, tc.wantSub, tc.wantVariant)
			}
		})
	}
}

func TestMethodSubtype(t *testing.T) {
	for variant, want := range map[string]string{
		"paypal_redirect":           "paypal",
		"we_chat_pay_qr":            "we_chat_pay",
		"ach_bank_transfer":         "ach",
		"sepa_bank_debit":           "sepa",
		"ideal":                     "ideal",
		"apple_pay":                 "apple_pay",
		"apple_pay_third_party_sdk": "apple_pay",
		"no_such_method":            "",
	} {
		if got := methodSubtype(variant); got != want {
			t.Errorf("%s: %q, want %q", variant, got, want)
		}
	}
}

// TestCardDetails: what is kept of a card is never its number or CVC.
func TestCardDetails(t *testing.T) {
	d := testCard(func(c *CardInput) { c.HolderName = ptr("Jane") }).Details()
	if d.Last4 != "4242" || d.CardExpMonth != "12" || d.CardExpYear != "2099" || d.CardHolderName == nil || *d.CardHolderName != "Jane" {
		t.Errorf("details %+v", d)
	}
	if d.CardNetwork == nil || *d.CardNetwork != "Visa" {
		t.Errorf("network %v", d.CardNetwork)
	}
	if d := testCard(func(c *CardInput) { c.Network = ptr("CartesBancaires") }).Details(); *d.CardNetwork != "CartesBancaires" {
		t.Errorf("the network given is kept: %v", *d.CardNetwork)
	}
	if d := testCard(func(c *CardInput) { c.Network = ptr("") }).Details(); *d.CardNetwork != "Visa" {
		t.Errorf("an empty network given is the number's: %v", *d.CardNetwork)
	}
}
