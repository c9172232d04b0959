package payouts

import (
	"context"

	"switchyard/ent"
	"switchyard/payments/errs"
)

// A payout method given before the payout is confirmed waits in the vault,
// sealed and bound to its payout, so the database never holds more of it
// than masked() keeps.

func vaultKey(po *ent.Payout) string { return po.MerchantID + ":" + po.ID }

// keepMethod seals m for po's confirm.
func (s *Service) keepMethod(ctx context.Context, po *ent.Payout, m *Method) error {
	if s.vault == nil || s.box == nil {
		return errs.Unavailable("the payout method vault")
	}
	sealed, err := s.box.SealJSON(m, []byte(po.ID))
	if err != nil {
		return errs.Internal(err)
	}
	if err := s.vault.Put(ctx, vaultKey(po), sealed, vaultFor); err != nil {
		return errs.Unavailable("Redis")
	}
	return nil
}

// keptMethod is the method kept for po, or nil when there is none (never
// given, or its time in the vault ran out).
func (s *Service) keptMethod(ctx context.Context, po *ent.Payout) (*Method, error) {
	if s.vault == nil || s.box == nil {
		return nil, nil
	}
	b, err := s.vault.Get(ctx, vaultKey(po))
	if err != nil {
		return nil, errs.Unavailable("Redis")
	}
	if b == nil {
		return nil, nil
	}
	var m Method
	if err := s.box.OpenJSON(b, []byte(po.ID), &m); err != nil {
		return nil, errs.Internal(err)
	}
	return &m, nil
}

// dropMethod forgets po's kept method once the connector holds it.
func (s *Service) dropMethod(ctx context.Context, po *ent.Payout) {
	if s.vault != nil {
		_ = s.vault.Delete(context.WithoutCancel(ctx), vaultKey(po))
	}
}

// forgetMethod is dropMethod at a confirm's end, for a method the vault
// may keep.
func (s *Service) forgetMethod(ctx context.Context, t *target) {
	if t.methodKept {
		s.dropMethod(ctx, t.po)
	}
}
