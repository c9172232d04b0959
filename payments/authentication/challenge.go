package authentication

import (
	"context"
	"crypto/subtle"
	"net/url"

	"switchyard/ent"
	"switchyard/internal/tenancy"
	"switchyard/payments/connector"
	"switchyard/payments/errs"

	entauth "switchyard/ent/authentication"
)

// The sandbox's challenge page for authentications: a challenge (C)
// answers acs_url pointing at GET /sandbox/authentication/{id}?token=…,
// whose Approve and Decline buttons POST here. The customer's browser
// carries no API key: the token authenticates it, and a wrong one is not
// found.

// Challenge is what the challenge page shows, and where the customer goes
// once it is answered.
type Challenge struct {
	*ent.Authentication
	// Return is the return_url with the authentication's id and status in
	// its query; "" without a return_url.
	Return string
}

// ChallengePage is authentication id behind the page's token.
func (s *Service) ChallengePage(ctx context.Context, id, token string) (*Challenge, error) {
	a, err := s.byToken(ctx, id, token)
	if err != nil {
		return nil, err
	}
	return s.challenge(a), nil
}

// CompleteChallenge records the customer's answer on the challenge page:
// approved is authenticated (Y, with its ECI and sealed CAVV), declined is
// not (N).
func (s *Service) CompleteChallenge(ctx context.Context, id, token string, approved bool) (*Challenge, error) {
	a, err := s.byToken(ctx, id, token)
	if err != nil {
		return nil, err
	}
	if err := checkChallenge(a); err != nil {
		return nil, err
	}
	// The sandbox tells the card's network (its ECI) from its first
	// digits: the BIN stands in for the number, which is no longer kept.
	o := decideAnswer(connector.SandboxThreeDSChallenge(deref(a.CardBin), a.ID, approved), false)
	ctx = tenancy.ForMerchant(ctx, a.MerchantID)
	if a, err = s.record(ctx, id, checkChallenge, o); err != nil {
		return nil, err
	}
	return s.challenge(a), nil
}

func (s *Service) byToken(ctx context.Context, id, token string) (*ent.Authentication, error) {
	if subtle.ConstantTimeCompare([]byte(token), []byte(s.ChallengeToken(id))) != 1 {
		return nil, errNotFound()
	}
	return s.byID(ctx, id)
}

// byID is authentication id of whichever merchant: for the routes the
// customer's browser calls, which carry no key.
func (s *Service) byID(ctx context.Context, id string) (*ent.Authentication, error) {
	a, err := s.db.Client.Authentication.Query().Where(entauth.ID(id)).Only(tenancy.System(ctx))
	if ent.IsNotFound(err) {
		return nil, errNotFound()
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	return a, nil
}

// challenge is a with its way back to the merchant.
func (s *Service) challenge(a *ent.Authentication) *Challenge {
	return &Challenge{Authentication: a, Return: returnTo(a)}
}

// returnTo is a's return_url with authentication_id, status and
// trans_status added to its query after the merchant's own.
func returnTo(a *ent.Authentication) string {
	if a.ReturnURL == nil {
		return ""
	}
	u, err := url.Parse(*a.ReturnURL)
	if err != nil {
		return ""
	}
	q := url.Values{}
	q.Set("authentication_id", a.ID)
	q.Set("status", string(a.Status))
	if a.TransStatus != nil {
		q.Set("trans_status", *a.TransStatus)
	}
	if u.RawQuery != "" {
		u.RawQuery += "&"
	}
	u.RawQuery += q.Encode()
	return u.String()
}

// Redirect is where POST /authentication/{id}/redirect sends the
// customer: the 3-D Secure server's notification that the challenge is
// over. It takes no key, as Hyperswitch's; the authentication is found by
// its id alone and shows only its status.
func (s *Service) Redirect(ctx context.Context, id string) (*Challenge, error) {
	a, err := s.byID(ctx, id)
	if err != nil {
		return nil, err
	}
	return s.challenge(a), nil
}
