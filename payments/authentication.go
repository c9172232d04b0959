package payments

import (
	"context"
	"crypto/subtle"
	"net/url"
	"strconv"
	"strings"

	"switchyard/ent"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentintent"
	"switchyard/internal/tenancy"
	"switchyard/payments/connector"
	"switchyard/payments/errs"
)

// RedirectTarget is what the sandbox Approve/Decline page shows and where it
// sends the customer afterwards.
type RedirectTarget struct {
	PaymentID    string
	Amount       int64
	Currency     string
	Connector    string
	ReturnURL    string
	ClientSecret string
	Status       paymentintent.Status
	// ManualRetryAllowed is the payment's manual_retry_allowed.
	ManualRetryAllowed *bool
}

// MerchantURL is where the customer goes back to after a redirect: the
// payment's return_url with what Hyperswitch adds to its query (its
// make_merchant_url_with_response, in its order) after the merchant's own
// members: status, payment_id, payment_intent_client_secret, amount and
// manual_retry_allowed (false when the payment has none). "" when the
// payment has no return_url.
func (t *RedirectTarget) MerchantURL() string {
	if t.ReturnURL == "" {
		return ""
	}
	u, err := url.Parse(t.ReturnURL)
	if err != nil {
		return ""
	}
	retry := t.ManualRetryAllowed != nil && *t.ManualRetryAllowed
	added := []string{
		"status=" + url.QueryEscape(string(t.Status)),
		"payment_id=" + url.QueryEscape(t.PaymentID),
		"payment_intent_client_secret=" + url.QueryEscape(t.ClientSecret),
		"amount=" + strconv.FormatInt(t.Amount, 10),
		"manual_retry_allowed=" + strconv.FormatBool(retry),
	}
	if u.RawQuery != "" {
		added = append([]string{u.RawQuery}, added...)
	}
	u.RawQuery = strings.Join(added, "&")
	return u.String()
}

// AuthenticationPage finds the attempt behind a sandbox redirect URL. The
// customer's browser carries no API key: the token authenticates it.
func (s *Service) AuthenticationPage(ctx context.Context, attemptID, token string) (*RedirectTarget, error) {
	pi, att, err := s.redirectAttempt(ctx, attemptID, token)
	if err != nil {
		return nil, err
	}
	return s.redirectTarget(ctx, pi, att)
}

// redirectTarget is the page's view of pi, whose outcome comes from its
// active attempt (att, when it is that one).
func (s *Service) redirectTarget(ctx context.Context, pi *ent.PaymentIntent, att *ent.PaymentAttempt) (*RedirectTarget, error) {
	if pi.ActiveAttemptID != nil && *pi.ActiveAttemptID != att.ID {
		var err error
		att, err = s.db.Client.PaymentAttempt.Query().Where(paymentAttemptOf(pi.ID, *pi.ActiveAttemptID)...).
			Only(tenancy.System(ctx))
		if err != nil {
			return nil, errs.Internal(err)
		}
	}
	return &RedirectTarget{PaymentID: pi.PaymentID, Amount: pi.Amount, Currency: string(pi.Currency),
		Connector: deref(pi.Connector), ReturnURL: deref(pi.ReturnURL), ClientSecret: pi.ClientSecret,
		Status: pi.Status, ManualRetryAllowed: manualRetryAllowed(pi.Status, att)}, nil
}

func (s *Service) redirectAttempt(ctx context.Context, attemptID, token string) (*ent.PaymentIntent, *ent.PaymentAttempt, error) {
	if subtle.ConstantTimeCompare([]byte(token), []byte(s.RedirectToken(attemptID))) != 1 {
		return nil, nil, errs.NotFound("Payment attempt")
	}
	sys := tenancy.System(ctx)
	att, err := s.db.Client.PaymentAttempt.Query().Where(paymentattempt.ID(attemptID)).Only(sys)
	if ent.IsNotFound(err) {
		return nil, nil, errs.NotFound("Payment attempt")
	}
	if err != nil {
		return nil, nil, errs.Internal(err)
	}
	pi, err := s.db.Client.PaymentIntent.Get(sys, att.PaymentIntentID)
	if err != nil {
		return nil, nil, errs.Internal(err)
	}
	return pi, att, nil
}

