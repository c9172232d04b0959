package connector

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
)

// The simulator pays out too (docs/sandbox.md, "Payouts"). What a payout
// does is chosen by its recipient, as a payment's by its card: the last
// four digits of a card number, bank account number, IBAN or telephone
// number, or the local part of a wallet's e-mail (fail@…, pending@…,
// reversed@…, ineligible@…). The payout is kept in the ledger under its attempt's id,
// with the outcome its recipient asked for and no recipient data.

// payoutOutcome is what a recipient's test data asks for.
type payoutOutcome string

const (
	outcomeSuccess  payoutOutcome = "success"
	outcomeFailed   payoutOutcome = "failed"
	outcomePending  payoutOutcome = "pending"
	outcomeReversed payoutOutcome = "reversed"
	// outcomeIneligible: the recipient cannot be paid out to (a card
	// whose issuer takes no payouts), refused at creation.
	outcomeIneligible payoutOutcome = "ineligible"
)

// payoutOutcomeByLast4 are the test endings of card, account and phone
// numbers; any other ending succeeds.
var payoutOutcomeByLast4 = map[string]payoutOutcome{
	"0002": outcomeFailed, "0259": outcomePending, "5126": outcomeReversed, "0069": outcomeIneligible,
}

// recipientTokenPrefix starts the sandbox's recipient tokens, which carry
// the outcome their recipient's test data asked for.
const recipientTokenPrefix = "sim_pot_"

// outcomeOf is what m's test data asks for.
func outcomeOf(m *PayoutMethod) payoutOutcome {
	if rest, ok := strings.CutPrefix(m.RecipientToken, recipientTokenPrefix); ok {
		outcome, _, _ := strings.Cut(rest, "_")
		return payoutOutcome(outcome)
	}
	if m.Email != "" {
		local, _, _ := strings.Cut(strings.ToLower(m.Email), "@")
		switch local {
		case "fail":
			return outcomeFailed
		case "pending":
			return outcomePending
		case "reversed":
			return outcomeReversed
		case "ineligible":
			return outcomeIneligible
		}
		return outcomeSuccess
	}
	digits := m.AccountNumber
	switch {
	case m.Card != nil:
		digits = m.Card.Number
	case m.Phone != "":
		digits = m.Phone
	}
	if len(digits) >= 4 {
		if o, ok := payoutOutcomeByLast4[digits[len(digits)-4:]]; ok {
			return o
		}
	}
	return outcomeSuccess
}

// payoutRecord is the ledger's record of a payout.
type payoutRecord struct {
	Outcome payoutOutcome `json:"outcome"`
	Amount  int64         `json:"amount"`
	Account string        `json:"account"`
	PayoutResult
}

var _ Payouter = (*Simulator)(nil)

// PayoutCreate implements Payouter: it registers the payout, eligible
// unless the method lacks what it is paid by.
func (s *Simulator) PayoutCreate(ctx context.Context, req *PayoutRequest) (*PayoutResult, error) {
	if err := payoutRequest("payout create", req); err != nil {
		return nil, err
	}
	if req.Method == nil {
		return nil, fmt.Errorf("%w: payout create: the payout method is required", ErrInvalidRequest)
	}
	rec := payoutRecord{Outcome: outcomeOf(req.Method), Amount: req.Amount, Account: req.Account.MerchantConnectorAccountID,
		PayoutResult: PayoutResult{Status: PayoutRequiresFulfillment, ConnectorPayoutID: "sim_" + req.Account.AttemptID}}
	switch {
	case req.Account.Sandbox.Outage:
		rec.Status, rec.Decline = PayoutFailed, outageDecline()
	case req.Amount <= 0:
		rec.Status, rec.Decline = PayoutFailed, newDecline(CodeInvalidAmount, "The payout amount must be positive (invalid_amount).")
	case rec.Outcome == outcomeIneligible:
		rec.Status, rec.Decline = PayoutIneligible, newDecline(CodePayoutIneligible,
			"The recipient cannot receive payouts (sandbox test data: it ends in 0069 or is ineligible@…).")
	case req.Method.RecipientToken != "" && !strings.HasPrefix(req.Method.RecipientToken, recipientTokenPrefix):
		rec.Status, rec.Decline = PayoutIneligible, newDecline(CodePayoutIneligible,
			"The recipient token was not issued by the sandbox.")
	case req.Method.Card == nil && req.Method.AccountNumber == "" && req.Method.Email == "" && req.Method.Phone == "" &&
		req.Method.RecipientToken == "":
		rec.Status, rec.Decline = PayoutIneligible, newDecline(CodePayoutIneligible,
			"The sandbox pays out to a card number, a bank account number or IBAN, an e-mail or a telephone number; this method has none.")
	}
	if rec.Status == PayoutRequiresFulfillment {
		rec.RecipientToken = recipientTokenPrefix + string(rec.Outcome) + "_" + req.Account.AttemptID
	}
	if err := s.keepPayout(ctx, req.Account.AttemptID, &rec); err != nil {
		return nil, err
	}
	res := rec.PayoutResult
	return &res, nil
}

