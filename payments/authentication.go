package payments

import (
	"context"
	"crypto/hmac"
	"crypto/sha512"
	"crypto/subtle"
	"encoding/hex"
	"net/url"
	"slices"
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
	// Return is how the customer goes back to the shop; nil when the
	// payment has no return_url (or one that is not a URL).
	Return *MerchantReturn
	// AuthorizeURL is where the customer's browser goes after the
	// challenge of an external authentication: the checkout's
	// three_ds_authorize_url ("" for the connector's own challenge).
	AuthorizeURL string
	// PollID and the poll's delay and frequency are what the checkout
	// polls after an external authentication.
	PollID                   string
	PollDelaySecs, PollTimes int
}

// MerchantReturn is the way back to the shop after a redirect, as
// Hyperswitch builds it (make_merchant_url_with_response, then
// make_url_with_signature): the payment's return_url with Hyperswitch's
// members added to its query after the merchant's own (status, payment_id,
// payment_intent_client_secret, amount, manual_retry_allowed), then, when
// the profile has enable_payment_response_hash, signature and
// signature_algorithm. The profile's redirect_to_merchant_with_http_post
// sends the members as a POST form instead of a query.
type MerchantReturn struct {
	// URL is the return_url with the members as its query: where a GET goes.
	URL string
	// Action is the return_url without its query: a POST form's action.
	Action string
	// Params are the query's members in order, the merchant's own first.
	Params [][2]string
	// Post says the shop takes them as a POST form.
	Post bool
}

// SignatureAlgorithm is the one Hyperswitch names beside a signed return.
const SignatureAlgorithm = "HMAC-SHA512"

// merchantReturn builds the way back for t from its return_url; key signs
// the query ("" when the profile signs none).
func merchantReturn(t *RedirectTarget, key string, post bool) *MerchantReturn {
	if t.ReturnURL == "" {
		return nil
	}
	u, err := url.Parse(t.ReturnURL)
	if err != nil {
		return nil
	}
	retry := t.ManualRetryAllowed != nil && *t.ManualRetryAllowed
	added := [][2]string{
		{"status", string(t.Status)},
		{"payment_id", t.PaymentID},
		{"payment_intent_client_secret", t.ClientSecret},
		{"amount", strconv.FormatInt(t.Amount, 10)},
		{"manual_retry_allowed", strconv.FormatBool(retry)},
	}
	params := append(queryPairs(u.RawQuery), added...)
	if key != "" {
		added = append(added, [2]string{"signature", signReturn(params, key)}, [2]string{"signature_algorithm", SignatureAlgorithm})
		params = append(params, added[len(added)-2:]...)
	}
	// The merchant's own query stays as it was written; the members are
	// appended to it, form-encoded.
	query := make([]string, 0, len(added)+1)
	if u.RawQuery != "" {
		query = append(query, u.RawQuery)
	}
	for _, kv := range added {
		query = append(query, url.QueryEscape(kv[0])+"="+url.QueryEscape(kv[1]))
	}
	action := *u
	action.RawQuery, action.ForceQuery = "", false
	u.RawQuery = strings.Join(query, "&")
	return &MerchantReturn{URL: u.String(), Action: action.String(), Params: params, Post: post}
}

// queryPairs reads a query's members in order, decoded as a form is
// (Hyperswitch's url crate reads them so before it signs them).
func queryPairs(raw string) [][2]string {
	var out [][2]string
	for _, part := range strings.Split(raw, "&") {
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		ku, err1 := url.QueryUnescape(k)
		vu, err2 := url.QueryUnescape(v)
		if err1 != nil || err2 != nil { // kept as written, as a lenient parser does
			ku, vu = k, v
		}
		out = append(out, [2]string{ku, vu})
	}
	return out
}

// signReturn is Hyperswitch's hmac_sha512_sorted_query_params: the
// members sorted (by name, then value), joined as name=value with "&"
// unencoded, signed with HMAC-SHA512 under the profile's
// payment_response_hash_key, in lower-case hex.
func signReturn(params [][2]string, key string) string {
	sorted := slices.Clone(params)
	slices.SortFunc(sorted, func(a, b [2]string) int {
		if c := strings.Compare(a[0], b[0]); c != 0 {
			return c
		}
		return strings.Compare(a[1], b[1])
	})
	parts := make([]string, len(sorted))
	for i, kv := range sorted {
		parts[i] = kv[0] + "=" + kv[1]
	}
	mac := hmac.New(sha512.New, []byte(key))
	mac.Write([]byte(strings.Join(parts, "&")))
	return hex.EncodeToString(mac.Sum(nil))
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
	t := &RedirectTarget{PaymentID: pi.PaymentID, Amount: pi.Amount, Currency: string(pi.Currency),
		Connector: deref(pi.Connector), ReturnURL: deref(pi.ReturnURL), ClientSecret: pi.ClientSecret,
		Status: pi.Status, ManualRetryAllowed: manualRetryAllowed(pi.Status, att),
		PollID: PollID(pi.PaymentID), PollDelaySecs: pollDelaySecs, PollTimes: pollFrequency}
	if att.ExternalThreeDsFlow != nil && *att.ExternalThreeDsFlow == paymentattempt.ExternalThreeDsFlowChallenge {
		t.AuthorizeURL = s.authorizeURL(pi, att)
	}
	if t.ReturnURL == "" {
		return t, nil
	}
	prof, err := s.db.Client.Profile.Get(tenancy.System(ctx), pi.ProfileID)
	if err != nil {
		return nil, errs.Internal(err)
	}
	var key string
	if prof.EnablePaymentResponseHash && s.responseHashKey != nil {
		if key, err = s.responseHashKey(prof); err != nil {
			return nil, err
		}
	}
	t.Return = merchantReturn(t, key, prof.RedirectToMerchantWithHTTPPost)
	return t, nil
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
	if waitsForChallenge(pi, att) {
		return s.completeExternalChallenge(ctx, pi, att, approved)
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
	_, err = s.recordAuthorization(ctx, pi.PaymentID, att.ID, res, callErr)
	return err
}
