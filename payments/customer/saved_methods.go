package customer

import (
	"context"

	"switchyard/ent"
	"switchyard/ent/customer"
	"switchyard/ent/mandate"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentintent"
	"switchyard/ent/paymentmethod"
	"switchyard/payments/cards"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// Saved cards, as Hyperswitch keeps them: a confirmed card payment with a
// customer and setup_future_usage (on_session or off_session) saves the
// card once its authorization succeeds; the same card again (same keyed
// fingerprint) is the same payment method. What is kept is the masked card
// and the connector's token for it, never the number or the CVC: a later
// payment names the method (payment_token) and is charged with the token,
// through the connector account that issued it.

// SavesCard reports whether the payment keeps the card it is paid with for
// its customer (outside a mandate set-up, which saves its own).
func SavesCard(pi *ent.PaymentIntent, m *PaymentMethodInput) bool {
	return pi.CustomerID != nil && KeepsCard(pi) && pi.MandateData == nil &&
		m != nil && m.Card != nil && m.Saved == nil
}

// KeepsCard reports whether a payment asks for its card to be kept:
// setup_future_usage, or the customer's consent (a customer_acceptance,
// which Hyperswitch's checkout sends when "save card" is ticked).
func KeepsCard(pi *ent.PaymentIntent) bool {
	return pi.SetupFutureUsage != nil || pi.CustomerAcceptance != nil
}

// CardToKeep is the payment method a payment that SavesCard records with its
// attempt: the customer's method with the same fingerprint if it has one,
// else a new one, processing until the authorization succeeds.
func (s *Service) CardToKeep(ctx context.Context, tx *ent.Tx, pi *ent.PaymentIntent, m *PaymentMethodInput) (*ent.PaymentMethod, error) {
	pm, err := s.keptCard(ctx, tx.PaymentMethod, *pi.CustomerID, m.Card)
	if err != nil || pm != nil {
		return pm, err
	}
	return s.SavePaymentMethod(ctx, tx, pi, m)
}

// KeptCard is the customer's (row id) active saved card with the same
// fingerprint as card, or nil.
func (s *Service) KeptCard(ctx context.Context, customerID string, card *CardInput) (*ent.PaymentMethod, error) {
	return s.keptCard(ctx, s.db.Client.PaymentMethod, customerID, card)
}

func (s *Service) keptCard(ctx context.Context, pms *ent.PaymentMethodClient, customerID string, card *CardInput) (*ent.PaymentMethod, error) {
	pm, err := pms.Query().Where(paymentmethod.CustomerID(customerID), paymentmethod.Fingerprint(s.cardFingerprint(card)),
		paymentmethod.StatusEQ(paymentmethod.StatusActive)).WithCustomer().First(ctx)
	switch {
	case ent.IsNotFound(err):
		return nil, nil
	case err != nil:
		return nil, errs.Internal(err)
	}
	return pm, nil
}

// cardFingerprint is the keyed fingerprint that tells the same card again.
func (s *Service) cardFingerprint(card *CardInput) string {
	return s.CardFingerprint(card.Number)
}

// CardFingerprint is the keyed fingerprint of a card number: the
// card_fingerprint a saved card shows, and what a blocklist entry of kind
// fingerprint holds.
func (s *Service) CardFingerprint(number string) string {
	return s.box.Fingerprint("card-fingerprint", number)
}

// VerifiedCard is a card the connector verified without a payment
// (POST /payment_methods), with the token it issued.
type VerifiedCard struct {
	Method *PaymentMethodInput
	// CustomerID is the row id of the customer it is kept for, if any.
	CustomerID           *string
	ConnectorToken       string
	MerchantConnectorID  string
	NetworkTransactionID string
	Metadata             map[string]any
}

// KeepVerifiedCard records a verified card, active at once, and makes it
// its customer's default when the customer has none.
func (s *Service) KeepVerifiedCard(ctx context.Context, id string, v VerifiedCard) (*ent.PaymentMethod, error) {
	details := v.Method.Card.Details()
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		create := tx.PaymentMethod.Create().SetID(id).SetPaymentMethod("card").SetCard(details).
			SetFingerprint(s.cardFingerprint(v.Method.Card)).SetStatus(paymentmethod.StatusActive).SetRecurringEnabled(true).
			SetConnectorToken(v.ConnectorToken).SetMerchantConnectorID(v.MerchantConnectorID).SetMetadata(v.Metadata).
			SetNillableNetworkTransactionID(validate.NonEmpty(v.NetworkTransactionID)).SetNillableCustomerID(v.CustomerID)
		switch {
		case v.Method.Subtype != "":
			create.SetPaymentMethodType(v.Method.Subtype)
		case details.CardType != nil:
			create.SetPaymentMethodType(*details.CardType)
		}
		if err := create.Exec(ctx); err != nil {
			return txn.Error(err, "payment method")
		}
		if v.CustomerID == nil {
			return nil
		}
		return defaultIfNone(ctx, tx, *v.CustomerID, id)
	})
	if err != nil {
		return nil, err
	}
	return s.GetPaymentMethod(ctx, id)
}

