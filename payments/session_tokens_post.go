package payments

import (
	"context"
	"slices"

	"switchyard/ent"
	"switchyard/payments/errs"
)

// postSessionWallets are the wallets whose checkout creates the
// connector's order before the customer approves in the wallet's own
// sheet (Hyperswitch's post_session_tokens flow: PayPal's SDK).
var postSessionWallets = []string{"paypal"}

// PostSessionInput is Hyperswitch's PaymentsPostSessionTokensRequest.
type PostSessionInput struct {
	ClientSecret      *string
	PaymentMethod     string
	PaymentMethodType string
}

// PostSession is the answer: the payment, and the order the connector
// created, which the wallet's SDK approves before the checkout confirms.
type PostSession struct {
	Payment *ent.PaymentIntent
	OrderID string
}

// PostSessionTokens creates the connector's order for a payment a wallet
// such as PayPal pays (POST /payments/{id}/post_session_tokens). The
// sandbox's order id is derived from the payment (sim_order_<payment>):
// asking again answers the same order, and nothing is stored. The
// payment must still await its confirm, and its profile must enable the
// wallet.
func (s *Service) PostSessionTokens(ctx context.Context, paymentID string, in PostSessionInput) (*PostSession, error) {
	pi, err := s.clientPayment(ctx, paymentID, in.ClientSecret)
	if err != nil {
		return nil, err
	}
	if !statusIn(pi.Status, confirmableStates...) {
		return nil, ErrUnexpectedState("given session tokens", pi.Status, confirmableStates)
	}
	if in.PaymentMethod != "wallet" || !slices.Contains(postSessionWallets, in.PaymentMethodType) {
		return nil, errs.ErrFlowNotSupported.Newf("post_session_tokens flow not supported for %s %s: the sandbox creates orders for paypal wallets",
			in.PaymentMethod, in.PaymentMethodType)
	}
	enabled, err := s.methodEnabled(ctx, pi, in.PaymentMethod, &in.PaymentMethodType)
	if err != nil {
		return nil, err
	}
	if !enabled {
		return nil, errs.ErrNotSupported.Detailf("the payment method type %s is not enabled for this payment", in.PaymentMethodType).
			WithField("payment_method_type")
	}
	return &PostSession{Payment: pi, OrderID: "sim_order_" + pi.ID}, nil
}
