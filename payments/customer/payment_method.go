package customer

import (
	"maps"
	"slices"
	"strings"

	"switchyard/ent"
	"switchyard/ent/customer"
	"switchyard/ent/migrate"
	"switchyard/ent/schema/schematype"
	"switchyard/payments/cards"
	"switchyard/payments/errs"
	"switchyard/payments/validate"
)

// CardInput, the card as Hyperswitch's Card defines it, is generated from
// the contract into wire_gen.go.
//go:generate go run switchyard/internal/tools/wiregen -config wire.yaml

// PaymentMethodInput is what the customer pays with.
type PaymentMethodInput struct {
	// Type is the payment_method: one of Families.
	Type string `json:"type"`
	// Subtype is the payment_method_type (credit, upi_collect, paypal, …).
	Subtype string     `json:"subtype"`
	Card    *CardInput `json:"card,omitempty"`
	// VPA is the UPI collect address.
	VPA string `json:"vpa,omitempty"`
	// Variant is the member named under the family's object
	// (google_pay, ach_bank_transfer, sepa_bank_debit, boleto, givex, …).
	Variant string `json:"variant,omitempty"`
	// BankAccount is a bank debit's account number or IBAN, and GiftCard a
	// gift card's number and PIN: like a card, they go to the connector
	// (sealed in the vault between create and confirm) and are never kept.
	BankAccount string         `json:"bank_account,omitempty"`
	GiftCard    *GiftCardInput `json:"gift_card,omitempty"`
	// WalletLast4 is the last four digits of the card behind a wallet
	// token, when the wallet data names them.
	WalletLast4 string `json:"wallet_last4,omitempty"`
	// Country is the country a SEPA bank transfer names.
	Country string                     `json:"country,omitempty"`
	Billing *schematype.AddressWrapper `json:"billing,omitempty"`
	// SavedToken names a saved payment method of the payment's customer to
	// pay with (payment_token), and SavedCVC is its security code when the
	// checkout asks for it again; SavedCard resolves them at confirm.
	SavedToken string  `json:"saved_token,omitempty"`
	SavedCVC   *string `json:"saved_cvc,omitempty"`
	// ConnectorMandateID charges a saved card by the connector's token
	// instead of Card: a recurring payment on a mandate. It is built at
	// confirm from the mandate, never taken from a request nor vaulted.
	ConnectorMandateID string `json:"-"`
	// Mandate and Saved are the mandate a recurring payment charges and its
	// saved payment method, whose masked card the attempt shows.
	Mandate *ent.Mandate       `json:"-"`
	Saved   *ent.PaymentMethod `json:"-"`
}

// GiftCardInput is a gift card as the connector takes it.
type GiftCardInput struct {
	Number string `json:"number"`
	PIN    string `json:"pin,omitempty"`
}

// Families are the payment_method values a payment can be confirmed with:
// Hyperswitch's PaymentMethod enumeration less network_token, which only a
// network token requestor can send.
var Families = []string{"card", "card_redirect", "pay_later", "wallet", "bank_redirect", "bank_transfer", "crypto",
	"bank_debit", "reward", "real_time_payment", "upi", "voucher", "gift_card", "open_banking", "mobile_payment"}

// CustomerInput names the payment's customer by the merchant's id; the
// customer is created on first use.
type CustomerInput struct {
	// ID is the merchant's customer_id, when Named: a payment may give a
	// customer's details without naming one (they go to the payment's own
	// customer, if it has one, and stay on the payment).
	ID               string
	Named            bool
	Name             *string
	Email            *string
	Phone            *string
	PhoneCountryCode *string
}

// Details are the name, email and phone given, or nil when none is.
func (in *CustomerInput) Details() *schematype.CustomerDetails {
	if in.Name == nil && in.Email == nil && in.Phone == nil && in.PhoneCountryCode == nil {
		return nil
	}
	return &schematype.CustomerDetails{Name: in.Name, Email: in.Email, Phone: in.Phone, PhoneCountryCode: in.PhoneCountryCode}
}

// PaymentCustomer is a payment's customer as a request gives it: the
// details, and the customer that customer_id and the customer object's id
// name (they must agree when both are given). Details may come without an
// id: the domain gives them to the payment's own customer, if any. Nil when
// neither an id nor a detail is given.
func PaymentCustomer(customerID, objectID *string, details CustomerInput) (*CustomerInput, error) {
	id := objectID
	if customerID != nil {
		if id != nil && *id != *customerID {
			return nil, errs.InvalidValue("customer.id", "must equal customer_id when both are given")
		}
		id = customerID
	}
	in := &CustomerInput{Name: details.Name, Email: details.Email, Phone: details.Phone, PhoneCountryCode: details.PhoneCountryCode}
	if id == nil {
		if in.Details() == nil {
			return nil, nil
		}
		return in, nil
	}
	in.ID, in.Named = *id, true
	return in, nil
}

