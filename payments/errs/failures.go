package errs

import "fmt"

// A Failure is one distinct thing that can go wrong, named by the domain:
// a sentinel that errors.Is(err, ErrX) matches for every Error made from
// it, whatever its own message, field or cause. How it is shown (its
// Hyperswitch code, type, kind and standard message) is its row in
// hyperswitch.go, looked up when an Error is made.
type Failure struct {
	name string
	// broader is the failure this one is a case of (a refund not found is
	// a not found), so errors.Is matches both.
	broader *Failure
}

// catalogue is every Failure defined, in order, for the catalogue's test.
var catalogue []*Failure

func define(name string, broader *Failure) *Failure {
	f := &Failure{name: name, broader: broader}
	catalogue = append(catalogue, f)
	return f
}

// Error is the failure's name (client_secret_expired); the wire message
// is an Error's.
func (f *Failure) Error() string { return f.name }

// Is lets a bare Failure match the failure it refines too.
func (f *Failure) Is(target error) bool {
	t, ok := target.(*Failure)
	return ok && f.broader.isCaseOf(t)
}

// isCaseOf reports whether f is target or a case of it.
func (f *Failure) isCaseOf(target *Failure) bool {
	for ; f != nil; f = f.broader {
		if f == target {
			return true
		}
	}
	return false
}

// New is an Error of f with the catalogue's standard message.
func (f *Failure) New() *Error { return f.shown() }

// Newf is an Error of f with its own message.
func (f *Failure) Newf(format string, args ...any) *Error {
	e := f.shown()
	e.Message = fmt.Sprintf(format, args...)
	return e
}

// Detailf is an Error of f whose message is the catalogue's standard one
// followed by ": " and the detail ("Missing required param: amount").
func (f *Failure) Detailf(format string, args ...any) *Error {
	e := f.shown()
	e.Message += ": " + fmt.Sprintf(format, args...)
	return e
}

