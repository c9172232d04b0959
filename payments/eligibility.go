package payments

import (
	"context"
	"fmt"

	"switchyard/ent"
	"switchyard/payments/connector"
	"switchyard/payments/errs"
)

// EligibilityInput is what the checkout SDK asks before it confirms
// (Hyperswitch's PaymentsEligibilityRequest and
// PaymentsEligibilityCheckRequest): may the customer pay this payment with
// this payment method (and subtype)? The payment_token and the method's
// data are accepted and carry no rule in the sandbox.
type EligibilityInput struct {
	ClientSecret         *string
	PaymentMethod        string
	PaymentMethodSubtype *string
}

// Eligibility is the answer: Denied is why the payment method may not pay
// the payment ("" when it may: the SDK goes on to confirm).
type Eligibility struct {
	PaymentID string
	Denied    string
}

// CheckEligibility answers whether in's payment method may pay the
// payment: it may when one of the connector accounts of the payment's
// profile enables it for the payment's amount, currency and country (the
// checkout's own method list); otherwise the SDK is told to deny, with why.
// Only a payment still awaiting its confirm is asked about.
func (s *Service) CheckEligibility(ctx context.Context, paymentID string, in EligibilityInput) (*Eligibility, error) {
	pi, err := s.clientPayment(ctx, paymentID, in.ClientSecret)
	if err != nil {
		return nil, err
	}
	if !statusIn(pi.Status, confirmableStates...) {
		return nil, ErrUnexpectedState("checked for eligibility", pi.Status, confirmableStates)
	}
	out := &Eligibility{PaymentID: pi.PaymentID}
	enabled, err := s.methodEnabled(ctx, pi, in.PaymentMethod, in.PaymentMethodSubtype)
	if err != nil {
		return nil, err
	}
	if !enabled {
		out.Denied = fmt.Sprintf("The payment method %s%s is not enabled for this payment", in.PaymentMethod, subtypeSuffix(in.PaymentMethodSubtype))
	}
	return out, nil
}

func subtypeSuffix(subtype *string) string {
	if subtype == nil {
		return ""
	}
	return " (" + *subtype + ")"
}

// methodEnabled reports whether the payment's profile enables method (and
// subtype, when given) for the payment.
func (s *Service) methodEnabled(ctx context.Context, pi *ent.PaymentIntent, method string, subtype *string) (bool, error) {
	methods, err := s.connectors.EligibleMethods(ctx, paymentMethodFilter(pi, connector.MethodFilter{}))
	if err != nil {
		return false, err
	}
	for _, m := range methods {
		if m.PaymentMethod == method && (subtype == nil || m.PaymentMethodType == *subtype) && len(m.Connectors) > 0 {
			return true, nil
		}
	}
	return false, nil
}

// clientPayment is the payment of paymentID as a checkout may read it:
// held to its client secret when the caller holds only the publishable
// key.
func (s *Service) clientPayment(ctx context.Context, paymentID string, clientSecret *string) (*ent.PaymentIntent, error) {
	pi, err := s.db.Client.PaymentIntent.Query().Where(paymentWhere(ctx, paymentID)...).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, errPaymentNotFound()
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	if err := s.checkClientSecret(ctx, pi, clientSecret); err != nil {
		return nil, err
	}
	return pi, nil
}
