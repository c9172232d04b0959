package payments

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"switchyard/ent"
	"switchyard/ent/dispute"
	"switchyard/payments/connector"
	"switchyard/payments/errs"
	"switchyard/payments/files"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// A dispute's evidence is kept on its row (dispute.evidence) as the
// members of Hyperswitch's SubmitEvidenceRequest it was given: each file
// member holds a file id (file_…), each text member its text.

// EvidenceFileTypes are Hyperswitch's EvidenceType values: the members of
// SubmitEvidenceRequest that name a file.
var EvidenceFileTypes = validate.NewEnum("EvidenceType", "cancellation_policy", "customer_communication",
	"customer_signature", "receipt", "refund_policy", "service_documentation", "shipping_documentation",
	"invoice_showing_distinct_transactions", "recurring_transaction_agreement", "uncategorized_file")

// evidenceTextMembers are SubmitEvidenceRequest's text members.
var evidenceTextMembers = map[string]bool{
	"access_activity_log": true, "billing_address": true, "cancellation_policy_disclosure": true,
	"cancellation_rebuttal": true, "customer_email_address": true, "customer_name": true,
	"customer_purchase_ip": true, "product_description": true, "refund_policy_disclosure": true,
	"refund_refusal_explanation": true, "service_date": true, "shipping_address": true, "shipping_carrier": true,
	"shipping_date": true, "shipping_tracking_number": true, "uncategorized_text": true,
}

// EvidenceInput is POST /disputes/evidence's input: the dispute and the
// evidence members given (a member given null is absent).
type EvidenceInput struct {
	DisputeID string
	Members   map[string]string
}

// EvidenceBlock is one evidence type that has a file (Hyperswitch's
// DisputeEvidenceBlock). File is nil when the file was deleted since.
type EvidenceBlock struct {
	EvidenceType string
	FileID       string
	File         *ent.File
}

// evidenceAllowed is Hyperswitch's check before evidence is taken (the same
// as before an acceptance): an open or challenged dispute at the
// pre-dispute, dispute or pre-arbitration stage. Anything else is HE_03.
func evidenceAllowed(d *ent.Dispute) error {
	stageOK := d.DisputeStage == dispute.DisputeStagePreDispute || d.DisputeStage == dispute.DisputeStageDispute ||
		d.DisputeStage == dispute.DisputeStagePreArbitration
	statusOK := d.DisputeStatus == dispute.DisputeStatusDisputeOpened || d.DisputeStatus == dispute.DisputeStatusDisputeChallenged
	if !stageOK || !statusOK {
		return errs.ErrDisputeStatusInvalid.Detailf("this dispute cannot be challenged because it is in the %s stage with status %s",
			d.DisputeStage, d.DisputeStatus)
	}
	return nil
}

