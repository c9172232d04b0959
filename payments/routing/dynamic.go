package routing

// Dynamic routing (Hyperswitch's success-rate based and elimination
// routing): a profile records each attempt's definitive outcome per
// connector account in a shared store (Redis), and, when enabled with
// dynamic_connector_selection, a decision reorders the candidates the
// static algorithm and the fallback chose by those outcomes.

import (
	"context"
	"encoding/json"
	"slices"
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

// The configurations (SuccessBasedConfig, EliminationConfig) are
// Hyperswitch's objects, generated from the contract into wire_gen.go.
//go:generate go run switchyard/internal/tools/wiregen -config wire.yaml

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
	setGiven(&b.MinAggregatesSize, patch.MinAggregatesSize)
	setGiven(&b.MaxAggregatesSize, patch.MaxAggregatesSize)
	setGiven(&b.DefaultSuccessRate, patch.DefaultSuccessRate)
	setGiven(&b.ExplorationPercent, patch.ExplorationPercent)
	setGiven(&b.SpecificityLevel, patch.SpecificityLevel)
	setGiven(&b.ShuffleOnTieDuringExploitation, patch.ShuffleOnTieDuringExploitation)
	if t := patch.CurrentBlockThreshold; t != nil {
		cur := *b.CurrentBlockThreshold
		setGiven(&cur.DurationInMins, t.DurationInMins)
		setGiven(&cur.MaxTotalCount, t.MaxTotalCount)
		b.CurrentBlockThreshold = &cur
	}
}

// setGiven sets *dst to v when v is given (nil keeps what *dst is).
func setGiven[T any](dst **T, v *T) {
	if v != nil {
		*dst = v
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
		setGiven(&d.EliminationAnalyserConfig.BucketSize, a.BucketSize)
		setGiven(&d.EliminationAnalyserConfig.BucketLeakIntervalInSecs, a.BucketLeakIntervalInSecs)
	}
	if e := c.DecisionEngineConfigs; e != nil {
		setGiven(&d.DecisionEngineConfigs.Threshold, e.Threshold)
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
	switch typ {
	case TypeSuccessRate:
		return &d.SuccessBased
	case TypeContract:
		return &d.Contract
	}
	return &d.Elimination
}

func dynamicName(typ string) string {
	switch typ {
	case TypeSuccessRate:
		return "Success rate based dynamic routing algorithm"
	case TypeContract:
		return "Contract based dynamic routing algorithm"
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
	err := s.changeProfile(ctx, func(tx *ent.Tx) (string, error) {
		prof, err := s.lockProfile(ctx, tx, &profileID)
		if err != nil {
			return "", err
		}
		d := schematype.DynamicRouting{}
		if prof.DynamicRouting != nil {
			d = *prof.DynamicRouting
		}
		ref := refOf(&d, typ)
		a, feature, err := change(tx, *ref)
		if err != nil {
			return "", err
		}
		out = a
		if feature != "" {
			*ref = &schematype.DynamicRoutingRef{AlgorithmID: a.ID, EnabledFeature: feature}
			if err := tx.Profile.UpdateOne(prof).SetDynamicRouting(&d).Exec(ctx); err != nil {
				return "", errs.Internal(err)
			}
		}
		keep, err = loadDynamic(ctx, tx.Client(), &d)
		return prof.ID, err
	})
	if err != nil {
		return nil, err
	}
	s.keepOutcomes(ctx, profileID, keep)
	return out, nil
}
