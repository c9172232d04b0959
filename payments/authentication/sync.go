package authentication

import (
	"context"
	"encoding/json"

	"switchyard/ent"
	"switchyard/internal/tenancy"
	"switchyard/payments/errs"
)

func principalOf(ctx context.Context) tenancy.Principal {
	p, _ := tenancy.FromContext(ctx)
	return p
}

// Sync is authentication id as it stands (POST /authentication/{id}/sync).
// The sandbox's 3-D Secure server answers each step at once, so there is
// nothing to ask it: the row is the answer. The client secret is required
// of a publishable key; the ECI and CAVV are shown to a secret key only.
func (s *Service) Sync(ctx context.Context, id string, clientSecret *string) (*Result, error) {
	if clientSecret == nil {
		return nil, errs.MissingField("client_secret")
	}
	a, err := s.loadForClient(ctx, id, clientSecret)
	if err != nil {
		return nil, err
	}
	return s.result(ctx, a)
}

// SessionTokens are the authentication's session tokens (POST
// /authentication/{id}/enabled_authn_methods_token): none, since the
// sandbox runs no click-to-pay. It holds the caller to the client secret.
func (s *Service) SessionTokens(ctx context.Context, id string, clientSecret *string) (*ent.Authentication, error) {
	if clientSecret == nil {
		return nil, errs.MissingField("client_secret")
	}
	return s.loadForClient(ctx, id, clientSecret)
}

// EligibilityCheck records the click-to-pay eligibility data of
// authentication id (POST /authentication/{id}/eligibility-check, from
// the checkout SDK) for the merchant to read back. With no fraud or
// network checks to run, its answer is always to proceed.
func (s *Service) EligibilityCheck(ctx context.Context, id string, clientSecret *string, data map[string]any) (*ent.Authentication, error) {
	if _, err := s.loadForClient(ctx, id, clientSecret); err != nil {
		return nil, err
	}
	if data == nil {
		return nil, errs.MissingField("eligibility_check_data")
	}
	ctp, ok := data["click_to_pay"].(map[string]any)
	if !ok || len(data) != 1 {
		return nil, errs.InvalidValue("eligibility_check_data", "must be an object with one member, click_to_pay")
	}
	return s.update(ctx, id, func(*ent.Authentication) error { return nil }, func(u *ent.AuthenticationUpdateOne) {
		u.SetEligibilityCheckData(map[string]any{"click_to_pay": ctp})
	})
}

// Enrollment is the click-to-pay enrollment an eligibility check recorded:
// whether the consumer is present at each network (nil when unsaid).
type Enrollment struct {
	Visa, Mastercard *bool
}

// RetrieveEligibilityCheck is what the eligibility check of
// authentication id recorded (GET /authentication/{id}/eligibility-check).
// None is Hyperswitch's generic not found (IR_37).
func (s *Service) RetrieveEligibilityCheck(ctx context.Context, id string) (*Enrollment, error) {
	a, err := s.load(ctx, s.db.Client, id, false)
	if err != nil {
		return nil, err
	}
	if a.EligibilityCheckData == nil {
		return nil, errs.ErrEligibilityCheckNotFound.Newf("Eligibility check data not found for authentication id: %s", id)
	}
	var data struct {
		ClickToPay struct {
			Visa *struct {
				ConsumerPresent *bool `json:"consumerPresent"`
			} `json:"visa"`
			Mastercard *struct {
				ConsumerPresent *bool `json:"consumerPresent"`
			} `json:"mastercard"`
		} `json:"click_to_pay"`
	}
	b, err := json.Marshal(a.EligibilityCheckData)
	if err == nil {
		err = json.Unmarshal(b, &data)
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	var e Enrollment
	if v := data.ClickToPay.Visa; v != nil {
		e.Visa = v.ConsumerPresent
	}
	if m := data.ClickToPay.Mastercard; m != nil {
		e.Mastercard = m.ConsumerPresent
	}
	return &e, nil
}
