package connector

import (
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"switchyard/ent/schema/schematype"
	"switchyard/payments/errs"
	"switchyard/payments/validate"
)

//go:generate go run switchyard/internal/tools/wiregen -config wire.yaml

// This file holds the typed value objects of a connector account
// (MerchantConnectorCreate's nested objects; those that transcribe the
// contract are generated into wire_gen.go) and their validation. Every rule
// reports the first violation as a *errs.Error naming the field by its path in
// the request, e.g. payment_methods_enabled[0].payment_method_types[1].card_networks[0].
// A required member that is absent, null or "" is IR_04; a value outside its
// set or its limits is IR_07.

// ConnectorType is the kind of provider (the spec's 13 values).
type Type string

// Valid reports whether t is one of the spec's values.
func (t Type) Valid() bool { return connectorTypes.Has(string(t)) }

// Connector is a provider identifier from Hyperswitch's closed list.
type Name string

// Valid reports whether c is a known connector name (connector.Known).
func (c Name) Valid() bool { return Known(string(c)) }

// ConnectorStatus is inactive or active.
type AccountStatus string

// Connector account statuses.
const (
	AccountInactive AccountStatus = "inactive"
	AccountActive   AccountStatus = "active"
)

// PaymentExperience is how the customer goes through a payment method.
type PaymentExperience string

// CardNetwork is one of the 15 card networks.
type CardNetwork string

// Country is an ISO 3166-1 alpha-2 code.
type Country string

// Valid reports whether c is an ISO 3166-1 alpha-2 code.
func (c Country) Valid() bool { return validate.Countries.Has(string(c)) }

// FrmFlow is FrmPreferredFlowTypes: pre or post.
type FrmFlow string

// FrmAction is what fraud risk management does on a hit.
type FrmAction string

// Discriminants of AcceptedCurrencies and AcceptedCountries.
const (
	AcceptEnableOnly  = "enable_only"
	AcceptDisableOnly = "disable_only"
	AcceptAll         = "all_accepted"
)

// Accepted is discriminated on Type: enable_only and disable_only need
// List; all_accepted has no other member.
type Accepted[T ~string] struct {
	Type string `json:"type"`
	List []T    `json:"list,omitzero"`
}

// AcceptedCurrencies is Accepted for validate.Currencies.
type AcceptedCurrencies = Accepted[schematype.Currency]

// AcceptedCountries is Accepted for validate.Countries.
type AcceptedCountries = Accepted[Country]

// listed is the list as plain strings, for the sets and filters that
// compare them.
func (a *Accepted[T]) listed() []string {
	list := make([]string, len(a.List))
	for i, v := range a.List {
		list[i] = string(v)
	}
	return list
}

// validate checks a on its own and against set: enable_only and
// disable_only need list (its items from set); all_accepted has no list.
func (a *Accepted[T]) validate(p validate.Path, set *validate.Enum) error {
	if a == nil {
		return nil
	}
	return validateAccepted(p, a.Type, a.listed(), a.List != nil, set)
}

// IbanAccountData is the iban, sepa and sepa_instant variant.
type IbanAccountData struct {
	Iban                 string  `json:"iban"`
	Name                 string  `json:"name"`
	ConnectorRecipientID *string `json:"connector_recipient_id"`
}

// UKAccountData is the bacs and faster_payments variant.
type UKAccountData struct {
	AccountNumber        string  `json:"account_number"`
	SortCode             string  `json:"sort_code"`
	Name                 string  `json:"name"`
	ConnectorRecipientID *string `json:"connector_recipient_id"`
}

// ElixirAccountData is the Polish Elixir variant.
type ElixirAccountData struct {
	AccountNumber        string  `json:"account_number"`
	Iban                 string  `json:"iban"`
	Name                 string  `json:"name"`
	ConnectorRecipientID *string `json:"connector_recipient_id"`
}

// GiroAccountData is the Swedish bankgiro and plusgiro variant.
type GiroAccountData struct {
	Number               string  `json:"number"`
	Name                 string  `json:"name"`
	ConnectorRecipientID *string `json:"connector_recipient_id"`
}

// Limits of a connector account's members.
const (
	MaxProfileIDLen         = 64
	MaxConnectorLabelLen    = 255
	MaxBusinessLabelLen     = 64
	MaxAccountDetailsKeys   = 50
	MaxAccountDetailsKeyLen = 40
	MaxAccountDetailsValLen = 500
	MaxIbanLen              = 34
)

