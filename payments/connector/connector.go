// Package connector owns everything about the payment processors
// ("connectors") a merchant pays through: the interface between the payments
// domain and a processor, the closed list of connector names (Names and
// Known, the one copy connector_name is validated against), the built-in
// sandbox simulator that serves every connector account in the sandbox
// environment, and the merchants' connector accounts (Service: their
// create, read, update and delete, with Hyperswitch's type tables for
// MerchantConnectorCreate and its validation, credentials sealed at rest and
// masked on the way out).
//
// Connector accounts live here rather than in a package of their own
// because an account is only ever resolved to the integration that serves
// it (Service.Integration); the account types that would clash with the
// integration's (the account's connector name, type and status) are named
// Name, Type and AccountStatus.
//
// It must not import another domain package (payments, merchant, customer),
// nor know HTTP or GraphQL.
//
// # Contract
//
// Every Connector method returns a result and a nil error when the connector
// answered, whatever it answered: a declined card is a normal result with
// Status Failure and a *Decline. A non-nil error means no outcome is known:
// the connector could not be reached, answered garbage, or was called with a
// request it cannot make sense of (for instance ConnectorMetadata it did not
// produce). The domain should leave the attempt as it was, or retry later.
//
// A connector may return ConnectorMetadata. The domain stores it on the
// attempt (as JSON) and passes the latest value back on every later call for
// that attempt: CompleteAuthentication, Capture, Void, Refund and Sync. This
// is what lets the Simulator stay stateless.
//
// # Card data
//
// Requests carry the PAN and the CVC to the connector, and nowhere else: no
// result, error or ConnectorMetadata contains them (the last four digits at
// most). Card, Credentials and the requests that embed them redact themselves
// when printed with fmt, logged with log/slog, or marshalled to JSON.
//
// # Sandbox
//
// In sandbox every name in connector_names.txt (Hyperswitch's closed list,
// see Names and Known) is served by the Simulator; For and Registry resolve a
// name to it. The Simulator follows the sandbox's test-card table
// (docs/sandbox.md); see the Simulator type for the full behaviour.
package connector

import (
	"context"
	"time"
)

// Connector is a payment processor integration.
type Connector interface {
	// Authorize starts a payment: it authorizes (and, with automatic capture,
	// captures) the amount, or asks for customer action (3-D Secure or a
	// redirect) with Status AuthenticationPending and RedirectRequired.
	Authorize(ctx context.Context, req *AuthorizeRequest) (*PaymentResult, error)
	// CompleteAuthentication finishes a payment left AuthenticationPending,
	// once the customer approved or declined on the redirect page.
	CompleteAuthentication(ctx context.Context, req *CompleteAuthenticationRequest) (*PaymentResult, error)
	// Capture captures all or part of an authorized amount.
	Capture(ctx context.Context, req *CaptureRequest) (*CaptureResult, error)
	// Void cancels an authorization that has not been captured.
	Void(ctx context.Context, req *VoidRequest) (*PaymentResult, error)
	// Refund refunds all or part of a captured amount.
	Refund(ctx context.Context, req *RefundRequest) (*RefundResult, error)
	// Sync asks the connector for the payment's current status. It answers
	// ErrTransactionNotFound for an attempt the connector was never sent.
	Sync(ctx context.Context, req *SyncRequest) (*PaymentResult, error)
	// SyncCapture asks what became of a capture (ErrTransactionNotFound:
	// never sent).
	SyncCapture(ctx context.Context, req *CaptureSyncRequest) (*CaptureResult, error)
	// SyncRefund asks what became of a refund (ErrTransactionNotFound:
	// never sent).
	SyncRefund(ctx context.Context, req *RefundSyncRequest) (*RefundResult, error)
}

// CaptureMethod is how an authorized amount gets captured.
type CaptureMethod string

// Capture methods. The zero value means CaptureAutomatic.
const (
	CaptureAutomatic           CaptureMethod = "automatic"
	CaptureManual              CaptureMethod = "manual"
	CaptureManualMultiple      CaptureMethod = "manual_multiple"
	CaptureSequentialAutomatic CaptureMethod = "sequential_automatic"
)

