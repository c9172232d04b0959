package rest

import (
	"net/http"

	"switchyard/internal/auth"
	"switchyard/internal/tenancy"
	"switchyard/payments"
)

// Access says which keys may call a route.
type Access int

const (
	// AdminOnly routes take the admin key (Hyperswitch's admin_api_key).
	AdminOnly Access = iota + 1
	// MerchantOrAdmin routes take the merchant's secret key, or the admin key.
	MerchantOrAdmin
)

// handlerFunc is a REST operation: it returns the body to send with 200, or
// an error for WriteError.
type handlerFunc func(r *http.Request) (any, error)

// api registers operations on a mux with one authentication and tenancy
// rule, so handlers never check keys themselves.
type api struct {
	mux  *http.ServeMux
	auth *auth.Authenticator
}

// handle registers pattern. If the pattern names {account_id} or
// {merchant_id}, the caller must be that merchant (or the admin); another
// merchant's id is 404, so the route tells nothing about it. The request
// context then carries the principal scoped to that merchant.
func (a *api) handle(pattern string, access Access, fn handlerFunc) {
	a.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		p, err := a.auth.Authenticate(r.Context(), r)
		if err != nil {
			WriteError(w, r, err)
			return
		}
		if access == AdminOnly && p.Kind != tenancy.KindAdmin {
			WriteError(w, r, payments.ErrUnauthorized())
			return
		}
		pathMerchant := r.PathValue("account_id")
		if pathMerchant == "" {
			pathMerchant = r.PathValue("merchant_id")
		}
		ctx := tenancy.WithPrincipal(r.Context(), p)
		if pathMerchant != "" {
			if p.Kind == tenancy.KindMerchant && p.MerchantID != pathMerchant {
				WriteError(w, r, payments.ErrNotFound("Merchant account"))
				return
			}
			ctx = tenancy.ForMerchant(ctx, pathMerchant)
		}
		body, err := fn(r.WithContext(ctx))
		if err != nil {
			WriteError(w, r, err)
			return
		}
		WriteJSON(w, http.StatusOK, body)
	})
}
