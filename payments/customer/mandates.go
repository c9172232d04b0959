package customer

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"switchyard/ent"
	"switchyard/ent/customer"
	"switchyard/ent/event"
	"switchyard/ent/mandate"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentintent"
	"switchyard/ent/paymentmethod"
	"switchyard/ent/schema/schematype"
	"switchyard/internal/ids"
	"switchyard/payments/errs"
	"switchyard/payments/events"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// Mandates, as Hyperswitch v1 does them: a customer-initiated card payment
// with setup_future_usage off_session and mandate_data (or a top-level
// customer_acceptance) saves the card (masked, fingerprinted) and, once the
// authorization succeeds, records an active mandate holding the connector's
// token. A later merchant-initiated payment names the mandate (mandate_id or
// recurring_details) instead of a card and is charged with that token
// through the same connector account.

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

// OnlineAcceptance is Hyperswitch's OnlineMandate.
type OnlineAcceptance struct {
	IPAddress string `json:"ip_address"`
	UserAgent string `json:"user_agent"`
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

// errMandateValidation is Hyperswitch's MandateValidationFailed (HE_03),
// whose reason Hyperswitch puts beside the message; here it follows it.
func errMandateValidation(field, reason string) *errs.Error {
	e := errs.New(errs.KindInvalid, "HE_03", "Mandate Validation Failed: %s", reason)
	e.Field = field
	return e
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
	if a := m.CustomerAcceptance; a != nil {
		const f = "mandate_data.customer_acceptance"
		switch a.AcceptanceType {
		case "":
			return errs.MissingField(f + ".acceptance_type")
		case "online":
			if a.Online == nil {
				return errMandatePrecondition(f+".online", "`mandate_data.customer_acceptance.online` is required when `mandate_data.customer_acceptance.acceptance_type` is `online`")
			}
		case "offline":
		default:
			return errs.InvalidValue(f+".acceptance_type", "must be one of online or offline, got %q", a.AcceptanceType)
		}
		if o := a.Online; o != nil {
			if o.IPAddress == "" {
				return errs.MissingField(f + ".online.ip_address")
			}
			if o.UserAgent == "" {
				return errs.MissingField(f + ".online.user_agent")
			}
			if len(o.IPAddress) > 64 || len(o.UserAgent) > 1024 {
				return errs.InvalidValue(f+".online", "ip_address must be at most 64 and user_agent at most 1024 characters")
			}
		}
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
	case *f.MandateID == "" || len(*f.MandateID) > 64:
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
		if method != nil && method.Type != "card" {
			return errs.InvalidValue("mandate_data", "the sandbox sets up mandates for cards only, not %s", method.Type)
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

// RecurringMethod is the payment method a recurring payment of charge
// (minor units) charges: the mandate's saved card, by the connector's
// token. The mandate row is locked until tx ends, so two payments on one
// single_use mandate cannot both pass the check.
func (s *Service) RecurringMethod(ctx context.Context, tx *ent.Tx, pi *ent.PaymentIntent, charge int64) (*PaymentMethodInput, error) {
	m, err := txn.ForUpdate(s.db, tx.Mandate.Query().Where(mandate.ID(*pi.MandateID))).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, ErrMandateNotFound()
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	if m.Status != mandate.StatusActive {
		return nil, errMandatePrecondition("mandate_id", msgMandateNotActive)
	}
	if m.CustomerID != *pi.CustomerID {
		return nil, errMandatePrecondition("customer_id", msgMandateOtherCustomer)
	}
	now := s.db.Now()
	if (m.StartDate != nil && now.Before(*m.StartDate)) || (m.EndDate != nil && !now.Before(*m.EndDate)) {
		return nil, errMandateValidation("mandate_id", "the mandate is not valid at this time (outside its start_date and end_date)")
	}
	if m.Currency != nil && *m.Currency != pi.Currency {
		return nil, errMandateValidation("currency", "cross currency mandates not supported")
	}
	if m.MandateType == mandate.MandateTypeSingleUse {
		if m.Amount == nil || charge > *m.Amount {
			return nil, errMandateValidation("amount", "request amount is greater than mandate amount")
		}
		// A payment on it that has not failed is its one use.
		used, err := tx.PaymentIntent.Query().Where(
			paymentintent.MandateID(m.ID), paymentintent.IDNEQ(pi.ID),
			paymentintent.PaymentIDNEQ(strValue(m.OriginalPaymentID)),
			paymentintent.StatusNotIn(paymentintent.StatusFailed, paymentintent.StatusRequiresPaymentMethod,
				paymentintent.StatusRequiresConfirmation, paymentintent.StatusCancelled, paymentintent.StatusExpired),
		).Exist(ctx)
		if err != nil {
			return nil, errs.Internal(err)
		}
		if used {
			return nil, errMandatePrecondition("mandate_id", msgMandateNotActive)
		}
	} else if m.Amount != nil {
		// multi_use with an amount: what its payments received, plus this
		// one, stays within it (Hyperswitch's amount_captured check).
		received, err := tx.PaymentIntent.Query().Where(paymentintent.MandateID(m.ID), paymentintent.IDNEQ(pi.ID),
			paymentintent.PaymentIDNEQ(strValue(m.OriginalPaymentID))).
			Select(paymentintent.FieldAmountCaptured).Ints(ctx)
		if err != nil {
			return nil, errs.Internal(err)
		}
		total := charge
		for _, r := range received {
			total += int64(r)
		}
		if total > *m.Amount {
			return nil, errMandateValidation("amount", "request amount is greater than mandate amount")
		}
	}
	if m.PaymentMethodID == nil || m.ConnectorMandateID == nil {
		return nil, errMandatePrecondition("mandate_id", msgMandateNotActive)
	}
	pm, err := tx.PaymentMethod.Query().Where(paymentmethod.ID(*m.PaymentMethodID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, errMandatePrecondition("mandate_id", msgMandateNotActive)
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	return &PaymentMethodInput{Type: pm.PaymentMethod, Subtype: strValue(pm.PaymentMethodType),
		ConnectorMandateID: *m.ConnectorMandateID, Mandate: m, Saved: pm}, nil
}

// SavePaymentMethod records, with the attempt of a payment that sets up a
// mandate, the card it saves: masked and fingerprinted, never the number
// or the CVC. It stays processing until the authorization succeeds.
func (s *Service) SavePaymentMethod(ctx context.Context, tx *ent.Tx, pi *ent.PaymentIntent, m *PaymentMethodInput) (*ent.PaymentMethod, error) {
	create := tx.PaymentMethod.Create().
		SetID(ids.New(ids.PaymentMethod)).
		SetNillableCustomerID(pi.CustomerID).
		SetPaymentMethod(m.Type).
		SetNillablePaymentMethodType(nonEmpty(m.Subtype)).
		SetStatus(paymentmethod.StatusProcessing)
	if m.Card != nil {
		card := m.Card.Details()
		create.SetCard(card).SetFingerprint(s.box.Fingerprint("card-fingerprint", m.Card.Number))
		if m.Subtype == "" && card.CardType != nil {
			// Hyperswitch's payment_method_type of a card: credit or debit.
			create.SetPaymentMethodType(*card.CardType)
		}
	}
	pm, err := create.Save(ctx)
	if err != nil {
		return nil, txn.Error(err, "payment method")
	}
	return pm, nil
}

// SettleMandate records, inside the transaction that records the
// connector's answer (the attempt's new status, the connector's mandate
// token and network transaction id), what it means for mandates: a setup that succeeded
// activates the saved method and creates the mandate (returned, for its
// event and the payment's mandate_id); one that failed drops the saved
// method; a recurring payment that succeeded uses up a single_use mandate.
func (s *Service) SettleMandate(ctx context.Context, tx *ent.Tx, pi *ent.PaymentIntent, att *ent.PaymentAttempt, status paymentattempt.Status, connectorMandateID, networkTransactionID string) (*MandateView, error) {
	succeeded := slices.Contains([]paymentattempt.Status{paymentattempt.StatusCharged,
		paymentattempt.StatusPartialCharged, paymentattempt.StatusAuthorized}, status)
	failed := status == paymentattempt.StatusFailure || status == paymentattempt.StatusAuthenticationFailed
	now := s.db.Now()
	switch {
	case pi.MandateData != nil && att.PaymentMethodID != nil:
		if failed || (succeeded && connectorMandateID == "") {
			// No token, no mandate: the card is not kept either.
			err := tx.PaymentMethod.DeleteOneID(*att.PaymentMethodID).Exec(ctx)
			return nil, txn.ErrorOrNil(err, "payment method")
		}
		if !succeeded {
			return nil, nil
		}
		req, err := mandateRequestOf(pi.MandateData)
		if err != nil {
			return nil, errs.Internal(err)
		}
		pm, err := tx.PaymentMethod.UpdateOneID(*att.PaymentMethodID).
			SetStatus(paymentmethod.StatusActive).SetRecurringEnabled(true).SetLastUsedAt(now).
			SetNillableNetworkTransactionID(nonEmpty(networkTransactionID)).Save(ctx)
		if err != nil {
			return nil, txn.Error(err, "payment method")
		}
		mt := mandate.MandateTypeMultiUse
		if req.SingleUse {
			mt = mandate.MandateTypeSingleUse
		}
		create := tx.Mandate.Create().
			SetID(ids.New(ids.Mandate)).
			SetCustomerID(*pi.CustomerID).
			SetPaymentMethodID(pm.ID).
			SetOriginalPaymentID(pi.PaymentID).
			SetStatus(mandate.StatusActive).
			SetMandateType(mt).
			SetNillableConnector(att.Connector).
			SetNillableMerchantConnectorID(att.MerchantConnectorID).
			SetConnectorMandateID(connectorMandateID).
			SetNillableNetworkTransactionID(nonEmpty(networkTransactionID))
		if a := req.CustomerAcceptance; a != nil {
			create.SetCustomerAcceptance(acceptanceMap(a))
		}
		if l := req.Limits; l != nil {
			create.SetNillableAmount(l.Amount).SetNillableStartDate(l.StartDate).SetNillableEndDate(l.EndDate)
			if l.Currency != nil {
				create.SetCurrency(schematype.Currency(*l.Currency))
			}
			if l.Metadata != nil {
				create.SetMetadata(l.Metadata)
			}
		}
		m, err := create.Save(ctx)
		if err != nil {
			return nil, txn.Error(err, "mandate")
		}
		return &MandateView{Mandate: m, PaymentMethod: pm}, nil
	case pi.MandateData == nil && att.MandateID != nil && succeeded:
		if att.PaymentMethodID != nil {
			if err := tx.PaymentMethod.UpdateOneID(*att.PaymentMethodID).SetLastUsedAt(now).Exec(ctx); err != nil && !ent.IsNotFound(err) {
				return nil, errs.Internal(err)
			}
		}
		// A single_use mandate is spent by its one payment.
		_, err := tx.Mandate.Update().Where(mandate.ID(*att.MandateID), mandate.MandateTypeEQ(mandate.MandateTypeSingleUse),
			mandate.StatusEQ(mandate.StatusActive)).SetStatus(mandate.StatusInactive).Save(ctx)
		return nil, txn.ErrorOrNil(err, "mandate")
	}
	return nil, nil
}

func acceptanceMap(a *CustomerAcceptance) map[string]any {
	raw, _ := json.Marshal(a)
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	return out
}

// EmitMandateEvent writes mandate_active or mandate_revoked inside tx, its
// content.object what GET /mandates/{mandate_id} shows. Mandates have no
// profile of their own: the event goes to the profile of the payment that
// set the mandate up.
func (s *Service) EmitMandateEvent(ctx context.Context, tx *ent.Tx, v *MandateView, profileID string, paymentIntentID *string) error {
	var et event.EventType
	switch v.Mandate.Status {
	case mandate.StatusActive:
		et = event.EventTypeMandateActive
	case mandate.StatusRevoked:
		et = event.EventTypeMandateRevoked
	default:
		return nil
	}
	if s.render == nil {
		return nil
	}
	obj, err := s.render.Mandate(v)
	if err != nil {
		return errs.Internal(err)
	}
	return s.events.Write(ctx, tx, events.Event{
		ProfileID: profileID, ObjectID: v.Mandate.ID, PaymentIntentID: paymentIntentID,
		Type: et, Class: event.EventClassMandates, ContentType: "mandate_details",
		Status: string(v.Mandate.Status), Object: obj,
	})
}

// GetMandate returns a mandate of the merchant in ctx.
func (s *Service) GetMandate(ctx context.Context, mandateID string) (*MandateView, error) {
	m, err := s.db.Client.Mandate.Query().Where(mandate.ID(mandateID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, ErrMandateNotFound()
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	views, err := s.mandateViews(ctx, s.db.Client, []*ent.Mandate{m})
	if err != nil {
		return nil, err
	}
	return views[0], nil
}

// ListCustomerMandates returns the mandates of the merchant's customer
// (by the merchant's customer_id), newest first. An unknown customer, or
// another merchant's, is HE_02.
func (s *Service) ListCustomerMandates(ctx context.Context, customerID string) ([]*MandateView, error) {
	if customerID == "" || len(customerID) > MaxCustomerID {
		return nil, errs.InvalidValue("customer_id", "must be 1 to %d characters", MaxCustomerID)
	}
	c, err := s.db.Client.Customer.Query().Where(customer.CustomerID(customerID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, errs.NotFound("Customer")
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	ms, err := s.db.Client.Mandate.Query().Where(mandate.CustomerID(c.ID)).
		Order(ent.Desc(mandate.FieldCreatedAt), ent.Desc(mandate.FieldID)).All(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	return s.mandateViews(ctx, s.db.Client, ms)
}

// RevokeMandate revokes a mandate, so no later payment may charge it, and
// writes mandate_revoked with the change. Revoking a revoked mandate is
// Hyperswitch's MandateValidationFailed.
func (s *Service) RevokeMandate(ctx context.Context, mandateID string) (*MandateView, error) {
	var view *MandateView
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		m, err := txn.ForUpdate(s.db, tx.Mandate.Query().Where(mandate.ID(mandateID))).Only(ctx)
		if ent.IsNotFound(err) {
			return ErrMandateNotFound()
		}
		if err != nil {
			return errs.Internal(err)
		}
		if m.Status == mandate.StatusRevoked {
			return errMandateValidation("mandate_id", "Mandate has already been revoked")
		}
		if m, err = m.Update().SetStatus(mandate.StatusRevoked).Save(ctx); err != nil {
			return txn.Error(err, "mandate")
		}
		views, err := s.mandateViews(ctx, tx.Client(), []*ent.Mandate{m})
		if err != nil {
			return err
		}
		view = views[0]
		profileID, piID, err := s.mandateProfile(ctx, tx, m)
		if err != nil || profileID == "" {
			return err
		}
		return s.EmitMandateEvent(ctx, tx, view, profileID, piID)
	})
	if err != nil {
		return nil, err
	}
	return view, nil
}

// mandateProfile is the profile (and payment row) of the payment that set
// the mandate up, where its events go.
func (s *Service) mandateProfile(ctx context.Context, tx *ent.Tx, m *ent.Mandate) (string, *string, error) {
	if m.OriginalPaymentID == nil {
		return "", nil, nil
	}
	pi, err := tx.PaymentIntent.Query().Where(paymentintent.PaymentID(*m.OriginalPaymentID)).Only(ctx)
	if ent.IsNotFound(err) {
		return "", nil, nil
	}
	if err != nil {
		return "", nil, errs.Internal(err)
	}
	return pi.ProfileID, &pi.ID, nil
}

// mandateViews loads the saved payment methods of mandates in one query.
func (s *Service) mandateViews(ctx context.Context, c *ent.Client, ms []*ent.Mandate) ([]*MandateView, error) {
	var pmIDs []string
	for _, m := range ms {
		if m.PaymentMethodID != nil {
			pmIDs = append(pmIDs, *m.PaymentMethodID)
		}
	}
	byID := map[string]*ent.PaymentMethod{}
	if len(pmIDs) > 0 {
		pms, err := c.PaymentMethod.Query().Where(paymentmethod.IDIn(pmIDs...)).All(ctx)
		if err != nil {
			return nil, errs.Internal(err)
		}
		for _, pm := range pms {
			byID[pm.ID] = pm
		}
	}
	out := make([]*MandateView, len(ms))
	for i, m := range ms {
		out[i] = &MandateView{Mandate: m}
		if m.PaymentMethodID != nil {
			out[i].PaymentMethod = byID[*m.PaymentMethodID]
		}
	}
	return out, nil
}

// strValue is *p, or "" for nil.
func strValue(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// nonEmpty is &s, or nil for "".
func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