// maxSafeAmount bounds minimum_amount and maximum_amount: the JSON columns
// are read back through float64, which is exact only up to 2^53-1.
const maxSafeAmount = 1<<53 - 1

// validateAccountDetails checks the credentials' size guidance: at most 50
// keys an object, key names up to 40 characters, strings up to 500. The
// values are any JSON, as Hyperswitch's (a SecretSerdeValue): its
// CurrencyAuthKey keeps an object per currency in auth_key_map.
func validateAccountDetails(p validate.Path, d map[string]any) error {
	if len(d) > MaxAccountDetailsKeys {
		return errs.InvalidValue(p.String(), "has %d keys; at most %d are allowed", len(d), MaxAccountDetailsKeys)
	}
	for _, k := range slices.Sorted(maps.Keys(d)) {
		if k == "" {
			return errs.InvalidValue(p.String(), "key names must not be empty")
		}
		if n := utf8.RuneCountInString(k); n > MaxAccountDetailsKeyLen {
			return errs.InvalidValue(p.Key(k).String(), "the key name is %d characters long; at most %d are allowed",
				n, MaxAccountDetailsKeyLen)
		}
		if err := validateAccountDetail(p.Key(k), d[k]); err != nil {
			return err
		}
	}
	return nil
}

// validateAccountDetail checks one credential value, and what it holds.
func validateAccountDetail(p validate.Path, v any) error {
	switch v := v.(type) {
	case string:
		if n := utf8.RuneCountInString(v); n > MaxAccountDetailsValLen {
			return errs.InvalidValue(p.String(), "the value is %d characters long; at most %d are allowed",
				n, MaxAccountDetailsValLen)
		}
	case map[string]any:
		return validateAccountDetails(p, v)
	case []any:
		if len(v) > MaxAccountDetailsKeys {
			return errs.InvalidValue(p.String(), "has %d items; at most %d are allowed", len(v), MaxAccountDetailsKeys)
		}
		for i, e := range v {
			if err := validateAccountDetail(p.At(i), e); err != nil {
				return err
			}
		}
	}
	return nil
}

// validateEach checks every item of list, each at its index under p, and
// reports the first violation.
func validateEach[T interface{ validate(validate.Path) error }](p validate.Path, list []T) error {
	for i, v := range list {
		if err := v.validate(p.At(i)); err != nil {
			return err
		}
	}
	return nil
}

func (pm PaymentMethodsEnabled) validate(p validate.Path) error {
	if err := paymentMethods.Required(p.Key("payment_method"), string(pm.PaymentMethod)); err != nil {
		return err
	}
	return validateEach(p.Key("payment_method_types"), pm.PaymentMethodTypes)
}

func (t RequestPaymentMethodTypes) validate(p validate.Path) error {
	if err := validate.PaymentMethodTypes.Required(p.Key("payment_method_type"), string(t.PaymentMethodType)); err != nil {
		return err
	}
	if err := paymentExperiences.Optional(p.Key("payment_experience"), (*string)(t.PaymentExperience)); err != nil {
		return err
	}
	for i, n := range t.CardNetworks {
		if err := validate.CardNetworks.Required(p.Key("card_networks").At(i), string(n)); err != nil {
			return err
		}
	}
	if err := t.AcceptedCurrencies.validate(p.Key("accepted_currencies"), validate.Currencies); err != nil {
		return err
	}
	if err := t.AcceptedCountries.validate(p.Key("accepted_countries"), validate.Countries); err != nil {
		return err
	}
	for _, a := range []struct {
		name string
		v    *int64
	}{{"minimum_amount", t.MinimumAmount}, {"maximum_amount", t.MaximumAmount}} {
		if a.v != nil && (*a.v < 0 || *a.v > maxSafeAmount) {
			return errs.InvalidValue(p.Key(a.name).String(), "must be between 0 and %d", int64(maxSafeAmount))
		}
	}
	if t.MinimumAmount != nil && t.MaximumAmount != nil && *t.MinimumAmount > *t.MaximumAmount {
		return errs.InvalidValue(p.Key("maximum_amount").String(), "must not be less than minimum_amount")
	}
	return nil
}

