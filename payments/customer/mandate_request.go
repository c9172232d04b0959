package customer

import (
	"encoding/json"
	"time"

	"switchyard/ent"
	"switchyard/ent/paymentintent"
	"switchyard/ent/schema/schematype"
	"switchyard/payments/errs"
	"switchyard/payments/validate"
)

// MandateRequest is a payment's request to set up a mandate: Hyperswitch's
// MandateData, with a top-level customer_acceptance folded in. The payment
// keeps it (mandate_data, in Hyperswitch's shape) until the authorization
// succeeds, so a confirm after create, or a 3-D Secure completion, still
// sets the mandate up.
type MandateRequest struct {
	CustomerAcceptance *CustomerAcceptance
	// SingleUse is mandate_type single_use; otherwise multi_use (the default).
	SingleUse bool
	// Limits are the single_use data (required there) or multi_use's
	// optional ones.
	Limits *MandateLimits
	// UpdateMandateID is mandate_data.update_mandate_id, refused: replacing
	// a mandate's payment method is not built.
	UpdateMandateID *string
}

// CustomerAcceptance is Hyperswitch's CustomerAcceptance: how and when the
// customer agreed to be charged later.
type CustomerAcceptance struct {
	AcceptanceType string            `json:"acceptance_type"`
	AcceptedAt     *time.Time        `json:"accepted_at,omitempty"`
	Online         *OnlineAcceptance `json:"online,omitempty"`
}

// OnlineAcceptance is Hyperswitch's OnlineMandate. Its ip_address is
// optional there (a browser cannot know its own address); the server fills
// it with the address the request came from (WithAddress).
type OnlineAcceptance struct {
	IPAddress string `json:"ip_address,omitempty"`
	UserAgent string `json:"user_agent"`
}

// Validate checks an acceptance as Hyperswitch's CustomerAcceptance reads
// it, naming its members under member, the one the client sent
// (customer_acceptance, or mandate_data.customer_acceptance). A nil
// acceptance is valid.
func (a *CustomerAcceptance) Validate(member string) error {
	if a == nil {
		return nil
	}
	switch a.AcceptanceType {
	case "":
		return errs.MissingField(member + ".acceptance_type")
	case "online":
		if a.Online == nil {
			return errMandatePrecondition(member+".online", "`"+member+".online` is required when `"+member+".acceptance_type` is `online`")
		}
	case "offline":
	default:
		return errs.InvalidValue(member+".acceptance_type", "must be one of online or offline, got %q", a.AcceptanceType)
	}
	if o := a.Online; o != nil {
		if o.UserAgent == "" {
			return errs.MissingField(member + ".online.user_agent")
		}
		if validate.Chars(o.IPAddress) > 64 || validate.Chars(o.UserAgent) > 1024 {
			return errs.InvalidValue(member+".online", "ip_address must be at most 64 and user_agent at most 1024 characters")
		}
	}
	return nil
}

// WithAddress fills an online acceptance's missing ip_address with addr,
// the address the request that carried it came from, so the consent is
// kept with where it was given.
func (a *CustomerAcceptance) WithAddress(addr string) {
	if a != nil && a.Online != nil && a.Online.IPAddress == "" {
		a.Online.IPAddress = addr
	}
}

// AsMap is the acceptance as a payment keeps it.
func (a *CustomerAcceptance) AsMap() map[string]any {
	if a == nil {
		return nil
	}
	return acceptanceMap(a)
}

// MandateLimits is Hyperswitch's MandateAmountData: the most one payment
// may charge, in which currency, and when the mandate may be used.
type MandateLimits struct {
	Amount    *int64         `json:"amount"`
	Currency  *string        `json:"currency"`
	StartDate *time.Time     `json:"start_date,omitempty"`
	EndDate   *time.Time     `json:"end_date,omitempty"`
	Metadata  map[string]any `json:"metadata,omitempty"`
}

// MandateView is a mandate with the saved payment method it charges, what
// Hyperswitch's MandateResponse shows.
type MandateView struct {
	Mandate       *ent.Mandate
	PaymentMethod *ent.PaymentMethod
}

// Hyperswitch's messages for mandate requests it refuses (its
// validate_new_mandate_request, validate_recurring_mandate and
// get_token_for_recurring_mandate).
const (
	msgMandateCustomer      = "`customer_id` is mandatory for mandates"
	msgMandateFutureUsage   = "`setup_future_usage` must be `off_session` for mandates"
	msgMandateConfirm       = "`confirm` must be `true` for mandates"
	msgMandateOffSession    = "`off_session` should be `true` for mandates"
	msgMandateNotActive     = "mandate is not active"
	msgMandateOtherCustomer = "customer_id must match mandate customer_id"
)