// PayoutFulfill implements Payouter: it sends a created payout's money,
// debiting the account's payout balance (never below zero). A payout
// answered before is answered the same again.
func (s *Simulator) PayoutFulfill(ctx context.Context, req *PayoutRequest) (*PayoutResult, error) {
	rec, err := s.beginPayout(ctx, "payout fulfill", req)
	if err != nil {
		return nil, err
	}
	switch {
	case rec.Status != PayoutRequiresFulfillment && rec.Status != PayoutInitiated:
	case req.Account.Sandbox.Outage:
		rec.Status, rec.Decline = PayoutFailed, outageDecline()
	default:
		// Recorded initiated first: a sync after a crash inside the
		// fulfilment finishes it (the debit happens once per attempt).
		rec.Status = PayoutInitiated
		if err := s.keepPayout(ctx, req.Account.AttemptID, rec); err != nil {
			return nil, err
		}
		if err := s.sendPayout(ctx, req.Account.AttemptID, rec); err != nil {
			return nil, err
		}
		if rec.Status == PayoutPending {
			// The recipient's bank settles it a moment later: the next
			// sync answers success, and the webhook says so.
			s.queueWebhook(ctx, req.Account, webhookChange{Object: WebhookPayout, Reference: req.Account.AttemptID, Change: "settled"})
		}
	}
	return s.answerPayout(ctx, req.Account.AttemptID, rec)
}

// sendPayout moves rec's money by its outcome.
func (s *Simulator) sendPayout(ctx context.Context, id string, rec *payoutRecord) error {
	if rec.Outcome == outcomeFailed {
		rec.Status, rec.Decline = PayoutFailed, &Decline{Code: CodePayoutDeclined, Reason: "recipient_declined",
			Message: "The recipient's bank declined the payout (sandbox test data: it ends in 0002 or is fail@…)."}
		return nil
	}
	ok, balance, err := s.funds().Debit(ctx, rec.Account, id, rec.Amount, SandboxPayoutBalance)
	if err != nil {
		return fmt.Errorf("connector: the sandbox could not read its payout balance: %w", err)
	}
	if !ok {
		rec.Status, rec.Decline = PayoutFailed, &Decline{Code: CodeInsufficientBalance, Reason: CodeInsufficientBalance,
			Message: fmt.Sprintf("The connector account's payout balance (%d) is less than the payout (%d); nothing was sent.", balance, rec.Amount)}
		return nil
	}
	rec.Status = PayoutSuccess
	if rec.Outcome == outcomePending {
		rec.Status = PayoutPending
	}
	return nil
}

// PayoutCancel implements Payouter: a payout not yet fulfilled is
// cancelled; any other keeps its status, with a Decline saying why.
func (s *Simulator) PayoutCancel(ctx context.Context, req *PayoutRequest) (*PayoutResult, error) {
	rec, err := s.beginPayout(ctx, "payout cancel", req)
	if err != nil {
		return nil, err
	}
	if rec.Status != PayoutRequiresFulfillment {
		res := rec.PayoutResult
		res.Decline = newDecline(CodePayoutNotCancelable, fmt.Sprintf("A payout that is %s cannot be cancelled.", rec.Status))
		return &res, nil
	}
	rec.Status = PayoutCancelled
	return s.answerPayout(ctx, req.Account.AttemptID, rec)
}

