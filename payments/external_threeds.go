package payments

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"time"

	"switchyard/ent"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentintent"
	"switchyard/internal/tenancy"
	"switchyard/payments/cards"
	"switchyard/payments/connector"
	"switchyard/payments/customer"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

// External 3-D Secure in a payment (docs/sandbox.md): a card payment that
// asks for it (request_external_three_ds_authentication with
// authentication_type three_ds) on a profile whose
// authentication_connector_details names an authentication connector
// account is authenticated by the sandbox's 3-D Secure server before its
// authorization. Y or A authorizes at the payment connector with the
// result; N, R and U fail the payment as Hyperswitch does
// (EXTERNAL_AUTHENTICATION_FAILURE); C waits for the customer's challenge
// (next_action three_ds_invoke), whose approval authorizes it. A merchant
// that authenticated the card itself gives the result as three_ds_data.

// ExternalThreeDSData is Hyperswitch's ExternalThreeDsData: the result of
// an authentication made outside the payment, for its authorization.
// Cryptogram (the CAVV) is card data: it is sealed while it waits.
type ExternalThreeDSData struct {
	Cryptogram  string  `json:"cryptogram,omitempty"`
	DSTransID   *string `json:"ds_trans_id,omitempty"`
	Version     *string `json:"version,omitempty"`
	ECI         *string `json:"eci,omitempty"`
	TransStatus string  `json:"transaction_status"`
}

// transStatuses are EMV 3-D Secure's transStatus values (Hyperswitch's
// TransactionStatus).
var transStatuses = []string{"Y", "N", "U", "A", "R", "C", "D", "I"}

// check refuses a result that cannot be carried to an authorization.
func (d *ExternalThreeDSData) check() error {
	if d.TransStatus == "" {
		return errs.MissingField("three_ds_data.transaction_status")
	}
	if !slices.Contains(transStatuses, d.TransStatus) {
		return errs.InvalidValue("three_ds_data.transaction_status", "must be one of %s", strings.Join(transStatuses, ", "))
	}
	if decideThreeDS(d.TransStatus) == threeDSChallenge {
		return errs.InvalidValue("three_ds_data.transaction_status",
			"is %s: an authentication that still waits for its challenge cannot authorize a payment", d.TransStatus)
	}
	return nil
}

// threeDSVerdict is what an authentication's answer makes of the payment.
type threeDSVerdict int

const (
	threeDSAuthorize threeDSVerdict = iota // authorize with the result
	threeDSFail                            // fail without an authorization
	threeDSChallenge                       // wait for the customer's challenge
)

// The failure Hyperswitch records on a payment whose external
// authentication failed.
const (
	externalAuthFailureCode    = "EXTERNAL_AUTHENTICATION_FAILURE"
	externalAuthFailureMessage = "external authentication failure"
)

// decideThreeDS is the verdict on transStatus: authenticated (Y) or
// attempted (A) authorizes, a challenge (C) waits; the rest fail, U among
// them (Hyperswitch's authentication status for it is failed).
func decideThreeDS(transStatus string) threeDSVerdict {
	switch transStatus {
	case connector.ThreeDSAuthenticated, connector.ThreeDSAttempted:
		return threeDSAuthorize
	case connector.ThreeDSChallenge:
		return threeDSChallenge
	}
	return threeDSFail
}

// externalThreeDS is an attempt's external authentication: the answer, and
// how it came.
type externalThreeDS struct {
	answer connector.ThreeDSAnswer
	// flow is frictionless or challenge; nil for the merchant's own result.
	flow    *paymentattempt.ExternalThreeDsFlow
	version string
	// authConnector is the authentication connector's name ("" for the
	// merchant's result).
	authConnector string
}

func (e *externalThreeDS) verdict() threeDSVerdict { return decideThreeDS(e.answer.TransStatus) }

// status is Hyperswitch's AuthenticationStatus for the answer.
func (e *externalThreeDS) status() paymentattempt.ExternalThreeDsStatus {
	switch e.verdict() {
	case threeDSAuthorize:
		return paymentattempt.ExternalThreeDsStatusSuccess
	case threeDSChallenge:
		return paymentattempt.ExternalThreeDsStatusPending
	}
	return paymentattempt.ExternalThreeDsStatusFailed
}