// defaultIfNone makes the method its customer's default when the customer
// has none (its first kept card).
func defaultIfNone(ctx context.Context, tx *ent.Tx, customerID, paymentMethodID string) error {
	_, err := tx.Customer.Update().Where(customer.ID(customerID), customer.DefaultPaymentMethodIDIsNil()).
		SetDefaultPaymentMethodID(paymentMethodID).Save(ctx)
	return txn.ErrorOrNil(err, "customer")
}

// settleKeptCard records what the authorization means for the card the
// payment keeps: a success activates it with the connector's token (and
// makes it the customer's default when it has none); a failure drops a
// method that was new.
func (s *Service) settleKeptCard(ctx context.Context, tx *ent.Tx, pi *ent.PaymentIntent, att *ent.PaymentAttempt,
	status paymentattempt.Status, connectorToken, networkTransactionID string) error {
	pm, err := tx.PaymentMethod.Get(ctx, *att.PaymentMethodID)
	if ent.IsNotFound(err) {
		return nil // deleted meanwhile
	}
	if err != nil {
		return errs.Internal(err)
	}
	switch keptCardStepFor(status, pm.Status) {
	case keptCardDrop:
		return txn.ErrorOrNil(tx.PaymentMethod.DeleteOne(pm).Exec(ctx), "payment method")
	case keptCardUnchanged:
		return nil
	}
	upd := pm.Update().SetStatus(paymentmethod.StatusActive).SetLastUsedAt(s.db.Now()).
		SetNillableNetworkTransactionID(validate.NonEmpty(networkTransactionID)).
		SetNillableMerchantConnectorID(att.MerchantConnectorID)
	if connectorToken != "" {
		upd.SetConnectorToken(connectorToken)
	}
	if chargesOffSession(pi) {
		upd.SetRecurringEnabled(true)
	}
	if _, err := upd.Save(ctx); err != nil {
		return txn.Error(err, "payment method")
	}
	return defaultIfNone(ctx, tx, *pi.CustomerID, pm.ID)
}

// chargesOffSession reports whether the card a payment keeps may be
// charged later without the customer (recurring_enabled): the payment
// asked for setup_future_usage off_session.
func chargesOffSession(pi *ent.PaymentIntent) bool {
	return pi.SetupFutureUsage != nil && *pi.SetupFutureUsage == paymentintent.SetupFutureUsageOffSession
}

// errInvalidToken is Hyperswitch's answer to a payment_token it cannot use.
func errInvalidToken() *errs.Error {
	return errs.ErrPaymentTokenInvalid.New()
}

