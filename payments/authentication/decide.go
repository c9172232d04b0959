package authentication

import (
	"crypto/subtle"
	"time"

	"switchyard/ent"
	entauth "switchyard/ent/authentication"
	"switchyard/payments/connector"
	"switchyard/payments/errs"
)

// The state machine, without a database. An authentication is
//
//	started  created; waits for the card (eligibility)
//	pending  the card is in (eligibility), or a challenge waits for the
//	         customer (trans_status C)
//	success  authenticated (Y) or attempted (A): a payment may use it
//	failed   not authenticated (N), unavailable (U) or rejected (R)
//
// success and failed are terminal.

// terminal reports whether an authentication in status st is answered.
func terminal(st entauth.Status) bool {
	return st == entauth.StatusSuccess || st == entauth.StatusFailed
}

// challengeWaiting reports whether a's challenge waits for the customer.
func challengeWaiting(a *ent.Authentication) bool {
	return a.Status == entauth.StatusPending && deref(a.TransStatus) == connector.ThreeDSChallenge
}

// errAnswered refuses a step of an authentication already answered, in
// Hyperswitch's words (ensure_not_terminal_status).
func errAnswered(a *ent.Authentication) *errs.Error {
	return errs.ErrAuthenticationStatusInvalid.Newf(
		"authentication status for the given authentication_id is already in %s", a.Status)
}

// checkEligibility: the card may be given (or given again) until the
// authentication has been sent to the 3-D Secure server.
func checkEligibility(a *ent.Authentication) error {
	switch {
	case terminal(a.Status):
		return errAnswered(a)
	case a.TransStatus != nil:
		return errs.ErrAuthenticationStatusInvalid.Newf(
			"The authentication has been sent to the 3-D Secure server; its card cannot change")
	}
	return nil
}

// checkAuthenticate: authenticate follows eligibility, once.
func checkAuthenticate(a *ent.Authentication) error {
	switch {
	case terminal(a.Status):
		return errAnswered(a)
	case a.Status == entauth.StatusStarted:
		return errs.ErrAuthenticationStatusInvalid.Newf(
			"The authentication has no card yet: call POST /authentication/{authentication_id}/eligibility first")
	case a.TransStatus != nil:
		return errs.ErrAuthenticationStatusInvalid.Newf(
			"The authentication waits for its challenge; it is answered on the challenge page")
	}
	return nil
}

// checkChallenge: a challenge is answered once, while it waits.
func checkChallenge(a *ent.Authentication) error {
	if !challengeWaiting(a) {
		if terminal(a.Status) {
			return errAnswered(a)
		}
		return errs.ErrAuthenticationStatusInvalid.Newf("The authentication has no challenge waiting")
	}
	return nil
}

// outcome is what an answer of the 3-D Secure server makes of an
// authentication.
type outcome struct {
	Status      entauth.Status
	TransStatus string
	ECI         string
	// CAVV is the authentication value, to be sealed before it is stored.
	CAVV                    string
	ErrorCode, ErrorMessage string
	DSTransID, ACSTransID   string
}

// decideAnswer maps the server's answer onto the authentication. A forced
// challenge (force_3ds_challenge) turns a frictionless success into a
// challenge: the issuer is asked to challenge, and the sandbox always does.
func decideAnswer(ans connector.ThreeDSAnswer, forceChallenge bool) outcome {
	if forceChallenge && ans.TransStatus == connector.ThreeDSAuthenticated {
		ans = connector.ThreeDSAnswer{TransStatus: connector.ThreeDSChallenge, DSTransID: ans.DSTransID,
			ACSTransID: ans.ACSTransID, ServerTransID: ans.ServerTransID}
	}
	o := outcome{TransStatus: ans.TransStatus, ECI: ans.ECI, CAVV: ans.CAVV, ErrorCode: ans.ErrorCode,
		ErrorMessage: ans.ErrorMessage, DSTransID: ans.DSTransID, ACSTransID: ans.ACSTransID}
	switch {
	case ans.Succeeded():
		o.Status = entauth.StatusSuccess
	case ans.TransStatus == connector.ThreeDSChallenge:
		o.Status = entauth.StatusPending
	default:
		o.Status = entauth.StatusFailed
		if o.ErrorCode == "" {
			o.ErrorCode, o.ErrorMessage = "authentication_rejected", "The issuer rejected the authentication."
		}
	}
	return o
}

// checkClientSecret is the client-secret rule: a publishable key must give
// the authentication's client_secret, and a secret key that gives one is
// held to it; it must match and not be older than ClientSecretLifetime.
func checkClientSecret(a *ent.Authentication, given *string, clientOnly bool, now time.Time) error {
	switch {
	case given == nil && !clientOnly:
		return nil
	case given == nil || *given == "":
		return errs.ErrClientSecretMissing.New()
	case subtle.ConstantTimeCompare([]byte(*given), []byte(a.ClientSecret)) != 1:
		return errs.ErrClientSecretMismatch.New()
	case !now.Before(a.CreatedAt.Add(ClientSecretLifetime)):
		return errs.ErrClientSecretExpired.New()
	}
	return nil
}

// revealsValues says whether a caller may see the authentication's ECI
// and CAVV: only the merchant's secret key, as Hyperswitch shows them only
// to a server-to-server call, and only once authenticated or attempted.
func revealsValues(a *ent.Authentication, clientOnly bool) bool {
	return !clientOnly && a.Status == entauth.StatusSuccess
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
