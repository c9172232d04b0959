package connector

import (
	"context"
	"fmt"
)

// Payouter is a connector that pays money out (Hyperswitch's payout flows):
// a connector account declares it with connector_type payout_processor.
// PayoutCreate registers the payout and its recipient (no money moves);
// PayoutFulfill sends the money; PayoutCancel stops a payout not yet sent;
// PayoutSync asks what became of one (ErrTransactionNotFound: the
// connector never received it). The answers follow the Connector contract:
// an error means no outcome is known.
type Payouter interface {
	PayoutCreate(ctx context.Context, req *PayoutRequest) (*PayoutResult, error)
	PayoutFulfill(ctx context.Context, req *PayoutRequest) (*PayoutResult, error)
	PayoutCancel(ctx context.Context, req *PayoutRequest) (*PayoutResult, error)
	PayoutSync(ctx context.Context, req *PayoutRequest) (*PayoutResult, error)
}

// PayoutStatus is a connector's answer about a payout.
type PayoutStatus string

// The payout statuses a connector answers with.
const (
	// PayoutRequiresFulfillment: created at the connector, no money sent.
	PayoutRequiresFulfillment PayoutStatus = "requires_fulfillment"
	// PayoutInitiated: the fulfilment was received and is being processed.
	PayoutInitiated PayoutStatus = "initiated"
	PayoutPending   PayoutStatus = "pending"
	PayoutSuccess   PayoutStatus = "success"
	PayoutFailed    PayoutStatus = "failed"
	PayoutReversed  PayoutStatus = "reversed"
	PayoutCancelled PayoutStatus = "cancelled"
	// PayoutIneligible: the connector refuses to pay to this method.
	PayoutIneligible PayoutStatus = "ineligible"
)

// PayoutMethod is where a payout goes. Like Card, it exists only on the way
// to a connector and redacts itself.
type PayoutMethod struct {
	// Type is the payout_type: card, bank, wallet or bank_redirect.
	Type string
	// Subtype is the payout_method_type: debit, ach, bacs, sepa, pix,
	// paypal, venmo, interac.
	Subtype string
	Card    *Card
	// AccountNumber is the bank account number, or the IBAN.
	AccountNumber string
	// Email is a wallet's or an Interac transfer's e-mail.
	Email string
	// Phone is a Venmo wallet's telephone number.
	Phone string
	// RecipientToken names a recipient the connector created before
	// (PayoutResult.RecipientToken), in place of the data above.
	RecipientToken string
}

// String redacts the method.
func (m PayoutMethod) String() string {
	return "PayoutMethod{" + m.Type + "/" + m.Subtype + ", redacted}"
}

// PayoutRequest is a payout call. Account.AttemptID is the payout
// attempt's id (poa_…); connectors derive their payout ids from it.
type PayoutRequest struct {
	Account  Account
	PayoutID string
	Amount   int64
	Currency string
	// Method is the recipient: PayoutCreate's only.
	Method *PayoutMethod
	// ConnectorPayoutID is the connector's id of the payout, from
	// PayoutCreate's answer: every later call's.
	ConnectorPayoutID string
}

// PayoutResult is a connector's answer about a payout.
type PayoutResult struct {
	Status            PayoutStatus `json:"status"`
	ConnectorPayoutID string       `json:"connector_payout_id"`
	// Decline says why a payout failed, was ineligible or was not
	// cancelled.
	Decline *Decline `json:"decline,omitempty"`
	// RecipientToken is PayoutCreate's token for the recipient, which a
	// later payout to them may give instead of their data (a saved payout
	// method).
	RecipientToken string `json:"recipient_token,omitempty"`
}

// Codes of the sandbox's payout failures (Decline.Code).
const (
	CodePayoutDeclined      = "payout_declined"
	CodeInsufficientBalance = "insufficient_balance"
	CodePayoutNotCancelable = "payout_not_cancellable"
	CodePayoutIneligible    = "payout_method_ineligible"
)

// PayoutFunds is the sandbox's payout balance per connector account, which
// never goes negative: Debit takes amount unless the balance (opening when
// the account has none yet) is smaller, atomically; Credit gives it back
// (a reversal). Both happen at most once per id (the payout attempt), so a
// retried call never moves the balance twice.
type PayoutFunds interface {
	Debit(ctx context.Context, account, id string, amount, opening int64) (ok bool, balance int64, err error)
	Credit(ctx context.Context, account, id string, amount, opening int64) error
}

// SandboxPayoutBalance is the payout balance, in minor units, each sandbox
// connector account starts with.
const SandboxPayoutBalance int64 = 10_000_000

func payoutRequest(op string, req *PayoutRequest) error {
	if req == nil {
		return nilRequest(op)
	}
	if req.Account.AttemptID == "" {
		return fmt.Errorf("%w: %s: payout attempt id is required", ErrInvalidRequest, op)
	}
	return nil
}
