package payments

import (
	"context"

	"switchyard/ent"
	"switchyard/ent/dispute"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentintent"
	"switchyard/ent/refund"
	"switchyard/payments/errs"
)

// The entry points a connector's incoming webhook (payments/inbound) uses:
// each finds the object the connector names by the connector's own
// reference, on the connector account the webhook came through, and syncs
// it through the same settle path as force_sync and the recovery pass. The
// webhook is only a trigger: what the object becomes is the connector's
// sync answer, never the webhook's body.

// SyncPaymentOfConnector syncs the payment whose attempt on connector
// account mcaID has reference as its connector transaction id, or as its
// attempt id (Hyperswitch's PaymentAttemptId reference, for an attempt the
// connector answered nothing yet), and returns its payment_id. None is
// HE_02.
func (s *Service) SyncPaymentOfConnector(ctx context.Context, mcaID, reference string) (string, error) {
	att, err := s.db.Client.PaymentAttempt.Query().Where(paymentattempt.MerchantConnectorID(mcaID),
		paymentattempt.Or(paymentattempt.ConnectorTransactionID(reference), paymentattempt.ID(reference))).
		First(ctx)
	if ent.IsNotFound(err) {
		return "", errPaymentNotFound()
	}
	if err != nil {
		return "", errs.Internal(err)
	}
	pi, err := s.db.Client.PaymentIntent.Query().Where(paymentintent.ID(att.PaymentIntentID)).Only(ctx)
	if err != nil {
		return "", errs.Internal(err)
	}
	_, err = s.RetrievePayment(ctx, pi.PaymentID, RetrieveInput{ForceSync: true})
	return pi.PaymentID, err
}

// SyncRefundOfConnector syncs the refund on connector account mcaID whose
// connector refund id, refund_id, or id sent to the connector is
// reference (the last names a refund whose answer was never recorded): a pending one is settled
// as the connector's sync answers (the recovery pass's step); a settled one
// is left as it is. It returns the refund_id; none is HE_02.
func (s *Service) SyncRefundOfConnector(ctx context.Context, mcaID, reference string) (string, error) {
	ref, err := s.db.Client.Refund.Query().Where(refund.MerchantConnectorID(mcaID),
		refund.Or(refund.ConnectorRefundID(reference), refund.RefundID(reference), refund.ID(reference))).First(ctx)
	if ent.IsNotFound(err) {
		return "", errRefundNotFound()
	}
	if err != nil {
		return "", errs.Internal(err)
	}
	if ref.Status != refund.StatusPending {
		return ref.RefundID, nil
	}
	t, err := s.loadCallTarget(ctx, ref.AttemptID)
	if err != nil {
		return "", err
	}
	call := s.refundCall(&refundCall{callTarget: t, ref: ref}, t.pi.PaymentID)
	_, err = call.Recover(ctx, s.db)
	return ref.RefundID, err
}

// DisputeOfConnector syncs the dispute on connector account mcaID whose
// connector dispute id, or dispute_id, is reference, and returns its
// dispute_id: a challenged one is decided if the connector's network has
// decided (SyncDispute, as force_sync); any other is left as it is (the
// sandbox's network opens a dispute with the charge that recorded it). None
// is HE_04.
func (s *Service) DisputeOfConnector(ctx context.Context, mcaID, reference string) (string, error) {
	d, err := s.db.Client.Dispute.Query().Where(dispute.MerchantConnectorID(mcaID),
		dispute.Or(dispute.ConnectorDisputeID(reference), dispute.ID(reference))).First(ctx)
	if ent.IsNotFound(err) {
		return "", ErrDisputeNotFound()
	}
	if err != nil {
		return "", errs.Internal(err)
	}
	if d.DisputeStatus == dispute.DisputeStatusDisputeChallenged {
		_, err = s.SyncDispute(ctx, d.ID)
	}
	return d.ID, err
}