// automatic reports whether the method captures at authorization time.
func (m CaptureMethod) automatic() bool {
	return m == "" || m == CaptureAutomatic || m == CaptureSequentialAutomatic
}

func (m CaptureMethod) valid() bool {
	switch m {
	case "", CaptureAutomatic, CaptureManual, CaptureManualMultiple, CaptureSequentialAutomatic:
		return true
	}
	return false
}

// AuthenticationType is the 3-D Secure preference of a payment.
type AuthenticationType string

// Authentication types. The zero value means NoThreeDS.
const (
	ThreeDS   AuthenticationType = "three_ds"
	NoThreeDS AuthenticationType = "no_three_ds"
)

// PaymentMethodType is the kind of payment method.
type PaymentMethodType string

// Payment method types the simulator understands (Hyperswitch names).
const (
	MethodCard         PaymentMethodType = "card"
	MethodUPI          PaymentMethodType = "upi"
	MethodWallet       PaymentMethodType = "wallet"
	MethodPayLater     PaymentMethodType = "pay_later"
	MethodBankRedirect PaymentMethodType = "bank_redirect"
	MethodBankTransfer PaymentMethodType = "bank_transfer"
	MethodBankDebit    PaymentMethodType = "bank_debit"
	MethodVoucher      PaymentMethodType = "voucher"
	MethodGiftCard     PaymentMethodType = "gift_card"
	MethodCrypto       PaymentMethodType = "crypto"
	MethodReward       PaymentMethodType = "reward"
	// The families below pay on a page the customer is sent to, as
	// MethodPayLater does.
	MethodCardRedirect    PaymentMethodType = "card_redirect"
	MethodRealTimePayment PaymentMethodType = "real_time_payment"
	MethodOpenBanking     PaymentMethodType = "open_banking"
	MethodMobilePayment   PaymentMethodType = "mobile_payment"
)

// Account identifies the connector account a request goes to, and the
// payment and attempt it is about. Every request embeds it.
type Account struct {
	// ConnectorName is the connector_name of the account, e.g. "stripe_test".
	ConnectorName string
	// MerchantConnectorAccountID is the account's mca_… id.
	MerchantConnectorAccountID string
	// Credentials are the account's decrypted connector_account_details.
	Credentials Credentials
	// PaymentID is the payment's pay_… id.
	PaymentID string
	// AttemptID is the attempt's id. Connectors derive their ids from it.
	AttemptID string
	// Sandbox is the account's sandbox object (metadata.sandbox): how the
	// Simulator fails this account's calls. Other connectors ignore it.
	Sandbox SandboxFailures
}

// Card is raw card data. It exists only on the way to a connector: it is
// never stored, and it redacts itself when printed, logged or marshalled.
type Card struct {
	Number     string
	ExpMonth   string
	ExpYear    string
	CVC        string
	HolderName string
}

// PaymentMethod is what the customer pays with.
type PaymentMethod struct {
	// Type is the family: one of the Method constants.
	Type PaymentMethodType
	// Subtype is the payment_method_type, e.g. "credit", "upi_collect",
	// "paypal", "klarna", "ideal".
	Subtype string
	// Variant is the member named under the family's object in
	// Hyperswitch's payment_method_data (google_pay, paypal_redirect,
	// ach_bank_transfer, sepa_bank_debit, boleto, givex, …); empty for
	// cards, UPI, crypto and reward.
	Variant string
	// BankAccount is a bank debit's account number, or its IBAN for SEPA.
	BankAccount Secret
	// GiftCard is a gift card's number and PIN (or CVC).
	GiftCard *GiftCard
	// WalletLast4 is the last four digits of the card behind a wallet
	// token, when the wallet data names them (Google Pay's
	// info.card_details, Apple Pay's payment_method.display_name).
	WalletLast4 string
	// Country is the country the payment method belongs to, where its data
	// names one (a SEPA bank transfer's country).
	Country string
	// Card is set for Type card, unless ConnectorMandateID is.
	Card *Card
	// VPA is the UPI virtual payment address (vpa_id) for UPI collect.
	VPA string
	// ConnectorMandateID is a saved card's or a bank debit mandate's
	// connector token (a PaymentResult.ConnectorMandateID returned
	// earlier), used instead of Card or BankAccount for merchant-initiated
	// payments.
	ConnectorMandateID string
}

