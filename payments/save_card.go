package payments

import (
	"context"

	"switchyard/ent"
	"switchyard/ent/customer"
	"switchyard/ent/paymentmethod"
	"switchyard/internal/ids"
	"switchyard/payments/connector"
	custs "switchyard/payments/customer"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

// SaveCardInput is POST /payment_methods for a card: Hyperswitch's
// PaymentMethodCreate.
type SaveCardInput struct {
	// CustomerID is the merchant's customer the card is kept for; a card
	// without one is kept but cannot pay by payment_token.
	CustomerID *string
	Card       *custs.CardInput
	Subtype    string
	Metadata   map[string]any
}

// SaveCard keeps a card without a payment, as Hyperswitch's
// POST /payment_methods does: a zero-amount verification through the
// default profile's connector gives the token a later payment is charged
// with (nothing is charged, so nothing needs recovering after a crash).
// The number goes to the connector only; the customer's card with the same
// fingerprint is answered as it is, as in Hyperswitch.
func (s *Service) SaveCard(ctx context.Context, in SaveCardInput) (*ent.PaymentMethod, error) {
	method := &custs.PaymentMethodInput{Type: "card", Subtype: in.Subtype, Card: in.Card}
	if in.Card == nil {
		return nil, errs.MissingField("card")
	}
	if err := method.Validate(); err != nil {
		return nil, err
	}
	var (
		owner *ent.Customer
		mca   *ent.MerchantConnectorAccount
		err   error
	)
	fingerprint := s.box.Fingerprint("card-fingerprint", in.Card.Number)
	err = s.db.InTx(ctx, func(tx *ent.Tx) error {
		if in.CustomerID != nil {
			if owner, err = s.customers.GetCustomer(ctx, *in.CustomerID); err != nil {
				return err
			}
		}
		prof, err := s.paymentProfile(ctx, tx, nil)
		if err != nil {
			return err
		}
		mca, err = s.route(ctx, tx, &ent.PaymentIntent{ProfileID: prof.ID}, nil, nil)
		return err
	})
	if err != nil {
		return nil, err
	}
	if owner != nil {
		existing, err := s.db.Client.PaymentMethod.Query().Where(paymentmethod.CustomerID(owner.ID),
			paymentmethod.Fingerprint(fingerprint), paymentmethod.StatusEQ(paymentmethod.StatusActive)).WithCustomer().First(ctx)
		if err == nil {
			return existing, nil
		}
		if !ent.IsNotFound(err) {
			return nil, errs.Internal(err)
		}
	}
	id := ids.New(ids.PaymentMethod)
	conn, acct, err := s.connectors.Integration(mca, "", id)
	if err != nil {
		return nil, err
	}
	res, err := conn.Authorize(ctx, &connector.AuthorizeRequest{Account: acct, Amount: 0, Currency: "USD",
		CaptureMethod: connector.CaptureManual, SetupFutureUsage: true, PaymentMethod: connectorMethod(method),
		AuthenticationType: connector.NoThreeDS})
	if err != nil {
		return nil, errs.New(errs.KindUnavailable, "CE_00", "The connector could not verify the card; try again")
	}
	if res.Status == connector.StatusFailure || res.ConnectorMandateID == "" {
		e := errs.New(errs.KindInvalid, "CE_01", "The card could not be verified by the connector")
		if res.Decline != nil {
			e.Message += ": " + res.Decline.Message
		}
		return nil, e
	}
	details := in.Card.Details()
	var pm *ent.PaymentMethod
	err = s.db.InTx(ctx, func(tx *ent.Tx) error {
		create := tx.PaymentMethod.Create().SetID(id).SetPaymentMethod("card").SetCard(details).
			SetFingerprint(fingerprint).SetStatus(paymentmethod.StatusActive).SetRecurringEnabled(true).
			SetConnectorToken(res.ConnectorMandateID).SetMerchantConnectorID(mca.ID).SetMetadata(in.Metadata).
			SetNillableNetworkTransactionID(nonEmpty(res.NetworkTransactionID))
		switch {
		case in.Subtype != "":
			create.SetPaymentMethodType(in.Subtype)
		case details.CardType != nil:
			create.SetPaymentMethodType(*details.CardType)
		}
		if owner != nil {
			create.SetCustomerID(owner.ID)
		}
		var err error
		if pm, err = create.Save(ctx); err != nil {
			return txn.Error(err, "payment method")
		}
		if owner != nil {
			_, err = tx.Customer.Update().Where(customer.ID(owner.ID), customer.DefaultPaymentMethodIDIsNil()).
				SetDefaultPaymentMethodID(pm.ID).Save(ctx)
		}
		return txn.ErrorOrNil(err, "customer")
	})
	if err != nil {
		return nil, err
	}
	return s.customers.GetPaymentMethod(ctx, pm.ID)
}
