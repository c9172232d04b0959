package routing

// Dynamic routing (Hyperswitch's success-rate based and elimination
// routing): a profile records each attempt's definitive outcome per
// connector account in a shared store (Redis), and, when enabled with
// dynamic_connector_selection, a decision reorders the candidates the
// static algorithm and the fallback chose by those outcomes.

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"switchyard/ent"
	"switchyard/ent/routingalgorithm"
	"switchyard/ent/schema/schematype"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// Outcomes is the shared store of each profile's recent attempt outcomes
// per connector account (implemented in Redis). Entries are opaque to the
// store; Keep says how many of the newest it keeps per account. Each
// method is one round trip.
type Outcomes interface {
	// Record appends entry to the account's outcomes when the profile
	// keeps outcomes (Keep with n > 0), and does nothing otherwise.
	Record(ctx context.Context, profileID, accountID, entry string) error
	// Latest are the newest n entries of each account, newest first.
	Latest(ctx context.Context, profileID string, accountIDs []string, n int) ([][]string, error)
	// Keep makes the profile keep the newest n entries of each account,
	// each account's entries for ttl after its last one; n = 0 stops
	// recording.
	Keep(ctx context.Context, profileID string, n int, ttl time.Duration) error
}

// WithOutcomes gives the service its outcome store; without one, dynamic
// configurations can be stored but record and reorder nothing.
func (s *Service) WithOutcomes(o Outcomes) *Service {
	s.outcomes = o
	return s
}

// Dynamic algorithm types (the type of a dynamic configuration's stored
// algorithm; its kind is "dynamic", as in Hyperswitch's RoutingAlgorithmKind).
const (
	KindDynamic     = "dynamic"
	TypeSuccessRate = "success_rate_based"
	TypeElimination = "elimination"
)

// Features a dynamic configuration is enabled with (DynamicRoutingFeatures).
const (
	FeatureMetrics           = "metrics"
	FeatureConnectorSelction = "dynamic_connector_selection"
	FeatureNone              = "none"
)

// Approaches of a decision dynamic routing ordered (routing_approach).
const (
	ApproachSuccessRateExploitation = "success_rate_exploitation"
	ApproachSuccessRateExploration  = "success_rate_exploration"
	ApproachElimination             = "elimination_routing"
)

// SuccessBasedConfig is Hyperswitch's SuccessBasedRoutingConfig.
type SuccessBasedConfig struct {
	Params                []string                `json:"params,omitempty"`
	Config                *SuccessBasedConfigBody `json:"config,omitempty"`
	DecisionEngineConfigs json.RawMessage         `json:"decision_engine_configs,omitempty"`
}

// SuccessBasedConfigBody is Hyperswitch's SuccessBasedRoutingConfigBody.
type SuccessBasedConfigBody struct {
	MinAggregatesSize              *int64                 `json:"min_aggregates_size,omitempty"`
	DefaultSuccessRate             *float64               `json:"default_success_rate,omitempty"`
	MaxAggregatesSize              *int64                 `json:"max_aggregates_size,omitempty"`
	CurrentBlockThreshold          *CurrentBlockThreshold `json:"current_block_threshold,omitempty"`
	SpecificityLevel               *string                `json:"specificity_level,omitempty"`
	ExplorationPercent             *float64               `json:"exploration_percent,omitempty"`
	ShuffleOnTieDuringExploitation *bool                  `json:"shuffle_on_tie_during_exploitation,omitempty"`
}

// CurrentBlockThreshold is when a block of outcomes closes: after
// max_total_count outcomes or duration_in_mins minutes.
type CurrentBlockThreshold struct {
	DurationInMins *int64 `json:"duration_in_mins,omitempty"`
	MaxTotalCount  *int64 `json:"max_total_count,omitempty"`
}

// EliminationConfig is Hyperswitch's EliminationRoutingConfig.
type EliminationConfig struct {
	Params                    []string                   `json:"params,omitempty"`
	EliminationAnalyserConfig *EliminationAnalyserConfig `json:"elimination_analyser_config,omitempty"`
	DecisionEngineConfigs     *EliminationThreshold      `json:"decision_engine_configs,omitempty"`
}

