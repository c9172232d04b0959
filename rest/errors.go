package rest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"

	"switchyard/internal/httperr"
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
// is not a *errs.Error is an internal error: logged, never shown.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	if e, _ := httperr.Of(err); e.RetryAfterSeconds() > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfterSeconds()))
	}
	status, body := errorResponse(r, err)
	writeBody(w, status, body)
}

// errorResponse is the status and envelope of err (logged when ≥ 500).
func errorResponse(r *http.Request, err error) (int, []byte) {
	e, status := httperr.Of(err)
	// 501 is a documented refusal (docs/rest.md, "Not supported"), not a fault.
	if status >= 500 && status != http.StatusNotImplemented && !httperr.ClientGone(r.Context(), err) {
		slog.ErrorContext(r.Context(), "request failed", "code", e.Code, "err", e.Error())
	}
	return status, encodeJSON(errorBody{Error: errorDetail{Type: e.Type, Message: e.Message, Code: e.Code}})
}

// EnvelopeBody is the error envelope of err, for answers written below the
// routes (a request the HTTP server itself refuses before any handler runs).
func EnvelopeBody(err error) []byte {
	e, _ := httperr.Of(err)
	return encodeJSON(errorBody{Error: errorDetail{Type: e.Type, Message: e.Message, Code: e.Code}})
}

// WriteJSON writes v with status.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	writeBody(w, status, encodeJSON(v))
}

// encodeJSON is v as the wire writes it (one line, newline-terminated).
func encodeJSON(v any) []byte {
	var buf bytes.Buffer
	encodeInto(&buf, v)
	return buf.Bytes()
}

// preEncoded is a body already encoded by json.Marshal, written as it is.
type preEncoded []byte

// encodeInto appends v's encoding (encodeJSON's) to buf.
func encodeInto(buf *bytes.Buffer, v any) {
	if raw, ok := v.(preEncoded); ok { // json.Marshal's bytes are the Encoder's, less the newline
		buf.Write(raw)
		buf.WriteByte('\n')
		return
	}
	if err := json.NewEncoder(buf).Encode(v); err != nil {
		panic(fmt.Sprintf("rest: encode %T: %v", v, err)) // wire types always encode
	}
}

// writeBody writes an encoded JSON body with status.
func writeBody(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
