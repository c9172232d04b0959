package payments

import (
	"context"
	"errors"
	"fmt"
	"time"

	"switchyard/ent"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentintent"
	"switchyard/internal/tenancy"
	"switchyard/payments/connector"
	"switchyard/payments/errs"
)

// A process can die between recording an attempt (pending, the payment
// processing) and recording the connector's answer. Nothing would move such
// a payment again: every operation refuses a payment that is processing.
// Recovery settles it through the connector's Sync, which knows what became
// of every attempt it was sent: the answer is recorded as if the call had
// returned (the attempt's status, the payment's, and its event, in one
// transaction), and an attempt the connector never saw has failed, charging
// nothing. Settling rechecks the attempt under the payment's row lock, so
// several processes may recover at once and a late answer of the original
// call changes nothing twice.

// CodeNeverSent is the error_code of an attempt recovery failed because the
// connector never received it.
const CodeNeverSent = "connector_transaction_not_found"

// RecoverStranded settles attempts left pending for longer than after, at
// most limit of them, across merchants (ctx is the system's). It returns
// how many it settled.
func (s *Service) RecoverStranded(ctx context.Context, after time.Duration, limit int) (int, error) {
	cutoff := s.db.Now().Add(-after)
	atts, err := s.db.Client.PaymentAttempt.Query().
		Where(paymentattempt.StatusEQ(paymentattempt.StatusPending), paymentattempt.ModifiedAtLT(cutoff)).
		Order(ent.Asc(paymentattempt.FieldModifiedAt)).Limit(limit).All(tenancy.System(ctx))
	if err != nil {
		return 0, errs.Internal(err)
	}
	settled := 0
	var failures []error
	for _, att := range atts {
		mctx := tenancy.ForMerchant(tenancy.System(ctx), att.MerchantID)
		pi, err := s.db.Client.PaymentIntent.Get(mctx, att.PaymentIntentID)
		if err != nil {
			failures = append(failures, fmt.Errorf("attempt %s: %w", att.ID, err))
			continue
		}
		ok, err := s.settlePending(mctx, pi, att, cutoff)
		if err != nil {
			failures = append(failures, fmt.Errorf("attempt %s: %w", att.ID, err))
		}
		if ok {
			settled++
		}
	}
	return settled, errors.Join(failures...)
}

// syncPayment settles the payment's pending attempt at once, if it has
// one (GET /payments/{id}?force_sync=true, and a retried create that finds
// its payment). An attempt the connector has no record of is failed only
// once it is older than the recovery window: younger, its call may still
// be on its way.
func (s *Service) syncPayment(ctx context.Context, pi *ent.PaymentIntent, window time.Duration) error {
	if pi.ActiveAttemptID == nil || pi.Status != paymentintent.StatusProcessing {
		return nil
	}
	att, err := s.db.Client.PaymentAttempt.Get(ctx, *pi.ActiveAttemptID)
	if err != nil {
		return errs.Internal(err)
	}
	if att.Status != paymentattempt.StatusPending {
		return nil
	}
	_, err = s.settlePending(ctx, pi, att, s.db.Now().Add(-window))
	return err
}

// settlePending asks the connector what became of a pending attempt and
// records it. It reports whether the attempt was settled.
func (s *Service) settlePending(ctx context.Context, pi *ent.PaymentIntent, att *ent.PaymentAttempt, cutoff time.Time) (bool, error) {
	if att.MerchantConnectorID == nil {
		return false, errs.Internal(fmt.Errorf("attempt %s has no connector account", att.ID))
	}
	mca, err := s.db.Client.MerchantConnectorAccount.Query().
		Where(merchantconnectoraccount.ID(*att.MerchantConnectorID)).Only(ctx)
	if err != nil {
		return false, errs.Internal(err)
	}
	conn, acct, err := s.connectorFor(pi, att, mca)
	if err != nil {
		return false, err
	}
	res, err := conn.Sync(ctx, &connector.SyncRequest{Account: acct,
		ConnectorTransactionID: deref(att.ConnectorTransactionID), ConnectorMetadata: att.ConnectorMetadata})
	switch {
	case errors.Is(err, connector.ErrTransactionNotFound):
		if att.ModifiedAt.After(cutoff) {
			return false, nil // its call may still be on its way
		}
		res = &connector.PaymentResult{Status: connector.StatusFailure, Decline: &connector.Decline{Code: CodeNeverSent,
			Message: "The connector never received this attempt (the process that was sending it stopped); nothing was charged."}}
	case err != nil:
		return false, nil // the connector cannot say now: the next pass asks again
	case res.Status == connector.StatusPending:
		return false, nil
	}
	if _, err := s.recordPaymentResult(ctx, pi.PaymentID, att.ID, res, nil); err != nil {
		return false, err
	}
	return true, nil
}