// Limits of a customer's columns, from the ent schema.
var (
	maxCustomerName             = validate.Column(migrate.CustomersTable, customer.FieldName)
	maxCustomerEmail            = validate.Column(migrate.CustomersTable, customer.FieldEmail)
	maxCustomerPhone            = validate.Column(migrate.CustomersTable, customer.FieldPhone)
	maxCustomerPhoneCountryCode = validate.Column(migrate.CustomersTable, customer.FieldPhoneCountryCode)
)

// Validate checks what a payment gives of its customer against the
// columns it is kept in (a payment creates or fills in the customer).
func (in *CustomerInput) Validate() error {
	return validate.Lengths(
		validate.Length{Field: "customer.name", Value: in.Name, Max: maxCustomerName},
		validate.Length{Field: "customer.email", Value: in.Email, Max: maxCustomerEmail},
		validate.Length{Field: "customer.phone", Value: in.Phone, Max: maxCustomerPhone},
		validate.Length{Field: "customer.phone_country_code", Value: in.PhoneCountryCode, Max: maxCustomerPhoneCountryCode},
	)
}

// Validate checks the payment method on its own: its billing address, a
// known payment_method_type, and the data its type needs (a valid card, a
// UPI address).
func (pm *PaymentMethodInput) Validate() error {
	if err := validate.Address("payment_method_data.billing", pm.Billing); err != nil {
		return err
	}
	if pm.Subtype != "" && !validate.PaymentMethodTypes.Has(pm.Subtype) {
		return errs.InvalidValue("payment_method_type", "unknown payment method type %q", pm.Subtype)
	}
	switch pm.Type {
	case "card":
		if pm.SavedToken != "" {
			if pm.Card != nil {
				return errs.InvalidValue("payment_token", "cannot be given with card details: it names a saved card")
			}
			return nil
		}
		if pm.Card == nil {
			return errs.MissingField("payment_method_data.card")
		}
		if err := validate.CardNetworks.Optional("payment_method_data.card.card_network", pm.Card.Network); err != nil {
			return err
		}
		return validateCard(pm.Card)
	case "upi":
		if pm.VPA == "" && (pm.Subtype == "" || pm.Subtype == "upi_collect") {
			return errs.MissingField("payment_method_data.upi.upi_collect.vpa_id")
		}
	case "bank_debit":
		if pm.BankAccount == "" {
			field := "payment_method_data.bank_debit"
			if pm.Variant != "" {
				field += "." + pm.Variant + "." + bankAccountMember(pm.Variant)
			}
			return errs.MissingField(field)
		}
	case "gift_card":
		if pm.Variant != "pay_safe_card" && (pm.GiftCard == nil || pm.GiftCard.Number == "") {
			field := "payment_method_data.gift_card"
			if pm.Variant != "" {
				field += "." + pm.Variant + "." + giftCardNumberMember(pm.Variant)
			}
			return errs.MissingField(field)
		}
	case "":
		return errs.MissingField("payment_method")
	default:
		if !slices.Contains(Families, pm.Type) {
			return errs.ErrNotSupported.Detailf("%s", pm.Type)
		}
	}
	return nil
}

// bankAccountMember is the member of a bank debit variant that holds the
// account: the IBAN for SEPA, the account number otherwise.
func bankAccountMember(variant string) string {
	if strings.HasPrefix(variant, "sepa") {
		return "iban"
	}
	return "account_number"
}

// giftCardNumberMember is the member of a gift card variant that holds its
// number.
func giftCardNumberMember(variant string) string {
	if variant == "bhn_card_network" {
		return "account_number"
	}
	return "number"
}

// Details is what is kept of a card: never the number or the CVC.
func (c *CardInput) Details() *schematype.CardDetails {
	d := cards.Describe(c.Number)
	out := &schematype.CardDetails{
		Last4:          d.Last4,
		CardISIN:       d.BIN,
		CardExpMonth:   c.ExpMonth,
		CardExpYear:    c.ExpYear,
		CardHolderName: c.HolderName,
		CardNetwork:    validate.NonEmpty(d.Network),
	}
	if c.Network != nil && *c.Network != "" {
		out.CardNetwork = c.Network
	}
	out.CardExtendedBIN = validate.NonEmpty(d.ExtendedBIN)
	out.CardType = validate.NonEmpty(d.CardType)
	out.CardIssuer = validate.NonEmpty(d.Issuer)
	out.CardIssuingCntry = validate.NonEmpty(d.IssuingCountry)
	return out
}

