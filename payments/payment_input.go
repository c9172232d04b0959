package payments

import (
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode"

	"switchyard/ent"
	"switchyard/ent/schema"
	"switchyard/ent/schema/schematype"
	"switchyard/payments/errs"
)

// CardInput is raw card data on its way to a connector. It is never stored:
// the attempt keeps schematype.CardDetails, and between create and confirm
// the card waits sealed in the Redis vault.
type CardInput struct {
	Number     string  `json:"card_number"`
	ExpMonth   string  `json:"card_exp_month"`
	ExpYear    string  `json:"card_exp_year"`
	CVC        string  `json:"card_cvc"`
	HolderName *string `json:"card_holder_name"`
	Network    *string `json:"card_network"`
}

// PaymentMethodInput is what the customer pays with.
type PaymentMethodInput struct {
	// Type is the payment_method: card, upi, wallet, pay_later, bank_redirect.
	Type string `json:"type"`
	// Subtype is the payment_method_type (credit, upi_collect, paypal, …).
	Subtype string     `json:"subtype"`
	Card    *CardInput `json:"card,omitempty"`
	// VPA is the UPI collect address.
	VPA     string                     `json:"vpa,omitempty"`
	Billing *schematype.AddressWrapper `json:"billing,omitempty"`
	// ConnectorMandateID charges a saved card by the connector's token
	// instead of Card: a recurring payment on a mandate. It is built at
	// confirm from the mandate, never taken from a request nor vaulted.
	ConnectorMandateID string `json:"-"`
	// mandate and saved are the mandate a recurring payment charges and its
	// saved payment method, whose masked card the attempt shows.
	mandate *ent.Mandate
	saved   *ent.PaymentMethod
}

// CustomerInput names the payment's customer by the merchant's id; the
// customer is created on first use.
type CustomerInput struct {
	ID               string
	Name             *string
	Email            *string
	Phone            *string
	PhoneCountryCode *string
}

// PaymentFields are the optional members shared by create, update and
// confirm. Nil means "not given".
type PaymentFields struct {
	CaptureMethod                        *string
	CaptureOn                            *time.Time
	AmountToCapture                      *int64
	AuthenticationType                   *string
	Customer                             *CustomerInput
	Description                          *string
	ReturnURL                            *string
	StatementDescriptor                  *string
	StatementDescriptorSuffix            *string
	MerchantReferenceID                  *string
	MerchantOrderReferenceID             *string
	Billing                              *schematype.AddressWrapper
	Shipping                             *schematype.AddressWrapper
	OrderDetails                         []schematype.OrderDetail
	Metadata                             map[string]any
	ConnectorMetadata                    map[string]any
	FeatureMetadata                      map[string]any
	FrmMetadata                          map[string]any
	PaymentLinkConfig                    map[string]any
	BrowserInfo                          map[string]any
	SetupFutureUsage                     *string
	OffSession                           *bool
	PaymentType                          *string
	PaymentMethod                        *PaymentMethodInput
	Connectors                           []string
	MerchantConnectorID                  *string
	SessionExpiry                        *int64
	ShippingCost                         *int64
	OrderTaxAmount                       *int64
	SurchargeAmount                      *int64
	TaxOnSurcharge                       *int64
	BusinessCountry                      *string
	BusinessLabel                        *string
	BusinessSubLabel                     *string
	AllowedPaymentMethodTypes            []string
	RequestIncrementalAuthorization      *string // "true", "false", "default"
	RequestExternalThreeDSAuthentication *string // Enable, Skip
	EnablePartialAuthorization           *bool
	RequestExtendedAuthorization         *bool
	EnableOvercapture                    *bool
	Force3DSChallenge                    *bool
	IsIframeRedirectionEnabled           *bool
	CustomerPresent                      *string
	ApplyMitExemption                    *string
	PaymentLinkEnabled                   *string
	SplitTxnsEnabled                     *string
	RoutingAlgorithmID                   *string
	ExternalTaxCalculation               *string
	SurchargeCalculation                 *string
	// Mandate asks for a mandate to be set up with this payment
	// (mandate_data, or a top-level customer_acceptance).
	Mandate *MandateRequest
	// MandateID charges an existing mandate (mandate_id, or
	// recurring_details of type mandate_id) instead of a payment method.
	MandateID *string
	// ActiveAttempt sets ("Set") or clears ("Unset") the active attempt
	// (v2 update-intent's set_active_attempt_id).
	ActiveAttempt *ActiveAttemptChange
}

// ActiveAttemptChange is v2's `{"Set": id}` or `"Unset"`.
type ActiveAttemptChange struct {
	Unset bool
	ID    string
}

