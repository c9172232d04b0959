package payments

import (
	"context"
	"errors"
	"time"

	"switchyard/ent"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentintent"
	"switchyard/ent/predicate"
	"switchyard/ent/refund"
	"switchyard/ent/schema/schematype"
	"switchyard/internal/ids"
	"switchyard/payments/connector"
	"switchyard/payments/connectorcall"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// RefundInput creates a refund (POST /refunds).
type RefundInput struct {
	PaymentID string
	// MerchantID, when given, must be the caller's merchant.
	MerchantID *string
	// SplitRefunds is refused: no payment here has split_payments.
	SplitRefunds map[string]any
	// RefundID is the merchant's id for the refund; generated if nil.
	RefundID *string
	// Amount defaults to everything still refundable.
	Amount     *int64
	Reason     *string
	RefundType *string
	Metadata   map[string]any
}

// RefundPatch updates a refund's reason and metadata.
type RefundPatch struct {
	Reason   *string
	Metadata map[string]any
}

const maxRefundReason = 255

// refundWhere finds a refund by its refund_id, within the caller's profile
// when the principal names one (another profile's refund is not found).
func refundWhere(ctx context.Context, refundID string) []predicate.Refund {
	return txn.InProfile(ctx, refund.ProfileID, refund.RefundID(refundID))
}

func errRefundNotFound() *errs.Error {
	return errs.ErrRefundNotFound.New()
}

// CreateRefund refunds captured money, as a connectorCall: under the
// payment's row lock the refund is checked against what was captured minus
// every refund that has not failed, and recorded as pending before the
// connector is called, so concurrent refunds can never refund more than
// was captured.
func (s *Service) CreateRefund(ctx context.Context, in RefundInput) (*ent.Refund, error) {
	if err := checkRefundInput(ctx, in); err != nil {
		return nil, err
	}
	var r refundCall
	call := s.refundCall(&r, in.PaymentID)
	call.Reserve = func(ctx context.Context, tx *ent.Tx) (bool, error) {
		err := s.reserveRefund(ctx, tx, in, &r)
		return err == nil, err
	}
	if _, err := call.Run(ctx, s.db); err != nil {
		if errors.Is(err, errs.ErrUniqueKey) {
			return nil, errs.Duplicate("Duplicate refund request. Refund already attempted with the refund ID")
		}
		return nil, err
	}
	return r.ref, nil
}

// checkRefundInput refuses a refund request whose members are wrong,
// before anything is read.
func checkRefundInput(ctx context.Context, in RefundInput) error {
	if in.PaymentID == "" {
		return errs.MissingField("payment_id")
	}
	if merchantID, err := txn.Merchant(ctx); err != nil {
		return err
	} else if in.MerchantID != nil && *in.MerchantID != merchantID {
		return errs.InvalidValue("merchant_id", "does not match the merchant of the API key")
	}
	if in.SplitRefunds != nil {
		return errs.InvalidRequest("split_refunds cannot be given: the payment has no split_payments").
			WithField("split_refunds")
	}
	if in.RefundID != nil && (*in.RefundID == "" || len(*in.RefundID) > maxPaymentID || !idPattern.MatchString(*in.RefundID)) {
		return errs.InvalidValue("refund_id", "must be 1 to %d characters of letters, digits, '_' and '-'", maxPaymentID)
	}
	if in.Reason != nil && validate.Chars(*in.Reason) > maxRefundReason {
		return errs.InvalidValue("reason", "must be at most %d characters", maxRefundReason)
	}
	if err := validate.OneOf("refund_type", in.RefundType, "instant", "scheduled"); err != nil {
		return err
	}
	if in.Amount != nil && (*in.Amount <= 0 || *in.Amount > validate.MaxAmount) {
		return errs.InvalidValue("amount", "must be between 1 and %d", validate.MaxAmount)
	}
	return nil
}

// refundCall is what a refund's connector call needs: the pending refund,
// the payment's attempt it refunds, and the attempt's connector account.
type refundCall struct {
	callTarget
	ref *ent.Refund
}

// refundCall is the connector call of r's pending refund (its reserve step
// is the caller's).
func (s *Service) refundCall(r *refundCall, paymentID string) connectorcall.Call[*connector.RefundResult] {
	return connectorcall.Call[*connector.RefundResult]{
		Connect: func() (connector.Connector, connector.Account, error) { return s.connectorFor(r.pi, r.att, r.mca) },
		Call: func(ctx context.Context, conn connector.Connector, acct connector.Account) (*connector.RefundResult, error) {
			return conn.Refund(ctx, &connector.RefundRequest{
				Account:                acct,
				ConnectorTransactionID: deref(r.att.ConnectorTransactionID),
				RefundID:               r.ref.ID,
				Amount:                 r.ref.Amount,
				Currency:               string(r.ref.Currency),
				Reason:                 deref(r.ref.Reason),
				ConnectorMetadata:      r.att.ConnectorMetadata,
			})
		},
		Sync: func(ctx context.Context, conn connector.Connector, acct connector.Account) (*connector.RefundResult, error) {
			return conn.SyncRefund(ctx, &connector.RefundSyncRequest{Account: acct,
				ConnectorTransactionID: deref(r.att.ConnectorTransactionID), RefundID: r.ref.ID})
		},
		Synced: syncedRefund,
		Settle: func(ctx context.Context, tx *ent.Tx, res *connector.RefundResult, callErr error) (err error) {
			r.ref, err = s.settleRefund(ctx, tx, paymentID, r.ref.ID, res, callErr)
			return err
		},
	}
}

// refundableState refuses a refund of pi, which has captured nothing yet.
func refundableState(pi *ent.PaymentIntent) error {
	if !statusIn(pi.Status, refundableStates...) || pi.AmountCaptured == 0 || pi.ActiveAttemptID == nil {
		return errs.ErrPaymentNotSucceeded.New()
	}
	return nil
}

// decideRefund is the amount a refund of pi takes (asked, or all that is
// left when nil), or why it is refused; refunded is what its refunds that
// have not failed take up already.
func decideRefund(pi *ent.PaymentIntent, refunded int64, asked *int64) (int64, error) {
	if err := refundableState(pi); err != nil {
		return 0, err
	}
	remaining := pi.AmountCaptured - refunded
	amount := remaining
	if asked != nil {
		amount = *asked
	}
	if amount <= 0 || amount > remaining {
		return 0, errs.RefundExceedsCaptured(pi.AmountCaptured, refunded, amount)
	}
	return amount, nil
}

// refundIDFree refuses a merchant-chosen refund_id the merchant used
// already (nil: Switchyard names the refund).
func refundIDFree(ctx context.Context, tx *ent.Tx, refundID *string) error {
	if refundID == nil {
		return nil
	}
	taken, err := tx.Refund.Query().Where(refund.RefundID(*refundID)).Exist(ctx)
	if err != nil {
		return errs.Internal(err)
	}
	if taken {
		return errs.Duplicate("Duplicate refund request. Refund already attempted with the refund ID")
	}
	return nil
}

// reserveRefund is a refund's reserve step, inside tx (the payment's row
// locked): it checks the refund (decideRefund) and records it pending.
func (s *Service) reserveRefund(ctx context.Context, tx *ent.Tx, in RefundInput, r *refundCall) error {
	var err error
	if r.pi, err = s.lockPayment(ctx, tx, in.PaymentID); err != nil {
		return err
	}
	if err := refundableState(r.pi); err != nil {
		return err // refused before reading what the refusal does not need
	}
	if err := refundIDFree(ctx, tx, in.RefundID); err != nil {
		return err
	}
	refunded, err := refundedSoFar(ctx, tx, r.pi.ID)
	if err != nil {
		return err
	}
	amount, err := decideRefund(r.pi, refunded, in.Amount)
	if err != nil {
		return err
	}
	if r.att, err = tx.PaymentAttempt.Get(ctx, *r.pi.ActiveAttemptID); err != nil {
		return errs.Internal(err)
	}
	if r.att.Status == paymentattempt.StatusVoidInitiated && statusIn(r.pi.Status, postCaptureVoidableStates...) {
		// A void after capture is on its way (post_capture_void.go): what
		// it voids cannot be refunded as well. A cancel of a partly
		// captured payment (also void_initiated) voids only what was not
		// captured, so what was captured stays refundable meanwhile.
		return errs.ErrUnexpectedState.Newf("This Payment could not be refunded: a cancel post capture is in progress")
	}
	if r.mca, err = tx.MerchantConnectorAccount.Query().
		Where(merchantconnectoraccount.ID(deref(r.att.MerchantConnectorID))).Only(ctx); err != nil {
		return errs.Internal(err)
	}
	id := ids.New(ids.Refund)
	refundID := id
	if in.RefundID != nil {
		refundID = *in.RefundID
	}
	create := tx.Refund.Create().
		SetID(id).
		SetRefundID(refundID).
		SetPaymentIntentID(r.pi.ID).
		SetAttemptID(r.att.ID).
		SetProfileID(r.pi.ProfileID).
		SetMerchantConnectorID(r.mca.ID).
		SetConnector(r.mca.ConnectorName).
		SetAmount(amount).
		SetCurrency(r.pi.Currency).
		SetStatus(refund.StatusPending).
		SetNillableReason(in.Reason).
		SetMetadata(in.Metadata)
	if in.RefundType != nil {
		create.SetRefundType(refund.RefundType(*in.RefundType))
	}
	r.ref, err = create.Save(ctx)
	return txn.ErrorOrNil(err, "refund")
}

// refundDecision is what a connector's answer to a pending refund changes.
type refundDecision struct {
	// unanswered: no answer came; the refund stays pending for a sync.
	unanswered bool
	// status is the refund's new status ("": still pending).
	status refund.Status
	// decline is why it failed.
	decline *connector.Decline
}

// decideRefundAnswer is what res (or callErr, no answer) makes of a
// pending refund.
func decideRefundAnswer(res *connector.RefundResult, callErr error) refundDecision {
	switch {
	case callErr != nil:
		return refundDecision{unanswered: true}
	case res.Status == connector.RefundSucceeded:
		return refundDecision{status: refund.StatusSucceeded}
	case res.Status == connector.RefundFailed:
		return refundDecision{status: refund.StatusFailed, decline: res.Decline}
	}
	return refundDecision{}
}

// settleRefund is a refund's settle step, inside tx: it locks the payment,
// applies what the answer decides (decideRefundAnswer) and writes the
// refund's event. A refund no longer pending under the payment's row lock
// was settled already: the answer changes nothing twice.
func (s *Service) settleRefund(ctx context.Context, tx *ent.Tx, paymentID, refundRowID string,
	res *connector.RefundResult, callErr error) (*ent.Refund, error) {
	pi, ref, late, err := lockPending(ctx, s, tx, paymentID, "refund", refundRowID, callErr, tx.Refund.Get,
		func(r *ent.Refund) bool { return r.Status == refund.StatusPending })
	if late || err != nil {
		return ref, err
	}
	d := decideRefundAnswer(res, callErr)
	upd := ref.Update()
	switch {
	case d.unanswered:
		upd.SetErrorMessage("the connector did not answer; the refund stays pending until it is synced")
	case d.status == refund.StatusFailed:
		upd.SetStatus(d.status)
		if dec := d.decline; dec != nil {
			upd.SetErrorCode(dec.Code).SetErrorMessage(dec.Message)
		}
	default: // succeeded, or still pending at the connector
		if d.status != "" {
			upd.SetStatus(d.status)
		}
		upd.SetNillableConnectorRefundID(validate.NonEmpty(res.ConnectorRefundID))
	}
	if ref, err = upd.Save(ctx); err != nil {
		return nil, txn.Error(err, "refund")
	}
	return ref, s.emitRefundEvent(ctx, tx, ref, pi)
}

// refundedSoFar is what the payment's refunds take up: every refund that
// has not failed (succeeded, pending or in review).
func refundedSoFar(ctx context.Context, tx *ent.Tx, intentID string) (int64, error) {
	refs, err := tx.Refund.Query().Where(refund.PaymentIntentID(intentID), refund.StatusNEQ(refund.StatusFailed)).All(ctx)
	if err != nil {
		return 0, errs.Internal(err)
	}
	var sum int64
	for _, r := range refs {
		sum += r.Amount
	}
	return sum, nil
}

// GetRefund returns a refund of the merchant in ctx by its refund_id.
func (s *Service) GetRefund(ctx context.Context, refundID string) (*ent.Refund, error) {
	r, err := s.db.Client.Refund.Query().Where(refundWhere(ctx, refundID)...).WithPayment().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, errRefundNotFound()
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	return r, nil
}

// UpdateRefund changes a refund's reason and metadata (metadata replaces).
func (s *Service) UpdateRefund(ctx context.Context, refundID string, p RefundPatch) (*ent.Refund, error) {
	if p.Reason != nil && validate.Chars(*p.Reason) > maxRefundReason {
		return nil, errs.InvalidValue("reason", "must be at most %d characters", maxRefundReason)
	}
	upd := s.db.Client.Refund.Update().Where(refundWhere(ctx, refundID)...).SetNillableReason(p.Reason)
	if p.Metadata != nil { // absent metadata keeps the stored value
		upd.SetMetadata(p.Metadata)
	}
	n, err := upd.Save(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	if n == 0 {
		return nil, errRefundNotFound()
	}
	return s.GetRefund(ctx, refundID)
}

// RefundFilter narrows POST /refunds/list.
type RefundFilter struct {
	PaymentID  *string
	RefundID   *string
	ProfileID  *string
	Limit      int
	Offset     int
	CreatedGTE *time.Time
	CreatedLTE *time.Time
	Connectors []string
	// MerchantConnectorIDs narrows to refunds through these connector accounts.
	MerchantConnectorIDs []string
	Currencies           []string
	Statuses             []string
	AmountGTE            *int64
	AmountLTE            *int64
}

// RefundList is a page of refunds and the count of all that match.
type RefundList struct {
	Refunds    []*ent.Refund
	TotalCount int
}

// ListRefunds lists the merchant's refunds, newest first.
func (s *Service) ListRefunds(ctx context.Context, f RefundFilter) (*RefundList, error) {
	if err := validate.PageLimit(&f.Limit); err != nil {
		return nil, err
	}
	if err := validate.Offset(f.Offset); err != nil {
		return nil, err
	}
	q, err := s.refundQuery(f)
	if err != nil {
		return nil, err
	}
	total, err := q.Clone().Count(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	refs, err := q.WithPayment().Order(ent.Desc(refund.FieldCreatedAt), ent.Desc(refund.FieldID)).
		Limit(f.Limit).Offset(f.Offset).All(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	return &RefundList{Refunds: refs, TotalCount: total}, nil
}

// refundQuery is the query of the refunds f matches.
func (s *Service) refundQuery(f RefundFilter) (*ent.RefundQuery, error) {
	q := s.db.Client.Refund.Query()
	if f.PaymentID != nil {
		// A payment_id that names no payment matches no refund (a filter,
		// not a lookup).
		q = q.Where(refund.HasPaymentWith(paymentintent.PaymentID(*f.PaymentID)))
	}
	if f.RefundID != nil {
		q = q.Where(refund.RefundID(*f.RefundID))
	}
	if f.ProfileID != nil {
		q = q.Where(refund.ProfileID(*f.ProfileID))
	}
	if f.CreatedGTE != nil {
		q = q.Where(refund.CreatedAtGTE(*f.CreatedGTE))
	}
	if f.CreatedLTE != nil {
		q = q.Where(refund.CreatedAtLTE(*f.CreatedLTE))
	}
	if len(f.Connectors) > 0 {
		q = q.Where(refund.ConnectorIn(f.Connectors...))
	}
	if len(f.MerchantConnectorIDs) > 0 {
		q = q.Where(refund.MerchantConnectorIDIn(f.MerchantConnectorIDs...))
	}
	if len(f.Currencies) > 0 {
		cs := make([]schematype.Currency, len(f.Currencies))
		for i, c := range f.Currencies {
			if cs[i] = schematype.Currency(c); !cs[i].Valid() {
				return nil, errs.InvalidValue(validate.Indexed("currency", i), "%q is not a supported currency", c)
			}
		}
		q = q.Where(refund.CurrencyIn(cs...))
	}
	if len(f.Statuses) > 0 {
		st := make([]refund.Status, len(f.Statuses))
		for i, v := range f.Statuses {
			st[i] = refund.Status(v)
			if refund.StatusValidator(st[i]) != nil {
				return nil, errs.InvalidValue(validate.Indexed("refund_status", i), "unknown refund status %q", v)
			}
		}
		q = q.Where(refund.StatusIn(st...))
	}
	if f.AmountGTE != nil {
		q = q.Where(refund.AmountGTE(*f.AmountGTE))
	}
	if f.AmountLTE != nil {
		q = q.Where(refund.AmountLTE(*f.AmountLTE))
	}
	return q, nil
}
