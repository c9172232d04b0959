package connector

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"switchyard/payments/errs"
)

// A connector account's metadata is free-form (Hyperswitch's), except for
// its "sandbox" member: an object that makes the simulator fail for that
// account only, so a merchant can try retries and routing against a
// connector that declines, is down or does not answer (docs/sandbox.md,
// "Making a connector fail"). The payment path reads it from the account
// row it already loads, so a change takes effect on the next call.

// SandboxMetadataKey is the member of a connector account's metadata that
// holds its SandboxFailures.
const SandboxMetadataKey = "sandbox"

// Codes (Decline.Code) of the failures SandboxFailures cause, beside the
// configurable one (ErrorCode, default CodeProcessingError).
const (
	// CodeServiceUnavailable: the account is in a sandbox outage.
	CodeServiceUnavailable = "service_unavailable"
	// CodeTimeout: a sync's answer for an authorization the connector never
	// answered (and never processed).
	CodeTimeout = "timeout"
)

// Limits of the sandbox object's strings, in characters.
const (
	MaxSandboxErrorCodeLen    = 64
	MaxSandboxErrorMessageLen = 255
)

// ErrSandboxTimeout is Authorize's error for an account whose sandbox
// object has timeout true: the call got no answer, as a client that timed
// out gets none. The simulator records the attempt as failed with
// CodeTimeout, so a later Sync settles it without charging.
var ErrSandboxTimeout = errors.New("connector: the connector did not answer (sandbox timeout: metadata.sandbox.timeout is true)")

// SandboxFailures is a connector account's sandbox object: how the
// simulator fails that account's calls. The zero value fails nothing.
type SandboxFailures struct {
	// FailureRate is the share, 0 to 1, of authorizations declined with
	// ErrorCode and ErrorMessage, drawn at random per call.
	FailureRate float64
	// ErrorCode and ErrorMessage are the decline's; empty means the
	// defaults (processing_error, and a message naming failure_rate).
	ErrorCode    string
	ErrorMessage string
	// Outage: every authorization fails at once with service_unavailable;
	// captures, voids and refunds are refused with it, and syncs get no
	// answer.
	Outage bool
	// Timeout: every authorization gets no answer (ErrSandboxTimeout); a
	// later sync reports it failed with CodeTimeout, nothing charged.
	Timeout bool
	// Webhooks: the simulator sends the account's webhooks (signed with
	// its connector_webhook_details) when one of its transactions changes
	// after the call that started it: a pending payout settling.
	Webhooks bool
}

// sandboxMembers are the members the sandbox object takes, in the order
// its errors are checked.
// required_fields is SandboxRequiredFields'; webhooks is
// SandboxWebhooksMember (registering a connector webhook sets it).
var sandboxMembers = []string{"failure_rate", "error_code", "error_message", "outage", "timeout", "webhooks", "required_fields"}

// ParseSandboxFailures reads the sandbox object of a connector account's
// metadata. Only that member is checked, and only its own members: absent
// or null is the zero value; anything else must be an object of the known
// members with their types and limits (IR_07 naming
// metadata.sandbox.<member>). A null member is its default.
func ParseSandboxFailures(metadata map[string]any) (SandboxFailures, error) {
	var f SandboxFailures
	raw, ok := metadata[SandboxMetadataKey]
	if !ok || raw == nil {
		return f, nil
	}
	const path = "metadata." + SandboxMetadataKey
	obj, ok := raw.(map[string]any)
	if !ok {
		return f, errs.InvalidValue(path, "must be an object with failure_rate, error_code, error_message, outage, timeout, webhooks or required_fields")
	}
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		if !slices.Contains(sandboxMembers, k) {
			return f, errs.InvalidValue(path+"."+k, "unknown member; the sandbox object takes %s", strings.Join(sandboxMembers, ", "))
		}
	}
	for _, k := range sandboxMembers {
		v := obj[k]
		if v == nil {
			continue
		}
		field := path + "." + k
		var err error
		switch k {
		case "failure_rate":
			f.FailureRate, err = sandboxRate(field, v)
		case "error_code":
			f.ErrorCode, err = sandboxString(field, v, MaxSandboxErrorCodeLen)
		case "error_message":
			f.ErrorMessage, err = sandboxString(field, v, MaxSandboxErrorMessageLen)
		case "outage":
			f.Outage, err = sandboxBool(field, v)
		case "timeout":
			f.Timeout, err = sandboxBool(field, v)
		case SandboxWebhooksMember:
			f.Webhooks, err = sandboxBool(field, v)
		}
		if err != nil {
			return SandboxFailures{}, err
		}
	}
	return f, nil
}

