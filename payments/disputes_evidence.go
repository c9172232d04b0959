package payments

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"switchyard/ent"
	"switchyard/ent/dispute"
	"switchyard/payments/connector"
	"switchyard/payments/connectorcall"
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
// merchant's, and the whole evidence goes to the connector, as a
// connectorcall.Call (evidenceCall): the reserve step records the evidence,
// locks its files against deletion and marks the submission pending
// (evidence_pending_since); the connector is called; the settle step
// records its answer: dispute_challenged with its event, the mark cleared.
// A crash in between leaves the mark for the recovery pass
// (DecideDisputes). While a submission is pending the dispute takes no
// other evidence (HE_03), so a retry cannot send something else meanwhile.
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
	if err := evidenceTaken(d); err != nil {
		return nil, err
	}
	// The connector is checked before anything is reserved: a dispute
	// marked pending with no connector to send to would stay so.
	conn, acct, err := s.disputeConnector(ctx, d)
	if err != nil {
		return nil, err
	}
	sub := &evidenceSubmission{dispute: d, conn: conn, acct: acct}
	call := s.evidenceCall(sub)
	call.Reserve = func(ctx context.Context, tx *ent.Tx) (bool, error) {
		return true, s.reserveEvidence(ctx, tx, in.Members, sub)
	}
	if _, err := call.Run(ctx, s.db); err != nil {
		return nil, err
	}
	if sub.callErr != nil {
		return nil, errs.ErrDisputeFailed.New().WithCause(sub.callErr)
	}
	return s.GetDispute(ctx, in.DisputeID)
}

// evidenceTaken is evidenceAllowed, and no submission pending: the
// evidence a pending submission sent (or will send again on recovery) is
// the one stored, so it cannot change meanwhile.
func evidenceTaken(d *ent.Dispute) error {
	if err := evidenceAllowed(d); err != nil {
		return err
	}
	if d.EvidencePendingSince != nil {
		return errs.ErrDisputeStatusInvalid.Detailf("this dispute's evidence is being submitted to the connector; try again once the submission is settled")
	}
	return nil
}

// evidenceSubmission is what a submission's connector call needs.
type evidenceSubmission struct {
	// dispute is the row as read before the call (its ids, its connector).
	dispute *ent.Dispute
	conn    connector.Connector
	acct    connector.Account
	// ev is the whole evidence sent; pendingSince the reservation's mark,
	// which the settle step finds unchanged unless the submission was
	// settled already.
	ev           map[string]string
	pendingSince time.Time
	// replacing: the dispute was challenged already, so the connector
	// holds earlier evidence and its sync cannot tell whether this arrived.
	replacing bool
	// callErr is the call's transport failure (the submission stays pending).
	callErr error
}

// reserveEvidence is a submission's reserve step, inside tx (the
// dispute's row locked): the merged evidence is stored, its files are
// checked and locked against deletion, and the submission marked pending.
func (s *Service) reserveEvidence(ctx context.Context, tx *ent.Tx, members map[string]string, sub *evidenceSubmission) error {
	d, err := s.lockDispute(ctx, tx, sub.dispute.ID)
	if err != nil {
		return err
	}
	if err := evidenceTaken(d); err != nil {
		return err // changed since it was read
	}
	ev := evidenceOf(d)
	for k, v := range members {
		ev[k] = v
	}
	fileIDs := fileIDsOf(ev)
	if _, err := s.files.Metadata(ctx, tx.Client(), fileIDs); err != nil {
		return err
	}
	if err := s.files.MarkSubmitted(ctx, tx, fileIDs); err != nil {
		return err
	}
	sub.ev, sub.replacing = ev, d.DisputeStatus == dispute.DisputeStatusDisputeChallenged
	sub.pendingSince = s.db.Now().Truncate(time.Microsecond) // as the column keeps it
	return txn.ErrorOrNil(d.Update().SetEvidence(evidenceColumn(ev)).SetEvidencePendingSince(sub.pendingSince).Exec(ctx), "dispute")
}

// evidenceCall is the connector call of sub (its reserve step is the
// caller's). Its recovery asks the connector's dispute sync whether the
// evidence arrived; evidence that never arrived (ErrTransactionNotFound),
// or a replacement, which the sync cannot tell from the evidence the
// connector holds, is sent again: the merchant asked for it to be sent,
// its files are locked as submitted, and a connector takes a second
// submission as a replacement.
func (s *Service) evidenceCall(sub *evidenceSubmission) connectorcall.Call[*connector.DisputeResult] {
	send := func(ctx context.Context, conn connector.Connector, acct connector.Account) (*connector.DisputeResult, error) {
		return conn.(connector.DisputeDefender).SubmitEvidence(ctx, evidenceRequest(sub.dispute, acct, sub.ev))
	}
	return connectorcall.Call[*connector.DisputeResult]{
		Connect: func() (connector.Connector, connector.Account, error) { return sub.conn, sub.acct, nil },
		Call:    send,
		Sync: func(ctx context.Context, conn connector.Connector, acct connector.Account) (*connector.DisputeResult, error) {
			if !sub.replacing {
				res, err := conn.(connector.DisputeDefender).DisputeSync(ctx,
					&connector.DisputeSyncRequest{Account: acct, ConnectorDisputeID: sub.dispute.ConnectorDisputeID})
				if !errors.Is(err, connector.ErrTransactionNotFound) {
					return res, err
				}
			}
			return send(ctx, conn, acct)
		},
		Synced: syncedEvidence,
		Settle: func(ctx context.Context, tx *ent.Tx, res *connector.DisputeResult, callErr error) error {
			return s.settleEvidence(ctx, tx, sub, res, callErr)
		},
	}
}

