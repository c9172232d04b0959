package rest

import (
	"encoding/json"
	"log/slog"
	"net/http"

	"switchyard/payments"
)

// errorBody is Hyperswitch's error envelope:
// {"error":{"type":"invalid_request","message":"…","code":"IR_04"}}.
type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Type    string `json:"type"`
	Message string `json:"message"`
	Code    string `json:"code"`
	Reason  string `json:"reason,omitempty"`
}

// WriteError is the one encoder from domain errors to the wire. Anything that
// is not a *payments.Error is an internal error: logged, never shown.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	e, ok := payments.AsError(err)
	if !ok {
		e = payments.ErrInternal(err)
	}
	if e.Status >= 500 {
		slog.ErrorContext(r.Context(), "request failed", "code", e.Code, "err", e.Error())
	}
	WriteJSON(w, e.Status, errorBody{Error: errorDetail{Type: e.Type, Message: e.Message, Code: e.Code}})
}

// WriteJSON writes v with status.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