// EliminationAnalyserConfig is the bucket each account's failures fill.
type EliminationAnalyserConfig struct {
	BucketSize               *int64 `json:"bucket_size,omitempty"`
	BucketLeakIntervalInSecs *int64 `json:"bucket_leak_interval_in_secs,omitempty"`
}

// EliminationThreshold is Hyperswitch's DecisionEngineEliminationData.
type EliminationThreshold struct {
	Threshold *float64 `json:"threshold,omitempty"`
}

func ptr[T any](v T) *T { return &v }

// Switchyard's defaults for what a configuration leaves out.
func defaultSuccessBased() SuccessBasedConfigBody {
	return SuccessBasedConfigBody{MinAggregatesSize: ptr[int64](5), DefaultSuccessRate: ptr(100.0), MaxAggregatesSize: ptr[int64](8),
		CurrentBlockThreshold: &CurrentBlockThreshold{DurationInMins: ptr[int64](5), MaxTotalCount: ptr[int64](5)},
		SpecificityLevel:      ptr("merchant"), ExplorationPercent: ptr(20.0), ShuffleOnTieDuringExploitation: ptr(false)}
}

func defaultElimination() EliminationConfig {
	return EliminationConfig{EliminationAnalyserConfig: &EliminationAnalyserConfig{BucketSize: ptr[int64](5), BucketLeakIntervalInSecs: ptr[int64](60)},
		DecisionEngineConfigs: &EliminationThreshold{Threshold: ptr(0.35)}}
}

// merge sets in b what patch gives.
func (b *SuccessBasedConfigBody) merge(patch *SuccessBasedConfigBody) {
	if patch == nil {
		return
	}
	set := func(dst **int64, v *int64) {
		if v != nil {
			*dst = v
		}
	}
	set(&b.MinAggregatesSize, patch.MinAggregatesSize)
	set(&b.MaxAggregatesSize, patch.MaxAggregatesSize)
	if patch.DefaultSuccessRate != nil {
		b.DefaultSuccessRate = patch.DefaultSuccessRate
	}
	if patch.ExplorationPercent != nil {
		b.ExplorationPercent = patch.ExplorationPercent
	}
	if patch.SpecificityLevel != nil {
		b.SpecificityLevel = patch.SpecificityLevel
	}
	if patch.ShuffleOnTieDuringExploitation != nil {
		b.ShuffleOnTieDuringExploitation = patch.ShuffleOnTieDuringExploitation
	}
	if t := patch.CurrentBlockThreshold; t != nil {
		cur := *b.CurrentBlockThreshold
		set(&cur.DurationInMins, t.DurationInMins)
		set(&cur.MaxTotalCount, t.MaxTotalCount)
		b.CurrentBlockThreshold = &cur
	}
}

// maxWindow bounds the outcomes a decision reads per account: the window is
// read whole for every payment, so it stays small.
const maxWindow = 10_000

var dynamicParams = []string{"PaymentMethod", "PaymentMethodType", "AuthenticationType", "Currency", "Country", "CardNetwork", "CardBin"}

func validateParams(params []string) error {
	for i, p := range params {
		if !slices.Contains(dynamicParams, p) {
			return errs.InvalidValue(validate.Indexed("params", i), "must be one of %s, got %q", strings.Join(dynamicParams, ", "), p)
		}
	}
	return nil
}

