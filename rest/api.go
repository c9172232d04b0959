package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

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

// decode reads a JSON body into dst as a closed object: unknown fields,
// wrong types, malformed JSON, trailing data and oversized bodies are all
// client errors in the envelope, naming the field where there is one.
func decode(r *http.Request, dst any) error {
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return payments.ErrBodyTooLarge(tooLarge.Limit)
		}
		return payments.ErrInvalidRequest("could not read the request body")
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return payments.ErrInvalidRequest("the request body is empty; a JSON object is required")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return decodeError(err)
	}
	if dec.More() {
		return payments.ErrInvalidRequest("Invalid JSON: unexpected data after the top-level object")
	}
	return nil
}

func decodeError(err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var domain *payments.Error
	switch {
	case errors.As(err, &domain):
		return domain // a custom UnmarshalJSON (an enum, a discriminated union) said why
	case errors.As(err, &syntax):
		return payments.ErrInvalidRequest("Invalid JSON at byte %d: %s", syntax.Offset, syntax.Error())
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			return payments.ErrInvalidRequest("the request body must be a JSON object, not %s", typ.Value)
		}
		e := payments.ErrInvalidRequest("%s: expected %s, got %s", field, jsonType(typ.Type.Kind().String()), typ.Value)
		e.Field = field
		return e
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return payments.ErrInvalidRequest("Invalid JSON: the body ends before the object does")
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		field := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		e := payments.ErrInvalidRequest("unknown field %q: this object does not accept it", field)
		e.Field = field
		return e
	}
	return payments.ErrInvalidRequest("Invalid JSON: %v", err)
}

func jsonType(kind string) string {
	switch {
	case strings.HasPrefix(kind, "int"), strings.HasPrefix(kind, "uint"), strings.HasPrefix(kind, "float"):
		return "a number"
	case kind == "bool":
		return "a boolean"
	case kind == "string":
		return "a string"
	case kind == "slice" || kind == "array":
		return "an array"
	case kind == "map" || kind == "struct" || kind == "ptr":
		return "an object"
	}
	return fmt.Sprintf("a %s", kind)
}