// Address is the part of the billing address used for AVS checks.
type Address struct {
	Line1 string
	Zip   string
}

// AuthorizeRequest starts a payment.
type AuthorizeRequest struct {
	Account
	// Amount is in minor units. Zero is a card verification (zero-amount
	// authorization), used to save a card.
	Amount int64
	// AmountToCapture is what an automatic capture takes, at most Amount;
	// 0 takes all of it. Manual captures ignore it.
	AmountToCapture    int64
	Currency           string
	CaptureMethod      CaptureMethod
	AuthenticationType AuthenticationType
	// OffSession marks a merchant-initiated payment (off_session, a mandate
	// or recurring charge): the customer is not present.
	OffSession bool
	// SetupFutureUsage asks the connector to keep the payment method for
	// later merchant-initiated payments; the token comes back as
	// PaymentResult.ConnectorMandateID.
	SetupFutureUsage bool
	PaymentMethod    PaymentMethod
	Billing          Address
	// ConnectorMetadata is whatever the connector returned earlier for this
	// attempt; nil on a first authorization.
	ConnectorMetadata map[string]any
	// ExternalThreeDS is the result of a 3-D Secure authentication made
	// before this authorization (by the profile's authentication connector,
	// or the merchant's own three_ds_data): an authenticated one lets the
	// connector authorize without a challenge of its own. Nil: none.
	ExternalThreeDS *ExternalThreeDS
}

// ExternalThreeDS is an authentication's result as an authorization
// carries it. CAVV is card data: it is never logged or stored.
type ExternalThreeDS struct {
	// TransStatus is EMV 3-D Secure's transStatus (ThreeDSAuthenticated, …).
	TransStatus string
	ECI         string
	CAVV        string
	DSTransID   string
	// Version is the 3-D Secure message version (2.2.0).
	Version string
}

// Authenticated says the authentication lets the payment through: the
// cardholder was authenticated, or the attempt was (liability shifts).
func (e *ExternalThreeDS) Authenticated() bool {
	return e != nil && (e.TransStatus == ThreeDSAuthenticated || e.TransStatus == ThreeDSAttempted)
}

// CompleteAuthenticationRequest reports the customer's answer on the 3-D
// Secure or redirect page.
type CompleteAuthenticationRequest struct {
	Account
	ConnectorTransactionID string
	// Approved is true when the customer approved, false when they declined.
	Approved bool
	// Amount, Currency and CaptureMethod repeat the payment's; the
	// simulator prefers what it recorded in ConnectorMetadata.
	Amount            int64
	Currency          string
	CaptureMethod     CaptureMethod
	ConnectorMetadata map[string]any
}

// CaptureRequest captures an authorized amount.
type CaptureRequest struct {
	Account
	ConnectorTransactionID string
	// CaptureID is the domain's id of this capture; connectors derive their
	// capture id from it.
	CaptureID string
	// AmountToCapture is in minor units: the full authorized amount or part
	// of it. The domain enforces the totals.
	AmountToCapture   int64
	Currency          string
	ConnectorMetadata map[string]any
}

// VoidRequest cancels an uncaptured authorization.
type VoidRequest struct {
	Account
	ConnectorTransactionID string
	CancellationReason     string
	ConnectorMetadata      map[string]any
}

// RefundRequest refunds captured money.
type RefundRequest struct {
	Account
	ConnectorTransactionID string
	// RefundID is the domain's ref_… id; connectors derive their refund id
	// from it.
	RefundID string
	// Amount is the refund amount in minor units. The domain enforces the
	// limits.
	Amount            int64
	Currency          string
	Reason            string
	ConnectorMetadata map[string]any
}

// SyncRequest asks for a payment's current status.
type SyncRequest struct {
	Account
	ConnectorTransactionID string
	ConnectorMetadata      map[string]any
}

