// Package rest is the Hyperswitch-compatible REST API: routes, wire types,
// auth headers and the error envelope. Handlers decode, authenticate, call one
// payments operation and encode its result; they hold no business rules.
package rest

import (
	"net/http"

	"switchyard/internal/auth"
	"switchyard/payments"
)

// Deps is what the REST layer needs.
type Deps struct {
	Service *payments.Service
	Auth    *auth.Authenticator
	// Ready lists the dependencies /health/ready probes, by name.
	Ready map[string]Checker
}

// Register adds the REST routes to mux.
func Register(mux *http.ServeMux, d Deps) {
	mux.HandleFunc("GET /health", healthHandler)
	mux.HandleFunc("GET /health/ready", readyHandler(d.Ready))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		WriteError(w, r, payments.ErrUnrecognizedURL())
	})
}