// record writes the authentication on the attempt m changes; never the CAVV.
func (e *externalThreeDS) record(m *ent.PaymentAttemptMutation) {
	a := e.answer
	m.SetExternalThreeDsStatus(e.status())
	if e.flow != nil {
		m.SetExternalThreeDsFlow(*e.flow)
	}
	m.SetExternalThreeDsTransStatus(a.TransStatus)
	setOrClear(m.SetExternalThreeDsEci, m.ClearExternalThreeDsEci, a.ECI)
	setOrClear(m.SetExternalThreeDsDsTransID, m.ClearExternalThreeDsDsTransID, a.DSTransID)
	setOrClear(m.SetExternalThreeDsVersion, m.ClearExternalThreeDsVersion, e.version)
	setOrClear(m.SetExternalThreeDsErrorCode, m.ClearExternalThreeDsErrorCode, a.ErrorCode)
	setOrClear(m.SetExternalThreeDsErrorMessage, m.ClearExternalThreeDsErrorMessage, a.ErrorMessage)
}

func setOrClear(set func(string), clear func(), v string) {
	if v == "" {
		clear()
		return
	}
	set(v)
}

// forConnector is the result an authorization carries: nil unless the
// verdict authorizes.
func (e *externalThreeDS) forConnector() *connector.ExternalThreeDS {
	if e == nil || e.verdict() != threeDSAuthorize {
		return nil
	}
	a := e.answer
	return &connector.ExternalThreeDS{TransStatus: a.TransStatus, ECI: a.ECI, CAVV: a.CAVV, DSTransID: a.DSTransID, Version: e.version}
}

// failure is the answer recorded for an authentication that failed: no
// connector was asked.
func (e *externalThreeDS) failure() *connector.PaymentResult {
	return &connector.PaymentResult{Status: connector.StatusFailure,
		Decline: &connector.Decline{Code: externalAuthFailureCode, Message: externalAuthFailureMessage}}
}

// givenThreeDS is the merchant's own result as the attempt keeps it.
func givenThreeDS(d *ExternalThreeDSData) *externalThreeDS {
	e := &externalThreeDS{answer: connector.ThreeDSAnswer{TransStatus: d.TransStatus, CAVV: d.Cryptogram,
		ECI: deref(d.ECI), DSTransID: deref(d.DSTransID)}, version: deref(d.Version)}
	if e.verdict() == threeDSFail {
		e.answer.ErrorCode, e.answer.ErrorMessage = externalAuthFailureCode, externalAuthFailureMessage
	}
	return e
}

// sealThreeDSData seals the merchant's three_ds_data for the payment
// intentID, to wait for its confirm.
func (s *Service) sealThreeDSData(d *ExternalThreeDSData, intentID string) ([]byte, error) {
	b, err := s.box.SealJSON(d, []byte("three_ds_data:"+intentID))
	if err != nil {
		return nil, errs.Internal(err)
	}
	return b, nil
}

// startThreeDS is the external authentication of the confirm of pi that
// records attemptID and charges method: the merchant's three_ds_data
// (given, else what the payment keeps), or the sandbox 3-D Secure
// server's answer when the payment asks for one and its profile has an
// authentication connector. Nil when there is none.
func (s *Service) startThreeDS(ctx context.Context, tx *ent.Tx, pi *ent.PaymentIntent, method *customer.PaymentMethodInput,
	attemptID string, given *ExternalThreeDSData) (*externalThreeDS, error) {
	if given == nil && pi.ThreeDsDataSealed != nil && len(*pi.ThreeDsDataSealed) > 0 {
		given = &ExternalThreeDSData{}
		if err := s.box.OpenJSON(*pi.ThreeDsDataSealed, []byte("three_ds_data:"+pi.ID), given); err != nil {
			return nil, errs.Internal(err)
		}
	}
	if given != nil {
		return givenThreeDS(given), nil
	}
	if pi.RequestExternalThreeDsAuthentication != paymentintent.RequestExternalThreeDsAuthenticationEnable ||
		pi.AuthenticationType == nil || *pi.AuthenticationType != paymentintent.AuthenticationTypeThreeDs ||
		method.Card == nil {
		return nil, nil
	}
	authConnector, err := s.authenticationConnector(ctx, tx, pi.ProfileID)
	if err != nil || authConnector == "" {
		return nil, err
	}
	number, err := cards.ValidateNumber(method.Card.Number)
	if err != nil {
		return nil, nil // the payment connector refuses the card
	}
	e := &externalThreeDS{answer: connector.SandboxThreeDS(number, attemptID), version: connector.ThreeDSMessageVersion,
		authConnector: authConnector}
	flow := paymentattempt.ExternalThreeDsFlowFrictionless
	if e.verdict() == threeDSChallenge {
		flow = paymentattempt.ExternalThreeDsFlowChallenge
	}
	e.flow = &flow
	return e, nil
}

