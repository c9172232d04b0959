package payments

import (
	"maps"

	"switchyard/ent"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentintent"
	"switchyard/ent/schema/schematype"
	"switchyard/payments/connector"
)

// The authorization's decisions: what a connector's answer about a pending
// attempt makes of the attempt and its payment. They read the rows as
// loaded and the answer, and touch no database; settle.go applies them.

const noAnswerMessage = "the connector did not answer; the payment will be synced"

// authorizationDecision is what an answer about a pending attempt changes.
type authorizationDecision struct {
	// unanswered: the call failed in transport; the attempt notes why and
	// stays pending, the payment processing, for a sync.
	unanswered bool
	// status is the attempt's new status; captured is what an automatic
	// capture took when it charged.
	status   paymentattempt.Status
	captured int64
	// attemptCapturable is the attempt's amount_capturable.
	attemptCapturable int64
	// nextAction is what the customer must do (nil: nothing waits).
	nextAction map[string]any
	// card is the attempt's card with the connector's checks, when it
	// gave some (nil: unchanged).
	card *schematype.CardDetails
	// intent is what the outcome makes of the payment.
	intent intentChange
	// retry: a definite failure the merchant's rules may retry on the next
	// connector; that verdict (retry.go) comes before the payment's outcome.
	retry bool
	// charged: the connector captured with the authorization, so the
	// capture is recorded; dispute is the one a network opened on it.
	charged bool
	dispute *connector.DisputeSpec
	// reserveCapture: a sequential_automatic authorization reserves its own
	// capture in the same transaction (the capture then reports the
	// outcome and writes the event).
	reserveCapture bool
	// firstAttempt: nothing but this transaction can have written the
	// payment's captures, refunds or disputes, so none is read back.
	firstAttempt bool
	// threeDS is the external authentication the answer records on the
	// attempt (nil: unchanged).
	threeDS *externalThreeDS
}

// decideAuthorization is what res (or callErr, no answer) makes of att and
// its payment pi. retryable says the confirming request holds the payment
// method, which a retry on the next connector needs; redirect is the
// sandbox page of an attempt waiting for its customer.
func decideAuthorization(pi *ent.PaymentIntent, att *ent.PaymentAttempt, res *connector.PaymentResult, callErr error,
	retryable bool, redirect func(attemptID string) string) authorizationDecision {
	if callErr != nil {
		return authorizationDecision{unanswered: true}
	}
	status, captured := outcomeOf(res, att)
	d := authorizationDecision{
		status:       status,
		captured:     captured,
		nextAction:   nextAction(att, res, status, redirect),
		intent:       decideIntent(pi, att, status, captured),
		retry:        retryable && status == paymentattempt.StatusFailure && res.Decline != nil,
		charged:      status == paymentattempt.StatusCharged || status == paymentattempt.StatusPartialCharged,
		firstAttempt: pi.AttemptCount == 1 && res.DisputeAfterSuccess == nil,
		reserveCapture: status == paymentattempt.StatusAuthorized &&
			pi.CaptureMethod == paymentintent.CaptureMethodSequentialAutomatic,
	}
	if status == paymentattempt.StatusAuthorized {
		d.attemptCapturable = att.NetAmount
	}
	if d.charged {
		d.dispute = res.DisputeAfterSuccess
	}
	if res.PaymentChecks != nil && att.Card != nil {
		card := *att.Card
		card.PaymentChecks = map[string]string{
			"cvc_check":                 res.PaymentChecks.CVCCheck,
			"address_line1_check":       res.PaymentChecks.AddressLine1Check,
			"address_postal_code_check": res.PaymentChecks.AddressPostalCodeCheck,
		}
		d.card = &card
	}
	return d
}

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

// settleable reports whether an answer about att may still settle it: the
// payment waits for it and the attempt is pending.
func settleable(pi *ent.PaymentIntent, att *ent.PaymentAttempt) bool {
	return statusIn(pi.Status, paymentintent.StatusProcessing, paymentintent.StatusRequiresCustomerAction) &&
		(att.Status == paymentattempt.StatusPending || att.Status == paymentattempt.StatusAuthenticationPending)
}

// intentChange is what an attempt's outcome makes of its payment: its
// status, what is captured (when captured is set) and capturable.
type intentChange struct {
	status      paymentintent.Status
	setCaptured bool
	captured    int64
	capturable  int64
}

// decideIntent is what the outcome status (and automatic capture captured)
// of att makes of its payment pi.
func decideIntent(pi *ent.PaymentIntent, att *ent.PaymentAttempt, status paymentattempt.Status, captured int64) intentChange {
	c := intentChange{status: intentStatusOf(status)}
	switch status {
	case paymentattempt.StatusCharged, paymentattempt.StatusPartialCharged:
		c.setCaptured, c.captured = true, captured
	case paymentattempt.StatusAuthorized:
		c.capturable = att.NetAmount
		if pi.CaptureMethod == paymentintent.CaptureMethodSequentialAutomatic {
			// Processing until its own capture is reserved, so no merchant
			// capture or cancel can come between the two.
			c.status = paymentintent.StatusProcessing
		}
	}
	return c
}

// set puts the change on upd, with a new version.
func (c intentChange) set(upd *ent.PaymentIntentUpdate) *ent.PaymentIntentUpdate {
	upd.SetStatus(c.status).AddVersion(1)
	if c.setCaptured {
		upd.SetAmountCaptured(c.captured)
	}
	return upd.SetAmountCapturable(c.capturable)
}

// nextAction is what the customer must do for an attempt waiting for them,
// in Hyperswitch's NextActionData shape: visit the sandbox page, or pay a
// bank transfer or a voucher; nil when nothing waits.
func nextAction(att *ent.PaymentAttempt, res *connector.PaymentResult, status paymentattempt.Status, redirect func(string) string) map[string]any {
	if status != paymentattempt.StatusAuthenticationPending {
		return nil
	}
	switch in := res.Instructions; {
	case res.RedirectRequired:
		return map[string]any{"type": "redirect_to_url", "redirect_to_url": redirect(att.ID)}
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