// CaptureSyncRequest asks what became of a capture.
type CaptureSyncRequest struct {
	Account
	ConnectorTransactionID string
	// CaptureID is the domain's id the capture was sent with.
	CaptureID string
}

// RefundSyncRequest asks what became of a refund.
type RefundSyncRequest struct {
	Account
	ConnectorTransactionID string
	// RefundID is the domain's id the refund was sent with.
	RefundID string
}

// Status is a connector's view of a payment attempt (or of a capture).
type Status string

// Attempt statuses, named as Hyperswitch's AttemptStatus values.
const (
	StatusCharged               Status = "charged"
	StatusAuthorized            Status = "authorized"
	StatusAuthenticationPending Status = "authentication_pending"
	StatusPending               Status = "pending"
	StatusFailure               Status = "failure"
	StatusVoided                Status = "voided"
)

// RefundStatus is a connector's view of a refund.
type RefundStatus string

// Refund statuses.
const (
	RefundSucceeded RefundStatus = "succeeded"
	RefundPending   RefundStatus = "pending"
	RefundFailed    RefundStatus = "failed"
)

// Decline is why a connector refused: Hyperswitch's error_code,
// error_message, error_reason and the network's decline details.
type Decline struct {
	// Code is the error_code, e.g. "card_declined", "expired_card".
	Code string `json:"code"`
	// Message is the error_message; it names the reason.
	Message string `json:"message"`
	// Reason is the error_reason, e.g. "insufficient_funds".
	Reason string `json:"reason,omitempty"`
	// DeclineCode is the issuer's decline code, e.g. "generic_decline".
	DeclineCode string `json:"decline_code,omitempty"`
	// NetworkAdviceCode tells whether to retry: "01" new account
	// information available, "02" try again later, "03" do not try again.
	NetworkAdviceCode string `json:"network_advice_code,omitempty"`
}

// Card check outcomes.
const (
	CheckPass        = "pass"
	CheckFail        = "fail"
	CheckUnavailable = "unavailable"
)

// PaymentChecks are the card verification results that go in
// payment_method_data.card.payment_checks.
type PaymentChecks struct {
	CVCCheck               string `json:"cvc_check"`
	AddressLine1Check      string `json:"address_line1_check"`
	AddressPostalCodeCheck string `json:"address_postal_code_check"`
}

// DisputeSpec describes a dispute the network will open once the payment has
// succeeded.
type DisputeSpec struct {
	// Reason is Stripe's dispute reason, e.g. "fraudulent".
	Reason string `json:"reason"`
	// ReasonCode is the network's reason code, e.g. Visa "10.4".
	ReasonCode string `json:"reason_code"`
}

// PaymentResult is a connector's answer about a payment attempt.
type PaymentResult struct {
	Status                 Status
	ConnectorTransactionID string
	// AmountCaptured is the total captured so far, in minor units.
	AmountCaptured int64
	// AmountCapturable is what can still be captured now (0 while
	// authentication is pending and after a failure or void).
	AmountCapturable int64
	// RedirectRequired asks the domain to send the customer to its
	// Approve/Decline page, then call CompleteAuthentication.
	RedirectRequired bool
	// ConnectorMetadata must be stored on the attempt and passed back on
	// every later call for it.
	ConnectorMetadata map[string]any
	// Decline is set when Status is Failure.
	Decline *Decline
	// PaymentChecks is set for card payments.
	PaymentChecks        *PaymentChecks
	NetworkTransactionID string
	// ConnectorMandateID is a token for later merchant-initiated payments
	// with the same card (PaymentMethod.ConnectorMandateID). Set when the
	// request asked for SetupFutureUsage and the card could be saved.
	ConnectorMandateID string
	// DisputeAfterSuccess is set for cards that get disputed: the domain
	// opens the dispute once the payment has succeeded (been captured).
	DisputeAfterSuccess *DisputeSpec
	// Instructions is set, with Status AuthenticationPending and no
	// redirect, when the customer must act away from any page: pay a bank
	// transfer or a voucher. CompleteAuthentication then reports whether
	// the money arrived.
	Instructions *Instructions
}