// authenticationConnector is the name of the profile's authentication
// connector: the first of its authentication_connector_details'
// authentication_connectors with an enabled authentication_processor
// account on the profile; "" when there is none.
func (s *Service) authenticationConnector(ctx context.Context, tx *ent.Tx, profileID string) (string, error) {
	prof, err := tx.Profile.Get(ctx, profileID)
	if err != nil {
		return "", errs.Internal(err)
	}
	names, _ := prof.AuthenticationConnectorDetails["authentication_connectors"].([]any)
	if len(names) == 0 {
		return "", nil
	}
	accounts, err := tx.MerchantConnectorAccount.Query().Where(
		merchantconnectoraccount.ProfileID(profileID),
		merchantconnectoraccount.ConnectorTypeEQ(merchantconnectoraccount.ConnectorTypeAuthenticationProcessor),
		merchantconnectoraccount.Disabled(false)).All(ctx)
	if err != nil {
		return "", errs.Internal(err)
	}
	for _, n := range names {
		for _, a := range accounts {
			if name, _ := n.(string); name != "" && a.ConnectorName == name {
				return name, nil
			}
		}
	}
	return "", nil
}

// authorizeConfirmed runs what a confirm's transaction (c) left to do:
// the authorization at the connector, unless the external authentication
// failed (the payment fails, no connector asked) or waits for its
// challenge (the card waits in the vault for the customer's answer).
func (s *Service) authorizeConfirmed(ctx context.Context, merchantID string, c *confirmation) (*PaymentView, error) {
	if c.blocked {
		return s.refuseBlocked(ctx, c)
	}
	ext := c.threeDS
	if ext == nil || ext.verdict() == threeDSAuthorize {
		return s.authorize(ctx, c.pi, c.att, c.mca, c.method, ext.forConnector())
	}
	a := authorization{paymentID: c.pi.PaymentID, attemptID: c.att.ID, prior: &confirmation{pi: c.pi, att: c.att}}
	res := ext.failure()
	if ext.verdict() == threeDSChallenge {
		if err := s.customers.VaultPut(ctx, merchantID, c.pi.ID, c.method, time.Until(c.pi.ExpiresOn)); err != nil {
			return nil, err
		}
		res = &connector.PaymentResult{Status: connector.StatusAuthenticationPending}
		a.nextAction = s.threeDSInvoke(c.pi, c.att, ext)
	}
	return s.settleOutside(ctx, &a, res)
}

// refuseBlocked fails the attempt of a confirm whose card the merchant
// blocked, as Hyperswitch does: no connector is called, the attempt
// records why (the code and message of the refusal) and the payment is
// failed; the caller gets the refusal itself (HE_03, type blocked).
func (s *Service) refuseBlocked(ctx context.Context, c *confirmation) (*PaymentView, error) {
	refusal := errs.ErrPaymentBlocked.New()
	a := authorization{paymentID: c.pi.PaymentID, attemptID: c.att.ID, prior: &confirmation{pi: c.pi, att: c.att}}
	res := &connector.PaymentResult{Status: connector.StatusFailure,
		Decline: &connector.Decline{Code: refusal.Code, Message: refusal.Message}}
	if _, err := s.settleOutside(ctx, &a, res); err != nil {
		return nil, err
	}
	return nil, refusal
}

// settleOutside settles an answer no connector call gave (an external
// authentication's), in its own transaction, and finishes it.
func (s *Service) settleOutside(ctx context.Context, a *authorization, res *connector.PaymentResult) (*PaymentView, error) {
	if err := s.db.InTx(ctx, func(tx *ent.Tx) error { return s.settleAuthorization(ctx, tx, a, res, nil) }); err != nil {
		return nil, err
	}
	view, _, err := s.finishAuthorization(ctx, a)
	if err != nil {
		return nil, err
	}
	return s.viewOr(ctx, view, a.paymentID)
}