// The catalogue. Each failure says what happened; its row in
// hyperswitch.go says how it is shown.
var (
	// ErrInternal is a fault of ours; the cause is logged, never shown.
	ErrInternal = define("internal", nil)
	// ErrUnavailable: a dependency (Redis, the database) is down and
	// nothing was changed.
	ErrUnavailable = define("unavailable", nil)

	// ErrUnauthorized: no key, or an unknown, revoked or expired one.
	ErrUnauthorized = define("unauthorized", nil)
	// ErrForbidden: the caller is known but may not run this operation.
	ErrForbidden = define("forbidden", nil)
	// ErrUnrecognizedURL: no route matches.
	ErrUnrecognizedURL = define("unrecognized_url", nil)
	// ErrMethodNotAllowed: the route exists with another method.
	ErrMethodNotAllowed = define("method_not_allowed", nil)
	// ErrNotImplemented: a documented operation Switchyard does not serve
	// because it has no meaning here (docs/rest.md, "Not supported").
	ErrNotImplemented = define("not_implemented", nil)

	// ErrInvalidRequest: the body cannot be read as the operation's
	// request (malformed JSON, a wrong type, an unknown member) or a
	// GraphQL document is refused.
	ErrInvalidRequest = define("invalid_request", nil)
	// ErrInvalidRequestData: the request reads but cannot be done as given.
	ErrInvalidRequestData = define("invalid_request_data", nil)
	// ErrBodyTooLarge: the body is over the size limit.
	ErrBodyTooLarge = define("body_too_large", nil)
	// ErrMissingField: a required member is absent.
	ErrMissingField = define("missing_field", nil)
	// ErrInvalidValue: a member's value is refused.
	ErrInvalidValue = define("invalid_value", nil)
	// ErrNotSupported: the payment method (type) is not served.
	ErrNotSupported = define("not_supported", nil)
	// ErrFlowNotSupported: a flow (split payments, scheduled capture) is
	// not served.
	ErrFlowNotSupported = define("flow_not_supported", nil)
	// ErrOverLimit: the caller holds as many live connections or
	// subscriptions as it may, or fell too far behind.
	ErrOverLimit = define("over_limit", nil)

	// ErrIdempotencyMismatch: the Idempotency-Key was used with another
	// request.
	ErrIdempotencyMismatch = define("idempotency_mismatch", nil)
	// ErrIdempotencyInFlight: a request with the key is still running.
	ErrIdempotencyInFlight = define("idempotency_in_flight", nil)

	// ErrNotFound: the resource does not exist for this caller (foreign
	// ids too). Every other not-found failure refines it.
	ErrNotFound = define("not_found", nil)
	// ErrProfileNotFound: no such business profile.
	ErrProfileNotFound = define("profile_not_found", ErrNotFound)
	// ErrRefundNotFound: no such refund.
	ErrRefundNotFound = define("refund_not_found", ErrNotFound)
	// ErrCustomerNotFound: no such customer.
	ErrCustomerNotFound = define("customer_not_found", ErrNotFound)
	// ErrPaymentMethodNotFound: no such saved payment method.
	ErrPaymentMethodNotFound = define("payment_method_not_found", ErrNotFound)
	// ErrPayoutNotFound: no such payout.
	ErrPayoutNotFound = define("payout_not_found", ErrNotFound)
	// ErrDisputeNotFound: no such dispute.
	ErrDisputeNotFound = define("dispute_not_found", ErrNotFound)
	// ErrGSMRuleNotFound: no GSM rule has the key.
	ErrGSMRuleNotFound = define("gsm_rule_not_found", ErrNotFound)
	// ErrAuthenticationNotFound: no such 3-D Secure authentication.
	ErrAuthenticationNotFound = define("authentication_not_found", ErrNotFound)
	// ErrEligibilityCheckNotFound: no eligibility check was recorded for
	// the authentication.
	ErrEligibilityCheckNotFound = define("eligibility_check_not_found", ErrNotFound)

	// ErrWebhookAuthenticationFailed: a connector's webhook whose source
	// could not be verified (no merchant secret, or a wrong signature).
	ErrWebhookAuthenticationFailed = define("webhook_authentication_failed", nil)
	// ErrWebhookBadRequest: a verified webhook whose body names no object.
	ErrWebhookBadRequest = define("webhook_bad_request", nil)

	// ErrDuplicate: the row already exists. Every other duplicate
	// failure refines it.
	ErrDuplicate = define("duplicate", nil)
	// ErrGSMRuleExists: a GSM rule with the key exists.
	ErrGSMRuleExists = define("gsm_rule_exists", ErrDuplicate)

	// ErrPreconditionFailed: the resource's state does not allow the
	// request. The failures below that are cases of it refine it.
	ErrPreconditionFailed = define("precondition_failed", nil)
	// ErrPaymentTokenInvalid: payment_token names no saved method of the
	// payment's customer, or has expired.
	ErrPaymentTokenInvalid = define("payment_token_invalid", ErrPreconditionFailed)
	// ErrAlreadyDefault: the payment method is the customer's default
	// already.
	ErrAlreadyDefault = define("already_default", ErrPreconditionFailed)

	// ErrClientSecretMissing: a client-side call gave no client_secret.
	ErrClientSecretMissing = define("client_secret_missing", nil)
	// ErrClientSecretExpired: the payment's client_secret has expired.
	ErrClientSecretExpired = define("client_secret_expired", nil)
	// ErrClientSecretMismatch: the client_secret is not the payment's.
	ErrClientSecretMismatch = define("client_secret_mismatch", nil)

	// ErrUnexpectedState: the payment's status (or a capture or cancel
	// in progress) does not allow the operation.
	ErrUnexpectedState = define("unexpected_state", nil)
	// ErrNoEligibleConnector: no connector account can take the payment.
	ErrNoEligibleConnector = define("no_eligible_connector", nil)
	// ErrCaptureDeclined: the connector declined the capture; the failed
	// capture is recorded on the payment.
	ErrCaptureDeclined = define("capture_declined", nil)
	// ErrVoidFailed: the connector did not void; the payment is still
	// authorized.
	ErrVoidFailed = define("void_failed", nil)
	// ErrCardNotVerified: the connector refused to verify a card being
	// saved.
	ErrCardNotVerified = define("card_not_verified", nil)
	// ErrConnectorUnavailable: the connector could not be reached to
	// verify a card; nothing was saved.
	ErrConnectorUnavailable = define("connector_unavailable", nil)

	// ErrPaymentNotSucceeded: a refund of a payment with nothing captured.
	ErrPaymentNotSucceeded = define("payment_not_succeeded", nil)
	// ErrRefundExceedsCaptured: the refund asks more than is left of
	// what was captured.
	ErrRefundExceedsCaptured = define("refund_exceeds_captured", nil)

	// ErrMandateInvalid: a mandate request the payment cannot carry.
	ErrMandateInvalid = define("mandate_invalid", nil)
	// ErrActiveMandate: an active mandate holds the customer or the
	// payment method.
	ErrActiveMandate = define("active_mandate", nil)
	// ErrCustomerRedacted: the customer has been redacted.
	ErrCustomerRedacted = define("customer_redacted", nil)

	// ErrPayoutStatusInvalid: the payout's status does not allow the
	// operation (a fulfil of a payout not awaiting fulfilment, an update
	// of one already sent, …).
	ErrPayoutStatusInvalid = define("payout_status_invalid", nil)
	// ErrPayoutFailed: the connector refused the payout operation (a
	// cancel of a payout already sent); the payout is as it was.
	ErrPayoutFailed = define("payout_failed", nil)

	// ErrAuthenticationStatusInvalid: the authentication's status does
	// not allow the step (an eligibility check of one already answered, an
	// authenticate before eligibility, …).
	ErrAuthenticationStatusInvalid = define("authentication_status_invalid", nil)
	// ErrNoAuthenticationConnector: the profile has no authentication
	// processor to run an authentication.
	ErrNoAuthenticationConnector = define("no_authentication_connector", nil)

	// ErrDisputeStatusInvalid: the dispute's stage or status does not
	// allow the operation.
	ErrDisputeStatusInvalid = define("dispute_status_invalid", nil)
	// ErrDisputeFailed: the connector did not take a dispute operation.
	ErrDisputeFailed = define("dispute_failed", nil)
	// ErrDisputeIDMissing: an evidence request names no dispute.
	ErrDisputeIDMissing = define("dispute_id_missing", nil)

	// ErrFileNotFound: no such uploaded file.
	ErrFileNotFound = define("file_not_found", ErrNotFound)
	// ErrFileInvalid: the file breaks a rule (its size, its type, or it
	// is in submitted evidence and cannot be deleted).
	ErrFileInvalid = define("file_invalid", nil)
	// ErrFileMissing: an upload carries no file part.
	ErrFileMissing = define("file_missing", nil)
	// ErrFilePurposeMissing: an upload names no purpose, or an unknown one.
	ErrFilePurposeMissing = define("file_purpose_missing", nil)
	// ErrFileContentTypeMissing: an upload names no file type.
	ErrFileContentTypeMissing = define("file_content_type_missing", nil)

	// ErrBlocklistEntryNotFound: the merchant's blocklist has no such
	// entry.
	ErrBlocklistEntryNotFound = define("blocklist_entry_not_found", ErrNotFound)
	// ErrBlocklistEntryExists: the value is blocked already.
	ErrBlocklistEntryExists = define("blocklist_entry_exists", ErrPreconditionFailed)
	// ErrBlocklistJobNotFound: no such blocklist batch job.
	ErrBlocklistJobNotFound = define("blocklist_job_not_found", ErrNotFound)
	// ErrInvalidDataFormat: a value is not in the format its member takes
	// (a BIN that is not 6 digits).
	ErrInvalidDataFormat = define("invalid_data_format", nil)
	// ErrPaymentBlocked: a confirm refused a card the merchant's blocklist
	// holds; the payment and its attempt are recorded as failed.
	ErrPaymentBlocked = define("payment_blocked", nil)
	// ErrCardIssuerNotFound: no such card issuer.
	ErrCardIssuerNotFound = define("card_issuer_not_found", ErrNotFound)
	// ErrCardIssuerExists: an issuer of that name is in the catalogue.
	ErrCardIssuerExists = define("card_issuer_exists", ErrDuplicate)
	// ErrProfileAcquirerNotFound: the profile has no such acquirer.
	ErrProfileAcquirerNotFound = define("profile_acquirer_not_found", ErrNotFound)
	// ErrRoutingNotFound: no routing algorithm of the merchant has the id.
	ErrRoutingAlgorithmNotFound = define("routing_algorithm_not_found", ErrNotFound)

	// ErrSubscriptionNotFound: no such subscription.
	ErrSubscriptionNotFound = define("subscription_not_found", ErrNotFound)
	// ErrSubscriptionStatusInvalid: the subscription's status does not
	// allow the operation (a pause of a cancelled one, a second confirm).
	ErrSubscriptionStatusInvalid = define("subscription_status_invalid", ErrPreconditionFailed)
	// ErrTestClockNotFound: no such test clock.
	ErrTestClockNotFound = define("test_clock_not_found", ErrNotFound)

	// Dashboard users.

	// ErrBadCredentials: an unknown email or a wrong password (one answer
	// for both).
	ErrBadCredentials = define("bad_credentials", nil)
	// ErrUserExists: an account has the email.
	ErrUserExists = define("user_exists", nil)
	// ErrAlreadyMember: the invited user is a member of the merchant.
	ErrAlreadyMember = define("already_member", ErrUserExists)
	// ErrLinkInvalid: an invitation or reset token is unknown, used or
	// expired.
	ErrLinkInvalid = define("link_invalid", nil)
	// ErrInvalidEmail: the email is not one address of a dotted domain.
	ErrInvalidEmail = define("invalid_email", nil)
	// ErrInvalidPassword: the password breaks a rule.
	ErrInvalidPassword = define("invalid_password", nil)
	// ErrLastAdmin: the change would leave a merchant without an admin.
	ErrLastAdmin = define("last_admin", nil)
	// ErrSignInLocked: too many failed sign-ins; refused for a while.
	ErrSignInLocked = define("sign_in_locked", nil)
	// ErrHashingBusy: no password hashing slot in time; nothing done.
	ErrHashingBusy = define("hashing_busy", nil)
	// ErrSessionRequired: an operation needs a signed-in user and got an
	// API key or nothing.
	ErrSessionRequired = define("session_required", ErrForbidden)
	// ErrForbiddenRole: the user's role may not run the operation.
	ErrForbiddenRole = define("forbidden_role", ErrForbidden)
	// ErrAdminKeyBootstrapOnly: the admin key invites only a merchant's
	// first admin.
	ErrAdminKeyBootstrapOnly = define("admin_key_bootstrap_only", ErrForbidden)
)

// Constructors of the failures that carry values.

// RefundExceedsCaptured says what was captured, what is already refunded
// or pending, and what was asked.
func RefundExceedsCaptured(captured, refunded, asked int64) *Error {
	return ErrRefundExceedsCaptured.Detailf("%d was captured, %d is already refunded or pending, %d was asked",
		captured, refunded, asked)
}

// MandateInvalid names the field and the reason a mandate is refused.
func MandateInvalid(field, reason string) *Error {
	return ErrMandateInvalid.Detailf("%s", reason).WithField(field)
}
