package connector

import (
	"context"
	"strconv"
	"strings"
	"time"
)

// DisputeDefender is a connector that takes a merchant's evidence against
// a dispute (Hyperswitch's submit_evidence flow) and later tells how the
// network decided (its dispute sync). The answers follow the Connector
// contract: an error means no outcome is known.
type DisputeDefender interface {
	SubmitEvidence(ctx context.Context, req *EvidenceRequest) (*DisputeResult, error)
	DisputeSync(ctx context.Context, req *DisputeSyncRequest) (*DisputeResult, error)
}

// EvidenceRequest is a dispute's evidence as sent to the connector: the
// text members of Hyperswitch's SubmitEvidenceRequest, and its file
// members as the evidence types that have a file.
type EvidenceRequest struct {
	Account            Account
	DisputeID          string
	ConnectorDisputeID string
	// Text is each text member given (uncategorized_text, product_description, …).
	Text map[string]string
	// Files is each evidence type that has a file (receipt, …) → its file id.
	Files map[string]string
}

// DisputeSyncRequest asks what became of a dispute.
type DisputeSyncRequest struct {
	Account            Account
	ConnectorDisputeID string
}

// DisputeStatus is a connector's answer about a dispute, in Hyperswitch's
// DisputeStatus values.
type DisputeStatus string

// The dispute statuses a connector answers with after evidence.
const (
	DisputeChallenged DisputeStatus = "dispute_challenged"
	DisputeWon        DisputeStatus = "dispute_won"
	DisputeLost       DisputeStatus = "dispute_lost"
)

// DisputeResult is the connector's view of a dispute.
type DisputeResult struct {
	Status DisputeStatus
	// ConnectorStatus is the connector's own word for it (under_review, won, lost).
	ConnectorStatus string
}

// EvidenceReviewDelay is how long the sandbox's network takes to decide a
// challenged dispute.
const EvidenceReviewDelay = time.Minute

// evidenceRecord is what the sandbox keeps of submitted evidence.
type evidenceRecord struct {
	Won      bool      `json:"won"`
	DecideAt time.Time `json:"decide_at"`
}

var _ DisputeDefender = (*Simulator)(nil)

// evidenceLedgerID names a dispute's evidence record in the ledger.
func evidenceLedgerID(connectorDisputeID string) string { return "evidence:" + connectorDisputeID }

// SubmitEvidence takes the evidence and puts the dispute under review. The
// sandbox's network decides EvidenceReviewDelay later, by the evidence
// alone: the merchant wins with a receipt, or with uncategorized_text that
// contains the word "win"; anything else loses. A second submission
// replaces the first and restarts the review.
func (s *Simulator) SubmitEvidence(ctx context.Context, req *EvidenceRequest) (*DisputeResult, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rec := evidenceRecord{Won: evidenceWins(req), DecideAt: s.now().UTC().Add(EvidenceReviewDelay)}
	s.record(ctx, evidenceLedgerID(req.ConnectorDisputeID), rec)
	// The network's decision is told when it is made: the webhook is due
	// then, and names the review it ends (a resubmission starts another).
	s.queueWebhook(ctx, req.Account, webhookChange{Object: WebhookDispute, Reference: req.ConnectorDisputeID,
		Change: map[bool]string{true: "won", false: "lost"}[rec.Won], Nth: strconv.FormatInt(rec.DecideAt.UnixMilli(), 10),
		Due: rec.DecideAt})
	return &DisputeResult{Status: DisputeChallenged, ConnectorStatus: "under_review"}, nil
}

// evidenceWins is the sandbox's rule (docs/sandbox.md#disputes).
func evidenceWins(req *EvidenceRequest) bool {
	if req.Files["receipt"] != "" {
		return true
	}
	for _, word := range strings.FieldsFunc(strings.ToLower(req.Text["uncategorized_text"]), func(r rune) bool {
		return !(r >= 'a' && r <= 'z')
	}) {
		if word == "win" {
			return true
		}
	}
	return false
}

// DisputeSync answers under_review until the decision is due, then won or
// lost. A dispute without evidence in the ledger is ErrTransactionNotFound.
func (s *Simulator) DisputeSync(ctx context.Context, req *DisputeSyncRequest) (*DisputeResult, error) {
	var rec evidenceRecord
	if err := s.recall(ctx, evidenceLedgerID(req.ConnectorDisputeID), &rec); err != nil {
		if err == errNoLedger {
			return nil, ErrTransactionNotFound
		}
		return nil, err
	}
	switch {
	case s.now().Before(rec.DecideAt):
		return &DisputeResult{Status: DisputeChallenged, ConnectorStatus: "under_review"}, nil
	case rec.Won:
		return &DisputeResult{Status: DisputeWon, ConnectorStatus: "won"}, nil
	default:
		return &DisputeResult{Status: DisputeLost, ConnectorStatus: "lost"}, nil
	}
}