// PaymentInput creates a payment (v1 create, v2 create-intent).
type PaymentInput struct {
	// PaymentID is the merchant's id for the payment (v1); generated if nil.
	PaymentID *string
	// ProfileID defaults to the caller's profile, then the merchant's default.
	ProfileID *string
	Amount    int64
	Currency  string
	// Confirm also authorizes (v1 confirm: true).
	Confirm bool
	PaymentFields
}

// PaymentPatch updates a payment before it is confirmed.
type PaymentPatch struct {
	Amount   *int64
	Currency *string
	PaymentFields
}

// Limits of payment fields.
const (
	MaxAmount                 = 999_999_999_999 // Hyperswitch's limit, in minor units
	maxPaymentID              = 64
	maxStatementDescriptor    = 22
	maxMerchantReferenceID    = 30
	maxDescription            = 255
	maxCustomerID             = 64
	defaultSessionExpiry      = 900
	maxSessionExpiry          = 7 * 24 * 3600
	maxOrderDetails           = 100
	maxAllowedPaymentMethodTy = 100
)

var idPattern = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

func oneOf(field string, v *string, allowed ...string) error {
	if v == nil {
		return nil
	}
	for _, a := range allowed {
		if *v == a {
			return nil
		}
	}
	return errs.InvalidValue(field, "must be one of %s, got %q", joinOr(allowed), *v)
}

func nonNegative(field string, v *int64) error {
	if v != nil && (*v < 0 || *v > MaxAmount) {
		return errs.InvalidValue(field, "must be between 0 and %d", MaxAmount)
	}
	return nil
}

