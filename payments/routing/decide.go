package routing

import (
	"context"
	"sync"
	"time"

	"switchyard/ent"
	"switchyard/ent/schema/schematype"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

// Decision is where a payment goes: its candidates in order (the first is
// tried), and what chose them.
type Decision struct {
	// AlgorithmID is the active configuration that chose; empty when the
	// profile's fallback order did.
	AlgorithmID string
	// Kind is the configuration's kind (single, priority, volume_split,
	// advanced); empty when the fallback order or the request chose.
	Kind string
	// Rule is the name of the advanced configuration's rule that held;
	// empty for its default selection and for the other kinds.
	Rule string
	// Approach is Hyperswitch's routing_approach: StraightThrough (the
	// request named the connector), rule_based_routing (single, priority
	// and advanced), volume_based_routing, or default_fallback.
	Approach string
	// Candidates are the accounts in the order they are tried.
	Candidates []*ent.MerchantConnectorAccount
	// sel is what the configuration chose before a split's draw and the
	// fallback order.
	sel selection
}

// StraightThrough is the approach of a payment that named its connector.
const StraightThrough = "straight_through_routing"

// Decide orders accounts (the profile's active payment processors) for
// pay, a payment of profileID, read through tx: the active configuration's
// choices first (an advanced one's first rule that holds for pay, else its
// default selection; a volume split draws one by its shares), then the
// fallback order. split is a draw in [0, 100) for a volume split.
func (s *Service) Decide(ctx context.Context, tx *ent.Tx, profileID string, accounts []*ent.MerchantConnectorAccount, pay Payment, split int) (*Decision, error) {
	// With dynamic selection on, the version check and the outcome
	// windows are one round trip.
	if pr, windows, ok := s.prefetched(ctx, profileID, accounts); ok {
		d := pr.decide(accounts, &pay, split)
		s.orderWith(pr.dynamic, d, windows)
		return d, nil
	}
	pr, err := s.profileRouting(ctx, tx.Client(), profileID)
	if err != nil {
		return nil, err
	}
	d := pr.decide(accounts, &pay, split)
	// Dynamic routing reorders what the static routing chose.
	s.dynamicOrder(ctx, profileID, pr.dynamic, d)
	return d, nil
}

// Evaluation is what routing would do with a payment, and why.
type Evaluation struct {
	*Decision
	// Output is what the configuration (else the fallback order) chose
	// before a volume split's draw: accounts in priority order, or each
	// with its share (OutputKind volume_split).
	OutputKind string
	Output     []Share
	// Eligible are the profile's active payment processors.
	Eligible []*ent.MerchantConnectorAccount
}

// Share is an account a selection names, with its share of a split.
type Share struct {
	Account *ent.MerchantConnectorAccount
	Split   int
}

// Evaluate is what Decide would answer for pay, a payment of the profile
// named (else the caller's or the default), with split as the draw of a
// volume split. It writes nothing.
func (s *Service) Evaluate(ctx context.Context, profileID *string, pay Payment, split int) (*Evaluation, error) {
	prof, accounts, err := s.profileWithAccounts(ctx, profileID)
	if err != nil {
		return nil, err
	}
	pr, err := s.profileRouting(ctx, s.db.Client, prof.ID)
	if err != nil {
		return nil, err
	}
	d := pr.decide(accounts, &pay, split)
	s.dynamicOrder(ctx, prof.ID, pr.dynamic, d)
	out := &Evaluation{Decision: d, Eligible: accounts, OutputKind: KindPriority}
	switch {
	case d.sel.kind == KindVolumeSplit:
		out.OutputKind = KindVolumeSplit
		for _, v := range d.sel.split {
			if a := resolve(v.Connector, accounts); a != nil {
				out.Output = append(out.Output, Share{Account: a, Split: v.Split})
			}
		}
	case d.AlgorithmID != "":
		for _, c := range d.sel.priority {
			if a := resolve(c, accounts); a != nil {
				out.Output = append(out.Output, Share{Account: a})
			}
		}
	default:
		for _, a := range d.Candidates {
			out.Output = append(out.Output, Share{Account: a})
		}
	}
	return out, nil
}

func (pr profileRouting) decide(accounts []*ent.MerchantConnectorAccount, pay *Payment, split int) *Decision {
	fallback := orderAccounts(pr.fallback, accounts)
	out := &Decision{Approach: "default_fallback", Candidates: fallback}
	if pr.algorithm == nil {
		return out
	}
	algo := pr.algorithm
	out.AlgorithmID, out.Kind, out.Approach = pr.algorithmID, algo.Kind, "rule_based_routing"
	sel := selection{kind: KindPriority, priority: algo.Priority}
	switch algo.Kind {
	case KindVolumeSplit:
		sel = selection{kind: KindVolumeSplit, split: algo.VolumeSplit}
		out.Approach = "volume_based_routing"
	case KindAdvanced:
		sel, out.Rule = algo.program.evaluate(pay)
	}
	choices := sel.priority
	if sel.kind == KindVolumeSplit {
		choices = []schematype.RoutableConnector{pickShare(sel.split, split)}
	}
	out.sel = sel
	out.Candidates = orderAccounts(choices, fallback)
	return out
}

// profileRouting is what a decision needs of a profile: its fallback
// order and its active algorithm (nil for none), as of version.
type profileRouting struct {
	version     int64
	loadedAt    time.Time
	fallback    []schematype.RoutableConnector
	algorithmID string
	algorithm   *Algorithm
	dynamic     dynamicRouting
	// payoutAlgorithmID and payoutAlgorithm are the active payout
	// configuration (nil for none).
	payoutAlgorithmID string
	payoutAlgorithm   *Algorithm
}

// profileCache holds each profile's routing between its changes.
type profileCache struct {
	mu      sync.Mutex
	entries map[string]profileRouting
}

// cacheFor bounds how long a cached routing is trusted without a change
// being seen: a process that died between a change's commit and its bump
// leaves the others stale no longer than this.
const cacheFor = time.Minute

// version is the configuration version a cached routing must have been
// loaded at; an error means the cache is not to be used.
func (s *Service) version(ctx context.Context) (int64, error) {
	merchantID, err := txn.Merchant(ctx)
	if err != nil {
		return 0, err
	}
	return s.db.ConfigVersion(ctx, merchantID)
}

// profileRouting is the profile's routing: the cached one while the
// merchant's configuration version has not moved, else read through db (a
// payment's transaction: on SQLite it holds the only connection).
func (s *Service) profileRouting(ctx context.Context, db *ent.Client, profileID string) (profileRouting, error) {
	version, verr := s.version(ctx)
	if verr == nil {
		s.cache.mu.Lock()
		e, ok := s.cache.entries[profileID]
		s.cache.mu.Unlock()
		if ok && e.version == version && s.db.Now().Sub(e.loadedAt) < cacheFor {
			return e, nil
		}
	}
	prof, err := db.Profile.Get(ctx, profileID)
	if err != nil {
		return profileRouting{}, errs.Internal(err)
	}
	out := profileRouting{version: version, loadedAt: s.db.Now(), fallback: prof.DefaultFallback}
	if out.algorithmID, out.algorithm, err = loadAlgorithm(ctx, db, prof.RoutingAlgorithmID); err != nil {
		return profileRouting{}, err
	}
	if out.payoutAlgorithmID, out.payoutAlgorithm, err = loadAlgorithm(ctx, db, prof.PayoutRoutingAlgorithmID); err != nil {
		return profileRouting{}, err
	}
	if out.dynamic, err = loadDynamic(ctx, db, prof.DynamicRouting); err != nil {
		return profileRouting{}, err
	}
	if out.dynamic.records() {
		s.keepOutcomes(ctx, profileID, out.dynamic)
	}
	if verr == nil {
		s.cache.mu.Lock()
		s.cache.entries[profileID] = out
		s.cache.mu.Unlock()
	}
	return out, nil
}

// loadAlgorithm reads the active configuration id names (none for nil).
// It was valid when created; were it not now, the payment or payout goes
// by the fallback order rather than be refused.
func loadAlgorithm(ctx context.Context, db *ent.Client, id *string) (string, *Algorithm, error) {
	if id == nil {
		return "", nil, nil
	}
	stored, err := db.RoutingAlgorithm.Get(ctx, *id)
	if err != nil {
		return "", nil, errs.Internal(err)
	}
	if algo, err := parseAlgorithm(stored.Algorithm); err == nil {
		return stored.ID, algo, nil
	}
	return "", nil, nil
}

// changeProfile runs change, a change to a profile's routing that answers
// the profile's id, in one transaction; once it committed, this process's
// copy of that profile's routing is dropped. The other processes see the
// configuration version move (the profile's change bumped it), or, were
// that bump lost, reload within cacheFor.
func (s *Service) changeProfile(ctx context.Context, change func(tx *ent.Tx) (profileID string, err error)) error {
	var profileID string
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		var err error
		profileID, err = change(tx)
		return err
	})
	if err != nil {
		return err
	}
	s.cache.mu.Lock()
	delete(s.cache.entries, profileID)
	s.cache.mu.Unlock()
	return nil
}

// pickShare is the share split (0 to 99) falls in.
func pickShare(shares []VolumeSplit, split int) schematype.RoutableConnector {
	for _, v := range shares {
		if split < v.Split {
			return v.Connector
		}
		split -= v.Split
	}
	return shares[len(shares)-1].Connector
}
