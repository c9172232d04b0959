package connector

// The sandbox card table (docs/sandbox.md) as data. That table wins over
// Hyperswitch's dummy connector wherever they differ: the simulator ignores
// the connector name, so 4000000000009995 is declined for insufficient
// funds on every connector, stripe_test included.

// behaviour is what a test card does. Its key has no underscore, because it
// is part of the saved-card tokens (see mandateToken).
type behaviour struct {
	key string
	// decline is the key of declines for a card that is always declined.
	decline string
	// challenge: a 3-D Secure challenge on every payment.
	challenge bool
	// challengeOnSession: a challenge on customer-initiated payments only.
	challengeOnSession bool
	// declineAfterChallenge: the declines key applied when the customer
	// approves the challenge.
	declineAfterChallenge string
	// chargeDeclined: the card can be saved (zero-amount verification
	// succeeds, SetupFutureUsage yields a token) but every charge is declined.
	chargeDeclined bool
	// Card checks that fail whatever the request carries.
	cvcFail, line1Fail, zipFail bool
	dispute                     *DisputeSpec
}

var behaviours = map[string]behaviour{}

func init() {
	for _, b := range []behaviour{
		{key: "ok"},
		{key: "generic", decline: "generic_decline"},
		{key: "nsf", decline: "insufficient_funds"},
		{key: "lost", decline: "lost_card"},
		{key: "stolen", decline: "stolen_card"},
		{key: "expired", decline: "expired_card"},
		{key: "cvc", decline: "incorrect_cvc", cvcFail: true},
		{key: "procerr", decline: "processing_error"},
		{key: "cvcfail", cvcFail: true},
		{key: "zipfail", zipFail: true},
		{key: "line1fail", line1Fail: true},
		{key: "3ds", challenge: true},
		{key: "3dsnsf", challenge: true, declineAfterChallenge: "insufficient_funds"},
		{key: "3dsonsession", challengeOnSession: true},
		{key: "dfraud", dispute: &DisputeSpec{Reason: "fraudulent", ReasonCode: "10.4"}},
		{key: "dpnr", dispute: &DisputeSpec{Reason: "product_not_received", ReasonCode: "13.1"}},
		{key: "nocharge", chargeDeclined: true},
	} {
		behaviours[b.key] = b
	}
}

// shortestCard is the fewest digits of a card the sandbox's networks
// issue: a shorter number is declined as incorrect.
const shortestCard = 12

// testCards maps each special test number to its behaviour key. Any other
// Luhn-valid number of 12 to 19 digits behaves as "ok".
var testCards = map[string]string{
	"4242424242424242": "ok",
	"4111111111111111": "ok",
	"5555555555554444": "ok",
	"378282246310005":  "ok",
	"371449635398431":  "ok",
	"6011111111111117": "ok",
	"38000000000006":   "ok",
	"3566002020360505": "ok",
	"4000000000000077": "ok",
	"4000000000000002": "generic",
	"5105105105105100": "generic",
	"4000000000009995": "nsf",
	"4000000000009987": "lost",
	"4000000000009979": "stolen",
	"4000000000000069": "expired",
	"4000000000000127": "cvc",
	"4000000000000119": "procerr",
	"4000000000000101": "cvcfail",
	"4000000000000036": "zipfail",
	"4000000000000028": "line1fail",
	"4000000000003063": "3ds",
	"4000002760003184": "3ds",
	"4000003800000446": "3ds",
	"4000000000003220": "3ds",
	"4000008260003178": "3dsnsf",
	"4000002500003155": "3dsonsession",
	"4000000000000259": "dfraud",
	"4000000000002685": "dpnr",
	"4000000000000341": "nocharge",
}

// Decline codes (Decline.Code) the simulator returns.
const (
	CodeCardDeclined         = "card_declined"
	CodeExpiredCard          = "expired_card"
	CodeIncorrectCVC         = "incorrect_cvc"
	CodeProcessingError      = "processing_error"
	CodeInvalidCardData      = "invalid_card_data"
	CodeIncorrectNumber      = "incorrect_number"
	CodeAuthenticationFailed = "authentication_failed"
	CodeProviderDecline      = "payment_method_provider_decline"
	CodeInvalidUPIID         = "invalid_upi_id"
	CodeNotSupported         = "payment_method_not_supported"
	CodeCaptureNotSupported  = "capture_method_not_supported"
	CodeInvalidAmount        = "invalid_amount"
	CodeUnexpectedState      = "payment_intent_unexpected_state"
	CodeInvalidMandate       = "resource_missing"
	CodeInvalidBankData      = "invalid_bank_account"
	CodeInvalidGiftCard      = "invalid_gift_card"
	CodeBankAccountDeclined  = "bank_account_declined"
	CodeGiftCardDeclined     = "gift_card_declined"
)

