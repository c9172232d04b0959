package routing

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"switchyard/ent"
	"switchyard/ent/schema/schematype"
	"switchyard/payments/errs"
)

// dynamicRouting is what decisions and outcomes need of a profile's
// dynamic configurations: nil for one not enabled (feature none).
type dynamicRouting struct {
	successRate *successRateRule
	elimination *eliminationRule
	contract    *contractRule
}

type successRateRule struct {
	selects        bool // dynamic_connector_selection, not metrics only
	window, min    int  // outcomes
	maxAge         time.Duration
	defaultRate    float64 // percent
	explorePercent float64
	shuffleOnTie   bool
}

type eliminationRule struct {
	selects   bool
	bucket    int
	coolDown  time.Duration
	threshold float64 // the success share below which an account is out
}

func (d dynamicRouting) records() bool {
	return d.successRate != nil || d.elimination != nil || d.contract != nil
}

func (d dynamicRouting) selects() bool {
	return (d.successRate != nil && d.successRate.selects) || (d.elimination != nil && d.elimination.selects) ||
		(d.contract != nil && d.contract.selects)
}

// window is how many outcomes per account the profile keeps.
func (d dynamicRouting) window() int {
	n := 0
	if d.successRate != nil {
		n = d.successRate.window
	}
	if d.elimination != nil {
		n = max(n, d.elimination.bucket)
	}
	if d.contract != nil {
		n = max(n, d.contract.window())
	}
	return n
}

// loadDynamic reads the configurations d names (nothing when d enables
// none: a profile without dynamic routing costs no statement).
func loadDynamic(ctx context.Context, db *ent.Client, d *schematype.DynamicRouting) (dynamicRouting, error) {
	var out dynamicRouting
	if d == nil {
		return out, nil
	}
	load := func(ref *schematype.DynamicRoutingRef, into any) (bool, error) {
		if ref == nil || ref.EnabledFeature == FeatureNone || ref.EnabledFeature == "" {
			return false, nil
		}
		a, err := db.RoutingAlgorithm.Get(ctx, ref.AlgorithmID)
		if err != nil {
			return false, errs.Internal(err)
		}
		return true, json.Unmarshal(a.Algorithm.Data, into)
	}
	var sr SuccessBasedConfig
	if ok, err := load(d.SuccessBased, &sr); err != nil {
		return out, err
	} else if ok {
		b := sr.withDefaults().Config
		block := int(*b.CurrentBlockThreshold.MaxTotalCount)
		rule := &successRateRule{selects: d.SuccessBased.EnabledFeature == FeatureConnectorSelction,
			window: int(*b.MaxAggregatesSize) * block, min: int(*b.MinAggregatesSize) * block,
			defaultRate: *b.DefaultSuccessRate, explorePercent: *b.ExplorationPercent, shuffleOnTie: *b.ShuffleOnTieDuringExploitation}
		if m := b.CurrentBlockThreshold.DurationInMins; m != nil && *m > 0 {
			rule.maxAge = time.Duration(*m**b.MaxAggregatesSize) * time.Minute
		}
		out.successRate = rule
	}
	var el EliminationConfig
	if ok, err := load(d.Elimination, &el); err != nil {
		return out, err
	} else if ok {
		el = el.withDefaults()
		out.elimination = &eliminationRule{selects: d.Elimination.EnabledFeature == FeatureConnectorSelction,
			bucket:    int(*el.EliminationAnalyserConfig.BucketSize),
			coolDown:  time.Duration(*el.EliminationAnalyserConfig.BucketLeakIntervalInSecs) * time.Second,
			threshold: *el.DecisionEngineConfigs.Threshold}
	}
	var ct ContractConfig
	if ok, err := load(d.Contract, &ct); err != nil {
		return out, err
	} else if ok {
		out.contract = contractRuleOf(ct, d.Contract.EnabledFeature == FeatureConnectorSelction)
	}
	return out, nil
}

// outcomesTTL is how long an account's outcomes outlive its last one: a
// connector unused for a day starts afresh.
const outcomesTTL = 24 * time.Hour

