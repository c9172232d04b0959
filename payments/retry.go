package payments

import (
	"context"
	"slices"

	"switchyard/ent"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentintent"
	"switchyard/internal/ids"
	"switchyard/payments/connector"
	"switchyard/payments/customer"
	"switchyard/payments/errs"
	"switchyard/payments/gsm"
	"switchyard/payments/routing"
)

// defaultAutoRetries is the retry budget of a profile that enables
// automatic retries without saying how many.
const defaultAutoRetries = 1

// retryOnNextConnector decides, in the transaction that records att's
// definite failure, whether the payment is tried again on the next
// connector of its route (Hyperswitch's automatic retries). When it is,
// it records the next attempt (pending) and points the payment at it, all
// in that transaction, so a crash leaves either the failure or a pending
// attempt that recovery settles: never a payment with nothing pending,
// never two connectors holding an authorization at once.
//
// The merchant's verdict (gsm.Judge: never a hard decline) and the
// profile decide it (decideRetry); it also needs a next candidate that is
// still an active account of the profile. The merchant's rule also gives
// the failed attempt its unified code and message.
func (s *Service) retryOnNextConnector(ctx context.Context, tx *ent.Tx, pi *ent.PaymentIntent, att *ent.PaymentAttempt,
	d *connector.Decline, m *customer.PaymentMethodInput) (*confirmation, error) {
	if s.gsm == nil || att.Connector == nil || att.MerchantConnectorID == nil {
		return nil, nil
	}
	verdict, err := s.gsm.Judge(ctx, tx, gsm.Failure{Connector: *att.Connector, Code: d.Code, Message: d.Message,
		Reason: d.Reason, DeclineCode: d.DeclineCode})
	if err != nil {
		return nil, err
	}
	if r := verdict.Rule; r != nil && (r.UnifiedCode != nil || r.UnifiedMessage != nil) {
		if err := tx.PaymentAttempt.UpdateOne(att).SetNillableUnifiedCode(r.UnifiedCode).SetNillableUnifiedMessage(r.UnifiedMessage).Exec(ctx); err != nil {
			return nil, errs.Internal(err)
		}
	}
	if !retryEligible(verdict, pi, m) {
		return nil, nil
	}
	prof, err := tx.Profile.Get(ctx, pi.ProfileID)
	if err != nil {
		return nil, errs.Internal(err)
	}
	retry, stepUp := decideRetry(verdict, pi, att, m, prof)
	if !retry {
		return nil, nil
	}
	later, err := laterCandidates(ctx, tx, att)
	if err != nil {
		return nil, err
	}
	// A connector that requires billing details the payment lacks is
	// passed over: it would refuse the payment before looking at it.
	later = slices.DeleteFunc(later, func(a *ent.MerchantConnectorAccount) bool { return missingRequiredField(a, pi, m) != "" })
	candidates := later
	if stepUp {
		same, err := tx.MerchantConnectorAccount.Get(ctx, *att.MerchantConnectorID)
		if err != nil {
			return nil, errs.Internal(err)
		}
		candidates = append([]*ent.MerchantConnectorAccount{same}, later...)
		if pi, err = tx.PaymentIntent.UpdateOne(pi).SetAuthenticationType(paymentintent.AuthenticationTypeThreeDs).Save(ctx); err != nil {
			return nil, errs.Internal(err)
		}
	}
	if len(candidates) == 0 {
		return nil, nil
	}
	return s.recordRetry(ctx, tx, pi, att, m, candidates)
}

// recordRetry records the next attempt of pi, failed at att, on the first
// of candidates (pending, the route kept), and points the payment at it.
func (s *Service) recordRetry(ctx context.Context, tx *ent.Tx, pi *ent.PaymentIntent, att *ent.PaymentAttempt,
	m *customer.PaymentMethodInput, candidates []*ent.MerchantConnectorAccount) (*confirmation, error) {
	next := candidates[0]
	decision := &routing.Decision{Approach: deref(att.RoutingApproach), AlgorithmID: deref(att.RoutingAlgorithmID),
		Kind: deref(att.RoutingKind), Rule: deref(att.RoutingRule), Candidates: candidates}
	retry, err := s.newAttempt(ctx, tx, pi, ids.New(ids.Attempt), decision, m, att.BrowserInfo)
	if err != nil {
		return nil, err
	}
	pi, err = tx.PaymentIntent.UpdateOne(pi).
		SetActiveAttemptID(retry.ID).
		AddAttemptCount(1).
		SetConnector(next.ConnectorName).
		SetMerchantConnectorID(next.ID).
		AddVersion(1).
		Save(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	return &confirmation{pi: pi, att: retry, mca: next, method: m}, nil
}

// retryEligible is the part of decideRetry that needs no profile: the
// merchant's verdict allows it, and the payment method is one any
// connector can take (not a mandate or a saved card, whose token belongs
// to one connector).
func retryEligible(verdict gsm.Verdict, pi *ent.PaymentIntent, m *customer.PaymentMethodInput) bool {
	return verdict.Retry && pi.MandateID == nil && pi.MandateData == nil && m.Saved == nil && m.Mandate == nil
}

// decideRetry is whether att's definite failure is tried again (the
// verdict allows it, the payment method can go anywhere, and the profile
// has automatic retries on with budget left), and whether the retry steps
// up first: a rule with step_up_possible (Hyperswitch's GSM) sends it to
// the same connector with 3-D Secure, if the failed try had none, before
// the route's next connector.
func decideRetry(verdict gsm.Verdict, pi *ent.PaymentIntent, att *ent.PaymentAttempt, m *customer.PaymentMethodInput,
	prof *ent.Profile) (retry, stepUp bool) {
	if !retryEligible(verdict, pi, m) {
		return false, false
	}
	budget := defaultAutoRetries
	if prof.MaxAutoRetriesEnabled != nil {
		budget = *prof.MaxAutoRetriesEnabled
	}
	// attempt_count counts this payment's tries: the confirm's first one
	// and each retry since.
	if !prof.IsAutoRetriesEnabled || pi.AttemptCount-1 >= budget {
		return false, false
	}
	return true, verdict.Rule != nil && verdict.Rule.StepUpPossible &&
		(att.AuthenticationType == nil || *att.AuthenticationType != paymentattempt.AuthenticationTypeThreeDs)
}

// laterCandidates are the accounts after att's own in its route that are
// still active payment processors, in the route's order.
func laterCandidates(ctx context.Context, tx *ent.Tx, att *ent.PaymentAttempt) ([]*ent.MerchantConnectorAccount, error) {
	var later []string
	for i, id := range att.RoutingCandidates {
		if id == *att.MerchantConnectorID {
			later = att.RoutingCandidates[i+1:]
			break
		}
	}
	if len(later) == 0 {
		return nil, nil
	}
	rows, err := tx.MerchantConnectorAccount.Query().Where(
		merchantconnectoraccount.IDIn(later...),
		merchantconnectoraccount.Disabled(false),
		merchantconnectoraccount.StatusEQ(merchantconnectoraccount.StatusActive),
		merchantconnectoraccount.ConnectorTypeEQ(merchantconnectoraccount.ConnectorTypePaymentProcessor),
	).All(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	byID := make(map[string]*ent.MerchantConnectorAccount, len(rows))
	for _, r := range rows {
		byID[r.ID] = r
	}
	var ordered []*ent.MerchantConnectorAccount
	for _, id := range later {
		if a := byID[id]; a != nil {
			ordered = append(ordered, a)
		}
	}
	return ordered, nil
}
