package payments

import (
	"context"
	"errors"

	"switchyard/ent"
	"switchyard/ent/capture"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentintent"
	"switchyard/payments/connector"
	"switchyard/payments/connectorcall"
	"switchyard/payments/customer"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// authorization is one settle step of an authorization: the attempt it
// settles, what it may use, and what it leaves for after the commit.
type authorization struct {
	paymentID, attemptID string
	// retryWith is the payment method, which only the confirming request
	// holds: with it a definite failure the merchant's rules let retry
	// records the next attempt instead of failing the payment.
	retryWith *customer.PaymentMethodInput
	// prior, when the caller has them, are the payment and the attempt as
	// the confirming request's own transaction left them.
	prior *confirmation

	view       *PaymentView        // the view the event rendered, if any
	next       *confirmation       // the retry's attempt, to call next
	sequential *captureReservation // sequential_automatic's capture, to send
	settled    *ent.PaymentAttempt // the attempt with the verdict, for dynamic routing
	profileID  string

	// external is the external 3-D Secure result the authorization
	// carries; threeDS the authentication an answer records on the
	// attempt, and nextAction the customer's step it waits for (an
	// external challenge's three_ds_invoke), when no connector gave them.
	external   *connector.ExternalThreeDS
	threeDS    *externalThreeDS
	nextAction map[string]any
}

// authorizationCall is the connector call of a pending attempt (a
// confirm's transaction reserved it, so it has no reserve step; recovery
// sets synced, which needs its window).
func (s *Service) authorizationCall(a *authorization, pi *ent.PaymentIntent, att *ent.PaymentAttempt,
	mca *ent.MerchantConnectorAccount) connectorcall.Call[*connector.PaymentResult] {
	m := a.retryWith
	return connectorcall.Call[*connector.PaymentResult]{
		Connect: func() (connector.Connector, connector.Account, error) { return s.connectorFor(pi, att, mca) },
		Call: func(ctx context.Context, conn connector.Connector, acct connector.Account) (*connector.PaymentResult, error) {
			return conn.Authorize(ctx, s.authorizeRequest(pi, att, acct, m, a.external))
		},
		Sync: func(ctx context.Context, conn connector.Connector, acct connector.Account) (*connector.PaymentResult, error) {
			return conn.Sync(ctx, syncRequest(acct, att))
		},
		Settle: func(ctx context.Context, tx *ent.Tx, res *connector.PaymentResult, callErr error) error {
			return s.settleAuthorization(ctx, tx, a, res, callErr)
		},
	}
}

// syncRequest asks the connector what became of att (a sync).
func syncRequest(acct connector.Account, att *ent.PaymentAttempt) *connector.SyncRequest {
	return &connector.SyncRequest{Account: acct, ConnectorTransactionID: deref(att.ConnectorTransactionID),
		ConnectorMetadata: att.ConnectorMetadata}
}

// recordAuthorization settles an answer about an attempt that came outside
// a connectorCall (the customer's 3-D Secure step, authentication.go) in
// its own transaction, then finishes it. It returns the payment's view
// when it rendered one for an event, else nil.
func (s *Service) recordAuthorization(ctx context.Context, paymentID, attemptID string, res *connector.PaymentResult, callErr error) (*PaymentView, error) {
	a := authorization{paymentID: paymentID, attemptID: attemptID}
	if err := s.db.InTx(ctx, func(tx *ent.Tx) error { return s.settleAuthorization(ctx, tx, &a, res, callErr) }); err != nil {
		return nil, err
	}
	view, _, err := s.finishAuthorization(ctx, &a)
	return view, err
}

// settleAuthorization is the settle step of an authorization, inside tx:
// it locks the payment (writing its outcome first when it can, see
// applyIntentFirst), rechecks that the attempt still waits, decides what
// the answer makes of it and applies that.
func (s *Service) settleAuthorization(ctx context.Context, tx *ent.Tx, a *authorization, res *connector.PaymentResult, callErr error) error {
	pi, att, intentDone, err := s.applyIntentFirst(ctx, tx, a, res, callErr)
	if err != nil {
		return err
	}
	if !intentDone {
		if pi, att, err = s.lockSettling(ctx, tx, a.paymentID, a.attemptID, a.prior); err != nil {
			return err
		}
		if !settleable(pi, att) {
			return nil // an answer already recorded (a double click on the 3-D Secure page)
		}
	}
	d := decideAuthorization(pi, att, res, callErr, a.retryWith != nil, s.redirectURL)
	if a.nextAction != nil && d.status == paymentattempt.StatusAuthenticationPending {
		d.nextAction = a.nextAction
	}
	d.threeDS = a.threeDS
	if d.unanswered {
		_, err := tx.PaymentAttempt.UpdateOne(att).SetErrorMessage(noAnswerMessage).SetErrorReason(callErr.Error()).Save(ctx)
		return txn.ErrorOrNil(err, "payment attempt")
	}
	if att, err = s.applyAttemptOutcome(ctx, tx, att, res, &d); err != nil {
		return err
	}
	a.settled, a.profileID = att, pi.ProfileID
	if d.retry {
		if a.next, err = s.retryOnNextConnector(ctx, tx, pi, att, res.Decline, a.retryWith); err != nil || a.next != nil {
			return err // a retry leaves the payment processing, its new attempt pending
		}
	}
	return s.applyAuthorization(ctx, tx, a, pi, att, res, &d, intentDone)
}

// applyIntentFirst writes the payment's outcome first when the confirming
// request's rows still hold (a.prior, at the version it left): one UPDATE
// of the payment on the same index every locker takes, conditioned on
// that version, both locks the payment and writes its outcome, so no
// SELECT … FOR UPDATE goes before it. It reports whether it did; when the
// version moved, or the answer may yet retry on another connector (the
// payment then stays processing), it does nothing and settleAuthorization
// locks first. What the answer does besides (the attempt, the capture, a
// mandate, the event) settleAuthorization applies after, in the same
// transaction.
func (s *Service) applyIntentFirst(ctx context.Context, tx *ent.Tx, a *authorization, res *connector.PaymentResult,
	callErr error) (*ent.PaymentIntent, *ent.PaymentAttempt, bool, error) {
	prior := a.prior
	if callErr != nil || prior == nil || prior.pi.PaymentID != a.paymentID || prior.att.ID != a.attemptID ||
		!settleable(prior.pi, prior.att) || res.DisputeAfterSuccess != nil {
		return nil, nil, false, nil
	}
	status, captured := outcomeOf(res, prior.att)
	if a.retryWith != nil && status == paymentattempt.StatusFailure && res.Decline != nil {
		return nil, nil, false, nil
	}
	where := append(paymentWhere(ctx, a.paymentID), paymentintent.Version(prior.pi.Version))
	change := decideIntent(prior.pi, prior.att, status, captured)
	pi, ok, err := txn.UpdateRowIf(ctx, s.db, prior.pi, change.set(tx.PaymentIntent.Update().Where(where...)))
	if err != nil || !ok {
		return nil, nil, false, txn.ErrorOrNil(err, "payment")
	}
	return pi, prior.att, true, nil
}

// lockSettling locks the payment an answer about attemptID settles, and
// returns it with that attempt. With prior, only the payment's version is
// read under the lock: while it is the version prior left, nothing has
// changed the payment or its attempts since the confirming request's
// transaction wrote them (every change bumps the version under this lock),
// so both are as prior holds them and neither row is read again. Such rows
// belong to the committed transaction's client: they are written through
// tx's (tx.PaymentAttempt.UpdateOne(att)), never att.Update().
func (s *Service) lockSettling(ctx context.Context, tx *ent.Tx, paymentID, attemptID string, prior *confirmation) (*ent.PaymentIntent, *ent.PaymentAttempt, error) {
	if prior != nil && prior.pi.PaymentID == paymentID && prior.att.ID == attemptID {
		// The same rows and index as lockPayment's: lockers that take a
		// payment's row by different paths can deadlock.
		version, err := txn.ForUpdate(s.db, tx.PaymentIntent.Query().Where(paymentWhere(ctx, paymentID)...)).
			Select(paymentintent.FieldVersion).Int(ctx)
		if err != nil && !ent.IsNotFound(err) {
			return nil, nil, errs.Internal(err)
		}
		if err == nil && int64(version) == prior.pi.Version {
			return prior.pi, prior.att, nil
		}
	}
	pi, err := s.lockPayment(ctx, tx, paymentID)
	if err != nil {
		return nil, nil, err
	}
	att, err := tx.PaymentAttempt.Query().Where(paymentAttemptOf(pi.ID, attemptID)...).Only(ctx)
	if err != nil {
		return nil, nil, errs.Internal(err)
	}
	return pi, att, nil
}

// applyAttemptOutcome writes what d makes of the attempt, with what the
// connector said of it (its ids, metadata, decline, mandate token).
func (s *Service) applyAttemptOutcome(ctx context.Context, tx *ent.Tx, att *ent.PaymentAttempt, res *connector.PaymentResult,
	d *authorizationDecision) (*ent.PaymentAttempt, error) {
	upd := tx.PaymentAttempt.Update().Where(paymentattempt.ID(att.ID)).
		SetStatus(d.status).
		SetNillableConnectorTransactionID(validate.NonEmpty(res.ConnectorTransactionID)).
		SetNillableNetworkTransactionID(validate.NonEmpty(res.NetworkTransactionID)).
		SetConnectorMetadata(res.ConnectorMetadata)
	if dec := res.Decline; dec != nil {
		upd.SetErrorCode(dec.Code).SetErrorMessage(dec.Message).
			SetNillableErrorReason(validate.NonEmpty(dec.Reason)).
			SetNillableIssuerErrorCode(validate.NonEmpty(dec.DeclineCode)).
			SetNillableNetworkAdviceCode(validate.NonEmpty(dec.NetworkAdviceCode)).
			SetNillableNetworkDeclineCode(validate.NonEmpty(dec.DeclineCode))
	} else {
		upd.ClearErrorCode().ClearErrorMessage().ClearErrorReason()
	}
	if d.nextAction != nil {
		upd.SetNextAction(d.nextAction)
	} else {
		upd.ClearNextAction()
	}
	if d.card != nil {
		upd.SetCard(d.card)
	}
	if d.threeDS != nil {
		d.threeDS.record(upd.Mutation())
	}
	if res.ConnectorMandateID != "" {
		upd.SetPaymentToken(res.ConnectorMandateID)
	}
	upd.SetAmountCapturable(d.attemptCapturable)
	att, err := txn.UpdateRow(ctx, s.db, att, upd)
	if err != nil {
		return nil, errs.Internal(err)
	}
	return att, nil
}

// applyAuthorization writes the rest of d, after the attempt: the mandate
// the customer context settles, the automatic capture and its dispute, the
// payment's outcome (unless applyIntentFirst wrote it), and either the
// sequential capture's reservation or the payment's event.
func (s *Service) applyAuthorization(ctx context.Context, tx *ent.Tx, a *authorization, pi *ent.PaymentIntent, att *ent.PaymentAttempt,
	res *connector.PaymentResult, d *authorizationDecision, intentDone bool) error {
	mv, err := s.customers.SettleMandate(ctx, tx, pi, att, d.status, res.ConnectorMandateID, res.NetworkTransactionID)
	if err != nil {
		return err
	}
	var captures []*ent.Capture
	if d.charged {
		c, err := s.recordAutomaticCapture(ctx, tx, pi, att, d.captured, d.firstAttempt)
		if err != nil {
			return err
		}
		captures = append(captures, c)
		if d.dispute != nil {
			if err := s.openDispute(ctx, tx, pi, att, d.dispute, d.captured); err != nil {
				return err
			}
		}
	}
	if !intentDone || mv != nil {
		upd := tx.PaymentIntent.Update().Where(paymentintent.ID(pi.ID))
		if !intentDone {
			d.intent.set(upd)
		}
		if mv != nil {
			upd.SetMandateID(mv.Mandate.ID)
		}
		if pi, err = txn.UpdateRow(ctx, s.db, pi, upd); err != nil {
			return txn.Error(err, "payment")
		}
	}
	if mv != nil {
		if err := s.customers.EmitMandateEvent(ctx, tx, mv, pi.ProfileID, &pi.ID); err != nil {
			return err
		}
	}
	if d.reserveCapture {
		// sequential_automatic: its capture is reserved with the
		// authorization, so a crash before the capture is sent leaves a
		// pending capture that recovery settles, never a payment
		// processing with nothing pending. The capture reports the
		// outcome.
		a.sequential, err = s.reserveCapture(ctx, tx, a.paymentID, CaptureInput{sequential: true})
		return err
	}
	var known *PaymentView
	if d.firstAttempt {
		if known, err = s.firstAttemptView(ctx, tx, pi, att, captures); err != nil {
			return err
		}
	}
	a.view, err = s.emitPaymentEventOf(ctx, tx, pi, known)
	return err
}

// finishAuthorization runs what follows a settled authorization's commit:
// the routing outcome, and the sequential capture's call. It returns the
// payment's view (nil: read it), or the retry's attempt to call next.
func (s *Service) finishAuthorization(ctx context.Context, a *authorization) (*PaymentView, *confirmation, error) {
	s.recordRoutingOutcome(ctx, a.profileID, a.settled)
	if a.next != nil {
		return nil, a.next, nil
	}
	if a.sequential != nil {
		v, err := s.completeCapture(ctx, a.paymentID, a.sequential)
		if errors.Is(err, errs.ErrCaptureDeclined) {
			return nil, nil, nil // the failed capture is recorded on the payment
		}
		return v, nil, err
	}
	return a.view, nil, nil
}

// recordAutomaticCapture records the capture a connector made with the
// authorization, so amount_received always equals the sum of the captures.
// first says the payment has no capture yet (its first attempt settles).
func (s *Service) recordAutomaticCapture(ctx context.Context, tx *ent.Tx, pi *ent.PaymentIntent, att *ent.PaymentAttempt, amount int64, first bool) (*ent.Capture, error) {
	n := 0
	if !first {
		var err error
		if n, err = tx.Capture.Query().Where(capture.PaymentIntentID(pi.ID)).Count(ctx); err != nil {
			return nil, errs.Internal(err)
		}
	}
	c, err := tx.Capture.Create().
		SetPaymentIntentID(pi.ID).
		SetAuthorizedAttemptID(att.ID).
		SetStatus(capture.StatusCharged).
		SetAmount(amount).
		SetCurrency(att.Currency).
		SetNillableConnector(att.Connector).
		SetCaptureSequence(n + 1).
		SetNillableConnectorCaptureID(att.ConnectorTransactionID).
		Save(ctx)
	if err != nil {
		return nil, txn.Error(err, "capture")
	}
	return c, nil
}

// firstAttemptView is the view of a payment whose first attempt, att, this
// transaction settled, with the captures it recorded: only its customer is
// read.
func (s *Service) firstAttemptView(ctx context.Context, tx *ent.Tx, pi *ent.PaymentIntent, att *ent.PaymentAttempt, captures []*ent.Capture) (*PaymentView, error) {
	v := &PaymentView{Intent: pi, Attempts: []*ent.PaymentAttempt{att}, Captures: captures}
	if pi.ActiveAttemptID != nil && *pi.ActiveAttemptID == att.ID {
		v.Active = att
	}
	if pi.CustomerID != nil {
		c, err := tx.Customer.Get(ctx, *pi.CustomerID)
		if err != nil && !ent.IsNotFound(err) {
			return nil, errs.Internal(err)
		}
		v.Customer = c
	}
	return v, nil
}