// validateAccepted checks a discriminated AcceptedCurrencies or
// AcceptedCountries: enable_only and disable_only need list (its items from
// set); all_accepted has no list.
func validateAccepted(p validate.Path, typ string, list []string, hasList bool, set *validate.Enum) error {
	if err := acceptedTypes.Required(p.Key("type"), typ); err != nil {
		return err
	}
	if typ == AcceptAll {
		if hasList {
			return errs.InvalidValue(p.Key("list").String(), "is not allowed when type is %s", AcceptAll)
		}
		return nil
	}
	if !hasList {
		return errs.MissingField(p.Key("list").String())
	}
	for i, v := range list {
		if err := set.Required(p.Key("list").At(i), v); err != nil {
			return err
		}
	}
	return nil
}

func (w WebhookDetails) validate(p validate.Path) error {
	if w.MerchantSecret == "" {
		return errs.MissingField(p.Key("merchant_secret").String())
	}
	if w.AdditionalSecret == "" {
		return errs.MissingField(p.Key("additional_secret").String())
	}
	return nil
}

func (c FrmConfig) validate(p validate.Path) error {
	if err := connectorTypes.Required(p.Key("gateway"), string(c.Gateway)); err != nil {
		return err
	}
	if c.PaymentMethods == nil {
		return errs.MissingField(p.Key("payment_methods").String())
	}
	for i, m := range c.PaymentMethods {
		mp := p.Key("payment_methods").At(i)
		if err := paymentMethods.Required(mp.Key("payment_method"), string(m.PaymentMethod)); err != nil {
			return err
		}
		if err := validateEach(mp.Key("payment_method_types"), m.PaymentMethodTypes); err != nil {
			return err
		}
		if err := frmFlows.Optional(mp.Key("flow"), (*string)(m.Flow)); err != nil {
			return err
		}
	}
	return nil
}

func (t FrmPaymentMethodType) validate(p validate.Path) error {
	if err := validate.PaymentMethodTypes.Required(p.Key("payment_method_type"), string(t.PaymentMethodType)); err != nil {
		return err
	}
	if err := validate.CardNetworks.Required(p.Key("card_networks"), string(t.CardNetworks)); err != nil {
		return err
	}
	if err := frmFlows.Required(p.Key("flow"), string(t.Flow)); err != nil {
		return err
	}
	return frmActions.Required(p.Key("action"), string(t.Action))
}

func (d AdditionalMerchantData) validate(p validate.Path) error {
	r := d.OpenBankingRecipientData
	p = p.Key("open_banking_recipient_data")
	if r == nil {
		return errs.MissingField(p.String())
	}
	return r.validate(p)
}

func (r MerchantRecipientData) validate(p validate.Path) error {
	given := present(map[string]bool{
		"connector_recipient_id": r.ConnectorRecipientID != nil,
		"wallet_id":              r.WalletID != nil,
		"account_data":           r.AccountData != nil,
	})
	if len(given) != 1 {
		return exactlyOne(p, given, "connector_recipient_id, wallet_id or account_data")
	}
	switch {
	case r.ConnectorRecipientID != nil && *r.ConnectorRecipientID == "":
		return errs.InvalidValue(p.Key("connector_recipient_id").String(), "must not be empty")
	case r.WalletID != nil && *r.WalletID == "":
		return errs.InvalidValue(p.Key("wallet_id").String(), "must not be empty")
	case r.AccountData != nil:
		return r.AccountData.validate(p.Key("account_data"))
	}
	return nil
}

func (a MerchantAccountData) validate(p validate.Path) error {
	// The variants, each with its check (run only on the one given).
	variants := []struct {
		name  string
		given bool
		check func(validate.Path) error
	}{
		{"iban", a.Iban != nil, func(p validate.Path) error { return a.Iban.validate(p) }},
		{"bacs", a.Bacs != nil, func(p validate.Path) error { return a.Bacs.validate(p) }},
		{"faster_payments", a.FasterPayments != nil, func(p validate.Path) error { return a.FasterPayments.validate(p) }},
		{"sepa", a.Sepa != nil, func(p validate.Path) error { return a.Sepa.validate(p) }},
		{"sepa_instant", a.SepaInstant != nil, func(p validate.Path) error { return a.SepaInstant.validate(p) }},
		{"elixir", a.Elixir != nil, func(p validate.Path) error { return a.Elixir.validate(p) }},
		{"bankgiro", a.Bankgiro != nil, func(p validate.Path) error { return a.Bankgiro.validate(p, 7, 8) }},
		{"plusgiro", a.Plusgiro != nil, func(p validate.Path) error { return a.Plusgiro.validate(p, 2, 8) }},
	}
	flags := map[string]bool{}
	for _, v := range variants {
		flags[v.name] = v.given
	}
	if given := present(flags); len(given) != 1 {
		return exactlyOne(p, given, "iban, bacs, faster_payments, sepa, sepa_instant, elixir, bankgiro or plusgiro")
	}
	for _, v := range variants {
		if v.given {
			return v.check(p.Key(v.name))
		}
	}
	return nil
}