// syncedEvidence is what recovery records of the sync's answer: nothing
// while the connector cannot say (an error, asked again next pass), else
// that the evidence arrived: the dispute is challenged. A decision the
// sync already knows is left to the decision pass, which records it with
// its own event right after.
func syncedEvidence(res *connector.DisputeResult, err error) (*connector.DisputeResult, bool) {
	if err != nil {
		return nil, false
	}
	return &connector.DisputeResult{Status: connector.DisputeChallenged, ConnectorStatus: res.ConnectorStatus}, true
}

// evidenceRequest is the evidence ev of d as sent to its connector.
func evidenceRequest(d *ent.Dispute, acct connector.Account, ev map[string]string) *connector.EvidenceRequest {
	req := &connector.EvidenceRequest{Account: acct, DisputeID: d.ID, ConnectorDisputeID: d.ConnectorDisputeID,
		Text: map[string]string{}, Files: map[string]string{}}
	for k, v := range ev {
		if EvidenceFileTypes.Has(k) {
			req.Files[k] = v
		} else {
			req.Text[k] = v
		}
	}
	return req
}

// settleEvidence is a submission's settle step, inside tx: under the
// dispute's lock, a submission no longer pending with sub's mark was
// settled already (the answer is late and changes nothing twice); no
// answer (callErr) leaves it pending for recovery; an answer clears the
// mark and records the dispute's status with its event. A dispute
// accepted meanwhile stays accepted.
func (s *Service) settleEvidence(ctx context.Context, tx *ent.Tx, sub *evidenceSubmission, res *connector.DisputeResult, callErr error) error {
	d, err := s.lockDispute(ctx, tx, sub.dispute.ID)
	if err != nil {
		return err
	}
	if d.EvidencePendingSince == nil || !d.EvidencePendingSince.Equal(sub.pendingSince) {
		lateAnswer(ctx, "dispute evidence", d.ID, callErr)
		return nil
	}
	if callErr != nil {
		sub.callErr = callErr
		return nil
	}
	update := d.Update().ClearEvidencePendingSince()
	if evidenceAllowed(d) != nil {
		return txn.ErrorOrNil(update.Exec(ctx), "dispute")
	}
	was := d.DisputeStatus
	d, err = update.SetDisputeStatus(dispute.DisputeStatus(res.Status)).SetConnectorStatus(res.ConnectorStatus).
		SetConnectorUpdatedAt(s.db.Now()).Save(ctx)
	if err != nil {
		return txn.Error(err, "dispute")
	}
	if d.DisputeStatus == was {
		return nil // evidence replaced on a challenged dispute: no new status, no event
	}
	return s.emitDisputeEventOf(ctx, tx, d)
}

// emitDisputeEventOf writes d's event with its payment's captured amount.
func (s *Service) emitDisputeEventOf(ctx context.Context, tx *ent.Tx, d *ent.Dispute) error {
	pi, err := tx.PaymentIntent.Get(ctx, d.PaymentIntentID)
	if err != nil {
		return errs.Internal(err)
	}
	return s.emitDisputeEvent(ctx, tx, d, pi, pi.AmountCaptured)
}

// disputeConnector is the integration of the dispute's connector account,
// checked to be one that takes evidence (connector.DisputeDefender; IR_20
// when it does not).
func (s *Service) disputeConnector(ctx context.Context, d *ent.Dispute) (connector.Connector, connector.Account, error) {
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
	if _, ok := conn.(connector.DisputeDefender); !ok {
		return nil, acct, errs.ErrFlowNotSupported.Newf("The connector %s does not take dispute evidence", mca.ConnectorName)
	}
	return conn, acct, nil
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
	if err := evidenceTaken(d); err != nil {
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

// updateEvidence changes the dispute's stored evidence in a transaction,
// unless a submission of it is pending.
func (s *Service) updateEvidence(ctx context.Context, disputeID string, change func(map[string]string)) error {
	return s.db.InTx(ctx, func(tx *ent.Tx) error {
		d, err := s.lockDispute(ctx, tx, disputeID)
		if err != nil {
			return err
		}
		if d.EvidencePendingSince != nil {
			return evidenceTaken(d)
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

// MaxFileSize is the largest evidence file accepted, in bytes.
func (s *Service) MaxFileSize() int64 { return s.files.MaxSize() }

// FileTooLarge is the refusal of an evidence file over the size limit.
func (s *Service) FileTooLarge() *errs.Error { return s.files.TooLarge() }
