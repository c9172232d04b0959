package authentication

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/url"

	"switchyard/ent"
	"switchyard/payments/connector"
	"switchyard/payments/errs"
	"switchyard/payments/validate"

	entauth "switchyard/ent/authentication"
)

var (
	deviceChannels  = validate.NewEnum("DeviceChannel", "APP", "BRW")
	completionIndic = validate.NewEnum("ThreeDsCompletionIndicator", "Y", "N", "U")
)

// AuthenticateInput is POST /authentication/{id}/authenticate's body.
type AuthenticateInput struct {
	ClientSecret         *string
	DeviceChannel        *string
	ThreeDSMethodCompInd *string
}

// Validate checks the input on its own.
func (in *AuthenticateInput) Validate() error {
	switch {
	case in.ClientSecret == nil:
		return errs.MissingField("client_secret")
	case in.DeviceChannel == nil:
		return errs.MissingField("device_channel")
	case in.ThreeDSMethodCompInd == nil:
		return errs.MissingField("threeds_method_comp_ind")
	}
	return validate.First(deviceChannels.Required("device_channel", *in.DeviceChannel),
		completionIndic.Required("threeds_method_comp_ind", *in.ThreeDSMethodCompInd))
}

// Result is an authentication as a step answers it, with what only the
// merchant's secret key may see.
type Result struct {
	*ent.Authentication
	// AuthenticationValue is the CAVV, unsealed, for a secret key's call
	// on a successful authentication; "" otherwise.
	AuthenticationValue string
	// ECI is the electronic commerce indicator under the same rule.
	ECI string
	// Revealed says the values are the caller's to see.
	Revealed bool
}

// Authenticate sends authentication id to the 3-D Secure server with the
// card kept at eligibility (POST /authentication/{id}/authenticate): the
// answer is recorded (the CAVV sealed), and a challenge leaves it pending
// with acs_url pointing at the sandbox's challenge page.
func (s *Service) Authenticate(ctx context.Context, id string, in AuthenticateInput) (*Result, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	a, err := s.loadForClient(ctx, id, in.ClientSecret)
	if err != nil {
		return nil, err
	}
	if err := checkAuthenticate(a); err != nil {
		return nil, err
	}
	pm, err := s.customers.VaultGet(ctx, a.MerchantID, a.ID)
	if err != nil {
		return nil, err
	}
	if pm == nil || pm.Card == nil {
		return nil, errs.ErrAuthenticationStatusInvalid.Newf("The card given at eligibility is no longer kept: " +
			"call POST /authentication/{authentication_id}/eligibility again")
	}
	o := decideAnswer(connector.SandboxThreeDS(pm.Card.Number, a.ID), a.Force3dsChallenge)
	a, err = s.record(ctx, id, checkAuthenticate, o)
	if err != nil {
		return nil, err
	}
	// The card has done its work: the challenge's answer needs only its BIN.
	s.customers.VaultDrop(ctx, a.MerchantID, a.ID)
	return s.result(ctx, a)
}

// record writes o onto authentication id, rechecked by check under its lock.
func (s *Service) record(ctx context.Context, id string, check func(*ent.Authentication) error, o outcome) (*ent.Authentication, error) {
	var sealed []byte
	if o.CAVV != "" {
		var err error
		if sealed, err = s.box.Seal([]byte(o.CAVV), []byte(id)); err != nil {
			return nil, errs.Internal(err)
		}
	}
	return s.update(ctx, id, check, func(u *ent.AuthenticationUpdateOne) {
		u.SetStatus(o.Status).SetTransStatus(o.TransStatus).
			SetDsTransID(o.DSTransID).SetAcsTransID(o.ACSTransID)
		setOrClear(o.ECI, u.SetEci, u.ClearEci)
		setOrClear(o.ErrorCode, u.SetErrorCode, u.ClearErrorCode)
		setOrClear(o.ErrorMessage, u.SetErrorMessage, u.ClearErrorMessage)
		if sealed != nil {
			u.SetCavvSealed(sealed)
		} else {
			u.ClearCavvSealed()
		}
		if o.Status == entauth.StatusPending {
			u.SetAcsURL(s.ChallengeURL(id)).SetChallengeRequest(challengeRequest(o))
		} else {
			u.SetAuthenticatedAt(s.db.Now())
		}
	})
}

func setOrClear[U any](v string, set func(string) U, clear func() U) {
	if v != "" {
		set(v)
	} else {
		clear()
	}
}

// challengeRequest is the CReq a browser posts to the ACS, base64url
// encoded as EMV 3-D Secure sends it.
func challengeRequest(o outcome) string {
	b, _ := json.Marshal(map[string]string{"messageType": "CReq", "messageVersion": connector.ThreeDSMessageVersion,
		"acsTransID": o.ACSTransID, "challengeWindowSize": "05"})
	return base64.RawURLEncoding.EncodeToString(b)
}

// result is a with the values its caller may see.
func (s *Service) result(ctx context.Context, a *ent.Authentication) (*Result, error) {
	p := principalOf(ctx)
	r := &Result{Authentication: a}
	if !revealsValues(a, p.ClientOnly) {
		return r, nil
	}
	r.Revealed, r.ECI = true, deref(a.Eci)
	if len(a.CavvSealed) > 0 {
		cavv, err := s.box.Open(a.CavvSealed, []byte(a.ID))
		if err != nil {
			return nil, errs.Internal(err)
		}
		r.AuthenticationValue = string(cavv)
	}
	return r, nil
}

// ChallengeURL is the sandbox's challenge page of authentication id; its
// token (a keyed hash of the id) authenticates the customer's browser.
func (s *Service) ChallengeURL(id string) string {
	return s.publicURL + "/sandbox/authentication/" + url.PathEscape(id) + "?token=" + s.ChallengeToken(id)
}

// ChallengeToken authenticates the customer's browser on the challenge page.
func (s *Service) ChallengeToken(id string) string {
	return s.box.Fingerprint("sandbox-authentication", id)[:32]
}

// AuthenticateURL is where eligibility's next action sends the client.
func (s *Service) AuthenticateURL(id string) string {
	return s.publicURL + "/authentication/" + url.PathEscape(id) + "/authenticate"
}
