package customer

import (
	"slices"
	"time"

	"switchyard/ent"
	"switchyard/ent/mandate"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentmethod"
	"switchyard/payments/errs"
)

// The decisions of mandates and saved methods, apart from their writes:
// what an authorization's answer means for them (SettleMandate applies
// it), and whether a mandate may be charged (RecurringMethod).

// attemptOutcome is what an attempt's status says of its authorization:
// it succeeded (charged, partially charged, authorized), it failed
// (failure, authentication failed), or neither yet (pending, awaiting
// authentication, …).
func attemptOutcome(status paymentattempt.Status) (succeeded, failed bool) {
	succeeded = slices.Contains([]paymentattempt.Status{paymentattempt.StatusCharged,
		paymentattempt.StatusPartialCharged, paymentattempt.StatusAuthorized}, status)
	failed = status == paymentattempt.StatusFailure || status == paymentattempt.StatusAuthenticationFailed
	return succeeded, failed
}

// mandateStep is what an authorization's answer means for mandates and
// the payment method the attempt saved or charged.
type mandateStep int

const (
	// stepNone: nothing changes (no mandate nor saved method, or no answer yet).
	stepNone mandateStep = iota
	// stepDropSetupMethod: a mandate set-up failed, or succeeded without the
	// connector's token: no token, no mandate, and the card saved for it goes.
	stepDropSetupMethod
	// stepActivateMandate: a mandate set-up succeeded with a token: the
	// saved method is activated and the mandate created.
	stepActivateMandate
	// stepUseMandate: a recurring payment succeeded: its method was used,
	// and a single_use mandate is spent.
	stepUseMandate
	// stepSettleKeptCard: a card kept for the customer, or a saved one paid
	// with again (keptCardStepFor says what becomes of it).
	stepSettleKeptCard
)

// mandateFacts are what mandateStepFor reads of a payment and its attempt.
type mandateFacts struct {
	// SetsUpMandate: the payment carries mandate_data.
	SetsUpMandate bool
	// HasMethod: the attempt names a saved payment method.
	HasMethod bool
	// ChargesMandate: the attempt charges a mandate.
	ChargesMandate bool
	Status         paymentattempt.Status
	// ConnectorToken is the connector's mandate token, if it gave one.
	ConnectorToken string
}

// mandateStepFor decides what the attempt's answer means for mandates.
func mandateStepFor(f mandateFacts) mandateStep {
	succeeded, failed := attemptOutcome(f.Status)
	switch {
	case f.SetsUpMandate && f.HasMethod:
		switch {
		case failed || (succeeded && f.ConnectorToken == ""):
			return stepDropSetupMethod
		case succeeded:
			return stepActivateMandate
		}
	case !f.SetsUpMandate && f.ChargesMandate && succeeded:
		return stepUseMandate
	case !f.SetsUpMandate && !f.ChargesMandate && f.HasMethod:
		return stepSettleKeptCard
	}
	return stepNone
}

// keptCardStep is what an authorization's answer means for a card the
// payment keeps for its customer.
type keptCardStep int

const (
	keptCardUnchanged keptCardStep = iota
	// keptCardDrop: the authorization failed and the method was new
	// (still processing); one saved before stays.
	keptCardDrop
	// keptCardActivate: the authorization succeeded: the method is active,
	// with the connector's token.
	keptCardActivate
)

// keptCardStepFor decides what becomes of a kept card (in status method)
// after the attempt's answer.
func keptCardStepFor(status paymentattempt.Status, method paymentmethod.Status) keptCardStep {
	succeeded, failed := attemptOutcome(status)
	switch {
	case failed && method == paymentmethod.StatusProcessing:
		return keptCardDrop
	case succeeded:
		return keptCardActivate
	}
	return keptCardUnchanged
}

// mandateTypeOf is the type of the mandate a request sets up.
func mandateTypeOf(req *MandateRequest) mandate.MandateType {
	if req.SingleUse {
		return mandate.MandateTypeSingleUse
	}
	return mandate.MandateTypeMultiUse
}

// checkMandateCharge checks, before its uses are counted, that m may be
// charged charge (minor units) by pi at now: active, the payment's
// customer's, within its dates, in its currency, and for a single_use
// mandate within its amount.
func checkMandateCharge(m *ent.Mandate, pi *ent.PaymentIntent, charge int64, now time.Time) error {
	if m.Status != mandate.StatusActive {
		return errMandatePrecondition("mandate_id", msgMandateNotActive)
	}
	if pi.CustomerID == nil || m.CustomerID != *pi.CustomerID {
		return errMandatePrecondition("customer_id", msgMandateOtherCustomer)
	}
	if (m.StartDate != nil && now.Before(*m.StartDate)) || (m.EndDate != nil && !now.Before(*m.EndDate)) {
		return errs.MandateInvalid("mandate_id", "the mandate is not valid at this time (outside its start_date and end_date)")
	}
	if m.Currency != nil && *m.Currency != pi.Currency {
		return errs.MandateInvalid("currency", "cross currency mandates not supported")
	}
	if m.MandateType == mandate.MandateTypeSingleUse && (m.Amount == nil || charge > *m.Amount) {
		return errs.MandateInvalid("amount", "request amount is greater than mandate amount")
	}
	return nil
}

// checkMultiUseTotal checks that what a multi_use mandate's other payments
// received, plus charge, stays within its amount (Hyperswitch's
// amount_captured check); a mandate without an amount has no limit.
func checkMultiUseTotal(m *ent.Mandate, charge int64, received []int) error {
	if m.Amount == nil {
		return nil
	}
	total := charge
	for _, r := range received {
		total += int64(r)
	}
	if total > *m.Amount {
		return errs.MandateInvalid("amount", "request amount is greater than mandate amount")
	}
	return nil
}

// checkRevocable refuses to revoke a revoked mandate; an active one, or
// one a payment spent, may be revoked.
func checkRevocable(m *ent.Mandate) error {
	if m.Status == mandate.StatusRevoked {
		return errs.MandateInvalid("mandate_id", "Mandate has already been revoked")
	}
	return nil
}
