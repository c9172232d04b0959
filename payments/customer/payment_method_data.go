package customer

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"unicode"

	"switchyard/payments/errs"
)

// VariantFamilies are the members of payment_method_data that hold an
// object naming one variant (vouchers may also be a bare variant name).
var VariantFamilies = []string{"wallet", "pay_later", "bank_redirect", "bank_transfer", "bank_debit", "voucher",
	"gift_card", "card_redirect", "real_time_payment", "open_banking", "mobile_payment"}

// AddFamily reads one member of payment_method_data other than card and upi
// from its JSON: an object naming its variant ({"google_pay": {…}}), a bare
// variant name where Hyperswitch allows one ("oxxo"), crypto's object, or
// nothing at all for null. It records the variant, and what the variant
// carries that the connector decides on.
func (d *PaymentMethodData) AddFamily(family string, raw []byte) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	field := "payment_method_data." + family
	if family == "crypto" {
		var obj map[string]any
		if json.Unmarshal(raw, &obj) != nil {
			return errs.InvalidValue(field, "must be an object")
		}
		d.Crypto = true
		return nil
	}
	if !slices.Contains(VariantFamilies, family) {
		return errs.InvalidValue("payment_method_data", "unknown payment method %q", family)
	}
	var name string
	if json.Unmarshal(raw, &name) == nil {
		if name == "" {
			return errs.InvalidValue(field, "must name a %s method", family)
		}
		d.addVariant(family, name)
		return nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return errs.InvalidValue(field, "must be an object naming one %s method", family)
	}
	if d.Variants == nil {
		d.Variants = map[string][]string{}
	}
	d.Variants[family] = slices.Sorted(maps.Keys(obj))
	if len(obj) != 1 {
		return nil // Method refuses it, naming the family
	}
	for variant, data := range obj {
		if err := d.readDetails(family, variant, data); err != nil {
			return err
		}
	}
	return nil
}

func (d *PaymentMethodData) addVariant(family, variant string) {
	if d.Variants == nil {
		d.Variants = map[string][]string{}
	}
	d.Variants[family] = append(d.Variants[family], variant)
}

// variantDetails are the members of a variant's object the connector
// decides on; each family reads its own.
type variantDetails struct {
	// bank_debit
	AccountNumber *string `json:"account_number"`
	IBAN          *string `json:"iban"`
	// gift_card: givex has number and cvc, bhn_card_network account_number
	// and pin.
	Number *string `json:"number"`
	CVC    *string `json:"cvc"`
	PIN    *string `json:"pin"`
	// wallet: Google Pay's info.card_details, Apple Pay's
	// payment_method.display_name ("Visa 0326").
	Info *struct {
		CardDetails *string `json:"card_details"`
	} `json:"info"`
	PaymentMethod *struct {
		DisplayName *string `json:"display_name"`
	} `json:"payment_method"`
	// bank_transfer: a SEPA transfer's country.
	Country *string `json:"country"`
}

func (d *PaymentMethodData) readDetails(family, variant string, data json.RawMessage) error {
	var v variantDetails
	if len(bytes.TrimSpace(data)) == 0 || json.Unmarshal(data, &v) != nil {
		// A variant whose data is not an object carries no details.
		return nil
	}
	field := "payment_method_data." + family + "." + variant
	switch family {
	case "bank_debit":
		account := firstOf(v.IBAN, v.AccountNumber)
		if strings.HasPrefix(variant, "sepa") && v.IBAN == nil {
			return errs.MissingField(field + ".iban")
		}
		d.BankAccount = account
	case "gift_card":
		d.GiftCard = &GiftCardInput{Number: firstOf(v.Number, v.AccountNumber), PIN: firstOf(v.CVC, v.PIN)}
	case "wallet":
		switch {
		case v.Info != nil && v.Info.CardDetails != nil:
			d.WalletLast4 = lastDigits(*v.Info.CardDetails, 4)
		case v.PaymentMethod != nil && v.PaymentMethod.DisplayName != nil:
			d.WalletLast4 = lastDigits(*v.PaymentMethod.DisplayName, 4)
		}
	case "bank_transfer":
		d.Country = firstOf(v.Country)
	}
	return nil
}

func firstOf(vs ...*string) string {
	for _, v := range vs {
		if v != nil && *v != "" {
			return *v
		}
	}
	return ""
}

// lastDigits is the last n digits of s, or "" when it has fewer.
func lastDigits(s string, n int) string {
	var digits []rune
	for _, r := range s {
		if unicode.IsDigit(r) {
			digits = append(digits, r)
		}
	}
	if len(digits) < n {
		return ""
	}
	return string(digits[len(digits)-n:])
}

// AddFamilies reads the members of payment_method_data other than card and
// upi, by name (AddFamily), in name order so that of two refusals the same
// one is reported every time. Each value is the member as decoded (a
// json.RawMessage, or a GraphQL Map); nil is a member not given.
func (d *PaymentMethodData) AddFamilies(families map[string]any) error {
	for _, name := range slices.Sorted(maps.Keys(families)) {
		raw, err := json.Marshal(families[name])
		if err != nil {
			return errs.InvalidValue("payment_method_data."+name, "must be a JSON object")
		}
		if err := d.AddFamily(name, raw); err != nil {
			return err
		}
	}
	return nil
}

// UpiRequest is Hyperswitch's UpiData (payment_method_data.upi), a closed
// object: one of its variants, of which only upi_collect carries what the
// sandbox reads. REST v1 decodes it as it is, GraphQL from its upi Map.
type UpiRequest struct {
	UpiCollect *UpiCollectRequest `json:"upi_collect"`
	UpiIntent  json.RawMessage    `json:"upi_intent"`
	UpiQr      json.RawMessage    `json:"upi_qr"`
}

// Data is the variants given (a variant given as null is not given), and
// the collect's VPA; nil when upi is absent.
func (u *UpiRequest) Data() *UpiData {
	if u == nil {
		return nil
	}
	data := &UpiData{Collect: u.UpiCollect != nil, Intent: given(u.UpiIntent), QRCode: given(u.UpiQr)}
	if u.UpiCollect != nil {
		data.CollectVPA = u.UpiCollect.VpaID
	}
	return data
}

// UpiCollectRequest is Hyperswitch's UpiCollectData.
type UpiCollectRequest struct {
	VpaID     *string         `json:"vpa_id"`
	UpiSource json.RawMessage `json:"upi_source"`
}

// given reports whether a member carries a value (null does not).
func given(raw json.RawMessage) bool {
	return len(raw) > 0 && string(raw) != "null"
}
