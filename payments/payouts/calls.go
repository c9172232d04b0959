package payouts

import (
	"context"

	"switchyard/ent"
	"switchyard/ent/payout"
	"switchyard/ent/payoutattempt"
	"switchyard/payments/connector"
	"switchyard/payments/connectorcall"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

// target is what a connector call about a payout's attempt needs; the
// call's steps fill it in as they run.
type target struct {
	payoutID string
	po       *ent.Payout
	att      *ent.PayoutAttempt
	mca      *ent.MerchantConnectorAccount
	// later are the payout processors a failed creation or fulfilment may
	// be retried on, in order; retried says the settle step reserved the
	// next try.
	later   []*ent.MerchantConnectorAccount
	m       *Method
	retried bool
	// fulfilAtOnce says a creation's settle step may reserve the payout's
	// fulfilment (auto_fulfill, within its confirm); fulfilReserved says
	// it did.
	fulfilAtOnce, fulfilReserved bool
	// methodKept says m may be kept in the vault (the payout existed
	// before its confirm): the confirm's end forgets it there.
	methodKept bool
}

// payouter is the integration of t's account, and the account as a call
// about t's attempt takes it.
func (s *Service) payouter(t *target) (connector.Payouter, connector.Account, error) {
	conn, acct, err := s.connectors.Integration(t.mca, t.payoutID, t.att.ID)
	if err != nil {
		return nil, acct, err
	}
	p, ok := conn.(connector.Payouter)
	if !ok {
		return nil, acct, errs.ErrFlowNotSupported.Newf("The connector %s does not pay out", t.mca.ConnectorName)
	}
	return p, acct, nil
}

// payoutCall is a connectorcall.Call whose steps use the Payouter.
func (s *Service) payoutCall(t *target, call, sync func(ctx context.Context, p connector.Payouter, req *connector.PayoutRequest) (*connector.PayoutResult, error)) connectorcall.Call[*connector.PayoutResult] {
	var p connector.Payouter
	request := func(acct connector.Account) *connector.PayoutRequest {
		return &connector.PayoutRequest{Account: acct, PayoutID: t.payoutID, Amount: t.att.Amount,
			Currency: string(t.att.Currency), ConnectorPayoutID: deref(t.att.ConnectorTransactionID)}
	}
	return connectorcall.Call[*connector.PayoutResult]{
		Connect: func() (connector.Connector, connector.Account, error) {
			var acct connector.Account
			var err error
			p, acct, err = s.payouter(t)
			return nil, acct, err
		},
		Call: func(ctx context.Context, _ connector.Connector, acct connector.Account) (*connector.PayoutResult, error) {
			return call(ctx, p, request(acct))
		},
		Sync: func(ctx context.Context, _ connector.Connector, acct connector.Account) (*connector.PayoutResult, error) {
			return sync(ctx, p, request(acct))
		},
	}
}

func fulfilAtConnector(ctx context.Context, p connector.Payouter, req *connector.PayoutRequest) (*connector.PayoutResult, error) {
	return p.PayoutFulfill(ctx, req)
}

func cancelAtConnectorCall(ctx context.Context, p connector.Payouter, req *connector.PayoutRequest) (*connector.PayoutResult, error) {
	return p.PayoutCancel(ctx, req)
}

func syncAtConnector(ctx context.Context, p connector.Payouter, req *connector.PayoutRequest) (*connector.PayoutResult, error) {
	return p.PayoutSync(ctx, req)
}

// lockTarget locks t's payout in tx and reads its active attempt and that
// attempt's account.
func (s *Service) lockTarget(ctx context.Context, tx *ent.Tx, t *target) error {
	po, err := s.load(ctx, tx.Client(), t.payoutID, true)
	if err != nil {
		return err
	}
	return s.lockedTarget(ctx, tx, t, po)
}

// lockedTarget makes po, locked in tx, t's payout, with its active attempt
// (the one t holds when t.holds(po)) and that attempt's account (kept when
// t holds it).
func (s *Service) lockedTarget(ctx context.Context, tx *ent.Tx, t *target, po *ent.Payout) (err error) {
	held := t.holds(po)
	t.po = po
	if !held {
		if t.att, err = s.activeAttempt(ctx, tx.Client(), po); err != nil {
			return err
		}
	}
	if t.mca != nil && t.mca.ID == t.att.MerchantConnectorID {
		return nil
	}
	return s.loadAccount(ctx, tx.Client(), t)
}

// holds reports whether the attempt t holds from this request's last write
// is po's active attempt as the database has it: po, read under its lock,
// is as that write left it (the same status, modified_at and active
// attempt), and an active attempt is only written with its payout, under
// the payout's lock.
func (t *target) holds(po *ent.Payout) bool {
	return t.po != nil && t.att != nil && po.Status == t.po.Status && po.ModifiedAt.Equal(t.po.ModifiedAt) &&
		deref(po.ActiveAttemptID) == t.att.ID
}

// loadAccount reads the connector account of t's attempt.
func (s *Service) loadAccount(ctx context.Context, client *ent.Client, t *target) (err error) {
	if t.mca, err = client.MerchantConnectorAccount.Get(ctx, t.att.MerchantConnectorID); err != nil {
		return errs.Internal(err)
	}
	return nil
}

// settleAnswer is the settle step of a fulfilment or a sync: it locks the
// payout, rechecks that the attempt is still the one asked about and still
// waits in one of waiting, and records what the answer makes of it.
func (s *Service) settleAnswer(ctx context.Context, tx *ent.Tx, t *target, res *connector.PayoutResult, callErr error, waiting ...payoutattempt.Status) error {
	po, err := s.load(ctx, tx.Client(), t.payoutID, true)
	if err != nil {
		return err
	}
	att := t.att
	if !t.holds(po) {
		if att, err = tx.PayoutAttempt.Get(ctx, t.att.ID); err != nil {
			return errs.Internal(err)
		}
	}
	if !statusIn(att.Status, waiting) {
		t.po, t.att = po, att // a late answer: it changes nothing twice
		return nil
	}
	if deref(po.ActiveAttemptID) != att.ID {
		// A confirm replaced the attempt: its answer closes the attempt
		// alone, so the recovery pass does not find it again.
		t.po = po
		return s.closeReplaced(ctx, tx, att, decideAnswer(payout.Status(att.Status), res, callErr))
	}
	connectorID := ""
	if res != nil {
		connectorID = res.ConnectorPayoutID
	}
	o := decideAnswer(payout.Status(att.Status), res, callErr)
	if retry, err := s.retryOnNext(ctx, tx, t, po, att, o); retry || err != nil {
		return err
	}
	if created(payout.Status(att.Status), o) {
		if po, err = s.saveMethod(ctx, tx, t, po, res); err != nil {
			return err
		}
	}
	o, t.fulfilReserved = decideFulfilAtOnce(payout.Status(att.Status), o, po.AutoFulfill, t.fulfilAtOnce)
	t.po, t.att, err = s.apply(ctx, tx, po, att, o, connectorID)
	return err
}

// closeReplaced records o on an attempt its payout no longer uses.
func (s *Service) closeReplaced(ctx context.Context, tx *ent.Tx, att *ent.PayoutAttempt, o outcome) error {
	if !o.changed {
		return nil
	}
	_, err := tx.PayoutAttempt.UpdateOne(att).SetStatus(payoutattempt.Status(o.status)).Save(ctx)
	return txn.ErrorOrNil(err, "payout attempt")
}

func statusIn(s payoutattempt.Status, list []payoutattempt.Status) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
