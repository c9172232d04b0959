package customer

import (
	"context"
	"encoding/json"

	"switchyard/ent"
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

// RecurringMethod is the payment method a recurring payment of charge
// (minor units) charges: the mandate's saved card, by the connector's
// token. The mandate row is locked until tx ends, so two payments on one
// single_use mandate cannot both pass the check.
func (s *Service) RecurringMethod(ctx context.Context, tx *ent.Tx, pi *ent.PaymentIntent, charge int64) (*PaymentMethodInput, error) {
	m, err := txn.ForUpdate(s.db, tx.Mandate.Query().Where(mandate.ID(*pi.MandateID))).Only(ctx)
	if err != nil {
		return nil, txn.ReadError(err, ErrMandateNotFound)
	}
	if err := checkMandateCharge(m, pi, charge, s.db.Now()); err != nil {
		return nil, err
	}
	if err := checkMandateUses(ctx, tx, m, pi, charge); err != nil {
		return nil, err
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

// checkMandateUses checks m's other payments leave room for this one (pi,
// of charge): a single_use mandate is used by a payment on it that has not
// failed; a multi_use one's payments stay within its amount. The payment
// that set the mandate up is not one of its uses.
func checkMandateUses(ctx context.Context, tx *ent.Tx, m *ent.Mandate, pi *ent.PaymentIntent, charge int64) error {
	others := tx.PaymentIntent.Query().Where(paymentintent.MandateID(m.ID), paymentintent.IDNEQ(pi.ID),
		paymentintent.PaymentIDNEQ(strValue(m.OriginalPaymentID)))
	if m.MandateType == mandate.MandateTypeSingleUse {
		used, err := others.Where(paymentintent.StatusNotIn(paymentintent.StatusFailed, paymentintent.StatusRequiresPaymentMethod,
			paymentintent.StatusRequiresConfirmation, paymentintent.StatusCancelled, paymentintent.StatusExpired),
		).Exist(ctx)
		if err != nil {
			return errs.Internal(err)
		}
		if used {
			return errMandatePrecondition("mandate_id", msgMandateNotActive)
		}
		return nil
	}
	if m.Amount == nil {
		return nil
	}
	received, err := others.Select(paymentintent.FieldAmountCaptured).Ints(ctx)
	if err != nil {
		return errs.Internal(err)
	}
	return checkMultiUseTotal(m, charge, received)
}

// SavePaymentMethod records, with the attempt of a payment that sets up a
// mandate, the card it saves: masked and fingerprinted, never the number
// or the CVC. It stays processing until the authorization succeeds.
func (s *Service) SavePaymentMethod(ctx context.Context, tx *ent.Tx, pi *ent.PaymentIntent, m *PaymentMethodInput) (*ent.PaymentMethod, error) {
	create := tx.PaymentMethod.Create().
		SetID(ids.New(ids.PaymentMethod)).
		SetNillableCustomerID(pi.CustomerID).
		SetPaymentMethod(m.Type).
		SetNillablePaymentMethodType(validate.NonEmpty(m.Subtype)).
		SetStatus(paymentmethod.StatusProcessing)
	if m.Card != nil {
		card := m.Card.Details()
		create.SetCard(card).SetFingerprint(s.cardFingerprint(m.Card))
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
	step := mandateStepFor(mandateFacts{SetsUpMandate: pi.MandateData != nil, HasMethod: att.PaymentMethodID != nil,
		ChargesMandate: att.MandateID != nil, Status: status, ConnectorToken: connectorMandateID})
	switch step {
	case stepDropSetupMethod:
		err := tx.PaymentMethod.DeleteOneID(*att.PaymentMethodID).Exec(ctx)
		return nil, txn.ErrorOrNil(err, "payment method")
	case stepActivateMandate:
		return s.activateMandate(ctx, tx, pi, att, connectorMandateID, networkTransactionID)
	case stepUseMandate:
		return nil, s.useMandate(ctx, tx, att)
	case stepSettleKeptCard:
		return nil, s.settleKeptCard(ctx, tx, pi, att, status, connectorMandateID, networkTransactionID)
	}
	return nil, nil
}

// activateMandate activates the method a mandate set-up saved, with the
// connector's token, and creates the mandate the payment asked for.
func (s *Service) activateMandate(ctx context.Context, tx *ent.Tx, pi *ent.PaymentIntent, att *ent.PaymentAttempt,
	connectorMandateID, networkTransactionID string) (*MandateView, error) {
	req, err := mandateRequestOf(pi.MandateData)
	if err != nil {
		return nil, errs.Internal(err)
	}
	pm, err := tx.PaymentMethod.UpdateOneID(*att.PaymentMethodID).
		SetStatus(paymentmethod.StatusActive).SetRecurringEnabled(true).SetLastUsedAt(s.db.Now()).
		SetNillableNetworkTransactionID(validate.NonEmpty(networkTransactionID)).
		SetConnectorToken(connectorMandateID).SetNillableMerchantConnectorID(att.MerchantConnectorID).Save(ctx)
	if ent.IsNotFound(err) {
		// The customer was deleted while the connector authorized: its
		// methods went with it, and no mandate is set up for it.
		return nil, nil
	}
	if err != nil {
		return nil, txn.Error(err, "payment method")
	}
	create := tx.Mandate.Create().
		SetID(ids.New(ids.Mandate)).
		SetCustomerID(*pi.CustomerID).
		SetPaymentMethodID(pm.ID).
		SetOriginalPaymentID(pi.PaymentID).
		SetStatus(mandate.StatusActive).
		SetMandateType(mandateTypeOf(req)).
		SetNillableConnector(att.Connector).
		SetNillableMerchantConnectorID(att.MerchantConnectorID).
		SetConnectorMandateID(connectorMandateID).
		SetNillableNetworkTransactionID(validate.NonEmpty(networkTransactionID))
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
}

// useMandate records a recurring payment's success: its method was used
// now, and a single_use mandate is spent by its one payment.
func (s *Service) useMandate(ctx context.Context, tx *ent.Tx, att *ent.PaymentAttempt) error {
	if att.PaymentMethodID != nil {
		if err := tx.PaymentMethod.UpdateOneID(*att.PaymentMethodID).SetLastUsedAt(s.db.Now()).Exec(ctx); err != nil && !ent.IsNotFound(err) {
			return errs.Internal(err)
		}
	}
	_, err := tx.Mandate.Update().Where(mandate.ID(*att.MandateID), mandate.MandateTypeEQ(mandate.MandateTypeSingleUse),
		mandate.StatusEQ(mandate.StatusActive)).SetStatus(mandate.StatusInactive).Save(ctx)
	return txn.ErrorOrNil(err, "mandate")
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
	if err != nil {
		return nil, txn.ReadError(err, ErrMandateNotFound)
	}
	views, err := s.mandateViews(ctx, s.db.Client, []*ent.Mandate{m})
	if err != nil {
		return nil, err
	}
	return views[0], nil
}

// ListCustomerMandates returns the mandates of the merchant's customer
// (by the merchant's customer_id), newest first. An unknown customer, or
// another merchant's, is HE_02; a redacted one IR_11.
func (s *Service) ListCustomerMandates(ctx context.Context, customerID string) ([]*MandateView, error) {
	if customerID == "" || validate.Chars(customerID) > MaxCustomerID {
		return nil, errs.InvalidValue("customer_id", "must be 1 to %d characters", MaxCustomerID)
	}
	c, err := s.GetCustomer(ctx, customerID) // a redacted customer is IR_11, as for its other routes
	if err != nil {
		return nil, err
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
		if err != nil {
			return txn.ReadError(err, ErrMandateNotFound)
		}
		if err := checkRevocable(m); err != nil {
			return err
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
	byID, err := txn.LoadRefs(ms, func(m *ent.Mandate) *string { return m.PaymentMethodID },
		func(ids []string) ([]*ent.PaymentMethod, error) {
			return c.PaymentMethod.Query().Where(paymentmethod.IDIn(ids...)).All(ctx)
		}, func(pm *ent.PaymentMethod) string { return pm.ID })
	if err != nil {
		return nil, err
	}
	out := make([]*MandateView, len(ms))
	for i, m := range ms {
		out[i] = &MandateView{Mandate: m, PaymentMethod: byID[strValue(m.PaymentMethodID)]}
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
