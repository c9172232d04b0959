package authentication

import (
	"errors"
	"testing"
	"time"

	"switchyard/ent"
	entauth "switchyard/ent/authentication"
	"switchyard/payments/connector"
	"switchyard/payments/errs"
)

func authn(st entauth.Status, trans string) *ent.Authentication {
	a := &ent.Authentication{ID: "authn_x", Status: st, ClientSecret: "authn_x_secret_abc",
		CreatedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	if trans != "" {
		a.TransStatus = &trans
	}
	return a
}

// TestStepsByStatus: which step each state allows, and the failure it
// answers otherwise.
func TestStepsByStatus(t *testing.T) {
	steps := map[string]func(*ent.Authentication) error{
		"eligibility": checkEligibility, "authenticate": checkAuthenticate, "challenge": checkChallenge,
	}
	cases := []struct {
		st      entauth.Status
		trans   string
		allowed []string
	}{
		{entauth.StatusStarted, "", []string{"eligibility"}},
		{entauth.StatusPending, "", []string{"eligibility", "authenticate"}},
		{entauth.StatusPending, "C", []string{"challenge"}},
		{entauth.StatusSuccess, "Y", nil},
		{entauth.StatusSuccess, "A", nil},
		{entauth.StatusFailed, "N", nil},
		{entauth.StatusFailed, "U", nil},
	}
	for _, c := range cases {
		for name, check := range steps {
			err := check(authn(c.st, c.trans))
			want := false
			for _, a := range c.allowed {
				want = want || a == name
			}
			if (err == nil) != want {
				t.Errorf("%s in %s/%q: err = %v, allowed %v", name, c.st, c.trans, err, want)
			}
			if err != nil && !errors.Is(err, errs.ErrAuthenticationStatusInvalid) {
				t.Errorf("%s in %s/%q: %v is not authentication_status_invalid", name, c.st, c.trans, err)
			}
			if e, ok := errs.As(err); ok && e.Kind != errs.KindUnprocessable {
				t.Errorf("%s in %s/%q: of kind %v, want unprocessable", name, c.st, c.trans, e.Kind)
			}
		}
	}
}

// TestAnswerOutcomes: each transStatus of the sandbox's cards, and a
// forced challenge.
func TestAnswerOutcomes(t *testing.T) {
	cases := []struct {
		card       string
		force      bool
		status     entauth.Status
		trans, eci string
		cavv, errd bool
	}{
		{"4242424242424242", false, entauth.StatusSuccess, "Y", "05", true, false},
		{"5555555555554444", false, entauth.StatusSuccess, "Y", "02", true, false},
		{"4242424242424242", true, entauth.StatusPending, "C", "", false, false},
		{"4000000000003022", false, entauth.StatusFailed, "N", "07", false, true},
		{"4000000000003022", true, entauth.StatusFailed, "N", "07", false, true},
		{"4000000000003048", false, entauth.StatusSuccess, "A", "06", true, false},
		{"4000000000003089", false, entauth.StatusFailed, "U", "07", false, true},
		{"4000000000003063", false, entauth.StatusPending, "C", "", false, false},
		{"4000000000003220", false, entauth.StatusPending, "C", "", false, false},
	}
	for _, c := range cases {
		o := decideAnswer(connector.SandboxThreeDS(c.card, "authn_x"), c.force)
		if o.Status != c.status || o.TransStatus != c.trans || o.ECI != c.eci || (o.CAVV != "") != c.cavv ||
			(o.ErrorCode != "") != c.errd {
			t.Errorf("%s force=%v: %+v", c.card, c.force, o)
		}
	}
	if o := decideAnswer(connector.ThreeDSAnswer{TransStatus: connector.ThreeDSRejected}, false); o.Status != entauth.StatusFailed || o.ErrorCode == "" {
		t.Errorf("R: %+v", o)
	}
	for approved, want := range map[bool]entauth.Status{true: entauth.StatusSuccess, false: entauth.StatusFailed} {
		if o := decideAnswer(connector.SandboxThreeDSChallenge("424242", "authn_x", approved), false); o.Status != want {
			t.Errorf("challenge approved=%v: %+v", approved, o)
		}
	}
}

// TestClientSecretRule: required of a publishable key, checked when a
// secret key gives one, and expired after ClientSecretLifetime.
func TestClientSecretRule(t *testing.T) {
	a := authn(entauth.StatusStarted, "")
	good, bad, empty := a.ClientSecret, "authn_x_secret_other", ""
	fresh, late := a.CreatedAt.Add(time.Minute), a.CreatedAt.Add(ClientSecretLifetime)
	cases := []struct {
		given      *string
		clientOnly bool
		now        time.Time
		want       *errs.Failure
	}{
		{nil, false, fresh, nil},
		{nil, true, fresh, errs.ErrClientSecretMissing},
		{&empty, true, fresh, errs.ErrClientSecretMissing},
		{&good, true, fresh, nil},
		{&good, false, fresh, nil},
		{&bad, true, fresh, errs.ErrClientSecretMismatch},
		{&bad, false, fresh, errs.ErrClientSecretMismatch},
		{&good, true, late, errs.ErrClientSecretExpired},
	}
	for i, c := range cases {
		err := checkClientSecret(a, c.given, c.clientOnly, c.now)
		if (c.want == nil) != (err == nil) || (c.want != nil && !errors.Is(err, c.want)) {
			t.Errorf("case %d: err = %v, want %v", i, err, c.want)
		}
	}
}

// TestValuesOnlyForTheSecretKey: the ECI and CAVV are a secret key's, and
// only once the authentication succeeded.
func TestValuesOnlyForTheSecretKey(t *testing.T) {
	for _, c := range []struct {
		st         entauth.Status
		clientOnly bool
		want       bool
	}{
		{entauth.StatusSuccess, false, true}, {entauth.StatusSuccess, true, false},
		{entauth.StatusFailed, false, false}, {entauth.StatusPending, false, false},
	} {
		if got := revealsValues(authn(c.st, ""), c.clientOnly); got != c.want {
			t.Errorf("%s clientOnly=%v: %v", c.st, c.clientOnly, got)
		}
	}
}

// TestReturnURLKeepsTheMerchantsQuery: the merchant's own query stays
// first; the authentication's members follow.
func TestReturnURLKeepsTheMerchantsQuery(t *testing.T) {
	a := authn(entauth.StatusSuccess, "Y")
	u := "https://shop.example/back?order=7"
	a.ReturnURL = &u
	if got, want := returnTo(a), "https://shop.example/back?order=7&authentication_id=authn_x&status=success&trans_status=Y"; got != want {
		t.Errorf("returnTo = %s, want %s", got, want)
	}
	a.ReturnURL = nil
	if got := returnTo(a); got != "" {
		t.Errorf("no return_url: %q", got)
	}
}