// Decline reasons (Decline.Reason) beyond the codes above.
const (
	ReasonGenericDecline      = "generic_decline"
	ReasonInsufficientFunds   = "insufficient_funds"
	ReasonLostCard            = "lost_card"
	ReasonStolenCard          = "stolen_card"
	ReasonCustomerDeclined    = "customer_declined"
	ReasonPaymentNotSucceeded = "payment_not_successful"
)

// declines are the simulator's refusals, Stripe's vocabulary. Every message
// names its reason.
var declines = map[string]Decline{
	"generic_decline": {Code: CodeCardDeclined, Reason: ReasonGenericDecline, DeclineCode: ReasonGenericDecline,
		Message: "Your card was declined (generic_decline)."},
	"insufficient_funds": {Code: CodeCardDeclined, Reason: ReasonInsufficientFunds, DeclineCode: ReasonInsufficientFunds,
		NetworkAdviceCode: "02", Message: "Your card was declined: insufficient funds (insufficient_funds)."},
	"lost_card": {Code: CodeCardDeclined, Reason: ReasonLostCard, DeclineCode: ReasonLostCard,
		NetworkAdviceCode: "03", Message: "Your card was declined: the card was reported lost (lost_card)."},
	"stolen_card": {Code: CodeCardDeclined, Reason: ReasonStolenCard, DeclineCode: ReasonStolenCard,
		NetworkAdviceCode: "03", Message: "Your card was declined: the card was reported stolen (stolen_card)."},
	"expired_card": {Code: CodeExpiredCard, Reason: CodeExpiredCard, DeclineCode: CodeExpiredCard,
		NetworkAdviceCode: "01", Message: "Your card has expired (expired_card)."},
	"incorrect_cvc": {Code: CodeIncorrectCVC, Reason: CodeIncorrectCVC, DeclineCode: CodeIncorrectCVC,
		Message: "Your card's security code is incorrect (incorrect_cvc)."},
	"processing_error": {Code: CodeProcessingError, Reason: CodeProcessingError, DeclineCode: CodeProcessingError,
		Message: "An error occurred while processing your card; try again later (processing_error)."},
	"charge_declined": {Code: CodeCardDeclined, Reason: ReasonGenericDecline, DeclineCode: ReasonGenericDecline,
		Message: "Your card was declined: this card can be saved but not charged (generic_decline)."},
	"authentication_failed": {Code: CodeAuthenticationFailed, Reason: CodeAuthenticationFailed,
		Message: "The customer declined the 3-D Secure challenge (authentication_failed)."},
	"customer_declined": {Code: CodeProviderDecline, Reason: ReasonCustomerDeclined,
		Message: "The customer declined the payment on the redirect page (customer_declined)."},
	"upi_failure": {Code: CodeProviderDecline, Reason: ReasonPaymentNotSucceeded,
		Message: "The UPI payment was not successful (payment_not_successful)."},
	"invalid_upi_id": {Code: CodeInvalidUPIID, Reason: CodeInvalidUPIID,
		Message: "Payment declined: invalid UPI id (invalid_upi_id)."},
	"no_account": {Code: CodeBankAccountDeclined, Reason: "no_account", DeclineCode: "no_account",
		Message: "The bank account could not be found (no_account)."},
	"account_closed": {Code: CodeBankAccountDeclined, Reason: "account_closed", DeclineCode: "account_closed",
		Message: "The bank account has been closed (account_closed)."},
	"bank_insufficient_funds": {Code: CodeBankAccountDeclined, Reason: ReasonInsufficientFunds, DeclineCode: ReasonInsufficientFunds,
		Message: "The bank account has insufficient funds (insufficient_funds)."},
	"gift_card_balance": {Code: CodeGiftCardDeclined, Reason: ReasonInsufficientFunds, DeclineCode: ReasonInsufficientFunds,
		Message: "The gift card's balance does not cover the amount (insufficient_funds)."},
	"funds_not_received": {Code: CodeProviderDecline, Reason: "funds_not_received",
		Message: "The bank transfer was not received before it expired (funds_not_received)."},
	"voucher_expired": {Code: CodeProviderDecline, Reason: "voucher_expired",
		Message: "The voucher was not paid before it expired (voucher_expired)."},
}

func declineFor(key string) *Decline {
	d, ok := declines[key]
	if !ok {
		panic("connector: no decline " + key)
	}
	return &d
}

func newDecline(code, message string) *Decline {
	return &Decline{Code: code, Reason: code, Message: message}
}
