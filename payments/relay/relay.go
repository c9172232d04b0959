// Package relay owns Hyperswitch's relay (POST /relay, GET /relay/{id}): a
// refund sent straight to one of the merchant's connector accounts for a
// payment made outside Switchyard, named only by the connector's
// transaction id. Switchyard keeps no payment for it, so no refund limit
// applies beyond the connector's own answer.
//
// Crash safety follows the refunds': the relay is recorded pending before
// the connector is called, and a relay still pending when it is read is
// synced with the connector (SyncRefund) first, so a crash between the
// call and its record is settled by the next read. It calls the connector
// context and the kernel; only the front doors and the wiring import it.
package relay

import (
	"context"
	"errors"

	"switchyard/ent"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/ent/relay"
	"switchyard/ent/schema/schematype"
	"switchyard/payments/connector"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// Service runs relays.
type Service struct {
	db         *txn.DB
	connectors *connector.Service
}

// Deps are what relays need.
type Deps struct {
	DB         *txn.DB
	Connectors *connector.Service
}

// New returns the relay service over d.
func New(d Deps) *Service { return &Service{db: d.DB, connectors: d.Connectors} }

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
	// The call is keyed by the relay, which stands for the attempt the
	// connector's transaction belongs to: Switchyard has no attempt of a
	// payment made elsewhere. The sandbox keeps no record of such payments,
	// so it refunds whatever connector_resource_id names (docs/rest.md).
	res, callErr := conn.Refund(ctx, &connector.RefundRequest{Account: acct,
		RefundID: row.ID, Amount: row.Amount, Currency: string(row.Currency), Reason: deref(row.Reason)})
	return s.settle(ctx, row, res, callErr)
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
	return s.sync(ctx, row)
}

// sync asks the connector what became of a pending relay and records it.
func (s *Service) sync(ctx context.Context, row *ent.Relay) (*ent.Relay, error) {
	mca, err := s.db.Client.MerchantConnectorAccount.Get(ctx, row.ConnectorAccountID)
	if ent.IsNotFound(err) {
		return row, nil // the account was deleted: nothing left to ask
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	conn, acct, err := s.connectors.Integration(mca, "", row.ID)
	if err != nil {
		return nil, err
	}
	res, callErr := conn.SyncRefund(ctx, &connector.RefundSyncRequest{Account: acct, RefundID: row.ID})
	return s.settle(ctx, row, res, callErr)
}

// settle records the connector's answer. No answer (callErr) leaves the
// relay pending for the next read to sync; the same for a pending answer.
func (s *Service) settle(ctx context.Context, row *ent.Relay, res *connector.RefundResult, callErr error) (*ent.Relay, error) {
	if callErr != nil || res == nil {
		if callErr != nil && !errors.Is(callErr, connector.ErrTransactionNotFound) {
			return row, nil
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
		return row, nil
	}
	if res.ConnectorRefundID != "" {
		upd.SetConnectorReferenceID(res.ConnectorRefundID)
	}
	if res.Decline != nil {
		upd.SetErrorCode(res.Decline.Code).SetErrorMessage(res.Decline.Message)
	}
	out, err := upd.Save(ctx)
	if ent.IsNotFound(err) { // settled meanwhile by another read
		return s.db.Client.Relay.Get(ctx, row.ID)
	}
	return out, internalIf(err)
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
