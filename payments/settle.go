package payments

import (
	"context"
	"errors"
	"maps"

	"switchyard/ent"
	"switchyard/ent/capture"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentintent"
	"switchyard/payments/connector"
	"switchyard/payments/customer"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// attemptStatusOf maps a connector outcome to the attempt status.
func attemptStatusOf(res *connector.PaymentResult) paymentattempt.Status {
	switch res.Status {
	case connector.StatusCharged:
		return paymentattempt.StatusCharged
	case connector.StatusAuthorized:
		return paymentattempt.StatusAuthorized
	case connector.StatusAuthenticationPending:
		return paymentattempt.StatusAuthenticationPending
	case connector.StatusVoided:
		return paymentattempt.StatusVoided
	case connector.StatusFailure:
		if res.Decline != nil && res.Decline.Code == "authentication_failed" {
			return paymentattempt.StatusAuthenticationFailed
		}
		return paymentattempt.StatusFailure
	}
	return paymentattempt.StatusPending
}

// recordPaymentResult records a connector's answer about an attempt and
// moves the payment to the status it implies, in one transaction. A
// transport failure (callErr) leaves the payment processing, with the
// reason on the attempt, for a later sync.
//
// It returns the payment's view when it rendered one for an event (see
// emitPaymentEvent), else nil.
func (s *Service) recordPaymentResult(ctx context.Context, paymentID, attemptID string, res *connector.PaymentResult, callErr error) (*PaymentView, error) {
	view, _, err := s.settle(ctx, paymentID, attemptID, res, callErr, nil, nil)
	return view, err
}

// settleable reports whether an answer about att may still settle it: the
// payment waits for it and the attempt is pending.
func settleable(pi *ent.PaymentIntent, att *ent.PaymentAttempt) bool {
	return statusIn(pi.Status, paymentintent.StatusProcessing, paymentintent.StatusRequiresCustomerAction) &&
		(att.Status == paymentattempt.StatusPending || att.Status == paymentattempt.StatusAuthenticationPending)
}

// outcomeOf is the attempt status a connector's answer gives att, and the
// amount an automatic capture takes: all of it, or less (amount_to_capture),
// the rest of the authorization released.
func outcomeOf(res *connector.PaymentResult, att *ent.PaymentAttempt) (paymentattempt.Status, int64) {
	status := attemptStatusOf(res)
	captured := att.NetAmount
	if status == paymentattempt.StatusCharged && res.AmountCaptured > 0 && res.AmountCaptured < att.NetAmount {
		captured = res.AmountCaptured
		status = paymentattempt.StatusPartialCharged
	}
	return status, captured
}

// intentOutcome sets on upd what the outcome of att makes of its payment
// pi: its status, what is captured and capturable, and a new version.
func intentOutcome(upd *ent.PaymentIntentUpdate, pi *ent.PaymentIntent, att *ent.PaymentAttempt, status paymentattempt.Status, captured int64) *ent.PaymentIntentUpdate {
	upd.SetStatus(intentStatusOf(status)).AddVersion(1)
	if status == paymentattempt.StatusAuthorized && pi.CaptureMethod == paymentintent.CaptureMethodSequentialAutomatic {
		// Processing until its own capture is reserved, so no merchant
		// capture or cancel can come between the two.
		upd.SetStatus(paymentintent.StatusProcessing)
	}
	switch status {
	case paymentattempt.StatusCharged, paymentattempt.StatusPartialCharged:
		upd.SetAmountCaptured(captured).SetAmountCapturable(0)
	case paymentattempt.StatusAuthorized:
		upd.SetAmountCapturable(att.NetAmount)
	default:
		upd.SetAmountCapturable(0)
	}
	return upd
}

// outcomeFirst settles the payment's own row first when the confirming
// request's rows still hold (prior, at the version it left): one UPDATE
// of the payment on the same index every locker takes, conditioned on
// that version, both locks the payment and writes its outcome, so no
// SELECT … FOR UPDATE goes before it. It reports whether it did; when the
// version moved, or the answer may yet retry on another connector (the
// payment then stays processing), it does nothing and the caller locks
// first. What the answer does besides (the attempt, the capture, a
// mandate, the event) is the caller's, in the same transaction.
func (s *Service) outcomeFirst(ctx context.Context, tx *ent.Tx, paymentID, attemptID string, res *connector.PaymentResult,
	callErr error, retryWith *customer.PaymentMethodInput, prior *confirmation) (*ent.PaymentIntent, *ent.PaymentAttempt, bool, error) {
	if callErr != nil || prior == nil || prior.pi.PaymentID != paymentID || prior.att.ID != attemptID ||
		!settleable(prior.pi, prior.att) || res.DisputeAfterSuccess != nil {
		return nil, nil, false, nil
	}
	status, captured := outcomeOf(res, prior.att)
	if retryWith != nil && status == paymentattempt.StatusFailure && res.Decline != nil {
		return nil, nil, false, nil
	}
	where := append(paymentWhere(ctx, paymentID), paymentintent.Version(prior.pi.Version))
	pi, ok, err := txn.UpdateRowIf(ctx, s.db, prior.pi,
		intentOutcome(tx.PaymentIntent.Update().Where(where...), prior.pi, prior.att, status, captured))
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

// settle is recordPaymentResult for an authorization: with retryWith (the
// payment method, which only the confirming request holds) a definite
// failure the merchant's rules let retry records the next attempt instead
// of failing the payment, and returns it for its call. prior, when the
// caller has it, is the payment and the attempt as the confirming
// request's own transaction left them.
func (s *Service) settle(ctx context.Context, paymentID, attemptID string, res *connector.PaymentResult, callErr error,
	retryWith *customer.PaymentMethodInput, prior *confirmation) (*PaymentView, *confirmation, error) {
	var (
		sequential *captureReservation
		view       *PaymentView
		next       *confirmation
		settled    *ent.PaymentAttempt // the attempt with the connector's verdict, for dynamic routing
		profileID  string
	)
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		// The payment's outcome first, locking it, when the confirm's rows
		// still hold (outcomeFirst); else the lock, then the outcome last.
		pi, att, intentDone, err := s.outcomeFirst(ctx, tx, paymentID, attemptID, res, callErr, retryWith, prior)
		if err != nil {
			return err
		}
		if !intentDone {
			if pi, att, err = s.lockSettling(ctx, tx, paymentID, attemptID, prior); err != nil {
				return err
			}
			if !settleable(pi, att) {
				return nil // an answer already recorded (a double click on the 3-D Secure page)
			}
		}
		if callErr != nil {
			msg := "the connector did not answer; the payment will be synced"
			_, err := tx.PaymentAttempt.UpdateOne(att).SetErrorMessage(msg).SetErrorReason(callErr.Error()).Save(ctx)
			return txn.ErrorOrNil(err, "payment attempt")
		}
		status, captured := outcomeOf(res, att)
		upd := tx.PaymentAttempt.Update().Where(paymentattempt.ID(att.ID)).
			SetStatus(status).
			SetNillableConnectorTransactionID(validate.NonEmpty(res.ConnectorTransactionID)).
			SetNillableNetworkTransactionID(validate.NonEmpty(res.NetworkTransactionID)).
			SetConnectorMetadata(res.ConnectorMetadata)
		if d := res.Decline; d != nil {
			upd.SetErrorCode(d.Code).SetErrorMessage(d.Message).
				SetNillableErrorReason(validate.NonEmpty(d.Reason)).
				SetNillableIssuerErrorCode(validate.NonEmpty(d.DeclineCode)).
				SetNillableNetworkAdviceCode(validate.NonEmpty(d.NetworkAdviceCode)).
				SetNillableNetworkDeclineCode(validate.NonEmpty(d.DeclineCode))
		} else {
			upd.ClearErrorCode().ClearErrorMessage().ClearErrorReason()
		}
		if next := s.nextAction(att, res, status); next != nil {
			upd.SetNextAction(next)
		} else {
			upd.ClearNextAction()
		}
		if res.PaymentChecks != nil && att.Card != nil {
			card := *att.Card
			card.PaymentChecks = map[string]string{
				"cvc_check":                 res.PaymentChecks.CVCCheck,
				"address_line1_check":       res.PaymentChecks.AddressLine1Check,
				"address_postal_code_check": res.PaymentChecks.AddressPostalCodeCheck,
			}
			upd.SetCard(&card)
		}
		if res.ConnectorMandateID != "" {
			upd.SetPaymentToken(res.ConnectorMandateID)
		}
		switch status {
		case paymentattempt.StatusAuthorized:
			upd.SetAmountCapturable(att.NetAmount)
		default:
			upd.SetAmountCapturable(0)
		}
		if att, err = txn.UpdateRow(ctx, s.db, att, upd); err != nil {
			return errs.Internal(err)
		}
		settled, profileID = att, pi.ProfileID
		if retryWith != nil && status == paymentattempt.StatusFailure && res.Decline != nil {
			if next, err = s.retryOnNextConnector(ctx, tx, pi, att, res.Decline, retryWith); err != nil || next != nil {
				return err // a retry leaves the payment processing, its new attempt pending
			}
		}

		mv, err := s.customers.SettleMandate(ctx, tx, pi, att, status, res.ConnectorMandateID, res.NetworkTransactionID)
		if err != nil {
			return err
		}
		// The payment's first attempt settling: nothing but this
		// transaction can have written its captures, refunds, disputes or
		// incremental authorizations (each needs an authorized attempt),
		// so they are not read back.
		first := pi.AttemptCount == 1 && res.DisputeAfterSuccess == nil
		var captures []*ent.Capture
		if status == paymentattempt.StatusCharged || status == paymentattempt.StatusPartialCharged {
			c, err := s.recordAutomaticCapture(ctx, tx, pi, att, captured, first)
			if err != nil {
				return err
			}
			captures = append(captures, c)
			if res.DisputeAfterSuccess != nil {
				if err := s.openDispute(ctx, tx, pi, att, res.DisputeAfterSuccess, captured); err != nil {
					return err
				}
			}
		}
		switch {
		case !intentDone:
			piUpd := intentOutcome(tx.PaymentIntent.Update().Where(paymentintent.ID(pi.ID)), pi, att, status, captured)
			if mv != nil {
				piUpd.SetMandateID(mv.Mandate.ID)
			}
			if pi, err = txn.UpdateRow(ctx, s.db, pi, piUpd); err != nil {
				return txn.Error(err, "payment")
			}
		case mv != nil:
			upd := tx.PaymentIntent.Update().Where(paymentintent.ID(pi.ID)).SetMandateID(mv.Mandate.ID)
			if pi, err = txn.UpdateRow(ctx, s.db, pi, upd); err != nil {
				return txn.Error(err, "payment")
			}
		}
		if mv != nil {
			if err := s.customers.EmitMandateEvent(ctx, tx, mv, pi.ProfileID, &pi.ID); err != nil {
				return err
			}
		}
		if status == paymentattempt.StatusAuthorized && pi.CaptureMethod == paymentintent.CaptureMethodSequentialAutomatic {
			// sequential_automatic: its capture is reserved with the
			// authorization, so a crash before the capture is sent leaves a
			// pending capture that recovery settles, never a payment
			// processing with nothing pending. The capture reports the
			// outcome.
			sequential, err = s.reserveCapture(ctx, tx, paymentID, CaptureInput{sequential: true})
			return err
		}
		var known *PaymentView
		if first {
			if known, err = s.firstAttemptView(ctx, tx, pi, att, captures); err != nil {
				return err
			}
		}
		view, err = s.emitPaymentEventOf(ctx, tx, pi, known)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	s.recordRoutingOutcome(ctx, profileID, settled)
	if next != nil {
		return nil, next, nil
	}
	if sequential != nil {
		v, err := s.completeCapture(ctx, paymentID, sequential)
		if errors.Is(err, errs.ErrCaptureDeclined) {
			return nil, nil, nil // the failed capture is recorded on the payment
		}
		return v, nil, err
	}
	return view, nil, nil
}

// nextAction is what the customer must do for an attempt waiting for them,
// in Hyperswitch's NextActionData shape: visit the sandbox page, or pay a
// bank transfer or a voucher; nil when nothing waits.
func (s *Service) nextAction(att *ent.PaymentAttempt, res *connector.PaymentResult, status paymentattempt.Status) map[string]any {
	if status != paymentattempt.StatusAuthenticationPending {
		return nil
	}
	switch in := res.Instructions; {
	case res.RedirectRequired:
		return map[string]any{"type": "redirect_to_url", "redirect_to_url": s.redirectURL(att.ID)}
	case in != nil && in.Kind == connector.InstructionsBankTransfer:
		details := maps.Clone(in.BankTransfer)
		// Nothing has arrived yet: the sandbox receives a transfer whole.
		details["receiver"] = map[string]any{"amount_received": 0, "amount_remaining": att.NetAmount}
		return map[string]any{"type": "display_bank_transfer_information", "bank_transfer_steps_and_charges_details": details}
	case in != nil && in.Kind == connector.InstructionsVoucher:
		// voucher_details is a string in Hyperswitch's documents: the
		// reference the customer pays with.
		return map[string]any{"type": "display_voucher_information", "voucher_details": in.Reference}
	}
	return nil
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
