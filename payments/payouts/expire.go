package payouts

import (
	"context"
	"errors"
	"slices"
	"time"

	"switchyard/ent"
	"switchyard/ent/payout"
	"switchyard/internal/tenancy"
	"switchyard/payments/connectorcall"
	"switchyard/payments/errs"
)

// expirable are the statuses a payout expires from once its client
// secret (session_expiry) has passed: it is still waiting for its method
// or its confirmation, and no processor knows it. requires_creation is
// left to the recovery pass (a creation may be at the processor), and so
// are requires_fulfillment and later (the processor holds the payout:
// money may move, and only a cancel there undoes it).
var expirable = []payout.Status{payout.StatusRequiresPayoutMethodData, payout.StatusRequiresConfirmation,
	payout.StatusRequiresVendorAccountCreation}

// decideExpiry says whether a payout in status s, its client secret
// expiring at expiresAt, is expired at now.
func decideExpiry(s payout.Status, expiresAt *time.Time, now time.Time) bool {
	return expiresAt != nil && now.After(*expiresAt) && slices.Contains(expirable, s)
}

// ExpireDue expires, across merchants (ctx is the system's), at most limit
// payouts whose client secret has passed while they waited for their
// method or confirmation: each moves to expired with payout_expired in
// one transaction, rechecked under its row lock, so two sweeps (or a
// sweep and a confirm) never both act on it. It returns how many it
// expired.
func (s *Service) ExpireDue(ctx context.Context, limit int) (int, error) {
	now := s.db.Now()
	sys := tenancy.System(ctx)
	due, err := s.db.Client.Payout.Query().
		Where(payout.StatusIn(expirable...), payout.ClientSecretExpiresAtLT(now)).
		Order(ent.Asc(payout.FieldClientSecretExpiresAt)).Limit(limit).All(sys)
	return connectorcall.RecoverEach(sys, due, err, func(p *ent.Payout) (string, string) { return p.MerchantID, p.ID },
		func(ctx context.Context, p *ent.Payout) (bool, error) { return s.expire(ctx, p.ID, now) })
}

// expire moves payout id to expired if, under its row lock, it is still
// due at now; false when another process moved it first.
func (s *Service) expire(ctx context.Context, id string, now time.Time) (bool, error) {
	var expired *ent.Payout
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		po, err := s.load(ctx, tx.Client(), id, true)
		if errors.Is(err, errs.ErrPayoutNotFound) {
			return nil // not the caller's: its own read says so
		}
		if err != nil {
			return err
		}
		if !decideExpiry(po.Status, po.ClientSecretExpiresAt, now) {
			return nil
		}
		expired, err = s.setStatus(ctx, tx, po, payout.StatusExpired)
		return err
	})
	if err != nil || expired == nil {
		return false, err
	}
	s.dropMethod(ctx, expired)
	return true, nil
}

// expireIfDue expires payout id first if its client secret has passed
// while it waited, so an operation on it is refused as on an expired
// payout even before the sweep comes by.
func (s *Service) expireIfDue(ctx context.Context, id string) error {
	_, err := s.expire(ctx, id, s.db.Now())
	return err
}
