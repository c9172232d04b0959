package rest

import (
	"net/http"

	"switchyard/payments/errs"
)

// notSupported are the documented v1 operations that cannot mean anything
// in a self-hosted Switchyard, with the reason each answers Hyperswitch's
// own NotImplemented error (501 IR_00) rather than 404. docs/rest.md
// ("Not supported") lists the same operations and reasons.
var notSupported = []struct{ pattern, reason string }{
	{"POST /accounts/{account_id}/kv",
		"Toggling the key-value store is not supported: it switches Hyperswitch's internal Redis-backed storage mode, and Switchyard always writes to its database"},
	{"POST /user/create_platform",
		"Creating a platform account is not supported: Switchyard has no platform organizations or connected merchants, every merchant account is standard"},
}

// isNotSupported reports whether a mux pattern is a not-supported
// operation's, which the served OpenAPI document leaves out.
func isNotSupported(pattern string) bool {
	for _, op := range notSupported {
		if op.pattern == pattern {
			return true
		}
	}
	return false
}

// registerNotSupported answers each not-supported operation, whoever
// asks: the answer tells nothing about any merchant, and the control
// centre's JWT that create_platform takes does not exist here.
func registerNotSupported(mux *http.ServeMux) {
	for _, op := range notSupported {
		reason := op.reason
		mux.HandleFunc(op.pattern, func(w http.ResponseWriter, r *http.Request) { WriteError(w, r, errs.NotSupported(reason)) })
	}
}