// SavedCard is what a payment with payment_token pays with: the customer's
// saved method of that id, charged with the connector's token through the
// account that issued it. cvc, when the checkout asks for it again
// (on-session), is checked and goes no further than the connector call.
func (s *Service) SavedCard(ctx context.Context, tx *ent.Tx, pi *ent.PaymentIntent, token string, cvc *string) (*PaymentMethodInput, error) {
	if pi.CustomerID == nil {
		return nil, errs.MissingField("customer_id")
	}
	if cvc != nil {
		if err := cards.ValidateCVC(*cvc); err != nil {
			return nil, errs.InvalidValue("payment_method_data.card_token.card_cvc", "card security code must be 3 or 4 digits")
		}
	}
	pm, err := tx.PaymentMethod.Query().Where(paymentmethod.ID(token), paymentmethod.CustomerID(*pi.CustomerID),
		paymentmethod.StatusEQ(paymentmethod.StatusActive)).Only(ctx)
	if err != nil {
		return nil, txn.ReadError(err, errInvalidToken)
	}
	if pm.ConnectorToken == nil || pm.MerchantConnectorID == nil {
		return nil, errInvalidToken()
	}
	return &PaymentMethodInput{Type: pm.PaymentMethod, Subtype: strValue(pm.PaymentMethodType),
		ConnectorMandateID: *pm.ConnectorToken, Saved: pm}, nil
}

// CustomerPaymentMethods are a customer's saved methods, newest used first
// (GET /customers/{customer_id}/payment_methods).
func (s *Service) CustomerPaymentMethods(ctx context.Context, customerID string) (*ent.Customer, []*ent.PaymentMethod, error) {
	c, err := s.GetCustomer(ctx, customerID)
	if err != nil {
		return nil, nil, err
	}
	pms, err := c.QueryPaymentMethods().Where(paymentmethod.StatusEQ(paymentmethod.StatusActive)).
		Order(ent.Desc(paymentmethod.FieldLastUsedAt), ent.Desc(paymentmethod.FieldCreatedAt)).All(ctx)
	if err != nil {
		return nil, nil, errs.Internal(err)
	}
	return c, pms, nil
}

// PaymentCustomerMethods are the saved methods of a payment's customer,
// for the checkout (GET /customers/payment_methods with the publishable key
// and the payment's client secret, which the caller checked). A payment
// without a customer has none.
func (s *Service) PaymentCustomerMethods(ctx context.Context, pi *ent.PaymentIntent) (*ent.Customer, []*ent.PaymentMethod, error) {
	if pi.CustomerID == nil {
		return nil, []*ent.PaymentMethod{}, nil
	}
	c, err := s.db.Client.Customer.Get(ctx, *pi.CustomerID)
	if err != nil {
		return nil, nil, errs.Internal(err)
	}
	return s.CustomerPaymentMethods(ctx, c.CustomerID)
}

func errPaymentMethodNotFound() *errs.Error {
	return errs.ErrPaymentMethodNotFound.New()
}

// GetPaymentMethod returns one of the merchant's saved methods.
func (s *Service) GetPaymentMethod(ctx context.Context, id string) (*ent.PaymentMethod, error) {
	pm, err := s.db.Client.PaymentMethod.Query().Where(paymentmethod.ID(id),
		paymentmethod.StatusEQ(paymentmethod.StatusActive)).WithCustomer().Only(ctx)
	if err != nil {
		return nil, txn.ReadError(err, errPaymentMethodNotFound)
	}
	return pm, nil
}

// DeletePaymentMethod deletes a saved method; a customer's default is
// cleared with it. A method an active mandate charges is kept (IR_10, as a
// customer with one cannot be deleted).
func (s *Service) DeletePaymentMethod(ctx context.Context, id string) (string, error) {
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		pm, err := s.lockedPaymentMethod(ctx, tx, id)
		if err != nil {
			return err
		}
		inUse, err := activeMandateOn(ctx, tx, pm.ID)
		if err != nil {
			return err
		}
		if inUse {
			return errs.ErrActiveMandate.Newf("The payment method is charged by an active mandate; revoke it first")
		}
		if err := tx.PaymentMethod.DeleteOne(pm).Exec(ctx); err != nil {
			return errs.Internal(err)
		}
		_, err = tx.Customer.Update().Where(customer.DefaultPaymentMethodID(pm.ID)).ClearDefaultPaymentMethodID().Save(ctx)
		return txn.ErrorOrNil(err, "customer")
	})
	return id, err
}

