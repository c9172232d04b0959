package payments

// A confirm's attempt: the connector routing picks for it (route), and its
// row, decided (writeAttempt) and written (newAttempt).

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"switchyard/ent"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/ent/paymentattempt"
	"switchyard/payments/cards"
	"switchyard/payments/customer"
	"switchyard/payments/errs"
	"switchyard/payments/routing"
	"switchyard/payments/validate"
)

func cardNetwork(m *customer.PaymentMethodInput) *string {
	if m.Saved != nil && m.Saved.Card != nil {
		return m.Saved.Card.CardNetwork
	}
	if m.Card == nil {
		return nil
	}
	if m.Card.Network != nil && *m.Card.Network != "" {
		return m.Card.Network
	}
	return validate.NonEmpty(cards.Network(m.Card.Number))
}

// route picks the connector account: the one named (by id, or by connector
// name), else the first candidate of the profile's routing (its active
// configuration, then its fallback order). The decision says which.
func (s *Service) route(ctx context.Context, tx *ent.Tx, pi *ent.PaymentIntent, method *customer.PaymentMethodInput, names []string, mcaID *string) (*routing.Decision, error) {
	pc, err := s.db.ProfileConfig(ctx, tx.Client(), pi.ProfileID)
	if err != nil {
		return nil, err
	}
	// The profile's active payment processors, oldest first; the one named
	// by id, or those named by connector.
	var all []*ent.MerchantConnectorAccount
	for _, m := range pc.Accounts {
		switch {
		case m.Disabled || m.Status != merchantconnectoraccount.StatusActive ||
			m.ConnectorType != merchantconnectoraccount.ConnectorTypePaymentProcessor:
		case mcaID != nil && m.ID != *mcaID:
		case mcaID == nil && len(names) > 0 && !slices.Contains(names, m.ConnectorName):
		default:
			all = append(all, m)
		}
	}
	if len(all) == 0 {
		return nil, errs.ErrNoEligibleConnector.Detailf("the profile %s has no active payment processor%s", pi.ProfileID, routingHint(names, mcaID))
	}
	named := &routing.Decision{Approach: routing.StraightThrough, Candidates: all}
	if mcaID != nil {
		return named, nil
	}
	if len(names) > 0 { // the first name the request lists wins
		for _, n := range names {
			for i, m := range all {
				if m.ConnectorName == n {
					named.Candidates = append([]*ent.MerchantConnectorAccount{m}, slices.Delete(slices.Clone(all), i, i+1)...)
					return named, nil
				}
			}
		}
	}
	return s.routing.Decide(ctx, tx, pi.ProfileID, all, routingFacts(pi, method), rand.IntN(100))
}

func routingHint(names []string, mcaID *string) string {
	switch {
	case mcaID != nil:
		return fmt.Sprintf(" with merchant_connector_id %s", *mcaID)
	case len(names) > 0:
		return fmt.Sprintf(" named %s", validate.JoinOr(names))
	}
	return ""
}

