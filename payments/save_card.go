package payments

import (
	"context"

	"switchyard/ent"
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
	if in.Card == nil {
		return nil, errs.MissingField("card")
	}
	method := &custs.PaymentMethodInput{Type: "card", Subtype: in.Subtype, Card: in.Card}
	if err := method.Validate(); err != nil {
		return nil, err
	}
	var owner *ent.Customer
	if in.CustomerID != nil {
		var err error
		if owner, err = s.customers.GetCustomer(ctx, *in.CustomerID); err != nil {
			return nil, err
		}
		if kept, err := s.customers.KeptCard(ctx, owner.ID, in.Card); err != nil || kept != nil {
			return kept, err
		}
	}
	var mca *ent.MerchantConnectorAccount
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		prof, err := txn.Profile(ctx, tx.Client(), nil)
		if err != nil {
			return err
		}
		d, err := s.route(ctx, tx, &ent.PaymentIntent{ProfileID: prof.ID}, method, nil, nil)
		if err != nil {
			return err
		}
		mca = d.Candidates[0]
		return nil
	})
	if err != nil {
		return nil, err
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
		return nil, errs.ErrConnectorUnavailable.New()
	}
	if res.Status == connector.StatusFailure || res.ConnectorMandateID == "" {
		e := errs.ErrCardNotVerified.New()
		if res.Decline != nil {
			e.Message += ": " + res.Decline.Message
		}
		return nil, e
	}
	v := custs.VerifiedCard{Method: method, ConnectorToken: res.ConnectorMandateID, MerchantConnectorID: mca.ID,
		NetworkTransactionID: res.NetworkTransactionID, Metadata: in.Metadata}
	if owner != nil {
		v.CustomerID = &owner.ID
	}
	return s.customers.KeepVerifiedCard(ctx, id, v)
}
