package payments

import (
	"context"

	"switchyard/ent"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/ent/paymentintent"
	"switchyard/payments/connector"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

// extendableStates are the states an authorization can be extended in
// (Hyperswitch: requires_capture).
var extendableStates = []paymentintent.Status{paymentintent.StatusRequiresCapture}

// ExtendAuthorization asks the connector to extend how long the payment's
// authorization stays valid. The answer is recorded on the active attempt
// (extended_authorization_applied, and when it was last applied); a
// refusal records false and leaves the authorization as it was. It moves
// no money, so nothing is recorded before the call: a crash loses only
// the record of an extension, which the merchant may ask for again.
func (s *Service) ExtendAuthorization(ctx context.Context, paymentID string) (*PaymentView, error) {
	var t callTarget
	err := s.db.InTx(ctx, func(tx *ent.Tx) (err error) {
		t, err = s.loadExtendTarget(ctx, tx, paymentID)
		return err
	})
	if err != nil {
		return nil, err
	}
	conn, acct, err := s.connectorFor(t.pi, t.att, t.mca)
	if err != nil {
		return nil, err
	}
	a, ok := connector.SupportsAuthorizationChanges(conn)
	if !ok || deref(t.att.PaymentMethod) != string(connector.MethodCard) {
		return nil, errs.ErrFlowNotSupported.Newf("extend_authorization flow not supported by %s for this payment method", deref(t.att.Connector))
	}
	res, err := a.ExtendAuthorization(ctx, &connector.ExtendRequest{Account: acct,
		ConnectorTransactionID: deref(t.att.ConnectorTransactionID), ConnectorMetadata: t.att.ConnectorMetadata})
	if err != nil {
		return nil, errs.ErrConnectorUnavailable.New().WithCause(err)
	}
	err = s.db.InTx(ctx, func(tx *ent.Tx) error {
		// The payment may have moved on while the connector answered: an
		// extension of an authorization captured or voided since is moot.
		cur, err := s.loadExtendTarget(ctx, tx, paymentID)
		if err != nil {
			return err
		}
		if cur.att.ID != t.att.ID {
			return ErrUnexpectedState("extended", cur.pi.Status, extendableStates)
		}
		upd := cur.att.Update().SetExtendedAuthorizationApplied(res.Applied)
		if res.Applied {
			upd.SetExtendedAuthorizationLastAppliedAt(s.db.Now())
		}
		if _, err := upd.Save(ctx); err != nil {
			return errs.Internal(err)
		}
		_, err = cur.pi.Update().AddVersion(1).Save(ctx)
		return txn.ErrorOrNil(err, "payment")
	})
	if err != nil {
		return nil, err
	}
	return s.GetPayment(ctx, paymentID)
}

// loadExtendTarget locks the payment and reads what an extension acts on,
// refusing a payment not in an extendable state.
func (s *Service) loadExtendTarget(ctx context.Context, tx *ent.Tx, paymentID string) (t callTarget, err error) {
	if t.pi, err = s.lockPayment(ctx, tx, paymentID); err != nil {
		return t, err
	}
	if !statusIn(t.pi.Status, extendableStates...) || t.pi.ActiveAttemptID == nil {
		return t, ErrUnexpectedState("extended", t.pi.Status, extendableStates)
	}
	if t.att, err = tx.PaymentAttempt.Get(ctx, *t.pi.ActiveAttemptID); err != nil {
		return t, errs.Internal(err)
	}
	if t.mca, err = tx.MerchantConnectorAccount.Query().
		Where(merchantconnectoraccount.ID(deref(t.att.MerchantConnectorID))).Only(ctx); err != nil {
		return t, errs.Internal(err)
	}
	return t, nil
}
