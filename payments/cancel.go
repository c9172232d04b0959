package payments

import (
	"context"

	"switchyard/ent"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentintent"
	"switchyard/payments/connector"
	"switchyard/payments/connectorcall"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// CancelPayment cancels a payment that has not been (fully) captured. Before
// any authorization it only records the cancellation; an authorization is
// voided at the connector first (a connectorCall: the attempt is marked
// void_initiated, the connector called, the answer settled). A payment
// with some captures keeps them and becomes partially_captured.
func (s *Service) CancelPayment(ctx context.Context, paymentID string, reason *string) (*PaymentView, error) {
	if err := validate.MaxLen("cancellation_reason", reason, maxCancellationReason); err != nil {
		return nil, err
	}
	var (
		v  voidCall
		pi *ent.PaymentIntent
	)
	call := s.voidCall(&v, paymentID, reason, false)
	call.Reserve = func(ctx context.Context, tx *ent.Tx) (void bool, err error) {
		pi, v.view, void, err = s.reserveVoid(ctx, tx, paymentID, reason, &v)
		return void, err
	}
	called, err := call.Run(ctx, s.db)
	switch {
	case err != nil:
		return nil, err
	case !called:
		s.customers.VaultDrop(ctx, pi.MerchantID, pi.ID)
	case !v.voided:
		return nil, errs.ErrVoidFailed.New()
	}
	return s.viewOr(ctx, v.view, paymentID)
}

// voidCall is a void's connector call: the payment and its authorized
// attempt, the attempt's connector account, and what settling found.
type voidCall struct {
	callTarget
	view   *PaymentView
	voided bool
}

// voidCall is the connector call that voids v's attempt (its reserve step
// is CancelPayment's, or CancelPostCapture's: postCapture, which voids
// what was captured). Both settle through settleVoid, which tells them
// apart by the payment's status.
func (s *Service) voidCall(v *voidCall, paymentID string, reason *string, postCapture bool) connectorcall.Call[*connector.PaymentResult] {
	return connectorcall.Call[*connector.PaymentResult]{
		Connect: func() (connector.Connector, connector.Account, error) { return s.connectorFor(v.pi, v.att, v.mca) },
		Call: func(ctx context.Context, conn connector.Connector, acct connector.Account) (*connector.PaymentResult, error) {
			req := &connector.VoidRequest{Account: acct, ConnectorTransactionID: deref(v.att.ConnectorTransactionID),
				CancellationReason: deref(reason), ConnectorMetadata: v.att.ConnectorMetadata}
			if postCapture {
				return voidPostCapture(ctx, conn, req)
			}
			return conn.Void(ctx, req)
		},
		Sync: func(ctx context.Context, conn connector.Connector, acct connector.Account) (*connector.PaymentResult, error) {
			return conn.Sync(ctx, syncRequest(acct, v.att))
		},
		Synced: syncedVoid,
		Settle: func(ctx context.Context, tx *ent.Tx, res *connector.PaymentResult, callErr error) (err error) {
			v.view, v.voided, err = s.settleVoid(ctx, tx, paymentID, v.att.ID, res, callErr)
			return err
		},
	}
}

// cancellableState refuses a cancel of pi in a state that takes none.
func cancellableState(pi *ent.PaymentIntent) error {
	if !statusIn(pi.Status, cancellableStates...) {
		return ErrUnexpectedState("cancelled", pi.Status, cancellableStates)
	}
	return nil
}

// decideCancel says whether a cancel of pi (its active attempt att, nil
// before any) voids an authorization at the connector, or only records
// the cancellation (nothing is held there yet), or why it is refused.
func decideCancel(pi *ent.PaymentIntent, att *ent.PaymentAttempt) (void bool, err error) {
	if err := cancellableState(pi); err != nil {
		return false, err
	}
	if att == nil || !statusIn(pi.Status, capturableStates...) {
		return false, nil
	}
	// A capture holds a reservation (captured + capturable < authorized)
	// and a cancel marks the attempt: neither may run beside a cancel.
	if att.Status == paymentattempt.StatusVoidInitiated || pi.AmountCaptured+pi.AmountCapturable < att.NetAmount {
		return false, errs.ErrUnexpectedState.Newf("This Payment could not be cancelled: a capture or a cancel is in progress")
	}
	return true, nil
}

// reserveVoid is a cancel's reserve step, inside tx: it locks the payment
// and either records the cancellation outright (returning the view its
// event rendered) or marks the attempt void_initiated for the void to
// send (void true, v filled).
func (s *Service) reserveVoid(ctx context.Context, tx *ent.Tx, paymentID string, reason *string, v *voidCall) (
	pi *ent.PaymentIntent, view *PaymentView, void bool, err error) {
	if pi, err = s.lockPayment(ctx, tx, paymentID); err != nil {
		return nil, nil, false, err
	}
	if err := cancellableState(pi); err != nil {
		return nil, nil, false, err // refused before reading what the refusal does not need
	}
	var att *ent.PaymentAttempt
	if pi.ActiveAttemptID != nil {
		if att, err = tx.PaymentAttempt.Get(ctx, *pi.ActiveAttemptID); err != nil {
			return nil, nil, false, errs.Internal(err)
		}
	}
	if void, err = decideCancel(pi, att); err != nil {
		return nil, nil, false, err
	}
	if !void {
		// Nothing is held at the connector: record the cancellation.
		if att != nil {
			if _, err := att.Update().SetStatus(paymentattempt.StatusVoided).ClearNextAction().
				SetNillableCancellationReason(reason).SetAmountCapturable(0).Save(ctx); err != nil {
				return nil, nil, false, errs.Internal(err)
			}
		}
		pi, err = pi.Update().SetStatus(paymentintent.StatusCancelled).SetAmountCapturable(0).
			SetNillableCancellationReason(reason).AddVersion(1).Save(ctx)
		if err != nil {
			return nil, nil, false, txn.Error(err, "payment")
		}
		view, err = s.emitPaymentEvent(ctx, tx, pi)
		return pi, view, false, err
	}
	v.pi, v.att = pi, att
	if v.mca, err = tx.MerchantConnectorAccount.Query().
		Where(merchantconnectoraccount.ID(deref(att.MerchantConnectorID))).Only(ctx); err != nil {
		return nil, nil, false, errs.Internal(err)
	}
	if _, err := att.Update().SetStatus(paymentattempt.StatusVoidInitiated).
		SetNillableCancellationReason(reason).Save(ctx); err != nil {
		return nil, nil, false, errs.Internal(err)
	}
	return pi, nil, true, nil
}

// voidDecision is what a connector's answer to a void changes: voided, the
// attempt takes status and the payment intent; not voided, the
// authorization stands and the attempt goes back to status with the error.
type voidDecision struct {
	voided bool
	status paymentattempt.Status
	intent paymentintent.Status
	// Why it was not voided: no answer (unanswered, its reason), or the
	// connector's decline.
	unanswered bool
	reason     string
	decline    *connector.Decline
}

// decideVoidAnswer is what res (or callErr, no answer) makes of the void
// of pi's attempt: voided, a payment with captures keeps them; a failed or
// unanswered void leaves the authorization standing, the attempt back
// where it was, so the payment can be captured or cancelled again.
func decideVoidAnswer(pi *ent.PaymentIntent, res *connector.PaymentResult, callErr error) voidDecision {
	if statusIn(pi.Status, postCaptureVoidableStates...) {
		return decidePostCaptureVoidAnswer(pi, res, callErr)
	}
	captured := pi.AmountCaptured > 0
	if callErr != nil || res.Status != connector.StatusVoided {
		d := voidDecision{status: paymentattempt.StatusAuthorized}
		if captured {
			d.status = paymentattempt.StatusPartialChargedAndChargeable
		}
		if callErr != nil {
			d.unanswered, d.reason = true, callErr.Error()
		} else {
			d.decline = res.Decline
		}
		return d
	}
	d := voidDecision{voided: true, status: paymentattempt.StatusVoided}
	if captured {
		d.status = paymentattempt.StatusPartialCharged // the captures stand
	}
	d.intent = intentStatusOf(d.status)
	return d
}

// settleVoid is a void's settle step, inside tx: it locks the payment and
// applies what the answer decides (decideVoidAnswer); voided says whether
// the payment is cancelled. An attempt no longer void_initiated under the
// row lock was settled already: the answer changes nothing twice.
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
		return nil, statusIn(pi.Status, paymentintent.StatusCancelled, paymentintent.StatusPartiallyCaptured,
			paymentintent.StatusCancelledPostCapture), nil
	}
	d := decideVoidAnswer(pi, res, callErr)
	if !d.voided {
		upd := att.Update().SetStatus(d.status)
		if d.unanswered {
			upd.SetErrorMessage("the connector did not answer the void").SetErrorReason(d.reason)
		} else if dec := d.decline; dec != nil {
			upd.SetErrorCode(dec.Code).SetErrorMessage(dec.Message)
		}
		if _, err := upd.Save(ctx); err != nil {
			return nil, false, errs.Internal(err)
		}
		return nil, false, nil
	}
	if _, err := att.Update().SetStatus(d.status).SetAmountCapturable(0).Save(ctx); err != nil {
		return nil, false, errs.Internal(err)
	}
	if pi, err = pi.Update().SetStatus(d.intent).SetAmountCapturable(0).
		SetNillableCancellationReason(att.CancellationReason).AddVersion(1).Save(ctx); err != nil {
		return nil, false, txn.Error(err, "payment")
	}
	view, err = s.emitPaymentEvent(ctx, tx, pi)
	return view, true, err
}