// threeDSInvoke is Hyperswitch's next_action three_ds_invoke for an
// attempt whose authentication waits for its challenge: the spec's
// ThreeDsData, with what Hyperswitch's web SDK reads (the authentication
// and authorize URLs, the method's details, the poll's configuration).
func (s *Service) threeDSInvoke(pi *ent.PaymentIntent, att *ent.PaymentAttempt, e *externalThreeDS) map[string]any {
	return map[string]any{"type": "three_ds_invoke", "three_ds_data": map[string]any{
		"three_ds_authentication_url":    s.publicURL + "/payments/" + url.PathEscape(pi.PaymentID) + "/3ds/authentication",
		"three_ds_authorize_url":         s.authorizeURL(pi, att),
		"three_ds_server_transaction_id": e.answer.ServerTransID,
		"maximum_supported_3ds_version":  connector.ThreeDSMessageVersion,
		"connector_authentication_id":    att.ID,
		"three_ds_method_data":           "",
		"three_ds_method_url":            "",
		// The sandbox's server needs no 3-D Secure method run.
		"three_ds_method_details": map[string]any{"three_ds_method_data_submission": false,
			"three_ds_method_data": nil, "three_ds_method_url": nil, "three_ds_method_key": nil,
			"consume_post_message_for_three_ds_method_completion": false},
		"poll_config":         map[string]any{"poll_id": PollID(pi.PaymentID), "delay_in_secs": pollDelaySecs, "frequency": pollFrequency},
		"message_version":     e.version,
		"directory_server_id": directoryServerID(cardNetworkOf(att)),
		"card_network":        cardNetworkOf(att),
		"three_ds_connector":  e.authConnector,
	}}
}

// Hyperswitch's default poll configuration: every 2 s, 5 times.
const (
	pollDelaySecs = 2
	pollFrequency = 5
)

// authorizeURL is the attempt's three_ds_authorize_url: the page that
// ends the checkout's 3-D Secure step (Hyperswitch's
// /payments/{payment_id}/{merchant_id}/authorize/{connector}), with the
// token that authenticates the customer's browser.
func (s *Service) authorizeURL(pi *ent.PaymentIntent, att *ent.PaymentAttempt) string {
	return s.publicURL + "/payments/" + url.PathEscape(pi.PaymentID) + "/" + url.PathEscape(pi.MerchantID) +
		"/authorize/" + url.PathEscape(deref(att.Connector)) + "?token=" + s.RedirectToken(att.ID)
}

// cardNetworkOf is the network of the attempt's card ("" unknown).
func cardNetworkOf(att *ent.PaymentAttempt) string {
	if att.Card == nil {
		return ""
	}
	return deref(att.Card.CardNetwork)
}

// directoryServerID is the 3-D Secure directory server of a card network
// (the network's registered application provider id).
func directoryServerID(network string) string {
	if network == "Mastercard" {
		return "A000000004"
	}
	return "A000000003"
}

// ThreeDSChallenge is POST /payments/{id}/3ds/authentication's answer
// (Hyperswitch's PaymentsExternalAuthenticationResponse): the
// authentication's transStatus (C), the challenge page (the ACS) and the
// 3-D Secure transaction ids.
type ThreeDSChallenge struct {
	TransStatus string
	ACSURL      string
	// ACSTransID, ServerTransID and Version are the external
	// authentication's ("" for the connector's own challenge).
	ACSTransID    string
	ServerTransID string
	Version       string
}

// ChallengeRequest is the EMV CReq the checkout posts to the ACS (the
// sandbox's page reads none of it), base64url-encoded as EMV 3-D Secure
// sends it; "" for the connector's own challenge.
func (c *ThreeDSChallenge) ChallengeRequest() string {
	if c.ServerTransID == "" {
		return ""
	}
	creq, _ := json.Marshal(map[string]string{"threeDSServerTransID": c.ServerTransID, "acsTransID": c.ACSTransID,
		"messageType": "CReq", "messageVersion": c.Version, "challengeWindowSize": "05"})
	return base64.RawURLEncoding.EncodeToString(creq)
}