// keepOutcomes tells the store how many outcomes the profile keeps. A lost
// write is made again by the next process that loads the profile.
func (s *Service) keepOutcomes(ctx context.Context, profileID string, d dynamicRouting) {
	if s.outcomes == nil {
		return
	}
	ttl := outcomesTTL
	if d.successRate != nil {
		ttl = max(ttl, d.successRate.maxAge)
	}
	if d.contract != nil {
		ttl = max(ttl, d.contract.ttl())
	}
	_ = s.outcomes.Keep(ctx, profileID, d.window(), ttl)
}

// RecordOutcome records an attempt's definitive outcome on its connector
// account for the profile's dynamic routing: one round trip to the store,
// which drops it when the profile keeps no outcomes. Only an authorization
// or charge (success) and a connector's failure count; anything else
// (pending, a call error, a failed authentication) is not the connector's
// verdict and is not recorded. A lost outcome only blurs the window, so
// errors are not the payment's.
func (s *Service) RecordOutcome(ctx context.Context, profileID, accountID string, success, failure bool) {
	if s.outcomes == nil || accountID == "" || success == failure {
		return
	}
	// This process's view of the profile, when fresh, says whether it
	// keeps outcomes at all: most profiles cost nothing here.
	s.cache.mu.Lock()
	e, ok := s.cache.entries[profileID]
	s.cache.mu.Unlock()
	if ok && !e.dynamic.records() && s.db.Now().Sub(e.loadedAt) < cacheFor {
		return
	}
	_ = s.outcomes.Record(ctx, profileID, accountID, encodeOutcome(s.db.Now(), success))
}

// An outcome entry is "<unix ms>:1" (success) or "<unix ms>:0".
func encodeOutcome(at time.Time, success bool) string {
	v := "0"
	if success {
		v = "1"
	}
	return strconv.FormatInt(at.UnixMilli(), 10) + ":" + v
}

type outcome struct {
	at      time.Time
	success bool
}

func decodeOutcomes(entries []string) []outcome {
	out := make([]outcome, 0, len(entries))
	for _, e := range entries {
		ms, v, ok := strings.Cut(e, ":")
		n, err := strconv.ParseInt(ms, 10, 64)
		if !ok || err != nil {
			continue
		}
		out = append(out, outcome{at: time.UnixMilli(n), success: v == "1"})
	}
	return out
}

// successRate is the percent of successes among the outcomes (newest
// first) inside the window, or the default below min of them.
func (r *successRateRule) successRate(outcomes []outcome, now time.Time) float64 {
	n, ok := 0, 0
	for _, o := range outcomes[:min(len(outcomes), r.window)] {
		if r.maxAge > 0 && now.Sub(o.at) > r.maxAge {
			break
		}
		n++
		if o.success {
			ok++
		}
	}
	if n == 0 || n < r.min {
		return r.defaultRate
	}
	return 100 * float64(ok) / float64(n)
}

// eliminated reports whether an account is out: the success share of its
// last bucket outcomes (slots not yet filled count as successes, so a few
// failures of a new account do not eliminate it) is below the threshold,
// and its last failure is younger than the cool-down.
func (r *eliminationRule) eliminated(outcomes []outcome, now time.Time) bool {
	failed := 0
	var lastFailure time.Time
	for _, o := range outcomes[:min(len(outcomes), r.bucket)] {
		if !o.success {
			failed++
			if o.at.After(lastFailure) {
				lastFailure = o.at
			}
		}
	}
	if failed == 0 || now.Sub(lastFailure) >= r.coolDown {
		return false
	}
	return 1-float64(failed)/float64(r.bucket) < r.threshold
}

// dynamicOrder reorders d's candidates by the profile's dynamic routing:
// success rate (or, for an exploration share, at random), then the
// eliminated accounts last. It reads the candidates' outcomes in one round
// trip; when the store does not answer, the static order stands.
func (s *Service) dynamicOrder(ctx context.Context, profileID string, dr dynamicRouting, d *Decision) {
	if s.outcomes == nil || !dr.selects() || len(d.Candidates) < 2 {
		return
	}
	ids := make([]string, len(d.Candidates))
	for i, c := range d.Candidates {
		ids[i] = c.ID
	}
	raw, err := s.outcomes.Latest(ctx, profileID, ids, dr.window())
	if err != nil || len(raw) != len(ids) {
		return
	}
	s.orderWith(dr, d, windowsOf(ids, raw))
}