// validate checks a complete (defaults filled) success-rate configuration.
func (c *SuccessBasedConfig) validate() error {
	if err := validateParams(c.Params); err != nil {
		return err
	}
	b := c.Config
	switch {
	case *b.MinAggregatesSize < 0:
		return errs.InvalidValue("config.min_aggregates_size", "must not be negative, got %d", *b.MinAggregatesSize)
	case *b.MaxAggregatesSize < 1:
		return errs.InvalidValue("config.max_aggregates_size", "must be at least 1, got %d", *b.MaxAggregatesSize)
	case *b.MinAggregatesSize > *b.MaxAggregatesSize:
		return errs.InvalidValue("config.min_aggregates_size", "must not exceed max_aggregates_size (%d), got %d", *b.MaxAggregatesSize, *b.MinAggregatesSize)
	case *b.DefaultSuccessRate < 0 || *b.DefaultSuccessRate > 100:
		return errs.InvalidValue("config.default_success_rate", "is a percentage, between 0 and 100, got %v", *b.DefaultSuccessRate)
	case *b.ExplorationPercent < 0 || *b.ExplorationPercent > 100:
		return errs.InvalidValue("config.exploration_percent", "is a percentage, between 0 and 100, got %v", *b.ExplorationPercent)
	case *b.SpecificityLevel != "merchant" && *b.SpecificityLevel != "global":
		return errs.InvalidValue("config.specificity_level", "must be merchant or global, got %q", *b.SpecificityLevel)
	}
	t := b.CurrentBlockThreshold
	switch {
	case t.DurationInMins != nil && *t.DurationInMins < 0:
		return errs.InvalidValue("config.current_block_threshold.duration_in_mins", "must not be negative, got %d", *t.DurationInMins)
	case t.MaxTotalCount == nil || *t.MaxTotalCount < 1:
		return errs.InvalidValue("config.current_block_threshold.max_total_count", "must be at least 1")
	case *t.MaxTotalCount**b.MaxAggregatesSize > maxWindow:
		return errs.InvalidValue("config.max_aggregates_size", "the window (max_aggregates_size × current_block_threshold.max_total_count) must be at most %d outcomes", maxWindow)
	}
	return nil
}

func (c *EliminationConfig) validate() error {
	if err := validateParams(c.Params); err != nil {
		return err
	}
	a := c.EliminationAnalyserConfig
	switch {
	case *a.BucketSize < 1 || *a.BucketSize > maxWindow:
		return errs.InvalidValue("elimination_analyser_config.bucket_size", "must be between 1 and %d, got %d", maxWindow, *a.BucketSize)
	case *a.BucketLeakIntervalInSecs < 0:
		return errs.InvalidValue("elimination_analyser_config.bucket_leak_interval_in_secs", "must not be negative, got %d", *a.BucketLeakIntervalInSecs)
	case *c.DecisionEngineConfigs.Threshold < 0 || *c.DecisionEngineConfigs.Threshold > 1:
		return errs.InvalidValue("decision_engine_configs.threshold", "is a share, between 0 and 1, got %v", *c.DecisionEngineConfigs.Threshold)
	}
	return nil
}

// withDefaults is c with what it leaves out filled in.
func (c SuccessBasedConfig) withDefaults() SuccessBasedConfig {
	body := defaultSuccessBased()
	body.merge(c.Config)
	c.Config = &body
	return c
}

func (c EliminationConfig) withDefaults() EliminationConfig {
	d := defaultElimination()
	if a := c.EliminationAnalyserConfig; a != nil {
		if a.BucketSize != nil {
			d.EliminationAnalyserConfig.BucketSize = a.BucketSize
		}
		if a.BucketLeakIntervalInSecs != nil {
			d.EliminationAnalyserConfig.BucketLeakIntervalInSecs = a.BucketLeakIntervalInSecs
		}
	}
	if e := c.DecisionEngineConfigs; e != nil && e.Threshold != nil {
		d.DecisionEngineConfigs.Threshold = e.Threshold
	}
	d.Params = c.Params
	return d
}

func validFeature(feature string) error {
	switch feature {
	case FeatureMetrics, FeatureConnectorSelction, FeatureNone:
		return nil
	case "":
		return errs.MissingField("enable")
	}
	return errs.InvalidValue("enable", "must be metrics, dynamic_connector_selection or none, got %q", feature)
}

// refOf is the profile's reference to its configuration of type typ.
func refOf(d *schematype.DynamicRouting, typ string) **schematype.DynamicRoutingRef {
	if typ == TypeSuccessRate {
		return &d.SuccessBased
	}
	return &d.Elimination
}

func dynamicName(typ string) string {
	if typ == TypeSuccessRate {
		return "Success rate based dynamic routing algorithm"
	}
	return "Elimination based dynamic routing algorithm"
}