// PayoutSync implements Payouter: the payout's status, moved on by the
// time that passed: a pending payout has succeeded, a payout whose
// recipient reverses has been reversed (its money back in the balance),
// and a fulfilment a crash interrupted is finished.
func (s *Simulator) PayoutSync(ctx context.Context, req *PayoutRequest) (*PayoutResult, error) {
	rec, err := s.beginPayout(ctx, "payout sync", req)
	if err != nil {
		return nil, err
	}
	if req.Account.Sandbox.Outage {
		return nil, errSandboxOutage
	}
	id := req.Account.AttemptID
	switch {
	case rec.Status == PayoutInitiated:
		err = s.sendPayout(ctx, id, rec)
	case rec.Status == PayoutPending:
		rec.Status = PayoutSuccess
	case rec.Status == PayoutSuccess && rec.Outcome == outcomeReversed:
		err = s.funds().Credit(ctx, rec.Account, id, rec.Amount, SandboxPayoutBalance)
		rec.Status, rec.Decline = PayoutReversed, &Decline{Code: "payout_reversed", Reason: "recipient_returned",
			Message: "The recipient's bank returned the payout (sandbox test data: it ends in 5126 or is reversed@…)."}
	}
	if err != nil {
		return nil, err
	}
	return s.answerPayout(ctx, id, rec)
}

// beginPayout checks a call on a created payout and reads its record.
func (s *Simulator) beginPayout(ctx context.Context, op string, req *PayoutRequest) (*payoutRecord, error) {
	if err := payoutRequest(op, req); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if want := "sim_" + req.Account.AttemptID; req.ConnectorPayoutID != "" && req.ConnectorPayoutID != want {
		return nil, fmt.Errorf("%w: %s: payout %q does not belong to attempt %q", ErrInvalidRequest, op, req.ConnectorPayoutID, req.Account.AttemptID)
	}
	var rec payoutRecord
	if err := s.recall(ctx, req.Account.AttemptID, &rec); err != nil {
		return nil, syncError(err)
	}
	return &rec, nil
}

// answerPayout records rec and answers with it.
func (s *Simulator) answerPayout(ctx context.Context, id string, rec *payoutRecord) (*PayoutResult, error) {
	if err := s.keepPayout(ctx, id, rec); err != nil {
		return nil, err
	}
	res := rec.PayoutResult
	return &res, nil
}

// keepPayout writes rec to the ledger. Unlike a payment's record, a
// payout's is the simulator's only memory of it, so a payout call without
// a ledger is refused.
func (s *Simulator) keepPayout(ctx context.Context, id string, rec *payoutRecord) error {
	if s == nil || s.Ledger == nil {
		return fmt.Errorf("%w: the sandbox pays out only with a ledger", ErrInvalidRequest)
	}
	s.record(ctx, id, rec)
	return nil
}

// funds is the payout balance: the ledger's when it keeps one, else one
// in this process.
func (s *Simulator) funds() PayoutFunds {
	if f, ok := s.Ledger.(PayoutFunds); ok {
		return f
	}
	return processFunds
}

// memoryFunds is PayoutFunds in one process's memory.
type memoryFunds struct {
	mu       sync.Mutex
	balances map[string]int64
	done     map[string]bool
}

var processFunds = &memoryFunds{balances: map[string]int64{}, done: map[string]bool{}}

func (f *memoryFunds) move(account, id string, amount, opening int64) (bool, int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	b, ok := f.balances[account]
	if !ok {
		b = opening
	}
	if f.done[id] {
		return true, b
	}
	if b+amount < 0 {
		return false, b
	}
	f.balances[account], f.done[id] = b+amount, true
	return true, b + amount
}

func (f *memoryFunds) Debit(_ context.Context, account, id string, amount, opening int64) (bool, int64, error) {
	ok, b := f.move(account, "debit:"+id, -amount, opening)
	return ok, b, nil
}

func (f *memoryFunds) Credit(_ context.Context, account, id string, amount, opening int64) error {
	if _, b := f.move(account, "credit:"+id, amount, opening); b < 0 {
		return errors.New("connector: negative payout balance")
	}
	return nil
}
