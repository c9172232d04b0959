package payments

import (
	"context"
	"net/url"
	"regexp"
	"time"
	"unicode"

	"switchyard/ent"
	"switchyard/ent/migrate"
	"switchyard/ent/paymentintent"
	"switchyard/ent/schema"
	"switchyard/ent/schema/schematype"
	"switchyard/payments/customer"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// PaymentFields are the optional members shared by create, update and
// confirm. Nil means "not given".
type PaymentFields struct {
	CaptureMethod                        *string
	CaptureOn                            *time.Time
	AmountToCapture                      *int64
	AuthenticationType                   *string
	Customer                             *customer.CustomerInput
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
	BrowserInfo                          *BrowserInfo
	SetupFutureUsage                     *string
	OffSession                           *bool
	PaymentType                          *string
	PaymentMethod                        *customer.PaymentMethodInput
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
	// ThreeDSData is the result of an authentication made outside the
	// payment, for its authorization (sealed while it waits).
	ThreeDSData                  *ExternalThreeDSData
	EnablePartialAuthorization   *bool
	RequestExtendedAuthorization *bool
	EnableOvercapture            *bool
	Force3DSChallenge            *bool
	IsIframeRedirectionEnabled   *bool
	CustomerPresent              *string
	ApplyMitExemption            *string
	PaymentLinkEnabled           *string
	SplitTxnsEnabled             *string
	RoutingAlgorithmID           *string
	ExternalTaxCalculation       *string
	SurchargeCalculation         *string
	// Mandate asks for a mandate to be set up with this payment
	// (mandate_data, or a top-level customer_acceptance: resolveAcceptance).
	Mandate *customer.MandateRequest
	// CustomerAcceptance is a top-level customer_acceptance, until
	// resolveAcceptance decides what it asks: after, the consent to keep
	// the card that sets up no mandate.
	CustomerAcceptance *customer.CustomerAcceptance
	// ClientAddr is the address the request came from (the connection's
	// peer): an online consent given without ip_address is kept with it.
	ClientAddr string
	// MandateID charges an existing mandate (mandate_id, or
	// recurring_details of type mandate_id) instead of a payment method.
	MandateID *string
	// ActiveAttempt sets ("Set") or clears ("Unset") the active attempt
	// (v2 update-intent's set_active_attempt_id).
	ActiveAttempt *ActiveAttemptChange
	// IntentStatementDescriptor is v2's statement_descriptor: kept where
	// v1's statement_descriptor_name is, with v2's rule (22 characters,
	// a letter among them) where v1 takes the column's 255.
	IntentStatementDescriptor *string
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
	// PaymentLink makes the payment's hosted checkout link (v1
	// payment_link: true); PaymentLinkConfigID picks one of the profile's
	// business_specific_configs for its look.
	PaymentLink         bool
	PaymentLinkConfigID *string
	PaymentFields
	// Idempotency is the Idempotency-Key the request came with, if any:
	// the payment is bound to it from the moment its row exists.
	Idempotency *IdempotencyRef
}

// IdempotencyRef is a request's Idempotency-Key and its request's
// fingerprint (txn.IdempotencyRef).
type IdempotencyRef = txn.IdempotencyRef

// WithIdempotencyRef is ctx for an operation running under ref: what it
// creates may be bound to the key.
func WithIdempotencyRef(ctx context.Context, ref *IdempotencyRef) context.Context {
	return txn.WithIdempotencyRef(ctx, ref)
}

// IdempotencyRefFrom is the key the operation of ctx runs under, if any.
func IdempotencyRefFrom(ctx context.Context) *IdempotencyRef { return txn.IdempotencyRefFrom(ctx) }

// PaymentPatch updates a payment before it is confirmed.
type PaymentPatch struct {
	Amount   *int64
	Currency *string
	PaymentFields
	// Confirm authorizes the payment once it is updated (v1's update with
	// confirm: true, as Hyperswitch does it).
	Confirm bool
}

// Limits of payment fields.
const (
	maxPaymentID              = 64
	maxIntentStatementDesc    = 22
	maxMerchantReferenceID    = 30
	maxDescription            = 255
	defaultSessionExpiry      = 900
	maxSessionExpiry          = 7 * 24 * 3600
	maxOrderDetails           = 100
	maxAllowedPaymentMethodTy = 100
)

// Limits of the members stored in a column of their own: the column's
// size, read from the ent schema (Hyperswitch's database has the same
// sizes; its v1 document gives 255 for merchant_order_reference_id and the
// statement descriptors, and none for the others).
var (
	maxStatementDescriptor       = validate.Column(migrate.PaymentIntentsTable, paymentintent.FieldStatementDescriptor)
	maxStatementDescriptorSuffix = validate.Column(migrate.PaymentIntentsTable, paymentintent.FieldStatementDescriptorSuffix)
	maxMerchantOrderReferenceID  = validate.Column(migrate.PaymentIntentsTable, paymentintent.FieldMerchantOrderReferenceID)
	maxBusinessLabel             = validate.Column(migrate.PaymentIntentsTable, paymentintent.FieldBusinessLabel)
	maxBusinessSubLabel          = validate.Column(migrate.PaymentIntentsTable, paymentintent.FieldBusinessSubLabel)
	maxRoutingAlgorithmID        = validate.Column(migrate.PaymentIntentsTable, paymentintent.FieldRoutingAlgorithmID)
	maxCancellationReason        = validate.Column(migrate.PaymentIntentsTable, paymentintent.FieldCancellationReason)
)

var idPattern = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

func nonNegative(field string, v *int64) error {
	if v != nil && (*v < 0 || *v > validate.MaxAmount) {
		return errs.InvalidValue(field, "must be between 0 and %d", validate.MaxAmount)
	}
	return nil
}

func absoluteURL(field string, v *string) error {
	if v == nil {
		return nil
	}
	u, err := url.Parse(*v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || validate.Chars(*v) > 2048 {
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
	if amount < 0 || amount > validate.MaxAmount || (amount == 0 && !zeroAllowed) {
		return errs.InvalidValue("amount", "must be between 1 and %d minor units (0 only for setup_mandate)", validate.MaxAmount)
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
// the payment will have (for order_details and amount_to_capture). The
// first refusal, in this order, is the answer.
func (f *PaymentFields) validate(amount int64, paymentType *string) error {
	if err := f.checkClosedSets(); err != nil {
		return err
	}
	if err := f.checkCapture(amount); err != nil {
		return err
	}
	if err := f.checkTexts(); err != nil {
		return err
	}
	if err := f.checkCustomer(); err != nil {
		return err
	}
	return f.checkDetails(amount)
}

// checkClosedSets checks the members that are one of a closed set, the
// additional amounts, return_url and business_country.
func (f *PaymentFields) checkClosedSets() error {
	checks := []error{
		validate.OneOf("capture_method", f.CaptureMethod, schema.CaptureMethods...),
		validate.OneOf("authentication_type", f.AuthenticationType, "three_ds", "no_three_ds"),
		validate.OneOf("setup_future_usage", f.SetupFutureUsage, "off_session", "on_session"),
		validate.OneOf("payment_type", f.PaymentType, "normal", "new_mandate", "setup_mandate", "recurring_mandate"),
		validate.OneOf("customer_present", f.CustomerPresent, "present", "absent"),
		validate.OneOf("apply_mit_exemption", f.ApplyMitExemption, "Apply", "Skip"),
		validate.OneOf("payment_link_enabled", f.PaymentLinkEnabled, "Enable", "Skip"),
		validate.OneOf("split_txns_enabled", f.SplitTxnsEnabled, "enable", "skip"),
		validate.OneOf("request_incremental_authorization", f.RequestIncrementalAuthorization, "true", "false", "default"),
		validate.OneOf("request_external_three_ds_authentication", f.RequestExternalThreeDSAuthentication, "Enable", "Skip"),
		validate.OneOf("amount_details.external_tax_calculation", f.ExternalTaxCalculation, "skip", "calculate"),
		validate.OneOf("amount_details.surcharge_calculation", f.SurchargeCalculation, "skip", "calculate"),
		nonNegative("shipping_cost", f.ShippingCost),
		nonNegative("order_tax_amount", f.OrderTaxAmount),
		nonNegative("surcharge_amount", f.SurchargeAmount),
		nonNegative("tax_on_surcharge", f.TaxOnSurcharge),
		absoluteURL("return_url", f.ReturnURL),
		validate.Countries.Optional("business_country", f.BusinessCountry),
	}
	if f.ThreeDSData != nil {
		checks = append(checks, f.ThreeDSData.check())
	}
	for _, err := range checks {
		if err != nil {
			return err
		}
	}
	return nil
}

// checkCapture refuses the scheduled capture flow, which is not built, and
// an amount_to_capture outside 1..amount.
func (f *PaymentFields) checkCapture(amount int64) error {
	if f.CaptureMethod != nil && *f.CaptureMethod == "scheduled" {
		return errs.ErrFlowNotSupported.Newf("scheduled capture flow not supported: use automatic, manual, manual_multiple or sequential_automatic")
	}
	if f.AmountToCapture != nil {
		if *f.AmountToCapture <= 0 || *f.AmountToCapture > amount {
			return errs.InvalidValue("amount_to_capture", "must be between 1 and the amount (%d)", amount)
		}
	}
	return nil
}

// checkTexts checks the lengths of the text members and session_expiry.
func (f *PaymentFields) checkTexts() error {
	if f.Description != nil && validate.Chars(*f.Description) > maxDescription {
		return errs.InvalidValue("description", "must be at most %d characters", maxDescription)
	}
	if v := f.IntentStatementDescriptor; v != nil && (validate.Chars(*v) > maxIntentStatementDesc || !hasLetter(*v)) {
		return errs.InvalidValue("statement_descriptor", "must be at most %d characters and contain at least one letter", maxIntentStatementDesc)
	}
	if err := validate.Lengths(
		validate.Length{Field: "statement_descriptor", Value: f.StatementDescriptor, Max: maxStatementDescriptor},
		validate.Length{Field: "statement_descriptor_suffix", Value: f.StatementDescriptorSuffix, Max: maxStatementDescriptorSuffix},
		validate.Length{Field: "merchant_order_reference_id", Value: f.MerchantOrderReferenceID, Max: maxMerchantOrderReferenceID},
		validate.Length{Field: "business_label", Value: f.BusinessLabel, Max: maxBusinessLabel},
		validate.Length{Field: "business_sub_label", Value: f.BusinessSubLabel, Max: maxBusinessSubLabel},
		validate.Length{Field: "routing_algorithm_id", Value: f.RoutingAlgorithmID, Max: maxRoutingAlgorithmID},
	); err != nil {
		return err
	}
	if f.MerchantReferenceID != nil && (len(*f.MerchantReferenceID) == 0 || validate.Chars(*f.MerchantReferenceID) > maxMerchantReferenceID) {
		return errs.InvalidValue("merchant_reference_id", "must be 1 to %d characters", maxMerchantReferenceID)
	}
	if f.SessionExpiry != nil && (*f.SessionExpiry < 0 || *f.SessionExpiry > maxSessionExpiry) {
		return errs.InvalidValue("session_expiry", "must be between 0 and %d seconds", maxSessionExpiry)
	}
	return nil
}

// checkCustomer checks a customer given: its id when it names one, and its
// details.
func (f *PaymentFields) checkCustomer() error {
	if f.Customer == nil {
		return nil
	}
	if f.Customer.Named && (f.Customer.ID == "" || validate.Chars(f.Customer.ID) > customer.MaxCustomerID) {
		return errs.InvalidValue("customer_id", "must be 1 to %d characters", customer.MaxCustomerID)
	}
	return f.Customer.Validate()
}

// checkDetails checks the lists, the order lines against amount, the
// addresses and the payment method.
func (f *PaymentFields) checkDetails(amount int64) error {
	if len(f.AllowedPaymentMethodTypes) > maxAllowedPaymentMethodTy {
		return errs.InvalidValue("allowed_payment_method_types", "must hold at most %d types", maxAllowedPaymentMethodTy)
	}
	for i, t := range f.AllowedPaymentMethodTypes {
		if !validate.PaymentMethodTypes.Has(t) {
			return errs.InvalidValue(validate.Indexed("allowed_payment_method_types", i), "unknown payment method type %q", t)
		}
	}
	if f.OrderDetails != nil {
		if err := validateOrderDetails(f.OrderDetails, amount); err != nil {
			return err
		}
	}
	if err := validate.Address("billing", f.Billing); err != nil {
		return err
	}
	if err := validate.Address("shipping", f.Shipping); err != nil {
		return err
	}
	if f.PaymentMethod != nil {
		return f.PaymentMethod.Validate()
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
			return errs.MissingField(validate.Indexed("order_details", i) + ".product_name")
		}
		if validate.Chars(l.ProductName) > 255 {
			return errs.InvalidValue(validate.Indexed("order_details", i)+".product_name", "must be at most 255 characters")
		}
		if err := validate.OneOf(validate.Indexed("order_details", i)+".product_type", l.ProductType,
			"physical", "digital", "travel", "ride", "event", "accommodation"); err != nil {
			return err
		}
		if l.Quantity < 1 {
			return errs.InvalidValue(validate.Indexed("order_details", i)+".quantity", "must be at least 1")
		}
		if l.Amount < 0 || l.Amount > validate.MaxAmount {
			return errs.InvalidValue(validate.Indexed("order_details", i)+".amount", "must be between 0 and %d", validate.MaxAmount)
		}
		sum += l.Amount * int64(l.Quantity)
		if sum > validate.MaxAmount {
			return errs.InvalidValue("order_details", "the line amounts exceed the maximum amount")
		}
	}
	if sum != amount {
		return errs.InvalidValue("order_details", "the product amounts (amount × quantity) sum to %d, but the order amount is %d", sum, amount)
	}
	return nil
}

// resolveAcceptance checks a top-level customer_acceptance, naming the
// member the client sent, fills the address of every online consent given
// without one, and decides what the acceptance asks of the payment as this
// request leaves it (cur; nil for a create): see customer.ResolveAcceptance.
func (f *PaymentFields) resolveAcceptance(cur *ent.PaymentIntent) error {
	if err := f.CustomerAcceptance.Validate("customer_acceptance"); err != nil {
		return err
	}
	f.CustomerAcceptance.WithAddress(f.ClientAddr)
	if f.Mandate != nil {
		f.Mandate.CustomerAcceptance.WithAddress(f.ClientAddr)
	}
	usage := f.SetupFutureUsage
	var stored map[string]any
	if cur != nil {
		if usage == nil && cur.SetupFutureUsage != nil {
			s := string(*cur.SetupFutureUsage)
			usage = &s
		}
		stored = cur.MandateData
	}
	var err error
	f.Mandate, f.CustomerAcceptance, err = customer.ResolveAcceptance(f.Mandate, stored, f.CustomerAcceptance,
		usage != nil && *usage == string(paymentintent.SetupFutureUsageOffSession))
	if err != nil {
		return errs.Internal(err)
	}
	return nil
}

// checkMandateMembers checks what a create (creating), update or confirm
// (confirming) asks of mandates (customer.CheckMandateMembers).
func (f *PaymentFields) checkMandateMembers(creating, confirming bool) error {
	return customer.CheckMandateMembers(customer.MandateMembers{
		Mandate: f.Mandate, MandateID: f.MandateID, HasPaymentMethod: f.PaymentMethod != nil,
		HasCustomer: f.Customer != nil && f.Customer.Named, OffSession: f.OffSession,
	}, creating, confirming)
}

// RequireAmount is a create's amount and currency, which every front door
// requires: a missing one is IR_04 naming the member as its client names it
// (amount and currency, or v2's amount_details.order_amount and
// amount_details.currency).
func RequireAmount(amount *int64, currency *string, amountMember, currencyMember string) (int64, string, error) {
	if amount == nil {
		return 0, "", errs.MissingField(amountMember)
	}
	if currency == nil {
		return 0, "", errs.MissingField(currencyMember)
	}
	return *amount, *currency, nil
}

// IncrementalAuthorizationFlag is v1's boolean
// request_incremental_authorization (REST v1 and GraphQL) as the domain
// keeps it: "true" or "false" (v2 sends the string, or "default").
func IncrementalAuthorizationFlag(requested *bool) *string {
	return flagOf(requested, "true", "false")
}

// ExternalThreeDSFlag is v1's boolean
// request_external_three_ds_authentication as the domain keeps it, v2's
// Enable or Skip.
func ExternalThreeDSFlag(requested *bool) *string {
	return flagOf(requested, "Enable", "Skip")
}

// flagOf is yes or no as requested says; nil when it is not given.
func flagOf(requested *bool, yes, no string) *string {
	if requested == nil {
		return nil
	}
	if *requested {
		return &yes
	}
	return &no
}
