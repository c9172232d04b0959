package payments

import (
	"context"
	"errors"
	"time"

	"switchyard/ent"
	"switchyard/ent/dispute"
	"switchyard/internal/tenancy"
	"switchyard/payments/connector"
	"switchyard/payments/connectorcall"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

// A challenged dispute waits for the network's decision, which only the
// connector's dispute sync tells. The dispute worker (DecideDisputes, run
// by every serve process beside the recovery pass) asks for it, and
// settles evidence submissions a crash left pending. Both record through
// transactions that lock the dispute and recheck it, so several processes
// may run the pass at once and a dispute is decided (and its event
// written) once.

// SyncDispute asks the connector what became of a challenged dispute
// (GET /disputes/{id}?force_sync=true): a decision moves it to
// dispute_won or dispute_lost with its event, in one transaction. Other
// disputes are answered as they are.
func (s *Service) SyncDispute(ctx context.Context, disputeID string) (*DisputeView, error) {
	v, err := s.GetDispute(ctx, disputeID)
	if err != nil || v.Dispute.DisputeStatus != dispute.DisputeStatusDisputeChallenged {
		return v, err
	}
	if _, err := s.syncChallenged(ctx, v.Dispute); err != nil {
		return nil, err
	}
	return s.GetDispute(ctx, disputeID)
}

// DecideDisputes is the dispute worker's pass across merchants (ctx is
// the system's): it settles the evidence submissions left pending for
// longer than after (recoverEvidence), then asks the connector about the
// challenged disputes, those unchanged longest first, recording each
// decision (syncChallenged); at most limit of each. It returns how many
// disputes it settled or decided.
func (s *Service) DecideDisputes(ctx context.Context, after time.Duration, limit int) (int, error) {
	ctx = tenancy.System(ctx)
	recovered, rerr := s.recoverEvidence(ctx, s.db.Now().Add(-after), limit)
	// The index (dispute_status, connector_updated_at) serves this query.
	ds, err := s.db.Client.Dispute.Query().
		Where(dispute.DisputeStatusEQ(dispute.DisputeStatusDisputeChallenged), dispute.EvidencePendingSinceIsNil()).
		Order(ent.Asc(dispute.FieldConnectorUpdatedAt), ent.Asc(dispute.FieldID)).Limit(limit).All(ctx)
	decided, derr := connectorcall.RecoverEach(ctx, ds, err, disputeKey, s.syncChallenged)
	return recovered + decided, errors.Join(rerr, derr)
}

func disputeKey(d *ent.Dispute) (string, string) { return d.MerchantID, d.ID }

// recoverEvidence runs the recover step of each evidence submission left
// pending since before cutoff (the index on evidence_pending_since serves
// the query), oldest first: see evidenceCall.
func (s *Service) recoverEvidence(ctx context.Context, cutoff time.Time, limit int) (int, error) {
	ds, err := s.db.Client.Dispute.Query().Where(dispute.EvidencePendingSinceLT(cutoff)).
		Order(ent.Asc(dispute.FieldEvidencePendingSince)).Limit(limit).All(ctx)
	return connectorcall.RecoverEach(ctx, ds, err, disputeKey, func(ctx context.Context, d *ent.Dispute) (bool, error) {
		conn, acct, err := s.disputeConnector(ctx, d)
		if err != nil {
			return false, err
		}
		call := s.evidenceCall(&evidenceSubmission{dispute: d, conn: conn, acct: acct, ev: evidenceOf(d),
			pendingSince: *d.EvidencePendingSince, replacing: d.DisputeStatus == dispute.DisputeStatusDisputeChallenged})
		return call.Recover(ctx, s.db)
	})
}

// syncChallenged applies the connector's answer about a challenged
// dispute; it says whether this call decided it. Under the dispute's lock
// the dispute must still be challenged, with no submission pending (whose
// evidence the answer may not have seen): a dispute decided meanwhile, by
// another pass or a forced sync, is decided once.
func (s *Service) syncChallenged(ctx context.Context, d *ent.Dispute) (bool, error) {
	conn, acct, err := s.disputeConnector(ctx, d)
	if err != nil {
		return false, err
	}
	res, err := conn.(connector.DisputeDefender).DisputeSync(ctx,
		&connector.DisputeSyncRequest{Account: acct, ConnectorDisputeID: d.ConnectorDisputeID})
	if errors.Is(err, connector.ErrTransactionNotFound) {
		return false, nil // the connector has no evidence: nothing to decide
	}
	if err != nil {
		return false, errs.ErrDisputeFailed.New().WithCause(err)
	}
	if res.Status != connector.DisputeWon && res.Status != connector.DisputeLost {
		return false, nil
	}
	decided := false
	err = s.db.InTx(ctx, func(tx *ent.Tx) error {
		d, err := s.lockDispute(ctx, tx, d.ID)
		if err != nil {
			return err
		}
		if d.DisputeStatus != dispute.DisputeStatusDisputeChallenged || d.EvidencePendingSince != nil {
			return nil // decided, accepted or submitted again meanwhile
		}
		d, err = d.Update().SetDisputeStatus(dispute.DisputeStatus(res.Status)).SetConnectorStatus(res.ConnectorStatus).
			SetConnectorUpdatedAt(s.db.Now()).Save(ctx)
		if err != nil {
			return txn.Error(err, "dispute")
		}
		decided = true
		return s.emitDisputeEventOf(ctx, tx, d)
	})
	return decided && err == nil, err
}