// present returns the names whose flag is set, sorted.
func present(flags map[string]bool) []string {
	var out []string
	for k, ok := range flags {
		if ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

func exactlyOne(p validate.Path, given []string, choices string) error {
	if len(given) == 0 {
		return errs.InvalidValue(p.String(), "exactly one of %s is required", choices)
	}
	return errs.InvalidValue(p.String(), "exactly one of %s is allowed, got %s", choices, strings.Join(given, " and "))
}

func (a IbanAccountData) validate(p validate.Path) error {
	if err := checkIban(p.Key("iban"), a.Iban, 1, MaxIbanLen); err != nil {
		return err
	}
	return requiredString(p.Key("name"), a.Name)
}

func (a UKAccountData) validate(p validate.Path) error {
	if err := checkDigits(p.Key("account_number"), a.AccountNumber, 8); err != nil {
		return err
	}
	if err := checkDigits(p.Key("sort_code"), a.SortCode, 6); err != nil {
		return err
	}
	return requiredString(p.Key("name"), a.Name)
}

func (a ElixirAccountData) validate(p validate.Path) error {
	if err := checkDigits(p.Key("account_number"), a.AccountNumber, 26); err != nil {
		return err
	}
	if err := checkIban(p.Key("iban"), a.Iban, 28, 28); err != nil {
		return err
	}
	return requiredString(p.Key("name"), a.Name)
}

// validate checks a giro number: minDigits to maxDigits digits, which may be
// grouped with hyphens or spaces ("5402-9656").
func (a GiroAccountData) validate(p validate.Path, minDigits, maxDigits int) error {
	f := p.Key("number")
	if a.Number == "" {
		return errs.MissingField(f.String())
	}
	digits := 0
	for _, r := range a.Number {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r == '-' || r == ' ':
		default:
			return errs.InvalidValue(f.String(), "must hold only digits (optionally grouped with hyphens)")
		}
	}
	if digits < minDigits || digits > maxDigits {
		return errs.InvalidValue(f.String(), "must have %d to %d digits, got %d", minDigits, maxDigits, digits)
	}
	return requiredString(p.Key("name"), a.Name)
}

func requiredString(p validate.Path, v string) error {
	if v == "" {
		return errs.MissingField(p.String())
	}
	return nil
}

// checkDigits requires v to be exactly n ASCII digits.
func checkDigits(p validate.Path, v string, n int) error {
	return checkChars(p, v, n, n, func(r rune) bool { return r >= '0' && r <= '9' }, "digits", "digits")
}

// checkIban requires v to be min to max letters and digits.
func checkIban(p validate.Path, v string, minLen, maxLen int) error {
	return checkChars(p, v, minLen, maxLen, func(r rune) bool {
		return r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z'
	}, "letters and digits", "characters")
}

// checkChars requires v to be given, to hold only what allowed accepts
// (only says what that is), and to be exactly minLen long when that is
// maxLen too, else at most maxLen (in units).
func checkChars(p validate.Path, v string, minLen, maxLen int, allowed func(rune) bool, only, units string) error {
	if v == "" {
		return errs.MissingField(p.String())
	}
	for _, r := range v {
		if !allowed(r) {
			return errs.InvalidValue(p.String(), "must hold only %s", only)
		}
	}
	switch {
	case minLen == maxLen && len(v) != minLen:
		return errs.InvalidValue(p.String(), "must be exactly %d %s, got %d", minLen, units, len(v))
	case len(v) > maxLen:
		return errs.InvalidValue(p.String(), "must be at most %d %s, got %d", maxLen, units, len(v))
	}
	return nil
}