// sandboxRate is a number from 0 to 1, as JSON decodes it (float64, or
// json.Number from the request reader).
func sandboxRate(field string, v any) (float64, error) {
	var x float64
	switch n := v.(type) {
	case float64:
		x = n
	case json.Number:
		var err error
		if x, err = strconv.ParseFloat(string(n), 64); err != nil {
			return 0, errs.InvalidValue(field, "must be a number from 0 to 1")
		}
	case int:
		x = float64(n)
	case int64:
		x = float64(n)
	default:
		return 0, errs.InvalidValue(field, "must be a number from 0 to 1, not %s", jsonKindOf(v))
	}
	if math.IsNaN(x) || x < 0 || x > 1 {
		return 0, errs.InvalidValue(field, "must be a number from 0 to 1")
	}
	return x, nil
}

func sandboxString(field string, v any, maxLen int) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", errs.InvalidValue(field, "must be a string of 1 to %d characters, not %s", maxLen, jsonKindOf(v))
	}
	if n := utf8.RuneCountInString(s); n == 0 || n > maxLen {
		return "", errs.InvalidValue(field, "must be 1 to %d characters", maxLen)
	}
	return s, nil
}

func sandboxBool(field string, v any) (bool, error) {
	b, ok := v.(bool)
	if !ok {
		return false, errs.InvalidValue(field, "must be true or false, not %s", jsonKindOf(v))
	}
	return b, nil
}

// jsonKindOf names the JSON type of a decoded value, for error messages.
func jsonKindOf(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float64, json.Number, int, int64:
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "null"
}

// authorizeFailure is the failure the account's sandbox object imposes on
// an authorization before its payment method is looked at: outage first,
// then timeout, then the failure_rate draw. It returns nil when the call
// goes on as usual, and timedOut when the call must get no answer.
func (f SandboxFailures) authorizeFailure() (d *Decline, timedOut bool) {
	switch {
	case f.Outage:
		return outageDecline(), false
	case f.Timeout:
		return newDecline(CodeTimeout, "The connector did not answer the authorization (sandbox timeout: "+
			"metadata.sandbox.timeout is true); it was never processed and nothing was charged (timeout)."), true
	case f.FailureRate > 0 && rand.Float64() < f.FailureRate:
		code := f.ErrorCode
		if code == "" {
			code = CodeProcessingError
		}
		msg := f.ErrorMessage
		if msg == "" {
			msg = fmt.Sprintf("The sandbox declined this payment, as metadata.sandbox.failure_rate (%s) of the "+
				"connector account asks; nothing was charged (%s).", strconv.FormatFloat(f.FailureRate, 'f', -1, 64), code)
		}
		return newDecline(code, msg), false
	}
	return nil, false
}

func outageDecline() *Decline {
	return newDecline(CodeServiceUnavailable, "The connector is unavailable (sandbox outage: metadata.sandbox.outage is true); "+
		"nothing was done (service_unavailable).")
}

// errSandboxOutage is a sync's error during an outage: no answer now, so
// the caller asks again later.
var errSandboxOutage = errors.New("connector: the connector is unavailable (sandbox outage: metadata.sandbox.outage is true)")