func windowsOf(ids []string, raw [][]string) map[string][]outcome {
	windows := make(map[string][]outcome, len(ids))
	for i, id := range ids {
		windows[id] = decodeOutcomes(raw[i])
	}
	return windows
}

// orderWith reorders d's candidates by windows (every candidate's).
func (s *Service) orderWith(dr dynamicRouting, d *Decision, windows map[string][]outcome) {
	order, approach := orderByOutcomes(d.Candidates, windows, dr, s.db.Now(), rand.Float64()*100)
	d.Candidates = order
	if approach != "" {
		d.Approach = approach
	}
}

// prefetched is the cached routing of a profile with dynamic selection on
// and the windows of all of accounts, read in one round trip (the
// configuration version the cache is checked against was read once for the
// whole payment); ok is false when the cache cannot be trusted (the
// version moved, or the store did not answer), and the decision takes the
// usual path.
func (s *Service) prefetched(ctx context.Context, profileID string, accounts []*ent.MerchantConnectorAccount) (profileRouting, map[string][]outcome, bool) {
	if s.outcomes == nil || len(accounts) < 2 {
		return profileRouting{}, nil, false
	}
	version, err := s.version(ctx)
	if err != nil {
		return profileRouting{}, nil, false
	}
	s.cache.mu.Lock()
	e, ok := s.cache.entries[profileID]
	s.cache.mu.Unlock()
	if !ok || e.version != version || !e.dynamic.selects() || s.db.Now().Sub(e.loadedAt) >= cacheFor {
		return profileRouting{}, nil, false
	}
	ids := make([]string, len(accounts))
	for i, a := range accounts {
		ids[i] = a.ID
	}
	raw, err := s.outcomes.Latest(ctx, profileID, ids, e.dynamic.window())
	if err != nil || len(raw) != len(ids) {
		return profileRouting{}, nil, false
	}
	return e, windowsOf(ids, raw), true
}

// orderByOutcomes is the candidates' dynamic order, and the approach when
// dynamic routing chose it ("" when the static one stands). draw, in
// [0, 100), below the exploration percent explores.
func orderByOutcomes(candidates []*ent.MerchantConnectorAccount, windows map[string][]outcome, dr dynamicRouting, now time.Time, draw float64) ([]*ent.MerchantConnectorAccount, string) {
	out, approach := slices.Clone(candidates), ""
	if sr := dr.successRate; sr != nil && sr.selects {
		switch {
		case draw < sr.explorePercent:
			approach = ApproachSuccessRateExploration
			rand.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
		default:
			approach = ApproachSuccessRateExploitation
			if sr.shuffleOnTie {
				rand.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
			}
			rates := make(map[string]float64, len(out))
			for _, c := range out {
				rates[c.ID] = sr.successRate(windows[c.ID], now)
			}
			slices.SortStableFunc(out, func(a, b *ent.MerchantConnectorAccount) int {
				switch ra, rb := rates[a.ID], rates[b.ID]; {
				case ra > rb:
					return -1
				case ra < rb:
					return 1
				}
				return 0
			})
		}
	}
	if ct := dr.contract; ct != nil && ct.selects {
		var moved bool
		if out, moved = ct.order(out, windows, now); moved && approach == "" {
			approach = ApproachContract
		}
	}
	if el := dr.elimination; el != nil && el.selects {
		kept := make([]*ent.MerchantConnectorAccount, 0, len(out))
		var out2 []*ent.MerchantConnectorAccount
		for _, c := range out {
			if el.eliminated(windows[c.ID], now) {
				out2 = append(out2, c)
			} else {
				kept = append(kept, c)
			}
		}
		// Every one eliminated: none is better than the others, and a
		// payment always has candidates.
		if len(out2) > 0 && len(kept) > 0 {
			out = append(kept, out2...)
			if approach == "" {
				approach = ApproachElimination
			}
		}
	}
	return out, approach
}
