package routing

// Contract-based dynamic routing (Hyperswitch's contract routing): a
// profile states, per connector account, how many payments it has
// committed to send there in each period (a day or a month, UTC). With
// dynamic_connector_selection on, a decision puts the accounts still below
// their target for the current period ahead of the others, the furthest
// behind first; the success outcomes recorded for dynamic routing are what
// it counts.

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"switchyard/ent"
	"switchyard/ent/routingalgorithm"
	"switchyard/ent/schema/schematype"
	"switchyard/payments/errs"
	"switchyard/payments/validate"
)

// TypeContract is the algorithm type of a contract configuration.
const TypeContract = "contract_based"

// ApproachContract is the routing_approach of a decision contracts ordered.
const ApproachContract = "contract_based_routing"

// Contract periods (ContractBasedTimeScale).
const (
	timeScaleDay   = "day"
	timeScaleMonth = "month"
)

// withDefaults is c with a daily period when it names none.
func (c ContractConfig) withDefaults() ContractConfig {
	body := ContractConfigBody{TimeScale: ptr(timeScaleDay)}
	if c.Config != nil {
		body.Constants = c.Config.Constants
		setGiven(&body.TimeScale, c.Config.TimeScale)
	}
	c.Config = &body
	return c
}

func (c *ContractConfig) validate() error {
	if ts := *c.Config.TimeScale; ts != timeScaleDay && ts != timeScaleMonth {
		return errs.InvalidValue("config.time_scale", "must be day or month, got %q", ts)
	}
	for i, l := range c.LabelInfo {
		at := validate.Indexed("label_info", i)
		switch {
		case l.Label == nil:
			return errs.MissingField(at + ".label")
		case l.MCAID == nil:
			return errs.MissingField(at + ".mca_id")
		case l.TargetCount == nil:
			return errs.MissingField(at + ".target_count")
		case l.TargetTime == nil:
			return errs.MissingField(at + ".target_time")
		case *l.TargetCount < 0:
			return errs.InvalidValue(at+".target_count", "must not be negative, got %d", *l.TargetCount)
		case *l.TargetCount > maxWindow:
			return errs.InvalidValue(at+".target_count", "must be at most %d, got %d", maxWindow, *l.TargetCount)
		case *l.TargetTime < 0:
			return errs.InvalidValue(at+".target_time", "must not be negative, got %d", *l.TargetTime)
		}
	}
	return nil
}

// mergeLabels is labels with each of patch's in place of the one for the
// same connector account, or added.
func mergeLabels(labels, patch []ContractLabel) []ContractLabel {
	out := slices.Clone(labels)
	for _, p := range patch {
		i := slices.IndexFunc(out, func(l ContractLabel) bool { return p.MCAID != nil && l.MCAID != nil && *l.MCAID == *p.MCAID })
		if i < 0 {
			out = append(out, p)
			continue
		}
		out[i] = p
	}
	return out
}

// ToggleContract enables the profile's contract routing with feature,
// storing cfg as its configuration the first time (or whenever cfg names
// contracts), or disables it (feature none).
func (s *Service) ToggleContract(ctx context.Context, profileID, feature string, cfg ContractConfig) (*ent.RoutingAlgorithm, error) {
	if err := validFeature(feature); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return s.setDynamic(ctx, profileID, TypeContract, func(tx *ent.Tx, ref *schematype.DynamicRoutingRef) (*ent.RoutingAlgorithm, string, error) {
		if feature == FeatureNone && (ref == nil || ref.EnabledFeature == FeatureNone) {
			return nil, "", errs.PreconditionFailed("Algorithm is already inactive")
		}
		if ref == nil || ref.AlgorithmID == "" || (feature != FeatureNone && len(cfg.LabelInfo) > 0) {
			a, err := createDynamic(ctx, tx, profileID, TypeContract, dynamicName(TypeContract), "", cfg)
			return a, feature, err
		}
		a, err := tx.RoutingAlgorithm.Get(ctx, ref.AlgorithmID)
		if err != nil {
			return nil, "", errs.Internal(err)
		}
		return a, feature, nil
	})
}