// SetDefaultPaymentMethod makes one of the customer's saved methods its
// default (POST /{customer_id}/payment_methods/{payment_method_id}/default).
func (s *Service) SetDefaultPaymentMethod(ctx context.Context, customerID, id string) (*ent.Customer, *ent.PaymentMethod, error) {
	var (
		c  *ent.Customer
		pm *ent.PaymentMethod
	)
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		var err error
		if c, err = liveCustomer(txn.ForUpdate(s.db, tx.Customer.Query().Where(customer.CustomerID(customerID))).Only(ctx)); err != nil {
			return err
		}
		pm, err = tx.PaymentMethod.Query().Where(paymentmethod.ID(id), paymentmethod.CustomerID(c.ID),
			paymentmethod.StatusEQ(paymentmethod.StatusActive)).Only(ctx)
		if err != nil {
			return txn.ReadError(err, errPaymentMethodNotFound)
		}
		if err := checkNewDefault(c, pm.ID); err != nil {
			return err
		}
		c, err = c.Update().SetDefaultPaymentMethodID(pm.ID).Save(ctx)
		return txn.ErrorOrNil(err, "customer")
	})
	return c, pm, err
}

// checkNewDefault refuses to make the customer's default method its
// default again.
func checkNewDefault(c *ent.Customer, paymentMethodID string) error {
	if c.DefaultPaymentMethodID != nil && *c.DefaultPaymentMethodID == paymentMethodID {
		return errs.ErrAlreadyDefault.New()
	}
	return nil
}

// lockedPaymentMethod is one of the merchant's saved methods, locked
// until tx ends.
func (s *Service) lockedPaymentMethod(ctx context.Context, tx *ent.Tx, id string) (*ent.PaymentMethod, error) {
	pm, err := txn.ForUpdate(s.db, tx.PaymentMethod.Query().
		Where(paymentmethod.ID(id), paymentmethod.StatusEQ(paymentmethod.StatusActive))).Only(ctx)
	if err != nil {
		return nil, txn.ReadError(err, errPaymentMethodNotFound)
	}
	return pm, nil
}

// activeMandateOn reports whether an active mandate charges the method.
func activeMandateOn(ctx context.Context, tx *ent.Tx, paymentMethodID string) (bool, error) {
	return txn.Read(tx.Mandate.Query().Where(mandate.PaymentMethodID(paymentMethodID), mandate.StatusEQ(mandate.StatusActive)).Exist(ctx))
}

// CardUpdate changes what is kept of a saved card
// (POST /payment_methods/{id}/update): its expiry and holder.
type CardUpdate struct {
	ExpMonth   *string
	ExpYear    *string
	HolderName *string
}

// UpdateSavedCard applies a CardUpdate; the new expiry must be valid and
// not past.
func (s *Service) UpdateSavedCard(ctx context.Context, id string, u CardUpdate) (*ent.PaymentMethod, error) {
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		pm, err := s.lockedPaymentMethod(ctx, tx, id)
		if err != nil {
			return err
		}
		if pm.Card == nil {
			return errs.InvalidValue("card", "the payment method is not a card")
		}
		card := *pm.Card
		if u.ExpMonth != nil {
			card.CardExpMonth = *u.ExpMonth
		}
		if u.ExpYear != nil {
			card.CardExpYear = *u.ExpYear
		}
		if u.HolderName != nil {
			card.CardHolderName = u.HolderName
		}
		if err := cards.ValidateExpiry(card.CardExpMonth, card.CardExpYear, s.db.Now()); err != nil {
			return cardError(err)
		}
		return txn.ErrorOrNil(pm.Update().SetCard(&card).Exec(ctx), "payment method")
	})
	if err != nil {
		return nil, err
	}
	return s.GetPaymentMethod(ctx, id)
}