// ErrMandateNotFound is Hyperswitch's MandateNotFound (HE_02): an unknown
// mandate, or another merchant's.
func ErrMandateNotFound() *errs.Error {
	return errs.NotFound("Mandate")
}

// errMandatePrecondition is Hyperswitch's PreconditionFailed (IR_16) for a
// mandate request whose other members do not allow it.
func errMandatePrecondition(field, msg string) *errs.Error {
	e := errs.PreconditionFailed("%s", msg)
	e.Field = field
	return e
}

// Validate checks a mandate request on its own; its fit with the payment
// (customer, setup_future_usage) is checked at confirm.
func (m *MandateRequest) Validate() error {
	if m.UpdateMandateID != nil {
		return errs.InvalidValue("mandate_data.update_mandate_id", "updating a mandate's payment method is not supported; set up a new mandate")
	}
	if err := m.CustomerAcceptance.Validate("mandate_data.customer_acceptance"); err != nil {
		return err
	}
	kind := "multi_use"
	if m.SingleUse {
		kind = "single_use"
	}
	field := "mandate_data.mandate_type." + kind
	l := m.Limits
	if l == nil {
		if m.SingleUse {
			return errs.MissingField(field)
		}
		return nil
	}
	if l.Amount == nil {
		return errs.MissingField(field + ".amount")
	}
	if *l.Amount < 1 || *l.Amount > validate.MaxAmount {
		return errs.InvalidValue(field+".amount", "must be between 1 and %d minor units", validate.MaxAmount)
	}
	if l.Currency == nil {
		return errs.MissingField(field + ".currency")
	}
	if !schematype.Currency(*l.Currency).Valid() {
		return errs.InvalidValue(field+".currency", "%q is not a supported ISO 4217 currency", *l.Currency)
	}
	if l.StartDate != nil && l.EndDate != nil && !l.StartDate.Before(*l.EndDate) {
		return errMandatePrecondition(field+".start_date", "`mandate_data.mandate_type."+kind+".start_date` must be before `mandate_data.mandate_type."+kind+".end_date`")
	}
	return nil
}

// ResolveAcceptance decides what a top-level customer_acceptance (a) asks
// of a payment, as Hyperswitch's get_mandate_type does, against the payment
// as the request leaves it: with mandate_data (given now, or stored), it is
// that mandate's consent when the mandate has none of its own; on a payment
// that is off_session it sets up a multi_use mandate; otherwise it is the
// customer's consent to keep the card they pay with for their next checkout
// (consent), with no mandate. It returns the mandate to set up (given,
// unless the request completes or starts one) and that consent.
func ResolveAcceptance(given *MandateRequest, stored map[string]any, a *CustomerAcceptance, offSession bool) (mandate *MandateRequest, consent *CustomerAcceptance, err error) {
	switch {
	case a == nil:
		return given, nil, nil
	case given != nil:
		if given.CustomerAcceptance == nil {
			given.CustomerAcceptance = a
		}
		return given, nil, nil
	case stored != nil:
		m, err := mandateRequestOf(stored)
		if err != nil || m.CustomerAcceptance != nil {
			return nil, nil, err // the mandate's own consent stands
		}
		m.CustomerAcceptance = a
		return m, nil, nil
	case offSession:
		return &MandateRequest{CustomerAcceptance: a}, nil, nil
	}
	return nil, a, nil
}

// storedMandateData is mandate_data as the payment keeps and shows it:
// Hyperswitch's MandateData.
type storedMandateData struct {
	CustomerAcceptance *CustomerAcceptance       `json:"customer_acceptance,omitempty"`
	MandateType        map[string]*MandateLimits `json:"mandate_type"`
}

// AsMap is the payment's mandate_data column.
func (m *MandateRequest) AsMap() map[string]any {
	kind := "multi_use"
	if m.SingleUse {
		kind = "single_use"
	}
	raw, _ := json.Marshal(storedMandateData{CustomerAcceptance: m.CustomerAcceptance,
		MandateType: map[string]*MandateLimits{kind: m.Limits}})
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	return out
}

// mandateRequestOf reads a payment's mandate_data back.
func mandateRequestOf(stored map[string]any) (*MandateRequest, error) {
	raw, err := json.Marshal(stored)
	if err != nil {
		return nil, err
	}
	var d storedMandateData
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, err
	}
	m := &MandateRequest{CustomerAcceptance: d.CustomerAcceptance}
	if l, ok := d.MandateType["single_use"]; ok {
		m.SingleUse, m.Limits = true, l
	} else {
		m.Limits = d.MandateType["multi_use"]
	}
	return m, nil
}

