package errs

// How each Failure is shown: the one table of Hyperswitch codes. No other
// file in payments/ writes a Hyperswitch code (internal/archtest holds
// that), and no code compares one: the domain names a Failure, and an
// Error made from it carries the row's code and type to the front doors,
// whose single status table (internal/httperr) turns the kind into an
// HTTP status. hyperswitch_test.go checks every row against Hyperswitch's
// catalogue (/work/shared/reference/hyperswitch/errors.md, copied into
// testdata).

// wire is a failure's row: its kind, its Hyperswitch code and error type,
// the ApiErrorResponse variant it stands for ("" for a code outside
// Hyperswitch's API catalogue: the dashboard's UR_ and RL_ codes), and
// its standard message, in Hyperswitch's words where it has some.
type wire struct {
	kind    Kind
	code    string
	typ     string
	variant string
	message string
}

// The error types of Hyperswitch's wire.
const (
	typeInvalidRequest = "invalid_request"
	typeAPI            = "api"
	typeBlocked        = "blocked"
)

var hyperswitch = map[*Failure]wire{
	ErrInternal:    {KindInternal, "HE_00", typeAPI, "InternalServerError", "Something went wrong"},
	ErrUnavailable: {KindUnavailable, "HE_00", typeAPI, "InternalServerError", "A dependency is unavailable; nothing was changed, retry later"},

	ErrUnauthorized:     {KindUnauthenticated, "IR_01", typeInvalidRequest, "Unauthorized", "API key not provided or invalid API key used"},
	ErrForbidden:        {KindForbidden, "IR_22", typeInvalidRequest, "AccessForbidden", "Access forbidden. Not authorized to access this resource"},
	ErrUnrecognizedURL:  {KindNotFound, "IR_02", typeInvalidRequest, "InvalidRequestUrl", "Unrecognized request URL"},
	ErrMethodNotAllowed: {KindMethodNotAllowed, "IR_03", typeInvalidRequest, "InvalidHttpMethod", "The HTTP method is not applicable for this API"},
	ErrNotImplemented:   {KindNotImplemented, "IR_00", typeInvalidRequest, "NotImplemented", "This API is not supported"},

	ErrInvalidRequest:     {KindInvalid, "IR_06", typeInvalidRequest, "InvalidRequestData", "The request could not be read"},
	ErrInvalidRequestData: {KindUnprocessable, "IR_06", typeInvalidRequest, "InvalidRequestData", "The request cannot be done as given"},
	ErrBodyTooLarge:       {KindTooLarge, "IR_06", typeInvalidRequest, "InvalidRequestData", "The request body is larger than the limit"},
	ErrMissingField:       {KindInvalid, "IR_04", typeInvalidRequest, "MissingRequiredField", "Missing required param"},
	ErrInvalidValue:       {KindInvalid, "IR_07", typeInvalidRequest, "InvalidDataValue", "Invalid value provided"},
	ErrNotSupported:       {KindInvalid, "IR_19", typeInvalidRequest, "NotSupported", "Payment method type not supported"},
	ErrFlowNotSupported:   {KindInvalid, "IR_20", typeInvalidRequest, "FlowNotSupported", "This flow not supported"},
	ErrOverLimit:          {KindTooManyRequests, "IR_06", typeInvalidRequest, "InvalidRequestData", "Too many live connections or subscriptions"},

	ErrIdempotencyMismatch: {KindUnprocessable, "IR_06", typeInvalidRequest, "InvalidRequestData", "Idempotency-Key was already used with a different request"},
	ErrIdempotencyInFlight: {KindConflict, "IR_16", typeInvalidRequest, "PreconditionFailed", "A request with this Idempotency-Key is still being processed; retry after it completes"},

	ErrNotFound:                 {KindNotFound, "HE_02", typeInvalidRequest, "ResourceIdNotFound", "Resource ID does not exist in our records"},
	ErrProfileNotFound:          {KindNotFound, "HE_02", typeInvalidRequest, "ProfileNotFound", "Business profile does not exist"},
	ErrRefundNotFound:           {KindNotFound, "HE_02", typeInvalidRequest, "RefundNotFound", "Refund does not exist in our records."},
	ErrCustomerNotFound:         {KindNotFound, "HE_02", typeInvalidRequest, "CustomerNotFound", "Customer does not exist in our records"},
	ErrPaymentMethodNotFound:    {KindNotFound, "HE_02", typeInvalidRequest, "PaymentMethodNotFound", "Payment method does not exist in our records"},
	ErrPayoutNotFound:           {KindNotFound, "HE_02", typeInvalidRequest, "PayoutNotFound", "Payout does not exist in our records"},
	ErrDisputeNotFound:          {KindNotFound, "HE_04", typeInvalidRequest, "DisputeNotFound", "Dispute does not exist in our records"},
	ErrGSMRuleNotFound:          {KindNotFound, "IR_37", typeInvalidRequest, "GenericNotFoundError", "GSM with given key does not exist in our records"},
	ErrAuthenticationNotFound:   {KindNotFound, "HE_02", typeInvalidRequest, "AuthenticationNotFound", "Authentication does not exist in our records"},
	ErrEligibilityCheckNotFound: {KindNotFound, "IR_37", typeInvalidRequest, "GenericNotFoundError", "Eligibility check data not found for the authentication"},

	ErrDuplicate:     {KindInvalid, "HE_01", typeInvalidRequest, "DuplicatePaymentMethod", "The resource with the specified details already exists in our records"},
	ErrGSMRuleExists: {KindInvalid, "IR_38", typeInvalidRequest, "GenericDuplicateError", "GSM with given key already exists in our records"},

	ErrPreconditionFailed:  {KindInvalid, "IR_16", typeInvalidRequest, "PreconditionFailed", "The resource's state does not allow this request"},
	ErrPaymentTokenInvalid: {KindInvalid, "IR_16", typeInvalidRequest, "PreconditionFailed", "payment_token is invalid or expired: it names no saved payment method of the payment's customer"},
	ErrAlreadyDefault:      {KindInvalid, "IR_16", typeInvalidRequest, "PreconditionFailed", "Payment Method is already set as default"},

	ErrClientSecretMissing:  {KindInvalid, "IR_08", typeInvalidRequest, "ClientSecretNotGiven", "client_secret was not provided"},
	ErrClientSecretExpired:  {KindInvalid, "IR_08", typeInvalidRequest, "ClientSecretExpired", "The provided client_secret has expired"},
	ErrClientSecretMismatch: {KindInvalid, "IR_09", typeInvalidRequest, "ClientSecretInvalid", "The client_secret provided does not match the client_secret associated with the Payment"},

	ErrUnexpectedState:      {KindInvalid, "IR_14", typeInvalidRequest, "PaymentUnexpectedState", "This Payment could not be processed in its current state"},
	ErrNoEligibleConnector:  {KindInvalid, "IR_39", typeInvalidRequest, "IncorrectPaymentMethodConfiguration", "No eligible connector was found for the current payment method configuration"},
	ErrCaptureDeclined:      {KindInvalid, "CE_03", typeInvalidRequest, "PaymentCaptureFailed", "Capture attempt failed while processing with connector"},
	ErrVoidFailed:           {KindInvalid, "CE_07", typeInvalidRequest, "VerificationFailed", "The void failed at the connector; the payment is still authorized"},
	ErrCardNotVerified:      {KindInvalid, "CE_01", typeInvalidRequest, "PaymentAuthorizationFailed", "The card could not be verified by the connector"},
	ErrConnectorUnavailable: {KindUnavailable, "CE_00", typeInvalidRequest, "ExternalConnectorError", "The connector could not verify the card; try again"},

	ErrPaymentNotSucceeded:   {KindInvalid, "HE_03", typeInvalidRequest, "PaymentNotSucceeded", "The payment has not succeeded yet. Please pass a successful payment to initiate refund"},
	ErrRefundExceedsCaptured: {KindInvalid, "IR_13", typeInvalidRequest, "RefundAmountExceedsPaymentAmount", "The refund amount exceeds the amount captured"},

	ErrMandateInvalid:   {KindInvalid, "HE_03", typeInvalidRequest, "MandateValidationFailed", "Mandate Validation Failed"},
	ErrActiveMandate:    {KindInvalid, "IR_10", typeInvalidRequest, "MandateActive", "Customer has active mandate/subsciption"},
	ErrCustomerRedacted: {KindInvalid, "IR_11", typeInvalidRequest, "CustomerRedacted", "Customer has already been redacted"},

	ErrPayoutStatusInvalid: {KindUnprocessable, "IR_06", typeInvalidRequest, "InvalidRequestData", "The payout's status does not allow this request"},
	ErrPayoutFailed:        {KindInvalid, "IR_41", typeInvalidRequest, "PayoutFailed", "Payout failed while processing with connector."},

	ErrAuthenticationStatusInvalid: {KindUnprocessable, "IR_29", typeInvalidRequest, "UnprocessableEntity", "The authentication's status does not allow this request"},
	ErrNoAuthenticationConnector:   {KindUnprocessable, "IR_29", typeInvalidRequest, "UnprocessableEntity", "No authentication_connector found for the profile"},

	ErrDisputeStatusInvalid: {KindInvalid, "HE_03", typeInvalidRequest, "DisputeStatusValidationFailed", "Dispute status validation failed"},
	ErrDisputeFailed:        {KindInvalid, "CE_08", typeInvalidRequest, "DisputeFailed", "Dispute operation failed while processing with connector. Retry operation"},
	ErrDisputeIDMissing:     {KindInvalid, "IR_34", typeInvalidRequest, "MissingDisputeId", "Dispute id not found in the request"},

	ErrFileNotFound:           {KindNotFound, "HE_04", typeInvalidRequest, "FileNotFound", "File does not exist in our records"},
	ErrFileInvalid:            {KindInvalid, "HE_03", typeInvalidRequest, "FileValidationFailed", "File validation failed"},
	ErrFileMissing:            {KindInvalid, "IR_33", typeInvalidRequest, "MissingFile", "File not found in the request"},
	ErrFilePurposeMissing:     {KindInvalid, "IR_35", typeInvalidRequest, "MissingFilePurpose", "File purpose not found in the request or is invalid"},
	ErrFileContentTypeMissing: {KindInvalid, "IR_36", typeInvalidRequest, "MissingFileContentType", "File content type not found"},

	ErrWebhookAuthenticationFailed: {KindUnauthenticated, "WE_01", typeInvalidRequest, "WebhookAuthenticationFailed", "Webhook authentication failed"},
	ErrWebhookBadRequest:           {KindInvalid, "WE_02", typeInvalidRequest, "WebhookBadRequest", "Bad request body received"},
	ErrBlocklistEntryNotFound:      {KindNotFound, "IR_37", typeInvalidRequest, "GenericNotFoundError", "no blocklist record for the given fingerprint id was found"},
	ErrBlocklistEntryExists:        {KindInvalid, "IR_16", typeInvalidRequest, "PreconditionFailed", "data associated with the given fingerprint is already blocked"},
	ErrBlocklistJobNotFound:        {KindNotFound, "IR_37", typeInvalidRequest, "GenericNotFoundError", "Job not found"},
	ErrInvalidDataFormat:           {KindUnprocessable, "IR_05", typeInvalidRequest, "InvalidDataFormat", "data contains invalid data. Expected format is a 6 digit number"},
	ErrPaymentBlocked:              {KindBlocked, "HE_03", typeBlocked, "PaymentBlockedError", "This payment method is blocked"},
	ErrCardIssuerNotFound:          {KindNotFound, "IR_37", typeInvalidRequest, "GenericNotFoundError", "Card issuer not found"},
	ErrCardIssuerExists:            {KindInvalid, "IR_38", typeInvalidRequest, "GenericDuplicateError", "Card issuer already exists"},
	ErrProfileAcquirerNotFound:     {KindNotFound, "HE_02", typeInvalidRequest, "ProfileAcquirerNotFound", "Profile acquirer not found for the profile"},
	ErrRoutingAlgorithmNotFound:    {KindNotFound, "HE_02", typeInvalidRequest, "ResourceIdNotFound", "Routing algorithm does not exist in our records"},

	ErrSubscriptionNotFound:      {KindNotFound, "HE_02", typeInvalidRequest, "ResourceIdNotFound", "Subscription does not exist in our records"},
	ErrSubscriptionStatusInvalid: {KindInvalid, "IR_16", typeInvalidRequest, "PreconditionFailed", "The subscription's status does not allow this request"},
	ErrTestClockNotFound:         {KindNotFound, "HE_02", typeInvalidRequest, "ResourceIdNotFound", "Test clock does not exist in our records"},

	// The dashboard's users: Hyperswitch's user codes (UR_), and RL_ for
	// the refusals of its rate limits.
	ErrBadCredentials:        {KindUnauthenticated, "UR_01", typeInvalidRequest, "", "Incorrect email or password"},
	ErrUserExists:            {KindInvalid, "UR_03", typeInvalidRequest, "", "An account already exists with this email"},
	ErrAlreadyMember:         {KindInvalid, "UR_03", typeInvalidRequest, "", "This user is a member of the merchant already"},
	ErrLinkInvalid:           {KindInvalid, "UR_04", typeInvalidRequest, "", "Invalid or expired link"},
	ErrInvalidEmail:          {KindInvalid, "UR_07", typeInvalidRequest, "", "Invalid email"},
	ErrInvalidPassword:       {KindInvalid, "UR_09", typeInvalidRequest, "", "Invalid password"},
	ErrLastAdmin:             {KindInvalid, "UR_24", typeInvalidRequest, "", "A merchant must keep at least one admin"},
	ErrSignInLocked:          {KindTooManyRequests, "RL_01", typeInvalidRequest, "", "Too many failed sign-ins; try again later"},
	ErrHashingBusy:           {KindUnavailable, "RL_02", typeAPI, "", "Too many sign-ins and sign-ups at once; try again in a moment"},
	ErrSessionRequired:       {KindForbidden, "IR_22", typeInvalidRequest, "AccessForbidden", "Access forbidden: this operation needs a signed-in dashboard user (Authorization: Bearer <session token>)"},
	ErrForbiddenRole:         {KindForbidden, "IR_22", typeInvalidRequest, "AccessForbidden", "Access forbidden: the user's role may not run this operation"},
	ErrAdminKeyBootstrapOnly: {KindForbidden, "IR_22", typeInvalidRequest, "AccessForbidden", "Access forbidden: the admin key only invites the first admin of a merchant that has none; its admins invite the others"},
}

// shown is a new Error of f as its row shows it. A failure without a row
// (the catalogue's test forbids one) is shown as an internal error.
func (f *Failure) shown() *Error {
	w, ok := hyperswitch[f]
	if !ok {
		w = hyperswitch[ErrInternal]
	}
	return &Error{Kind: w.kind, Type: w.typ, Code: w.code, Message: w.message, failure: f}
}
