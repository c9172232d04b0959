// Package relay owns Hyperswitch's relay (POST /relay, GET /relay/{id}): a
// refund sent straight to one of the merchant's connector accounts for a
// payment made outside Switchyard, named only by the connector's
// transaction id. Switchyard keeps no payment for it, so no refund limit
// applies beyond the connector's own answer.
//
// Crash safety follows the refunds': the relay is recorded pending before
// the connector is called; a relay still pending when it is read is synced
// with the connector (SyncRefund) first, and the recovery pass
// (RecoverStranded) syncs those a crash left pending that nobody reads. A
// relay the connector never saw fails once it is older than the recovery
// window (a younger one's call may still be on its way). It calls the
// connector context and the kernel; only the front doors and the wiring
// import it.
package relay

import (
	"context"
	"errors"
	"time"

	"switchyard/ent"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/ent/relay"
	"switchyard/ent/schema/schematype"
	"switchyard/internal/tenancy"
	"switchyard/payments/connector"
	"switchyard/payments/connectorcall"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// Service runs relays.
type Service struct {
	db            *txn.DB
	connectors    *connector.Service
	recoveryAfter time.Duration
}

// Deps are what relays need.
type Deps struct {
	DB         *txn.DB
	Connectors *connector.Service
	// RecoveryAfter is how long a relay may stay pending before one the
	// connector has no record of is failed (SWITCHYARD_RECOVERY_AFTER).
	RecoveryAfter time.Duration
}

// DefaultRecoveryAfter is the recovery window when Deps gives none.
const DefaultRecoveryAfter = 2 * time.Minute

// New returns the relay service over d.
func New(d Deps) *Service {
	if d.RecoveryAfter <= 0 {
		d.RecoveryAfter = DefaultRecoveryAfter
	}
	return &Service{db: d.DB, connectors: d.Connectors, recoveryAfter: d.RecoveryAfter}
}

// TypeRefund is the one relay type the sandbox serves.
const TypeRefund = "refund"

const maxReason = 255

// Input is POST /relay: X-Profile-Id, X-Idempotency-Key and the body.
type Input struct {
	ProfileID           string
	IdempotencyKey      string
	ConnectorID         string
	ConnectorResourceID string
	Type                string
	// Refund is data.refund; required for a refund.
	Refund *RefundData
}

// RefundData is a relayed refund's amount, currency and reason.
type RefundData struct {
	Amount   int64
	Currency string
	Reason   *string
}

// check refuses what no connector call can be made of: another type than
// refund (Hyperswitch's flows the sandbox has no meaning for), a refund
// without data.refund, or a non-positive amount.
func (in Input) check() error {
	if in.Type != TypeRefund {
		return errs.ErrFlowNotSupported.Newf("Relay type %s is not supported: only refund is", in.Type).WithField("type")
	}
	if in.Refund == nil {
		return errs.MissingField("data.refund")
	}
	if !schematype.Currency(in.Refund.Currency).Valid() {
		return errs.InvalidValue("data.refund.currency", "%q is not a currency", in.Refund.Currency)
	}
	if in.Refund.Amount <= 0 {
		return errs.InvalidValue("data.refund.amount", "must be greater than 0")
	}
	if in.Refund.Reason != nil && validate.Chars(*in.Refund.Reason) > maxReason {
		return errs.InvalidValue("data.refund.reason", "must be at most %d characters", maxReason)
	}
	return nil
}

// Create records the relay pending, sends it to the connector account and
// records the answer. The same X-Idempotency-Key in the profile returns the
// relay it made, unchanged. An unknown profile or connector account is
// 404; an account of another profile is not found either.
func (s *Service) Create(ctx context.Context, in Input) (*ent.Relay, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	prof, err := txn.Profile(ctx, s.db.Client, &in.ProfileID)
	if err != nil {
		return nil, err
	}
	if prior, err := s.byKey(ctx, prof.ID, in.IdempotencyKey); err == nil || !ent.IsNotFound(err) {
		return prior, internalIf(err)
	}
	mca, err := s.db.Client.MerchantConnectorAccount.Query().Where(merchantconnectoraccount.ID(in.ConnectorID),
		merchantconnectoraccount.ProfileID(prof.ID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, errs.NotFound("Merchant connector account").WithField("connector_id")
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	row, err := s.db.Client.Relay.Create().SetMerchantID(prof.MerchantID).SetProfileID(prof.ID).
		SetConnectorAccountID(mca.ID).SetConnectorResourceID(in.ConnectorResourceID).SetType(relay.TypeRefund).
		SetAmount(in.Refund.Amount).SetCurrency(schematype.Currency(in.Refund.Currency)).SetNillableReason(in.Refund.Reason).
		SetIdempotencyKey(in.IdempotencyKey).SetStatus(relay.StatusPending).Save(ctx)
	if ent.IsConstraintError(err) { // the same key, sent twice at once
		prior, err := s.byKey(ctx, prof.ID, in.IdempotencyKey)
		return prior, internalIf(err)
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	conn, acct, err := s.connectors.Integration(mca, "", row.ID)
	if err != nil {
		return nil, err
	}
	// The refund's reference is the relay id, as Hyperswitch's (its
	// refund_id and connector request reference are the relay's id), so
	// the sync finds it by the relay alone. Hyperswitch also sends
	// connector_resource_id as the refunded transaction; the sandbox
	// connector only accepts a transaction of the attempt a call names, and
	// a payment made elsewhere has none here, so it is not sent: the
	// sandbox refunds whatever connector_resource_id names (docs/rest.md).
	res, callErr := conn.Refund(ctx, &connector.RefundRequest{Account: acct,
		RefundID: row.ID, Amount: row.Amount, Currency: string(row.Currency), Reason: deref(row.Reason)})
	out, _, err := s.settle(ctx, row, res, callErr)
	return out, err
}

// Get is a relay of the caller's profile; a pending one is synced with its
// connector first.
func (s *Service) Get(ctx context.Context, profileID, id string) (*ent.Relay, error) {
	prof, err := txn.Profile(ctx, s.db.Client, &profileID)
	if err != nil {
		return nil, err
	}
	row, err := s.db.Client.Relay.Query().Where(relay.ID(id), relay.ProfileID(prof.ID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, errs.NotFound("Relay")
	}
	if err != nil || row.Status != relay.StatusPending {
		return row, internalIf(err)
	}
	out, _, err := s.sync(ctx, row, s.db.Now().Add(-s.recoveryAfter))
	return out, err
}

// RecoverStranded settles the relays left pending for longer than after
// (a crash between the connector call and the record of its answer, and
// nobody read them since), at most limit of them, oldest first, across
// merchants (ctx is the system's), by the same sync as a read. It returns
// how many this pass settled: a relay settled by another process or read
// meanwhile is not counted.
func (s *Service) RecoverStranded(ctx context.Context, after time.Duration, limit int) (int, error) {
	sys := tenancy.System(ctx)
	cutoff := s.db.Now().Add(-after)
	rows, err := s.db.Client.Relay.Query().Where(relay.StatusEQ(relay.StatusPending), relay.ModifiedAtLT(cutoff)).
		Order(ent.Asc(relay.FieldModifiedAt), ent.Asc(relay.FieldID)).Limit(limit).All(sys)
	return connectorcall.RecoverEach(sys, rows, err, func(r *ent.Relay) (string, string) { return r.MerchantID, r.ID },
		func(ctx context.Context, row *ent.Relay) (bool, error) {
			_, settled, err := s.sync(ctx, row, cutoff)
			return settled, err
		})
}

// sync asks the connector what became of a pending relay and records it.
// A relay the connector has no record of is failed only when it was
// recorded before cutoff: a younger one's call may still be on its way.
func (s *Service) sync(ctx context.Context, row *ent.Relay, cutoff time.Time) (*ent.Relay, bool, error) {
	mca, err := s.db.Client.MerchantConnectorAccount.Get(ctx, row.ConnectorAccountID)
	if ent.IsNotFound(err) {
		return row, false, nil // the account was deleted: nothing left to ask
	}
	if err != nil {
		return nil, false, errs.Internal(err)
	}
	conn, acct, err := s.connectors.Integration(mca, "", row.ID)
	if err != nil {
		return nil, false, err
	}
	res, callErr := conn.SyncRefund(ctx, &connector.RefundSyncRequest{Account: acct, RefundID: row.ID})
	if errors.Is(callErr, connector.ErrTransactionNotFound) && !row.ModifiedAt.Before(cutoff) {
		return row, false, nil
	}
	return s.settle(ctx, row, res, callErr)
}

// settle records the connector's answer and reports whether this call
// recorded it. No answer (callErr) leaves the relay pending for the next
// read or recovery pass to sync; the same for a pending answer.
func (s *Service) settle(ctx context.Context, row *ent.Relay, res *connector.RefundResult, callErr error) (*ent.Relay, bool, error) {
	if callErr != nil || res == nil {
		if callErr != nil && !errors.Is(callErr, connector.ErrTransactionNotFound) {
			return row, false, nil
		}
		res = &connector.RefundResult{Status: connector.RefundFailed, Decline: &connector.Decline{
			Code: "transaction_not_found", Message: "The connector has no record of the relayed refund"}}
	}
	upd := s.db.Client.Relay.UpdateOne(row).Where(relay.StatusEQ(relay.StatusPending))
	switch res.Status {
	case connector.RefundSucceeded:
		upd.SetStatus(relay.StatusSuccess)
	case connector.RefundFailed:
		upd.SetStatus(relay.StatusFailure)
	default:
		return row, false, nil
	}
	if res.ConnectorRefundID != "" {
		upd.SetConnectorReferenceID(res.ConnectorRefundID)
	}
	if res.Decline != nil {
		upd.SetErrorCode(res.Decline.Code).SetErrorMessage(res.Decline.Message)
	}
	out, err := upd.Save(ctx)
	if ent.IsNotFound(err) { // settled meanwhile by another read or pass
		out, err = s.db.Client.Relay.Get(ctx, row.ID)
		return out, false, internalIf(err)
	}
	return out, err == nil, internalIf(err)
}

func (s *Service) byKey(ctx context.Context, profileID, key string) (*ent.Relay, error) {
	return s.db.Client.Relay.Query().Where(relay.ProfileID(profileID), relay.IdempotencyKey(key)).Only(ctx)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// internalIf is errs.Internal(err), or nil for no error.
func internalIf(err error) error {
	if err == nil {
		return nil
	}
	return errs.Internal(err)
}