// validateMandateMembers checks what a create, update or confirm asks of
// mandates, before anything is written: one of setting up (mandate_data)
// or charging (mandate_id), no card with a mandate to charge, and a mandate
// charged only by a call that authorizes. A create names everything the
// payment will have, so it is held to the rest too (customer, off_session);
// an update or confirm adds to a stored payment, checked whole at confirm
// (checkMandateIntent).
// MandateMembers are a payment request's members that touch mandates.
type MandateMembers struct {
	// Mandate asks to set a mandate up (mandate_data, customer_acceptance).
	Mandate *MandateRequest
	// MandateID names a mandate to charge (mandate_id, recurring_details).
	MandateID        *string
	HasPaymentMethod bool
	HasCustomer      bool
	OffSession       *bool
}

// CheckMandateMembers checks f as a create (creating), update or confirm
// (confirming: the call authorizes) asks it of mandates.
func CheckMandateMembers(f MandateMembers, creating, confirming bool) error {
	if f.Mandate != nil {
		if err := f.Mandate.Validate(); err != nil {
			return err
		}
		if creating && !f.HasCustomer {
			return errMandatePrecondition("customer_id", msgMandateCustomer)
		}
	}
	if f.MandateID == nil {
		return nil
	}
	switch {
	case *f.MandateID == "" || validate.Chars(*f.MandateID) > 64:
		return errs.InvalidValue("mandate_id", "must be 1 to 64 characters")
	case f.Mandate != nil:
		return errs.InvalidValue("recurring_details", "Expected one out of recurring_details and mandate_data but got both")
	case f.HasPaymentMethod:
		return errs.InvalidValue("payment_method_data", "cannot be given with a mandate: a recurring payment charges the mandate's saved payment method")
	case !confirming:
		return errMandatePrecondition("confirm", msgMandateConfirm)
	case creating && !f.HasCustomer:
		return errs.MissingField("customer_id")
	case creating && f.OffSession == nil:
		return errs.MissingField("off_session")
	case f.OffSession != nil && !*f.OffSession:
		return errMandatePrecondition("off_session", msgMandateOffSession)
	}
	return nil
}

// CheckMandateIntent checks, at confirm, the payment as it will be
// authorized: a mandate set up needs a customer and setup_future_usage
// off_session and a card; a mandate charged needs a customer, off_session
// and no card of its own.
func CheckMandateIntent(pi *ent.PaymentIntent, method *PaymentMethodInput) error {
	switch {
	case pi.MandateData != nil && pi.MandateID != nil:
		return errs.InvalidValue("recurring_details", "Expected one out of recurring_details and mandate_data but got both")
	case pi.MandateData != nil:
		if pi.CustomerID == nil {
			return errMandatePrecondition("customer_id", msgMandateCustomer)
		}
		if pi.SetupFutureUsage == nil || *pi.SetupFutureUsage != paymentintent.SetupFutureUsageOffSession {
			return errMandatePrecondition("setup_future_usage", msgMandateFutureUsage)
		}
		if method != nil && !takesMandate(method) {
			return errs.InvalidValue("mandate_data", "the sandbox sets up mandates for cards and for ACH, SEPA, BACS and BECS bank debits, not %s", methodName(method))
		}
	case pi.MandateID != nil:
		if pi.CustomerID == nil {
			return errs.MissingField("customer_id")
		}
		if pi.OffSession == nil || !*pi.OffSession {
			return errMandatePrecondition("off_session", msgMandateOffSession)
		}
		if method != nil {
			return errs.InvalidValue("payment_method_data", "cannot be given with a mandate: a recurring payment charges the mandate's saved payment method")
		}
	}
	return nil
}

// takesMandate reports whether a mandate can be set up with m: a card, or
// a bank debit Hyperswitch's Stripe connector sets mandates up for (ACH,
// SEPA, BACS, BECS).
func takesMandate(m *PaymentMethodInput) bool {
	return m.Type == "card" || (m.Type == "bank_debit" && mandateDebits[m.Variant])
}

// mandateDebits are the bank debit variants a mandate can be set up for.
var mandateDebits = map[string]bool{
	"ach_bank_debit": true, "sepa_bank_debit": true, "bacs_bank_debit": true, "becs_bank_debit": true,
}

// methodName names m as its request did: the family, and the variant when
// there is one.
func methodName(m *PaymentMethodInput) string {
	if m.Variant != "" {
		return m.Type + " " + m.Variant
	}
	return m.Type
}