// newAttempt records an attempt with what may be kept of the payment method.
func (s *Service) newAttempt(ctx context.Context, tx *ent.Tx, pi *ent.PaymentIntent, id string, d *routing.Decision, m *customer.PaymentMethodInput, browserInfo map[string]any) (*ent.PaymentAttempt, error) {
	kind := attemptMethodOf(pi, m)
	create := tx.PaymentAttempt.Create()
	writeAttempt(create, pi, id, d, m, kind)
	var (
		pm  *ent.PaymentMethod
		err error
	)
	switch kind {
	case methodForMandate:
		// The card a mandate is set up with is saved (masked) with the
		// attempt; it becomes usable only if the authorization succeeds.
		pm, err = s.customers.SavePaymentMethod(ctx, tx, pi, m)
	case methodToKeep:
		// Kept for the customer (setup_future_usage): the same card is the
		// same method; a new one is usable once the authorization succeeds.
		pm, err = s.customers.CardToKeep(ctx, tx, pi, m)
	}
	if err != nil {
		return nil, err
	}
	if pm != nil {
		create.SetPaymentMethodID(pm.ID)
	}
	if browserInfo != nil {
		create.SetBrowserInfo(browserInfo)
	}
	att, err := create.Save(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	return att, nil
}

// attemptMethod is where the saved payment method an attempt refers to
// comes from.
type attemptMethod int

const (
	methodNone       attemptMethod = iota // none: nothing is kept
	methodOfMandate                       // the mandate's, which the attempt charges
	methodSaved                           // the customer's saved method it charges
	methodForMandate                      // saved now, for the mandate it sets up
	methodToKeep                          // kept now for the customer (customer.SavesCard)
)

// attemptMethodOf decides which saved payment method an attempt of pi
// with m refers to.
func attemptMethodOf(pi *ent.PaymentIntent, m *customer.PaymentMethodInput) attemptMethod {
	switch {
	case m.Mandate != nil:
		return methodOfMandate
	case m.Saved != nil:
		return methodSaved
	case pi.MandateData != nil:
		return methodForMandate
	case customer.SavesCard(pi, m):
		return methodToKeep
	}
	return methodNone
}

// writeAttempt sets what a new attempt id of pi records: pending, its
// amounts, the route d chose, and what may be kept of the payment method m
// (the card's details, never its number, and, by kind, the saved method it
// charges).
func writeAttempt(create *ent.PaymentAttemptCreate, pi *ent.PaymentIntent, id string, d *routing.Decision, m *customer.PaymentMethodInput, kind attemptMethod) {
	mca := d.Candidates[0]
	candidates := make([]string, len(d.Candidates))
	for i, c := range d.Candidates {
		candidates[i] = c.ID
	}
	create.
		SetID(id).
		SetPaymentIntentID(pi.ID).
		SetStatus(paymentattempt.StatusPending).
		SetAmount(pi.Amount).
		SetNetAmount(netAmount(pi)).
		SetCurrency(pi.Currency).
		SetConnector(mca.ConnectorName).
		SetMerchantConnectorID(mca.ID).
		SetRoutingApproach(d.Approach).
		SetNillableRoutingAlgorithmID(validate.NonEmpty(d.AlgorithmID)).
		SetNillableRoutingKind(validate.NonEmpty(d.Kind)).
		SetNillableRoutingRule(validate.NonEmpty(d.Rule)).
		SetRoutingCandidates(candidates).
		SetCaptureMethod(paymentattempt.CaptureMethod(pi.CaptureMethod)).
		SetPaymentMethod(m.Type).
		SetNillablePaymentMethodType(validate.NonEmpty(m.Subtype)).
		SetNillableOrderTaxAmount(pi.OrderTaxAmount).
		SetNillableAmountToCapture(pi.AmountToCapture).
		SetNillableSurchargeAmount(pi.SurchargeAmount)
	if pi.AuthenticationType != nil {
		create.SetAuthenticationType(paymentattempt.AuthenticationType(*pi.AuthenticationType))
	}
	if m.Card != nil {
		create.SetCard(m.Card.Details())
	}
	switch kind {
	case methodOfMandate:
		create.SetMandateID(m.Mandate.ID).SetPaymentToken(m.ConnectorMandateID)
		fallthrough
	case methodSaved:
		create.SetPaymentMethodID(m.Saved.ID)
		if m.Saved.Card != nil {
			create.SetCard(m.Saved.Card)
		}
	}
	if m.Billing != nil {
		create.SetPaymentMethodBilling(m.Billing)
	}
}

// netAmount is the order amount plus shipping, tax and surcharge.
func netAmount(pi *ent.PaymentIntent) int64 {
	n := pi.Amount
	for _, v := range []*int64{pi.ShippingCost, pi.OrderTaxAmount, pi.SurchargeAmount, pi.TaxOnSurcharge} {
		if v != nil {
			n += *v
		}
	}
	return n
}
