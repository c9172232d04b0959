package payouts

import (
	"context"

	"switchyard/ent"
	"switchyard/ent/payout"
	"switchyard/ent/payoutattempt"
	"switchyard/internal/tenancy"
	"switchyard/payments/connector"
	"switchyard/payments/connectorcall"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

// Confirm confirms a payout (POST /payouts/{id}/confirm): the members it
// gives update the payout first, then it is created at its payout
// processor and, with auto_fulfill, fulfilled. A client (publishable key)
// must give the payout's client_secret.
func (s *Service) Confirm(ctx context.Context, id string, in Input) (*View, error) {
	yes := true
	in.Confirm = &yes
	return s.Update(ctx, id, in)
}

// checkClientSecret holds a call to the payout's client_secret: required
// of a client, checked when given, and not past its expiry.
func (s *Service) checkClientSecret(ctx context.Context, po *ent.Payout, given *string) error {
	p, _ := tenancy.FromContext(ctx)
	switch {
	case given == nil && p.ClientOnly:
		return errs.ErrClientSecretMissing.New()
	case given == nil:
		return nil
	case *given != po.ClientSecret:
		return errs.ErrClientSecretMismatch.New()
	case po.ClientSecretExpiresAt != nil && s.db.Now().After(*po.ClientSecretExpiresAt):
		return errs.ErrClientSecretExpired.New()
	}
	return nil
}

// confirm creates payout id at a payout processor with method m (through
// the connector names when given) and, when the payout auto-fulfils,
// fulfils it: the creation's settle step reserves the fulfilment
// (decideFulfilAtOnce). A fulfilment the settle step moved to the next
// processor (retryOnNext) is created there and fulfilled again; the method
// is forgotten once no processor needs it any more (from the vault, when
// kept says it may be there).
func (s *Service) confirm(ctx context.Context, id string, m *Method, names []string, kept bool) (*View, error) {
	t := &target{payoutID: id, m: m, fulfilAtOnce: true, methodKept: kept}
	call := s.creationCall(t)
	call.Reserve = func(ctx context.Context, tx *ent.Tx) (bool, error) {
		return true, s.reserveCreation(ctx, tx, t, m, names)
	}
	for {
		if err := s.runCreation(ctx, t, call); err != nil {
			return nil, err
		}
		call.Reserve = nil           // the next round's attempt is reserved by the settle step that asked for it
		reserved := t.fulfilReserved // else a late answer may have left it to fulfil
		if !reserved && (t.po.Status != payout.StatusRequiresFulfillment || !t.po.AutoFulfill) {
			break
		}
		t.fulfilReserved = false
		if err := s.runFulfilment(ctx, t, !reserved); err != nil {
			s.forgetMethod(ctx, t)
			return nil, err
		}
		if !t.retried {
			break
		}
		t.retried = false
	}
	s.forgetMethod(ctx, t)
	return s.view(ctx, s.db.Client, t.po)
}

// creationCall is the creation of t's attempt at its processor, with its
// settle step (the reserve step is the caller's).
func (s *Service) creationCall(t *target) connectorcall.Call[*connector.PayoutResult] {
	call := s.payoutCall(t, func(ctx context.Context, p connector.Payouter, req *connector.PayoutRequest) (*connector.PayoutResult, error) {
		req.Method = connectorMethod(t.m)
		return p.PayoutCreate(ctx, req)
	}, syncAtConnector)
	call.Settle = func(ctx context.Context, tx *ent.Tx, res *connector.PayoutResult, callErr error) error {
		return s.settleAnswer(ctx, tx, t, res, callErr, payoutattempt.StatusRequiresCreation)
	}
	return call
}

// runCreation runs call, and again on each next processor its settle step
// moved the payout to, until one answers without a retry.
func (s *Service) runCreation(ctx context.Context, t *target, call connectorcall.Call[*connector.PayoutResult]) error {
	for {
		if _, err := call.Run(ctx, s.db); err != nil {
			return err
		}
		if !t.retried {
			break
		}
		t.retried, call.Reserve = false, nil // the settle step reserved the next try
	}
	if t.po.Status == payout.StatusRequiresCreation {
		return errs.ErrConnectorUnavailable.Newf("The payout processor did not answer; confirm the payout again")
	}
	return nil
}

// reserveCreation checks the confirm of t's payout under its row lock,
// chooses its payout processor and records the attempt requires_creation
// before the connector is called.
func (s *Service) reserveCreation(ctx context.Context, tx *ent.Tx, t *target, m *Method, names []string) error {
	po, err := s.load(ctx, tx.Client(), t.payoutID, true)
	if err != nil {
		return err
	}
	if err := decideConfirm(po.ID, po.Status, m != nil); err != nil {
		return err
	}
	accounts, err := s.route(ctx, tx, po, m, names)
	if err != nil {
		return err
	}
	t.mca, t.later = accounts[0], accounts[1:]
	return s.reserveAttempt(ctx, tx, t, po, m)
}

// reserveAttempt records a new attempt of po at t.mca, requires_creation,
// and makes it po's active one (po is locked by tx: not read back).
func (s *Service) reserveAttempt(ctx context.Context, tx *ent.Tx, t *target, po *ent.Payout, m *Method) (err error) {
	t.att, err = tx.PayoutAttempt.Create().SetMerchantID(po.MerchantID).SetProfileID(po.ProfileID).SetPayoutID(po.ID).
		SetStatus(payoutattempt.StatusRequiresCreation).SetAmount(po.Amount).SetCurrency(po.Currency).
		SetConnector(t.mca.ConnectorName).SetMerchantConnectorID(t.mca.ID).
		SetPayoutType(payoutattempt.PayoutType(m.Type)).SetPayoutMethodType(m.Subtype).Save(ctx)
	if err != nil {
		return errs.Internal(err)
	}
	t.po, err = txn.UpdateRow(ctx, s.db, po, tx.Payout.Update().Where(payout.ID(po.ID)).
		SetStatus(payout.StatusRequiresCreation).SetActiveAttemptID(t.att.ID).
		SetConnector(t.mca.ConnectorName).SetMerchantConnectorID(t.mca.ID).AddAttemptCount(1).
		ClearErrorCode().ClearErrorMessage())
	if err != nil {
		return errs.Internal(err)
	}
	return nil
}