// completeExternalChallenge records the customer's answer on the challenge
// of att's external authentication (pi waits for it): declined (or the
// card no longer in the vault) fails the payment; approved reserves the
// authorization (the attempt pending, the payment processing, in one
// transaction) and authorizes at the connector with the authenticated
// result. A challenge already answered changes nothing.
func (s *Service) completeExternalChallenge(ctx context.Context, pi *ent.PaymentIntent, att *ent.PaymentAttempt, approved bool) error {
	method, err := s.customers.VaultGet(ctx, pi.MerchantID, pi.ID)
	if err != nil {
		return err
	}
	number := ""
	if method != nil && method.Card != nil {
		number, _ = cards.ValidateNumber(method.Card.Number)
	}
	flow := paymentattempt.ExternalThreeDsFlowChallenge
	e := &externalThreeDS{answer: connector.SandboxThreeDSChallenge(number, att.ID, approved && number != ""),
		flow: &flow, version: deref(att.ExternalThreeDsVersion)}
	a := authorization{paymentID: pi.PaymentID, attemptID: att.ID, threeDS: e}
	if e.verdict() != threeDSAuthorize {
		_, err := s.settleOutside(ctx, &a, e.failure())
		s.customers.VaultDrop(ctx, pi.MerchantID, pi.ID)
		return err
	}
	var c *confirmation
	err = s.db.InTx(ctx, func(tx *ent.Tx) error {
		c, err = s.reserveAfterChallenge(ctx, tx, pi.PaymentID, att.ID, e)
		return err
	})
	if err != nil || c == nil {
		return err
	}
	c.method = method
	if _, err := s.authorize(ctx, c.pi, c.att, c.mca, method, e.forConnector()); err != nil {
		return err
	}
	s.customers.VaultDrop(ctx, pi.MerchantID, pi.ID)
	return nil
}

// reserveAfterChallenge records, inside tx, that the authorization of
// attemptID follows its approved challenge: the attempt pending with the
// authentication's result, the payment processing. Nil when the attempt no
// longer waits (answered before).
func (s *Service) reserveAfterChallenge(ctx context.Context, tx *ent.Tx, paymentID, attemptID string, e *externalThreeDS) (*confirmation, error) {
	pi, err := s.lockPayment(ctx, tx, paymentID)
	if err != nil {
		return nil, err
	}
	att, err := tx.PaymentAttempt.Query().Where(paymentAttemptOf(pi.ID, attemptID)...).Only(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	if !waitsForChallenge(pi, att) {
		return nil, nil
	}
	upd := tx.PaymentAttempt.Update().Where(paymentattempt.ID(att.ID)).SetStatus(paymentattempt.StatusPending).ClearNextAction()
	e.record(upd.Mutation())
	if att, err = txn.UpdateRow(ctx, s.db, att, upd); err != nil {
		return nil, errs.Internal(err)
	}
	piUpd := tx.PaymentIntent.Update().Where(paymentintent.ID(pi.ID)).SetStatus(paymentintent.StatusProcessing).AddVersion(1)
	if pi, err = txn.UpdateRow(ctx, s.db, pi, piUpd); err != nil {
		return nil, errs.Internal(err)
	}
	mca, err := tx.MerchantConnectorAccount.Get(ctx, deref(att.MerchantConnectorID))
	if err != nil {
		return nil, errs.Internal(err)
	}
	return &confirmation{pi: pi, att: att, mca: mca}, nil
}

// waitsForChallenge says att is pi's attempt waiting for the challenge of
// its external authentication.
func waitsForChallenge(pi *ent.PaymentIntent, att *ent.PaymentAttempt) bool {
	return pi.Status == paymentintent.StatusRequiresCustomerAction && pi.ActiveAttemptID != nil && *pi.ActiveAttemptID == att.ID &&
		att.Status == paymentattempt.StatusAuthenticationPending &&
		att.ExternalThreeDsStatus != nil && *att.ExternalThreeDsStatus == paymentattempt.ExternalThreeDsStatusPending
}

// AuthorizePage is the three_ds_authorize_url's page: the payment of
// merchantID whose active attempt the token names, as the checkout's 3-D
// Secure step leaves it.
func (s *Service) AuthorizePage(ctx context.Context, merchantID, paymentID, token string) (*RedirectTarget, error) {
	pi, err := s.db.Client.PaymentIntent.Query().
		Where(paymentintent.MerchantID(merchantID), paymentintent.PaymentID(paymentID)).Only(tenancy.System(ctx))
	if ent.IsNotFound(err) || (err == nil && pi.ActiveAttemptID == nil) {
		return nil, errPaymentNotFound()
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	return s.AuthenticationPage(ctx, *pi.ActiveAttemptID, token)
}