// evidenceOf is the dispute's stored evidence as member → value.
func evidenceOf(d *ent.Dispute) map[string]string {
	out := make(map[string]string, len(d.Evidence))
	for k, v := range d.Evidence {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}

func evidenceColumn(ev map[string]string) map[string]any {
	out := make(map[string]any, len(ev))
	for k, v := range ev {
		out[k] = v
	}
	return out
}

// fileIDsOf are the file ids the evidence's file members name, sorted.
func fileIDsOf(ev map[string]string) []string {
	var out []string
	for k, v := range ev {
		if EvidenceFileTypes.Has(k) && v != "" {
			out = append(out, v)
		}
	}
	sort.Strings(out)
	return out
}

// readDispute reads a dispute of the caller: HE_04 when it is not theirs.
func (s *Service) readDispute(ctx context.Context, disputeID string) (*ent.Dispute, error) {
	d, err := s.db.Client.Dispute.Query().Where(append(disputeScope(ctx), dispute.ID(disputeID))...).Only(ctx)
	if err != nil {
		return nil, txn.ReadError(err, ErrDisputeNotFound)
	}
	return d, nil
}

// lockDispute reads a dispute of the caller for update: HE_04 when it is
// not theirs.
func (s *Service) lockDispute(ctx context.Context, tx *ent.Tx, disputeID string) (*ent.Dispute, error) {
	d, err := txn.ForUpdate(s.db, tx.Dispute.Query().Where(append(disputeScope(ctx), dispute.ID(disputeID))...)).Only(ctx)
	if err != nil {
		return nil, txn.ReadError(err, ErrDisputeNotFound)
	}
	return d, nil
}

// SubmitEvidence is POST /disputes/evidence: the given members are merged
// into the dispute's evidence, every file they name must be the
// merchant's, and the whole evidence goes to the connector. The dispute
// then waits for the network's decision as dispute_challenged; that
// change, its dispute_challenged event and the files' being locked
// against deletion are one transaction. The connector is called before
// that transaction: a crash between the two leaves the dispute open, and
// a retry sends the same evidence again, which a connector takes as a
// replacement.
func (s *Service) SubmitEvidence(ctx context.Context, in EvidenceInput) (*DisputeView, error) {
	if in.DisputeID == "" {
		return nil, errs.ErrDisputeIDMissing.New()
	}
	for k := range in.Members {
		if !EvidenceFileTypes.Has(k) && !evidenceTextMembers[k] {
			return nil, errs.InvalidValue(k, "is not an evidence member")
		}
	}
	d, err := s.readDispute(ctx, in.DisputeID)
	if err != nil {
		return nil, err
	}
	if err := evidenceAllowed(d); err != nil {
		return nil, err
	}
	ev := evidenceOf(d)
	for k, v := range in.Members {
		ev[k] = v
	}
	fileIDs := fileIDsOf(ev)
	if _, err := s.files.Metadata(ctx, s.db.Client, fileIDs); err != nil {
		return nil, err
	}
	res, err := s.sendEvidence(ctx, d, ev)
	if err != nil {
		return nil, err
	}
	if err := s.recordEvidence(ctx, in.DisputeID, ev, fileIDs, res); err != nil {
		return nil, err
	}
	return s.GetDispute(ctx, in.DisputeID)
}

// sendEvidence sends the dispute's whole evidence ev to its connector.
func (s *Service) sendEvidence(ctx context.Context, d *ent.Dispute, ev map[string]string) (*connector.DisputeResult, error) {
	defender, acct, err := s.disputeDefender(ctx, d)
	if err != nil {
		return nil, err
	}
	req := &connector.EvidenceRequest{Account: acct, DisputeID: d.ID, ConnectorDisputeID: d.ConnectorDisputeID,
		Text: map[string]string{}, Files: map[string]string{}}
	for k, v := range ev {
		if EvidenceFileTypes.Has(k) {
			req.Files[k] = v
		} else {
			req.Text[k] = v
		}
	}
	res, err := defender.SubmitEvidence(ctx, req)
	if err != nil {
		return nil, errs.ErrDisputeFailed.New().WithCause(err)
	}
	return res, nil
}

// recordEvidence writes what the connector answered to submitted evidence
// ev: the dispute's evidence and status, its files locked against
// deletion and its event, in one transaction, rechecked under the
// dispute's lock.
func (s *Service) recordEvidence(ctx context.Context, disputeID string, ev map[string]string, fileIDs []string,
	res *connector.DisputeResult) error {
	return s.db.InTx(ctx, func(tx *ent.Tx) error {
		d, err := s.lockDispute(ctx, tx, disputeID)
		if err != nil {
			return err
		}
		if err := evidenceAllowed(d); err != nil {
			return err
		}
		if _, err := s.files.Metadata(ctx, tx.Client(), fileIDs); err != nil {
			return err // deleted meanwhile
		}
		if err := s.files.MarkSubmitted(ctx, tx, fileIDs); err != nil {
			return err
		}
		was := d.DisputeStatus
		d, err = d.Update().SetEvidence(evidenceColumn(ev)).SetDisputeStatus(dispute.DisputeStatus(res.Status)).
			SetConnectorStatus(res.ConnectorStatus).SetConnectorUpdatedAt(s.db.Now()).Save(ctx)
		if err != nil {
			return txn.Error(err, "dispute")
		}
		if d.DisputeStatus == was {
			return nil // evidence replaced on a challenged dispute: no new status, no event
		}
		return s.emitDisputeEventOf(ctx, tx, d)
	})
}

// emitDisputeEventOf writes d's event with its payment's captured amount.
func (s *Service) emitDisputeEventOf(ctx context.Context, tx *ent.Tx, d *ent.Dispute) error {
	pi, err := tx.PaymentIntent.Get(ctx, d.PaymentIntentID)
	if err != nil {
		return errs.Internal(err)
	}
	return s.emitDisputeEvent(ctx, tx, d, pi, pi.AmountCaptured)
}

// disputeDefender is the integration of the dispute's connector account,
// as one that takes evidence (IR_20 when it does not).
func (s *Service) disputeDefender(ctx context.Context, d *ent.Dispute) (connector.DisputeDefender, connector.Account, error) {
	if d.MerchantConnectorID == nil {
		return nil, connector.Account{}, errs.ErrFlowNotSupported.Newf("The dispute has no connector account to send evidence to")
	}
	mca, err := s.db.Client.MerchantConnectorAccount.Get(ctx, *d.MerchantConnectorID)
	if err != nil {
		return nil, connector.Account{}, errs.Internal(fmt.Errorf("dispute %s: connector account: %w", d.ID, err))
	}
	conn, acct, err := s.connectors.Integration(mca, "", d.AttemptID)
	if err != nil {
		return nil, acct, err
	}
	defender, ok := conn.(connector.DisputeDefender)
	if !ok {
		return nil, acct, errs.ErrFlowNotSupported.Newf("The connector %s does not take dispute evidence", mca.ConnectorName)
	}
	return defender, acct, nil
}

// AttachEvidence is PUT /disputes/evidence: it uploads a file and makes it
// the dispute's evidence of evidenceType (replacing the one there). The
// evidence is not submitted. Answers the new file's id.
func (s *Service) AttachEvidence(ctx context.Context, disputeID, evidenceType string, u files.Upload) (string, error) {
	if disputeID == "" {
		return "", errs.ErrDisputeIDMissing.New()
	}
	if evidenceType == "" {
		return "", errs.MissingField("evidence_type")
	}
	if err := EvidenceFileTypes.Check("evidence_type", evidenceType); err != nil {
		return "", err
	}
	d, err := s.readDispute(ctx, disputeID)
	if err != nil {
		return "", err
	}
	if err := evidenceAllowed(d); err != nil {
		return "", err
	}
	f, err := s.files.Create(ctx, u)
	if err != nil {
		return "", err
	}
	err = s.updateEvidence(ctx, disputeID, func(ev map[string]string) { ev[evidenceType] = f.ID })
	return f.ID, err
}

// DeleteEvidence is DELETE /disputes/evidence: the dispute no longer names
// a file of evidenceType (the file itself stays).
func (s *Service) DeleteEvidence(ctx context.Context, disputeID, evidenceType string) error {
	if disputeID == "" {
		return errs.ErrDisputeIDMissing.New()
	}
	if err := EvidenceFileTypes.Check("evidence_type", evidenceType); err != nil {
		return err
	}
	return s.updateEvidence(ctx, disputeID, func(ev map[string]string) { delete(ev, evidenceType) })
}

// updateEvidence changes the dispute's stored evidence in a transaction.
func (s *Service) updateEvidence(ctx context.Context, disputeID string, change func(map[string]string)) error {
	return s.db.InTx(ctx, func(tx *ent.Tx) error {
		d, err := s.lockDispute(ctx, tx, disputeID)
		if err != nil {
			return err
		}
		ev := evidenceOf(d)
		change(ev)
		return txn.ErrorOrNil(d.Update().SetEvidence(evidenceColumn(ev)).Exec(ctx), "dispute")
	})
}

// DisputeEvidence is GET /disputes/evidence/{dispute_id}: each evidence
// type that names a file, with the file's metadata, in EvidenceType order.
func (s *Service) DisputeEvidence(ctx context.Context, disputeID string) ([]EvidenceBlock, error) {
	d, err := s.readDispute(ctx, disputeID)
	if err != nil {
		return nil, err
	}
	ev := evidenceOf(d)
	var blocks []EvidenceBlock
	var fileIDs []string
	for _, t := range EvidenceFileTypes.Values() {
		if id := ev[t]; id != "" {
			blocks = append(blocks, EvidenceBlock{EvidenceType: t, FileID: id})
			fileIDs = append(fileIDs, id)
		}
	}
	found, err := s.files.Found(ctx, fileIDs)
	if err != nil {
		return nil, err
	}
	for i := range blocks {
		blocks[i].File = found[blocks[i].FileID]
	}
	return blocks, nil
}

// SyncDispute asks the connector what became of a challenged dispute
// (GET /disputes/{id}?force_sync=true, and the decision pass): a decision
// moves it to dispute_won or dispute_lost with its event, in one
// transaction. Other disputes are answered as they are.
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

// syncChallenged applies the connector's answer about a challenged dispute;
// it says whether the dispute was decided.
func (s *Service) syncChallenged(ctx context.Context, d *ent.Dispute) (bool, error) {
	defender, acct, err := s.disputeDefender(ctx, d)
	if err != nil {
		return false, err
	}
	res, err := defender.DisputeSync(ctx, &connector.DisputeSyncRequest{Account: acct, ConnectorDisputeID: d.ConnectorDisputeID})
	if errors.Is(err, connector.ErrTransactionNotFound) {
		return false, nil // the connector has no evidence: nothing to decide
	}
	if err != nil {
		return false, errs.ErrDisputeFailed.New().WithCause(err)
	}
	if res.Status != connector.DisputeWon && res.Status != connector.DisputeLost {
		return false, nil
	}
	err = s.db.InTx(ctx, func(tx *ent.Tx) error {
		d, err := s.lockDispute(ctx, tx, d.ID)
		if err != nil {
			return err
		}
		if d.DisputeStatus != dispute.DisputeStatusDisputeChallenged {
			return nil // decided (or accepted) meanwhile
		}
		d, err = d.Update().SetDisputeStatus(dispute.DisputeStatus(res.Status)).SetConnectorStatus(res.ConnectorStatus).
			SetConnectorUpdatedAt(s.db.Now()).Save(ctx)
		if err != nil {
			return txn.Error(err, "dispute")
		}
		return s.emitDisputeEventOf(ctx, tx, d)
	})
	return err == nil, err
}

// MaxFileSize is the largest evidence file accepted, in bytes.
func (s *Service) MaxFileSize() int64 { return s.files.MaxSize() }

// FileTooLarge is the refusal of an evidence file over the size limit.
func (s *Service) FileTooLarge() *errs.Error { return s.files.TooLarge() }