// ToggleDynamic enables a profile's success-rate (typ TypeSuccessRate) or
// elimination routing with feature, creating its configuration with the
// defaults the first time, or disables it (feature none). It answers the
// configuration.
func (s *Service) ToggleDynamic(ctx context.Context, profileID, typ, feature string) (*ent.RoutingAlgorithm, error) {
	if err := validFeature(feature); err != nil {
		return nil, err
	}
	return s.setDynamic(ctx, profileID, typ, func(tx *ent.Tx, ref *schematype.DynamicRoutingRef) (*ent.RoutingAlgorithm, string, error) {
		if ref == nil || ref.AlgorithmID == "" {
			if feature == FeatureNone {
				return nil, "", errs.PreconditionFailed("Algorithm is already inactive")
			}
			var data any = SuccessBasedConfig{}.withDefaults()
			if typ == TypeElimination {
				data = EliminationConfig{}.withDefaults()
			}
			a, err := createDynamic(ctx, tx, profileID, typ, dynamicName(typ), "", data)
			return a, feature, err
		}
		if feature == FeatureNone && ref.EnabledFeature == FeatureNone {
			return nil, "", errs.PreconditionFailed("Algorithm is already inactive")
		}
		a, err := tx.RoutingAlgorithm.Get(ctx, ref.AlgorithmID)
		if err != nil {
			return nil, "", errs.Internal(err)
		}
		return a, feature, nil
	})
}

// CreateSuccessBased stores a success-rate configuration for the profile
// and makes it the profile's, enabled with feature.
func (s *Service) CreateSuccessBased(ctx context.Context, profileID, feature string, cfg SuccessBasedConfig) (*ent.RoutingAlgorithm, error) {
	if err := validFeature(feature); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return s.createDynamicFor(ctx, profileID, TypeSuccessRate, feature, cfg)
}

// CreateElimination stores an elimination configuration for the profile
// and makes it the profile's, enabled with feature.
func (s *Service) CreateElimination(ctx context.Context, profileID, feature string, cfg EliminationConfig) (*ent.RoutingAlgorithm, error) {
	if err := validFeature(feature); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return s.createDynamicFor(ctx, profileID, TypeElimination, feature, cfg)
}

func (s *Service) createDynamicFor(ctx context.Context, profileID, typ, feature string, data any) (*ent.RoutingAlgorithm, error) {
	return s.setDynamic(ctx, profileID, typ, func(tx *ent.Tx, _ *schematype.DynamicRoutingRef) (*ent.RoutingAlgorithm, string, error) {
		a, err := createDynamic(ctx, tx, profileID, typ, dynamicName(typ), "", data)
		return a, feature, err
	})
}

// UpdateSuccessBased changes the success-rate configuration algorithmID of
// the profile by what patch gives. As in Hyperswitch, the changed
// configuration is a new one (a new id), which takes the old one's place
// on the profile when the old one was the profile's.
func (s *Service) UpdateSuccessBased(ctx context.Context, profileID, algorithmID string, patch SuccessBasedConfig) (*ent.RoutingAlgorithm, error) {
	return s.setDynamic(ctx, profileID, TypeSuccessRate, func(tx *ent.Tx, ref *schematype.DynamicRoutingRef) (*ent.RoutingAlgorithm, string, error) {
		old, err := tx.RoutingAlgorithm.Query().Where(routingalgorithm.ID(algorithmID), routingalgorithm.ProfileID(profileID),
			routingalgorithm.KindEQ(routingalgorithm.KindDynamic)).Only(ctx)
		if ent.IsNotFound(err) || (err == nil && old.Algorithm.Type != TypeSuccessRate) {
			return nil, "", errConfigNotFound()
		}
		if err != nil {
			return nil, "", errs.Internal(err)
		}
		var cfg SuccessBasedConfig
		if err := json.Unmarshal(old.Algorithm.Data, &cfg); err != nil {
			return nil, "", errs.Internal(err)
		}
		cfg = cfg.withDefaults()
		cfg.Config.merge(patch.Config)
		if patch.Params != nil {
			cfg.Params = patch.Params
		}
		if patch.DecisionEngineConfigs != nil {
			cfg.DecisionEngineConfigs = patch.DecisionEngineConfigs
		}
		if err := cfg.validate(); err != nil {
			return nil, "", err
		}
		a, err := createDynamic(ctx, tx, profileID, TypeSuccessRate, old.Name, old.Description, cfg)
		if err != nil {
			return nil, "", err
		}
		if ref == nil || ref.AlgorithmID != algorithmID {
			return a, "", nil // another configuration is the profile's: it stays
		}
		return a, ref.EnabledFeature, nil
	})
}

