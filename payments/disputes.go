package payments

import (
	"context"
	"time"

	"switchyard/ent"
	"switchyard/ent/dispute"
	"switchyard/ent/paymentintent"
	"switchyard/ent/predicate"
	"switchyard/ent/refund"
	"switchyard/payments/connector"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// DisputeView is a dispute with what its wire record (Hyperswitch's
// DisputeResponse) shows beyond the row.
type DisputeView struct {
	Dispute *ent.Dispute
	// PaymentID is the payment's wire id (payment_id, not the row id).
	PaymentID string
	// IsAlreadyRefunded is Hyperswitch's is_already_refunded: the amount of
	// the payment's lost disputes plus its succeeded refunds is more than
	// was captured, so the customer got the money back twice.
	IsAlreadyRefunded bool
}

// DisputeFilter narrows GET /disputes/list. The received bounds compare the
// dispute's created_at (when Switchyard received it) at whole seconds, as
// the payment list's created bounds do (see PaymentListFilter).
type DisputeFilter struct {
	// Limit is the page size, 1 to MaxListLimit; 0 means DefaultListLimit.
	Limit       int
	ProfileID   *string
	Status      *string
	Stage       *string
	Reason      *string
	Connector   *string
	Received    *time.Time
	ReceivedLT  *time.Time
	ReceivedGT  *time.Time
	ReceivedLTE *time.Time
	ReceivedGTE *time.Time
}

// disputeStatuses and disputeStages are Hyperswitch's DisputeStatus and
// DisputeStage, the values of the dispute table's enums.
var (
	disputeStatuses = validate.NewEnum("DisputeStatus", "dispute_opened", "dispute_expired", "dispute_accepted",
		"dispute_cancelled", "dispute_challenged", "dispute_won", "dispute_lost")
	disputeStages = validate.NewEnum("DisputeStage", "pre_dispute", "dispute", "pre_arbitration", "arbitration",
		"dispute_reversal")
)

// maxDisputeReason is the length of the connector_reason column: a longer
// reason can match nothing.
const maxDisputeReason = 255

// ErrDisputeNotFound is Hyperswitch's DisputeNotFound, which its catalogue
// gives code HE_04 (not the HE_02 of the other "not found" errors).
func ErrDisputeNotFound() *errs.Error {
	return errs.ErrDisputeNotFound.New()
}

// disputeScope limits dispute reads to the caller's profile when the
// principal names one (X-Profile-Id): another profile's dispute is not
// found, like a foreign one. The merchant is scoped by the ent interceptor.
func disputeScope(ctx context.Context) []predicate.Dispute {
	return txn.InProfile(ctx, dispute.ProfileID)
}

// GetDispute returns a dispute of the merchant in ctx by its dispute_id.
func (s *Service) GetDispute(ctx context.Context, disputeID string) (*DisputeView, error) {
	d, err := s.readDispute(ctx, disputeID)
	if err != nil {
		return nil, err
	}
	views, err := s.disputeViews(ctx, s.db.Client, []*ent.Dispute{d}, nil)
	if err != nil {
		return nil, err
	}
	return views[0], nil
}

// ListDisputes lists the disputes of the merchant in ctx (and of its
// profile, when the principal names one), newest first by (created_at, id),
// which the keyset index (merchant_id, created_at, id) serves. A filter
// value that can match nothing valid (an unknown status, stage or
// connector) is IR_07 naming its parameter rather than an empty page.
func (s *Service) ListDisputes(ctx context.Context, f DisputeFilter) ([]*DisputeView, error) {
	if err := validate.PageLimit(&f.Limit); err != nil {
		return nil, err
	}
	if err := disputeStatuses.Optional("dispute_status", f.Status); err != nil {
		return nil, err
	}
	if err := disputeStages.Optional("dispute_stage", f.Stage); err != nil {
		return nil, err
	}
	if err := connector.KnownNames.Optional("connector", f.Connector); err != nil {
		return nil, err
	}
	if f.Reason != nil && validate.Chars(*f.Reason) > maxDisputeReason {
		return nil, errs.InvalidValue("reason", "must be at most %d characters", maxDisputeReason)
	}
	if f.ProfileID != nil && validate.Chars(*f.ProfileID) > 64 {
		return nil, errs.InvalidValue("profile_id", "must be at most 64 characters")
	}
	preds := disputeScope(ctx)
	if f.ProfileID != nil {
		preds = append(preds, dispute.ProfileID(*f.ProfileID))
	}
	if f.Status != nil {
		preds = append(preds, dispute.DisputeStatusEQ(dispute.DisputeStatus(*f.Status)))
	}
	if f.Stage != nil {
		preds = append(preds, dispute.DisputeStageEQ(dispute.DisputeStage(*f.Stage)))
	}
	if f.Reason != nil {
		preds = append(preds, dispute.ConnectorReason(*f.Reason))
	}
	if f.Connector != nil {
		preds = append(preds, dispute.Connector(*f.Connector))
	}
	// The same whole-second comparison as the payment list's created bounds.
	from, until := PaymentListFilter{
		Created: f.Received, CreatedLT: f.ReceivedLT, CreatedGT: f.ReceivedGT,
		CreatedLTE: f.ReceivedLTE, CreatedGTE: f.ReceivedGTE,
	}.createdRange()
	if from != nil {
		preds = append(preds, dispute.CreatedAtGTE(*from))
	}
	if until != nil {
		preds = append(preds, dispute.CreatedAtLT(*until))
	}
	ds, err := s.db.Client.Dispute.Query().Where(preds...).
		Order(ent.Desc(dispute.FieldCreatedAt), ent.Desc(dispute.FieldID)).
		Limit(f.Limit).All(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	return s.disputeViews(ctx, s.db.Client, ds, nil)
}

// disputeViews adds to each dispute its payment's payment_id and
// is_already_refunded, with one query per kind (payments, succeeded
// refunds, lost disputes) whatever the number of disputes. captured
// overrides the stored amount_captured of a payment (by row id): a dispute
// opened inside the transaction that settles its payment is rendered
// before that payment row is written.
func (s *Service) disputeViews(ctx context.Context, db *ent.Client, ds []*ent.Dispute, captured map[string]int64) ([]*DisputeView, error) {
	if len(ds) == 0 {
		return make([]*DisputeView, 0), nil
	}
	seen := make(map[string]bool, len(ds))
	var intentIDs []string
	for _, d := range ds {
		if !seen[d.PaymentIntentID] {
			seen[d.PaymentIntentID] = true
			intentIDs = append(intentIDs, d.PaymentIntentID)
		}
	}
	var (
		intents []*ent.PaymentIntent
		refs    []*ent.Refund
		lost    []*ent.Dispute
	)
	err := s.db.RunReads(db, []func() error{
		txn.ReadInto(ctx, &intents, db.PaymentIntent.Query().Where(paymentintent.IDIn(intentIDs...)).
			Select(paymentintent.FieldID, paymentintent.FieldPaymentID, paymentintent.FieldAmountCaptured).All),
		txn.ReadInto(ctx, &refs, db.Refund.Query().
			Where(refund.PaymentIntentIDIn(intentIDs...), refund.StatusEQ(refund.StatusSucceeded)).
			Select(refund.FieldPaymentIntentID, refund.FieldAmount).All),
		txn.ReadInto(ctx, &lost, db.Dispute.Query().
			Where(dispute.PaymentIntentIDIn(intentIDs...), dispute.DisputeStatusEQ(dispute.DisputeStatusDisputeLost)).
			Select(dispute.FieldPaymentIntentID, dispute.FieldAmount).All),
	})
	if err != nil {
		return nil, errs.Internal(err)
	}
	return disputeViewsOf(ds, intents, refs, lost, captured), nil
}

// disputeViewsOf joins each dispute to its payment (intents): its
// payment_id, and whether more has gone back to the customer (refunds
// succeeded, refs, plus disputes lost, lost) than was captured (captured
// overriding the payment's stored amount, by row id).
func disputeViewsOf(ds []*ent.Dispute, intents []*ent.PaymentIntent, refs []*ent.Refund, lost []*ent.Dispute, captured map[string]int64) []*DisputeView {
	paymentIDs := make(map[string]string, len(intents))
	returned := make(map[string]int64, len(intents)) // refunded plus lost in disputes
	capturedOf := make(map[string]int64, len(intents))
	for _, pi := range intents {
		paymentIDs[pi.ID] = pi.PaymentID
		capturedOf[pi.ID] = pi.AmountCaptured
	}
	for id, amount := range captured {
		capturedOf[id] = amount
	}
	for _, r := range refs {
		returned[r.PaymentIntentID] += r.Amount
	}
	for _, d := range lost {
		returned[d.PaymentIntentID] += d.Amount
	}
	views := make([]*DisputeView, len(ds))
	for i, d := range ds {
		id := d.PaymentIntentID
		views[i] = &DisputeView{Dispute: d, PaymentID: paymentIDs[id], IsAlreadyRefunded: returned[id] > capturedOf[id]}
	}
	return views
}

// AcceptDispute is the merchant conceding a dispute (POST
// /disputes/accept/{dispute_id}): the disputed amount stays with the
// customer. As in Hyperswitch, only an open or challenged dispute at the
// pre-dispute or dispute stage can be accepted; anything else is HE_03. The
// change and its dispute_accepted event are one transaction. The sandbox's
// connector takes the acceptance as given (the connector interface has no
// dispute calls yet).
func (s *Service) AcceptDispute(ctx context.Context, disputeID string) (*DisputeView, error) {
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		d, err := s.lockDispute(ctx, tx, disputeID)
		if err != nil {
			return err
		}
		stageOK := d.DisputeStage == dispute.DisputeStagePreDispute || d.DisputeStage == dispute.DisputeStageDispute
		statusOK := d.DisputeStatus == dispute.DisputeStatusDisputeOpened || d.DisputeStatus == dispute.DisputeStatusDisputeChallenged
		if !stageOK || !statusOK {
			return errs.ErrDisputeStatusInvalid.Detailf("this dispute cannot be accepted because it is in the %s stage with status %s",
				d.DisputeStage, d.DisputeStatus)
		}
		now := s.db.Now()
		if d, err = d.Update().SetDisputeStatus(dispute.DisputeStatusDisputeAccepted).SetConnectorStatus("accepted").
			SetConnectorUpdatedAt(now).Save(ctx); err != nil {
			return txn.Error(err, "dispute")
		}
		return s.emitDisputeEventOf(ctx, tx, d)
	})
	if err != nil {
		return nil, err
	}
	return s.GetDispute(ctx, disputeID)
}
