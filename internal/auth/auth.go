// Package auth turns request credentials into a tenancy.Principal: the one
// mechanism REST and GraphQL share. v1 routes carry the key in the `api-key`
// header; v2 routes in `Authorization: api-key=<key>` with `X-Profile-Id`.
// The admin key comes from config; merchant secret keys are looked up by
// their keyed hash, through the Keys it is given (payments/merchant). It
// imports no domain package: the wiring hands it the merchant service.
package auth

import (
	"context"
	"crypto/subtle"
	"net/http"
	"strings"

	"switchyard/internal/tenancy"
	"switchyard/payments/errs"
)

// Header names.
const (
	HeaderAPIKey        = "api-key"
	HeaderAuthorization = "Authorization"
	HeaderProfileID     = "X-Profile-Id"
	// HeaderMerchantID lets the admin key act as one merchant (GraphQL, admin tools).
	HeaderMerchantID = "X-Merchant-Id"
)

// Keys is where merchant keys are looked up (payments/merchant).
type Keys interface {
	// ActiveSecretKey is the merchant and key id of an active secret key;
	// an unknown, revoked or expired one is IR_01.
	ActiveSecretKey(ctx context.Context, plain string) (merchantID, keyID string, err error)
	// MerchantByPublishableKey is the merchant of a publishable key; an
	// unknown one is IR_01.
	MerchantByPublishableKey(ctx context.Context, key string) (merchantID string, err error)
	// CheckScope verifies that a principal's merchant and profile exist and
	// belong together (a foreign one is HE_02).
	CheckScope(ctx context.Context, p tenancy.Principal) error
}

// EphemeralKeys is where customers' ephemeral keys are looked up
// (payments/customer).
type EphemeralKeys interface {
	// EphemeralKeyOwner is the merchant and customer of a live ephemeral
	// key; an unknown or expired one is IR_01.
	EphemeralKeyOwner(ctx context.Context, secret string) (merchantID, customerID string, err error)
}

// Authenticator verifies keys.
type Authenticator struct {
	keys      Keys
	ephemeral EphemeralKeys
	adminKey  []byte
}

// WithEphemeralKeys makes AuthenticateCustomer accept the customers'
// ephemeral keys that e holds.
func (a *Authenticator) WithEphemeralKeys(e EphemeralKeys) *Authenticator {
	a.ephemeral = e
	return a
}

// EphemeralKeyPrefix starts every ephemeral key.
const EphemeralKeyPrefix = "epk_"

// AuthenticateCustomer is Authenticate for the routes of one customer: it
// also accepts an ephemeral key, as a principal of its merchant limited to
// its customer (CustomerID), which the route holds to the customer it
// names.
func (a *Authenticator) AuthenticateCustomer(ctx context.Context, r *http.Request) (tenancy.Principal, error) {
	key := KeyFromRequest(r)
	if !strings.HasPrefix(key, EphemeralKeyPrefix) || a.ephemeral == nil {
		return a.Authenticate(ctx, r)
	}
	merchantID, customerID, err := a.ephemeral.EphemeralKeyOwner(ctx, key)
	if err != nil {
		return tenancy.Principal{}, err
	}
	return tenancy.Principal{Kind: tenancy.KindMerchant, MerchantID: merchantID, CustomerID: customerID}, nil
}

// New returns an authenticator for the admin key and the merchant keys
// that keys holds.
func New(keys Keys, adminKey string) *Authenticator {
	return &Authenticator{keys: keys, adminKey: []byte(adminKey)}
}

// KeyFromRequest returns the key a request carries: the `api-key` header,
// `Authorization: api-key=<key>` (v2), or the publishable key of v2's
// client scheme, `Authorization: publishable-key=<key>,client-secret=<secret>`.
func KeyFromRequest(r *http.Request) string {
	if k := strings.TrimSpace(r.Header.Get(HeaderAPIKey)); k != "" {
		return k
	}
	authz := strings.TrimSpace(r.Header.Get(HeaderAuthorization))
	if v, ok := strings.CutPrefix(authz, "api-key="); ok {
		return strings.TrimSpace(v)
	}
	return authorizationParam(authz, "publishable-key")
}

// ClientSecretFromRequest returns the client secret of v2's client scheme
// (`Authorization: publishable-key=<key>,client-secret=<secret>`), or "".
func ClientSecretFromRequest(r *http.Request) string {
	return authorizationParam(strings.TrimSpace(r.Header.Get(HeaderAuthorization)), "client-secret")
}

// authorizationParam reads name=value from a comma-separated Authorization
// value of v2's client scheme.
func authorizationParam(authz, name string) string {
	if !strings.HasPrefix(authz, "publishable-key=") {
		return ""
	}
	for part := range strings.SplitSeq(authz, ",") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(part), name+"="); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// Authenticate resolves the request's key into a principal. It accepts the
// admin key and merchant secret keys; publishable keys are accepted only by
// the client-side payment routes, through AuthenticateClient.
func (a *Authenticator) Authenticate(ctx context.Context, r *http.Request) (tenancy.Principal, error) {
	key := KeyFromRequest(r)
	if key == "" {
		return tenancy.Principal{}, errs.Unauthorized()
	}
	if a.IsAdminKey(key) {
		p := tenancy.Principal{
			Kind:       tenancy.KindAdmin,
			MerchantID: strings.TrimSpace(r.Header.Get(HeaderMerchantID)),
			ProfileID:  strings.TrimSpace(r.Header.Get(HeaderProfileID)),
		}
		if p.MerchantID == "" {
			p.ProfileID = "" // a profile means nothing without its merchant
		}
		return p, a.keys.CheckScope(ctx, p)
	}
	if !strings.HasPrefix(key, "snd_") {
		return tenancy.Principal{}, errs.Unauthorized()
	}
	merchantID, keyID, err := a.keys.ActiveSecretKey(ctx, key)
	if err != nil {
		return tenancy.Principal{}, err
	}
	p := tenancy.Principal{
		Kind:       tenancy.KindMerchant,
		MerchantID: merchantID,
		ProfileID:  strings.TrimSpace(r.Header.Get(HeaderProfileID)),
		KeyID:      keyID,
	}
	if p.ProfileID == "" {
		return p, nil
	}
	return p, a.keys.CheckScope(ctx, p)
}

// PublishableKeyPrefix starts every publishable key.
const PublishableKeyPrefix = "pk_snd_"

// AuthenticateClient is Authenticate for the client-side payment routes: it
// also accepts a merchant's publishable key, as a ClientOnly principal of
// that merchant. The domain then requires the payment's client secret.
func (a *Authenticator) AuthenticateClient(ctx context.Context, r *http.Request) (tenancy.Principal, error) {
	key := KeyFromRequest(r)
	if !strings.HasPrefix(key, PublishableKeyPrefix) {
		return a.Authenticate(ctx, r)
	}
	merchantID, err := a.keys.MerchantByPublishableKey(ctx, key)
	if err != nil {
		return tenancy.Principal{}, err
	}
	p := tenancy.Principal{Kind: tenancy.KindMerchant, MerchantID: merchantID, ClientOnly: true,
		ProfileID: strings.TrimSpace(r.Header.Get(HeaderProfileID))} // v2 names the profile
	if p.ProfileID == "" {
		return p, nil
	}
	return p, a.keys.CheckScope(ctx, p)
}

// IsAdminKey compares in constant time.
func (a *Authenticator) IsAdminKey(key string) bool {
	return len(a.adminKey) > 0 && subtle.ConstantTimeCompare([]byte(key), a.adminKey) == 1
}