func createDynamic(ctx context.Context, tx *ent.Tx, profileID, typ, name, description string, data any) (*ent.RoutingAlgorithm, error) {
	raw, err := json.Marshal(data)
	if err != nil {
		return nil, errs.Internal(err)
	}
	prof, err := tx.Profile.Get(ctx, profileID)
	if err != nil {
		return nil, errs.Internal(err)
	}
	a, err := tx.RoutingAlgorithm.Create().SetMerchantID(prof.MerchantID).SetProfileID(profileID).SetName(name).
		SetDescription(description).SetKind(routingalgorithm.KindDynamic).
		SetAlgorithm(&schematype.RoutingAlgorithm{Type: typ, Data: raw}).Save(ctx)
	return a, txn.ErrorOrNil(err, "routing algorithm")
}

// setDynamic runs change on the profile's reference of type typ, with the
// profile locked; change answers the configuration and the feature it is
// now the profile's with ("" leaves the profile as it was). After the
// commit every process is told, and the store told what to keep.
func (s *Service) setDynamic(ctx context.Context, profileID, typ string,
	change func(tx *ent.Tx, ref *schematype.DynamicRoutingRef) (*ent.RoutingAlgorithm, string, error)) (*ent.RoutingAlgorithm, error) {
	var (
		out  *ent.RoutingAlgorithm
		keep dynamicRouting
	)
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		prof, err := s.lockProfile(ctx, tx, &profileID)
		if err != nil {
			return err
		}
		d := schematype.DynamicRouting{}
		if prof.DynamicRouting != nil {
			d = *prof.DynamicRouting
		}
		ref := refOf(&d, typ)
		a, feature, err := change(tx, *ref)
		if err != nil {
			return err
		}
		out = a
		if feature != "" {
			*ref = &schematype.DynamicRoutingRef{AlgorithmID: a.ID, EnabledFeature: feature}
			if err := tx.Profile.UpdateOne(prof).SetDynamicRouting(&d).Exec(ctx); err != nil {
				return errs.Internal(err)
			}
		}
		keep, err = loadDynamic(ctx, tx.Client(), &d)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.changed(ctx, profileID)
	s.keepOutcomes(ctx, profileID, keep)
	return out, nil
}

// dynamicRouting is what decisions and outcomes need of a profile's
// dynamic configurations: nil for one not enabled (feature none).
type dynamicRouting struct {
	successRate *successRateRule
	elimination *eliminationRule
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

func (d dynamicRouting) records() bool { return d.successRate != nil || d.elimination != nil }

func (d dynamicRouting) selects() bool {
	return (d.successRate != nil && d.successRate.selects) || (d.elimination != nil && d.elimination.selects)
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

// VersionedOutcomes is an outcome store that also reads a profile's
// routing version with the windows, in the same round trip (the keys
// share the profile's hash tag).
type VersionedOutcomes interface {
	VersionAndLatest(ctx context.Context, profileID string, accountIDs []string, n int) (int64, [][]string, error)
}

// prefetched is the cached routing of a profile with dynamic selection on
// and the windows of all of accounts, read with the version in one round
// trip; ok is false when the cache cannot be trusted (the version moved,
// or the store did not answer), and the decision takes the usual path.
func (s *Service) prefetched(ctx context.Context, profileID string, accounts []*ent.MerchantConnectorAccount) (profileRouting, map[string][]outcome, bool) {
	vo, ok := s.outcomes.(VersionedOutcomes)
	if !ok || s.versions == nil || len(accounts) < 2 {
		return profileRouting{}, nil, false
	}
	s.cache.mu.Lock()
	e, ok := s.cache.entries[profileID]
	s.cache.mu.Unlock()
	if !ok || !e.dynamic.selects() || s.db.Now().Sub(e.loadedAt) >= cacheFor {
		return profileRouting{}, nil, false
	}
	ids := make([]string, len(accounts))
	for i, a := range accounts {
		ids[i] = a.ID
	}
	version, raw, err := vo.VersionAndLatest(ctx, profileID, ids, e.dynamic.window())
	if err != nil || version != e.version || len(raw) != len(ids) {
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