// UpdateContract changes the contract configuration algorithmID of the
// profile by what patch gives (a label replaces the one for its connector
// account); as UpdateSuccessBased, the result is a new configuration.
func (s *Service) UpdateContract(ctx context.Context, profileID, algorithmID string, patch ContractConfig) (*ent.RoutingAlgorithm, error) {
	return s.setDynamic(ctx, profileID, TypeContract, func(tx *ent.Tx, ref *schematype.DynamicRoutingRef) (*ent.RoutingAlgorithm, string, error) {
		old, err := tx.RoutingAlgorithm.Query().Where(routingalgorithm.ID(algorithmID), routingalgorithm.ProfileID(profileID),
			routingalgorithm.KindEQ(routingalgorithm.KindDynamic)).Only(ctx)
		if ent.IsNotFound(err) || (err == nil && old.Algorithm.Type != TypeContract) {
			return nil, "", errConfigNotFound()
		}
		if err != nil {
			return nil, "", errs.Internal(err)
		}
		var cfg ContractConfig
		if err := json.Unmarshal(old.Algorithm.Data, &cfg); err != nil {
			return nil, "", errs.Internal(err)
		}
		cfg = cfg.withDefaults()
		if p := patch.Config; p != nil {
			setGiven(&cfg.Config.TimeScale, p.TimeScale)
			if p.Constants != nil {
				cfg.Config.Constants = p.Constants
			}
		}
		cfg.LabelInfo = mergeLabels(cfg.LabelInfo, patch.LabelInfo)
		if err := cfg.validate(); err != nil {
			return nil, "", err
		}
		a, err := createDynamic(ctx, tx, profileID, TypeContract, old.Name, old.Description, cfg)
		if err != nil {
			return nil, "", err
		}
		if ref == nil || ref.AlgorithmID != algorithmID {
			return a, "", nil // another configuration is the profile's: it stays
		}
		return a, ref.EnabledFeature, nil
	})
}

// contractRule is a loaded contract configuration.
type contractRule struct {
	selects bool
	monthly bool
	targets map[string]int // connector account id → payments per period
}

func contractRuleOf(cfg ContractConfig, selects bool) *contractRule {
	cfg = cfg.withDefaults()
	r := &contractRule{selects: selects, monthly: *cfg.Config.TimeScale == timeScaleMonth, targets: map[string]int{}}
	for _, l := range cfg.LabelInfo {
		if l.MCAID != nil && l.TargetCount != nil { // validated when stored
			r.targets[*l.MCAID] = int(*l.TargetCount)
		}
	}
	return r
}

// window is how many outcomes per account the contracts need: the largest
// target, plus one to see it met.
func (r *contractRule) window() int {
	n := 0
	for _, t := range r.targets {
		n = max(n, t+1)
	}
	return min(n, maxWindow)
}

// ttl is how long outcomes must outlive their last one: a whole period.
func (r *contractRule) ttl() time.Duration {
	if r.monthly {
		return 31 * 24 * time.Hour
	}
	return 24 * time.Hour
}

// periodStart is the start of the current period (UTC).
func (r *contractRule) periodStart(now time.Time) time.Time {
	now = now.UTC()
	if r.monthly {
		return time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	}
	return time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
}

// shortfall is how many successful payments the account still owes its
// contract this period (0 when it has none, or has met it).
func (r *contractRule) shortfall(accountID string, outcomes []outcome, now time.Time) int {
	target, ok := r.targets[accountID]
	if !ok {
		return 0
	}
	from, done := r.periodStart(now), 0
	for _, o := range outcomes {
		if o.at.Before(from) {
			break // newest first
		}
		if o.success {
			done++
		}
	}
	return max(target-done, 0)
}

// order puts the accounts below their target first, the furthest behind
// first; the rest keep their order. It reports whether it moved any.
func (r *contractRule) order(candidates []*ent.MerchantConnectorAccount, windows map[string][]outcome, now time.Time) ([]*ent.MerchantConnectorAccount, bool) {
	owed := make(map[string]int, len(candidates))
	for _, c := range candidates {
		owed[c.ID] = r.shortfall(c.ID, windows[c.ID], now)
	}
	out := slices.Clone(candidates)
	slices.SortStableFunc(out, func(a, b *ent.MerchantConnectorAccount) int { return owed[b.ID] - owed[a.ID] })
	return out, !slices.Equal(out, candidates)
}