// Instructions tell the customer how to pay a payment that waits for their
// money.
type Instructions struct {
	// Kind is InstructionsBankTransfer or InstructionsVoucher.
	Kind string `json:"kind"`
	// BankTransfer is Hyperswitch's BankTransferInstructions: one member
	// (ach_credit_transfer, sepa_bank_instructions, bacs_bank_instructions,
	// multibanco, doku_bank_transfer_instructions) with its details.
	BankTransfer map[string]any `json:"bank_transfer,omitempty"`
	// Reference identifies the payment to the receiving bank or the shop's
	// till.
	Reference string `json:"reference"`
	// ExpiresAt is when the transfer or voucher stops being accepted.
	ExpiresAt time.Time `json:"expires_at"`
}

// Instruction kinds.
const (
	InstructionsBankTransfer = "bank_transfer"
	InstructionsVoucher      = "voucher"
)

// CaptureResult is a connector's answer to a capture.
type CaptureResult struct {
	// Status is Charged, Pending or Failure.
	Status             Status
	ConnectorCaptureID string
	Decline            *Decline
	// ConnectorMetadata is the attempt's metadata after the capture; store
	// it in place of the old one.
	ConnectorMetadata map[string]any
	// DisputeAfterSuccess is repeated from the authorization, now that the
	// payment has succeeded.
	DisputeAfterSuccess *DisputeSpec
}

// RefundResult is a connector's answer to a refund.
type RefundResult struct {
	// Status is RefundSucceeded, RefundPending or RefundFailed.
	Status            RefundStatus
	ConnectorRefundID string
	Decline           *Decline
}

// Authorizations is a connector that changes an authorization after it is
// given (Hyperswitch's incremental authorization, extended authorization
// and void after capture). A connector without it refuses those
// operations; in sandbox the Simulator serves it
// (simulator_authorization.go).
type Authorizations interface {
	// IncrementAuthorization raises the authorized amount to a new total.
	IncrementAuthorization(ctx context.Context, req *IncrementRequest) (*IncrementResult, error)
	// SyncIncrement asks what became of an increment
	// (ErrTransactionNotFound: never sent).
	SyncIncrement(ctx context.Context, req *IncrementSyncRequest) (*IncrementResult, error)
	// ExtendAuthorization extends how long the authorization stays valid.
	ExtendAuthorization(ctx context.Context, req *ExtendRequest) (*ExtendResult, error)
	// VoidPostCapture voids a captured payment on the day of its capture:
	// Status Voided, or Failure with a Decline. Sync then reports Voided.
	VoidPostCapture(ctx context.Context, req *VoidRequest) (*PaymentResult, error)
}

// IncrementRequest raises an authorization to Amount, its new total.
type IncrementRequest struct {
	Account
	ConnectorTransactionID string
	// IncrementID is the domain's inc_… id the connector keys its answer by.
	IncrementID string
	Amount      int64
	Currency    string
	Reason      string
	// ConnectorMetadata is the attempt's latest metadata.
	ConnectorMetadata map[string]any
}

// IncrementSyncRequest asks what became of an increment.
type IncrementSyncRequest struct {
	Account
	ConnectorTransactionID string
	IncrementID            string
}

// IncrementResult is a connector's answer to an increment: Status Charged
// means approved (the authorization now covers the new total), Failure a
// decline, Pending not decided yet.
type IncrementResult struct {
	Status                   Status         `json:"status"`
	ConnectorAuthorizationID string         `json:"connector_authorization_id,omitempty"`
	Decline                  *Decline       `json:"decline,omitempty"`
	ConnectorMetadata        map[string]any `json:"connector_metadata,omitempty"`
}

// ExtendRequest extends an authorization's validity.
type ExtendRequest struct {
	Account
	ConnectorTransactionID string
	ConnectorMetadata      map[string]any
}

// ExtendResult is a connector's answer to an extension: Applied, or a
// Decline saying why not.
type ExtendResult struct {
	Applied bool
	Decline *Decline
}