// CompleteAuthentication finishes a 3-D Secure (or redirect) step with the
// customer's answer. Completing an attempt that is no longer waiting changes
// nothing, so a double click is harmless.
func (s *Service) CompleteAuthentication(ctx context.Context, attemptID, token string, approved bool) (*RedirectTarget, error) {
	pi, att, err := s.redirectAttempt(ctx, attemptID, token)
	if err != nil {
		return nil, err
	}
	ctx = tenancy.ForMerchant(tenancy.System(ctx), pi.MerchantID)
	if err := s.completeCustomerAction(ctx, pi, att, approved); err != nil {
		return nil, err
	}
	if pi, err = s.db.Client.PaymentIntent.Get(ctx, pi.ID); err != nil {
		return nil, errs.Internal(err)
	}
	if att, err = s.db.Client.PaymentAttempt.Get(ctx, att.ID); err != nil {
		return nil, errs.Internal(err)
	}
	return s.redirectTarget(ctx, pi, att)
}

// SimulateCustomerAction is the sandbox's stand-in for the customer (or
// their bank, or the shop's till) on a payment of the merchant in ctx that
// waits for them: approved completes it as the Approve button does, or
// reports a bank transfer or voucher paid; declined as Decline does, or
// reports the transfer or voucher expired unpaid. A payment that waits for
// nothing is refused (IR_14 naming its status).
func (s *Service) SimulateCustomerAction(ctx context.Context, paymentID string, approved bool) (*PaymentView, error) {
	pi, err := s.db.Client.PaymentIntent.Query().Where(paymentWhere(ctx, paymentID)...).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, errPaymentNotFound()
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	if pi.Status != paymentintent.StatusRequiresCustomerAction || pi.ActiveAttemptID == nil {
		return nil, ErrUnexpectedState("completed by the customer", pi.Status,
			[]paymentintent.Status{paymentintent.StatusRequiresCustomerAction})
	}
	att, err := s.db.Client.PaymentAttempt.Query().Where(paymentAttemptOf(pi.ID, *pi.ActiveAttemptID)...).Only(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	if err := s.completeCustomerAction(ctx, pi, att, approved); err != nil {
		return nil, err
	}
	return s.GetPayment(ctx, paymentID)
}

// completeCustomerAction reports the customer's answer on an attempt to its
// connector and records the outcome, when the attempt still waits for it.
func (s *Service) completeCustomerAction(ctx context.Context, pi *ent.PaymentIntent, att *ent.PaymentAttempt, approved bool) error {
	waiting := att.Status == paymentattempt.StatusAuthenticationPending &&
		pi.Status == paymentintent.StatusRequiresCustomerAction &&
		pi.ActiveAttemptID != nil && *pi.ActiveAttemptID == att.ID
	if !waiting {
		return nil
	}
	mca, err := s.db.Client.MerchantConnectorAccount.Query().
		Where(merchantconnectoraccount.ID(deref(att.MerchantConnectorID))).Only(ctx)
	if err != nil {
		return errs.Internal(err)
	}
	conn, acct, err := s.connectorFor(pi, att, mca)
	if err != nil {
		return err
	}
	res, callErr := conn.CompleteAuthentication(ctx, &connector.CompleteAuthenticationRequest{
		Account:                acct,
		ConnectorTransactionID: deref(att.ConnectorTransactionID),
		Approved:               approved,
		Amount:                 att.NetAmount,
		Currency:               string(att.Currency),
		CaptureMethod:          connectorCaptureMethod(pi),
		ConnectorMetadata:      att.ConnectorMetadata,
	})
	_, err = s.recordPaymentResult(ctx, pi.PaymentID, att.ID, res, callErr)
	return err
}
