package payments

import (
	"context"

	"switchyard/ent"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentintent"
	"switchyard/payments/connector"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// CancelPayment cancels a payment that has not been (fully) captured. Before
// any authorization it only records the cancellation; an authorization is
// voided at the connector first. A payment with some captures keeps them
// and becomes partially_captured.
func (s *Service) CancelPayment(ctx context.Context, paymentID string, reason *string) (*PaymentView, error) {
	if err := validate.MaxLen("cancellation_reason", reason, maxCancellationReason); err != nil {
		return nil, err
	}
	var (
		pi       *ent.PaymentIntent
		att      *ent.PaymentAttempt
		mca      *ent.MerchantConnectorAccount
		needVoid bool
		view     *PaymentView
	)
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		var err error
		if pi, err = s.lockPayment(ctx, tx, paymentID); err != nil {
			return err
		}
		if !statusIn(pi.Status, cancellableStates...) {
			return ErrUnexpectedState("cancelled", pi.Status, cancellableStates)
		}
		if pi.ActiveAttemptID != nil {
			if att, err = tx.PaymentAttempt.Get(ctx, *pi.ActiveAttemptID); err != nil {
				return errs.Internal(err)
			}
		}
		authorized := att != nil && statusIn(pi.Status, capturableStates...)
		if !authorized {
			// Nothing is held at the connector: record the cancellation.
			if att != nil {
				if _, err := att.Update().SetStatus(paymentattempt.StatusVoided).ClearNextAction().
					SetNillableCancellationReason(reason).SetAmountCapturable(0).Save(ctx); err != nil {
					return errs.Internal(err)
				}
			}
			pi, err = pi.Update().SetStatus(paymentintent.StatusCancelled).SetAmountCapturable(0).
				SetNillableCancellationReason(reason).AddVersion(1).Save(ctx)
			if err != nil {
				return txn.Error(err, "payment")
			}
			view, err = s.emitPaymentEvent(ctx, tx, pi)
			return err
		}
		// A capture holds a reservation (captured + capturable < authorized)
		// and a cancel marks the attempt: neither may run beside a cancel.
		if att.Status == paymentattempt.StatusVoidInitiated || pi.AmountCaptured+pi.AmountCapturable < att.NetAmount {
			return errs.New(errs.KindInvalid, "IR_14", "This Payment could not be cancelled: a capture or a cancel is in progress")
		}
		if mca, err = tx.MerchantConnectorAccount.Query().
			Where(merchantconnectoraccount.ID(deref(att.MerchantConnectorID))).Only(ctx); err != nil {
			return errs.Internal(err)
		}
		if _, err := att.Update().SetStatus(paymentattempt.StatusVoidInitiated).
			SetNillableCancellationReason(reason).Save(ctx); err != nil {
			return errs.Internal(err)
		}
		needVoid = true
		return nil
	})
	if err != nil {
		return nil, err
	}
	if !needVoid {
		s.customers.VaultDrop(ctx, pi.MerchantID, pi.ID)
		return s.viewOr(ctx, view, paymentID)
	}

	conn, acct, err := s.connectorFor(pi, att, mca)
	if err != nil {
		return nil, err
	}
	res, callErr := conn.Void(ctx, &connector.VoidRequest{
		Account:                acct,
		ConnectorTransactionID: deref(att.ConnectorTransactionID),
		CancellationReason:     deref(reason),
		ConnectorMetadata:      att.ConnectorMetadata,
	})
	var voided bool
	err = s.db.InTx(ctx, func(tx *ent.Tx) (err error) {
		view, voided, err = s.settleVoid(ctx, tx, paymentID, att.ID, res, callErr)
		return err
	})
	if err != nil {
		return nil, err
	}
	if !voided {
		return nil, errs.New(errs.KindInvalid, "CE_07", "The void failed at the connector; the payment is still authorized")
	}
	return s.viewOr(ctx, view, paymentID)
}

// settleVoid records the connector's answer to the void of an attempt
// left void_initiated, inside tx. A failed or unanswered void leaves the
// authorization standing: the attempt goes back to where it was (committed,
// so the payment can be captured or cancelled again), and voided is false.
// An attempt no longer void_initiated under the row lock was settled
// already: the answer changes nothing twice.
func (s *Service) settleVoid(ctx context.Context, tx *ent.Tx, paymentID, attemptID string,
	res *connector.PaymentResult, callErr error) (view *PaymentView, voided bool, err error) {
	pi, err := s.lockPayment(ctx, tx, paymentID)
	if err != nil {
		return nil, false, err
	}
	att, err := tx.PaymentAttempt.Get(ctx, attemptID)
	if err != nil {
		return nil, false, errs.Internal(err)
	}
	if att.Status != paymentattempt.StatusVoidInitiated {
		lateAnswer(ctx, "void", att.ID, callErr)
		return nil, statusIn(pi.Status, paymentintent.StatusCancelled, paymentintent.StatusPartiallyCaptured), nil
	}
	if callErr != nil || res.Status != connector.StatusVoided {
		// The authorization still stands: the attempt goes back to where it was.
		prior := paymentattempt.StatusAuthorized
		if pi.AmountCaptured > 0 {
			prior = paymentattempt.StatusPartialChargedAndChargeable
		}
		upd := att.Update().SetStatus(prior)
		if callErr != nil {
			upd.SetErrorMessage("the connector did not answer the void").SetErrorReason(callErr.Error())
		} else if d := res.Decline; d != nil {
			upd.SetErrorCode(d.Code).SetErrorMessage(d.Message)
		}
		if _, err := upd.Save(ctx); err != nil {
			return nil, false, errs.Internal(err)
		}
		return nil, false, nil
	}
	status := paymentattempt.StatusVoided
	if pi.AmountCaptured > 0 {
		status = paymentattempt.StatusPartialCharged // the captures stand
	}
	if _, err := att.Update().SetStatus(status).SetAmountCapturable(0).Save(ctx); err != nil {
		return nil, false, errs.Internal(err)
	}
	if pi, err = pi.Update().SetStatus(intentStatusOf(status)).SetAmountCapturable(0).
		SetNillableCancellationReason(att.CancellationReason).AddVersion(1).Save(ctx); err != nil {
		return nil, false, txn.Error(err, "payment")
	}
	view, err = s.emitPaymentEvent(ctx, tx, pi)
	return view, true, err
}