// PaymentMethodData is a v1 request's payment_method_data as REST and
// GraphQL both read it from their wire forms: the methods it names, of which
// Method accepts exactly one.
type PaymentMethodData struct {
	Billing *schematype.AddressWrapper
	Card    *CardInput
	Upi     *UpiData
	// Variants are, for each family given as an object of variants
	// (wallet, pay_later, bank_redirect, bank_transfer, bank_debit,
	// voucher, gift_card, card_redirect, real_time_payment, open_banking,
	// mobile_payment), the variants named under it: paypal_redirect,
	// ach_bank_transfer, boleto, …
	Variants map[string][]string
	// Crypto and Reward are the families without variants (reward is the
	// bare string "reward").
	Crypto, Reward bool
	// Details are what the one variant given carries that the connector
	// decides on: a bank account, a gift card, the card behind a wallet
	// token, a transfer's country.
	BankAccount string
	GiftCard    *GiftCardInput
	WalletLast4 string
	Country     string
}

// UpiData is payment_method_data.upi: the variants given.
type UpiData struct {
	Collect        bool
	CollectVPA     *string
	Intent, QRCode bool
}

// Method maps the data, with the request's payment_method and
// payment_method_type, onto the payment method the payment is confirmed
// with: exactly one method, a payment_method that agrees with it, and the
// variant's payment_method_type.
func (d *PaymentMethodData) Method(paymentMethod, paymentMethodType *string) (*PaymentMethodInput, error) {
	pm := &PaymentMethodInput{Billing: d.Billing, BankAccount: d.BankAccount, GiftCard: d.GiftCard,
		WalletLast4: d.WalletLast4, Country: d.Country}
	var kinds []string
	if d.Card != nil {
		kinds = append(kinds, "card")
		pm.Type, pm.Card = "card", d.Card
	}
	if u := d.Upi; u != nil {
		kinds = append(kinds, "upi")
		pm.Type = "upi"
		switch {
		case u.Collect:
			pm.Subtype = "upi_collect"
			if u.CollectVPA != nil {
				pm.VPA = *u.CollectVPA
			}
		case u.Intent:
			pm.Subtype = "upi_intent"
		case u.QRCode:
			pm.Subtype = "upi_qr"
		default:
			return nil, errs.InvalidValue("payment_method_data.upi", "must hold one of upi_collect, upi_intent or upi_qr")
		}
	}
	for _, family := range slices.Sorted(maps.Keys(d.Variants)) {
		variants := d.Variants[family]
		kinds = append(kinds, family)
		if len(variants) != 1 {
			return nil, errs.InvalidValue("payment_method_data."+family, "must hold exactly one %s method", family)
		}
		pm.Type, pm.Variant, pm.Subtype = family, variants[0], methodSubtype(variants[0])
	}
	if d.Crypto {
		kinds = append(kinds, "crypto")
		pm.Type, pm.Subtype = "crypto", "crypto_currency"
	}
	if d.Reward {
		kinds = append(kinds, "reward")
		pm.Type = "reward"
	}
	switch {
	case len(kinds) == 0:
		return nil, errs.InvalidValue("payment_method_data", "must hold one payment method (card, wallet, bank_transfer, …)")
	case len(kinds) > 1:
		return nil, errs.InvalidValue("payment_method_data", "must hold exactly one payment method, got %s", strings.Join(kinds, " and "))
	}
	if paymentMethodType != nil {
		pm.Subtype = *paymentMethodType
	}
	if paymentMethod != nil && *paymentMethod != pm.Type {
		return nil, errs.InvalidValue("payment_method", "is %q, but payment_method_data holds %s data", *paymentMethod, pm.Type)
	}
	return pm, nil
}

// variantSubtypes are the payment_method_types of the variants whose name
// is not their type with a suffix dropped.
var variantSubtypes = map[string]string{
	"ach_bank_transfer": "ach", "bacs_bank_transfer": "bacs", "multibanco_bank_transfer": "multibanco",
	"bni_va_bank_transfer": "bni_va", "bri_va_bank_transfer": "bri_va", "cimb_va_bank_transfer": "cimb_va",
	"danamon_va_bank_transfer": "danamon_va", "mandiri_va_bank_transfer": "mandiri_va",
	"ach_bank_debit": "ach", "sepa_bank_debit": "sepa", "sepa_guarenteed_bank_debit": "sepa_guarenteed_debit",
	"becs_bank_debit": "becs", "bacs_bank_debit": "bacs",
}

// methodSubtype is the payment_method_type a variant names: paypal_redirect
// → paypal, we_chat_pay_qr → we_chat_pay, ach_bank_transfer → ach, ideal →
// ideal; "" when the variant names no known type.
func methodSubtype(variant string) string {
	if t, ok := variantSubtypes[variant]; ok {
		return t
	}
	if validate.PaymentMethodTypes.Has(variant) {
		return variant
	}
	for _, suffix := range []string{"_third_party_sdk", "_redirect", "_sdk", "_qr"} {
		if s, ok := strings.CutSuffix(variant, suffix); ok && validate.PaymentMethodTypes.Has(s) {
			return s
		}
	}
	return ""
}