func absoluteURL(field string, v *string) error {
	if v == nil {
		return nil
	}
	u, err := url.Parse(*v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || len(*v) > 2048 {
		return errs.InvalidValue(field, "must be an absolute http(s) URL of at most 2048 characters")
	}
	return nil
}

func hasLetter(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// validateAmount checks an order amount.
func validateAmount(amount int64, paymentType *string) error {
	zeroAllowed := paymentType != nil && *paymentType == "setup_mandate"
	if amount < 0 || amount > MaxAmount || (amount == 0 && !zeroAllowed) {
		return errs.InvalidValue("amount", "must be between 1 and %d minor units (0 only for setup_mandate)", MaxAmount)
	}
	return nil
}

func validateCurrency(c string) error {
	if c == "" {
		return errs.MissingField("currency")
	}
	if !schematype.Currency(c).Valid() {
		return errs.InvalidValue("currency", "%q is not a supported ISO 4217 currency", c)
	}
	return nil
}

// validate checks every member that was given. amount is the order amount
// the payment will have (for order_details and amount_to_capture).
func (f *PaymentFields) validate(amount int64, paymentType *string) error {
	checks := []error{
		oneOf("capture_method", f.CaptureMethod, schema.CaptureMethods...),
		oneOf("authentication_type", f.AuthenticationType, "three_ds", "no_three_ds"),
		oneOf("setup_future_usage", f.SetupFutureUsage, "off_session", "on_session"),
		oneOf("payment_type", f.PaymentType, "normal", "new_mandate", "setup_mandate", "recurring_mandate"),
		oneOf("customer_present", f.CustomerPresent, "present", "absent"),
		oneOf("apply_mit_exemption", f.ApplyMitExemption, "Apply", "Skip"),
		oneOf("payment_link_enabled", f.PaymentLinkEnabled, "Enable", "Skip"),
		oneOf("split_txns_enabled", f.SplitTxnsEnabled, "enable", "skip"),
		oneOf("request_incremental_authorization", f.RequestIncrementalAuthorization, "true", "false", "default"),
		oneOf("request_external_three_ds_authentication", f.RequestExternalThreeDSAuthentication, "Enable", "Skip"),
		oneOf("amount_details.external_tax_calculation", f.ExternalTaxCalculation, "skip", "calculate"),
		oneOf("amount_details.surcharge_calculation", f.SurchargeCalculation, "skip", "calculate"),
		nonNegative("shipping_cost", f.ShippingCost),
		nonNegative("order_tax_amount", f.OrderTaxAmount),
		nonNegative("surcharge_amount", f.SurchargeAmount),
		nonNegative("tax_on_surcharge", f.TaxOnSurcharge),
		absoluteURL("return_url", f.ReturnURL),
		countries.optional("business_country", f.BusinessCountry),
	}
	for _, err := range checks {
		if err != nil {
			return err
		}
	}
	if f.CaptureMethod != nil && *f.CaptureMethod == "scheduled" {
		return errs.New(errs.KindInvalid, "IR_20", "scheduled capture flow not supported: use automatic, manual, manual_multiple or sequential_automatic")
	}
	if f.AmountToCapture != nil {
		if *f.AmountToCapture <= 0 || *f.AmountToCapture > amount {
			return errs.InvalidValue("amount_to_capture", "must be between 1 and the amount (%d)", amount)
		}
	}
	if f.Description != nil && len(*f.Description) > maxDescription {
		return errs.InvalidValue("description", "must be at most %d characters", maxDescription)
	}
	for field, v := range map[string]*string{
		"statement_descriptor":        f.StatementDescriptor,
		"statement_descriptor_suffix": f.StatementDescriptorSuffix,
	} {
		// The column holds 22 bytes (ent's MaxLen counts bytes): counting
		// runes let 22 accented letters through to a 500 on save.
		if v != nil && (len(*v) > maxStatementDescriptor || !hasLetter(*v)) {
			return errs.InvalidValue(field, "must be at most %d characters (bytes of UTF-8) and contain at least one letter", maxStatementDescriptor)
		}
	}
	if f.MerchantReferenceID != nil && (len(*f.MerchantReferenceID) == 0 || len(*f.MerchantReferenceID) > maxMerchantReferenceID) {
		return errs.InvalidValue("merchant_reference_id", "must be 1 to %d characters", maxMerchantReferenceID)
	}
	if f.SessionExpiry != nil && (*f.SessionExpiry < 0 || *f.SessionExpiry > maxSessionExpiry) {
		return errs.InvalidValue("session_expiry", "must be between 0 and %d seconds", maxSessionExpiry)
	}
	if f.Customer != nil {
		if f.Customer.ID == "" || len(f.Customer.ID) > maxCustomerID {
			return errs.InvalidValue("customer_id", "must be 1 to %d characters", maxCustomerID)
		}
	}
	if len(f.AllowedPaymentMethodTypes) > maxAllowedPaymentMethodTy {
		return errs.InvalidValue("allowed_payment_method_types", "must hold at most %d types", maxAllowedPaymentMethodTy)
	}
	for i, t := range f.AllowedPaymentMethodTypes {
		if !knownPaymentMethodType(t) {
			return errs.InvalidValue(indexed("allowed_payment_method_types", i), "unknown payment method type %q", t)
		}
	}
	if f.OrderDetails != nil {
		if err := validateOrderDetails(f.OrderDetails, amount); err != nil {
			return err
		}
	}
	if err := validateAddressWrapper("billing", f.Billing); err != nil {
		return err
	}
	if err := validateAddressWrapper("shipping", f.Shipping); err != nil {
		return err
	}
	if f.PaymentMethod != nil {
		if err := f.PaymentMethod.validate(); err != nil {
			return err
		}
	}
	return nil
}

// validateOrderDetails: each line is named and positive, and the line
// amounts (times quantity) sum to the order amount.
func validateOrderDetails(lines []schematype.OrderDetail, amount int64) error {
	if len(lines) > maxOrderDetails {
		return errs.InvalidValue("order_details", "must hold at most %d lines", maxOrderDetails)
	}
	var sum int64
	for i, l := range lines {
		if l.ProductName == "" {
			return errs.MissingField(indexed("order_details", i) + ".product_name")
		}
		if len(l.ProductName) > 255 {
			return errs.InvalidValue(indexed("order_details", i)+".product_name", "must be at most 255 characters")
		}
		if err := oneOf(indexed("order_details", i)+".product_type", l.ProductType,
			"physical", "digital", "travel", "ride", "event", "accommodation"); err != nil {
			return err
		}
		if l.Quantity < 1 {
			return errs.InvalidValue(indexed("order_details", i)+".quantity", "must be at least 1")
		}
		if l.Amount < 0 || l.Amount > MaxAmount {
			return errs.InvalidValue(indexed("order_details", i)+".amount", "must be between 0 and %d", MaxAmount)
		}
		sum += l.Amount * int64(l.Quantity)
		if sum > MaxAmount {
			return errs.InvalidValue("order_details", "the line amounts exceed the maximum amount")
		}
	}
	if sum != amount {
		return errs.InvalidValue("order_details", "the product amounts (amount × quantity) sum to %d, but the order amount is %d", sum, amount)
	}
	return nil
}

// validateAddressWrapper checks an address wrapper (billing, shipping) with
// Hyperswitch's limits: a CountryAlpha2 country, bounded lines, a phone
// country code with its leading plus sign, an email address.
func validateAddressWrapper(field string, w *schematype.AddressWrapper) error {
	if w == nil {
		return nil
	}
	if a := w.Address; a != nil {
		for _, m := range []struct {
			name string
			v    *string
			max  int
		}{
			{"city", a.City, 50}, {"line1", a.Line1, 200}, {"line2", a.Line2, 50}, {"line3", a.Line3, 50},
			{"zip", a.Zip, 50}, {"state", a.State, 255}, {"first_name", a.FirstName, 255},
			{"last_name", a.LastName, 255}, {"origin_zip", a.OriginZip, 50},
		} {
			if err := checkFieldMaxLen(field+".address."+m.name, m.v, m.max); err != nil {
				return err
			}
		}
		if a.Country != nil && !countries.has(*a.Country) {
			return errs.InvalidValue(field+".address.country", "%q is not an ISO 3166-1 alpha-2 country code", *a.Country)
		}
	}
	if p := w.Phone; p != nil {
		if err := checkFieldMaxLen(field+".phone.number", p.Number, 255); err != nil {
			return err
		}
		if p.CountryCode != nil && !phoneCountryCode.MatchString(*p.CountryCode) {
			return errs.InvalidValue(field+".phone.country_code", "must be a plus sign and 1 to 4 digits, like +1")
		}
	}
	return checkEmailField(field+".email", w.Email)
}

var phoneCountryCode = regexp.MustCompile(`^\+[0-9]{1,4}$`)

func (pm *PaymentMethodInput) validate() error {
	if err := validateAddressWrapper("payment_method_data.billing", pm.Billing); err != nil {
		return err
	}
	if pm.Subtype != "" && !knownPaymentMethodType(pm.Subtype) {
		return errs.InvalidValue("payment_method_type", "unknown payment method type %q", pm.Subtype)
	}
	switch pm.Type {
	case "card":
		if pm.Card == nil {
			return errs.MissingField("payment_method_data.card")
		}
		if err := cardNetworks.optional("payment_method_data.card.card_network", pm.Card.Network); err != nil {
			return err
		}
		return validateCard(pm.Card)
	case "upi":
		if pm.VPA == "" {
			return errs.MissingField("payment_method_data.upi.upi_collect.vpa_id")
		}
	case "wallet", "pay_later", "bank_redirect":
	case "":
		return errs.MissingField("payment_method")
	default:
		return errs.New(errs.KindInvalid, "IR_19", "Payment method type not supported: %s", pm.Type)
	}
	return nil
}

func indexed(field string, i int) string { return field + "[" + itoa(i) + "]" }

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b [20]byte
	n := len(b)
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	return string(b[n:])
}

// PaymentMethodData is a v1 request's payment_method_data as REST and
// GraphQL both read it from their wire forms: the methods it names, of which
// Method accepts exactly one.
type PaymentMethodData struct {
	Billing *schematype.AddressWrapper
	Card    *CardInput
	Upi     *UpiData
	// Wallet, PayLater and BankRedirect are the variants named under each
	// member (paypal_redirect, klarna_redirect, ideal, …); nil when the
	// member is absent.
	Wallet, PayLater, BankRedirect []string
}

// UpiData is payment_method_data.upi: the variants given.
type UpiData struct {
	Collect        bool
	CollectVPA     *string
	Intent, QRCode bool
}

// Method maps the data, with the request's payment_method and
// payment_method_type, onto the payment method the payment is confirmed
// with: exactly one method, a payment_method that agrees with it, and a
// redirect method's variant as its payment_method_type.
func (d *PaymentMethodData) Method(paymentMethod, paymentMethodType *string) (*PaymentMethodInput, error) {
	pm := &PaymentMethodInput{Billing: d.Billing}
	kinds := 0
	if d.Card != nil {
		kinds++
		pm.Type, pm.Card = "card", d.Card
	}
	if u := d.Upi; u != nil {
		kinds++
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
	for _, m := range []struct {
		kind     string
		variants []string
	}{{"wallet", d.Wallet}, {"pay_later", d.PayLater}, {"bank_redirect", d.BankRedirect}} {
		if m.variants == nil {
			continue
		}
		kinds++
		if len(m.variants) != 1 {
			return nil, errs.InvalidValue("payment_method_data."+m.kind, "must hold exactly one %s method", m.kind)
		}
		pm.Type, pm.Subtype = m.kind, methodSubtype(m.variants[0])
	}
	switch {
	case kinds == 0:
		return nil, errs.InvalidValue("payment_method_data",
			"must hold one payment method: card, upi, wallet, pay_later or bank_redirect")
	case kinds > 1:
		return nil, errs.InvalidValue("payment_method_data", "must hold exactly one payment method")
	}
	if paymentMethodType != nil {
		pm.Subtype = *paymentMethodType
	}
	if paymentMethod != nil && *paymentMethod != pm.Type {
		return nil, errs.InvalidValue("payment_method", "is %q, but payment_method_data holds %s data", *paymentMethod, pm.Type)
	}
	return pm, nil
}

// methodSubtype is the payment_method_type a redirect method's variant
// names: paypal_redirect → paypal, we_chat_pay_qr → we_chat_pay, ideal →
// ideal.
func methodSubtype(variant string) string {
	for _, suffix := range []string{"_third_party_sdk", "_redirect", "_sdk", "_qr"} {
		if s, ok := strings.CutSuffix(variant, suffix); ok {
			return s
		}
	}
	return variant
}
