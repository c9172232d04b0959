// Package routing owns how a payment's connector account, or a payout's
// payout processor, is chosen: a profile's routing configurations
// (Hyperswitch's static algorithms: single, priority, volume split,
// advanced; transaction_type payment or payout), which one of each type
// is active, and the profile's default fallback order. The payments and
// payouts contexts ask it for candidates in order; it never calls a
// connector itself. It also owns the rule language those configurations
// share with a 3-D Secure decision rule (three_ds_decision_rule,
// transaction_type three_ds_authentication; threeds.go), which it stores
// and reads but never activates: payments/threedsdecision executes it.
//
// It must not import another domain package.
package routing

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"switchyard/ent"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/ent/profile"
	"switchyard/ent/routingalgorithm"
	"switchyard/ent/schema/schematype"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// Service runs the routing operations.
type Service struct {
	db       *txn.DB
	cache    profileCache
	outcomes Outcomes
}

// New returns the routing service over db. A profile's routing is cached
// while the merchant's configuration version has not moved (every routing
// change is a change to the profile, which moves it; txn.ConfigVersion):
// a payment reads that version once, for its profile and its routing
// alike. Without the configuration cache every decision reads the
// profile's routing from the database.
func New(db *txn.DB) *Service {
	return &Service{db: db, cache: profileCache{entries: map[string]profileRouting{}}}
}

// Kinds of routing algorithm Switchyard runs.
const (
	KindSingle      = "single"
	KindPriority    = "priority"
	KindVolumeSplit = "volume_split"
	KindAdvanced    = "advanced"
)

// ConfigInput creates a routing configuration (RoutingConfigRequest).
type ConfigInput struct {
	Name            *string
	Description     *string
	Algorithm       *schematype.RoutingAlgorithm
	ProfileID       *string
	TransactionType *string
}

// VolumeSplit is one share of a volume_split algorithm.
type VolumeSplit struct {
	Connector schematype.RoutableConnector `json:"connector"`
	Split     int                          `json:"split"`
}

// Algorithm is a validated algorithm: the connectors it may choose, in
// its order (priority), or with their shares (volume split), or its rules
// (advanced); and every connector it names, with where.
type Algorithm struct {
	Kind        string
	Priority    []schematype.RoutableConnector
	VolumeSplit []VolumeSplit
	program     *program
	choices     []choiceAt
}

// parseAlgorithm reads a stored or requested algorithm by its kind.
func parseAlgorithm(a *schematype.RoutingAlgorithm) (*Algorithm, error) {
	out := &Algorithm{Kind: a.Type}
	data := validate.Path("algorithm.data")
	bad := func(format string, args ...any) error {
		return errs.InvalidValue(data.String(), format, args...)
	}
	if len(a.Data) == 0 || string(a.Data) == "null" {
		return nil, errs.MissingField("algorithm.data")
	}
	switch a.Type {
	case KindSingle:
		var c schematype.RoutableConnector
		if err := json.Unmarshal(a.Data, &c); err != nil {
			return nil, bad("a single algorithm's data is one connector choice {connector, merchant_connector_id}")
		}
		out.Priority = []schematype.RoutableConnector{c}
		out.choices = []choiceAt{{data, c}}
	case KindPriority, KindVolumeSplit:
		sel, err := parseSelection("algorithm", &selectionWire{Type: a.Type, Data: a.Data}, &out.choices)
		if err != nil {
			return nil, err
		}
		out.Priority, out.VolumeSplit = sel.priority, sel.split
	case KindAdvanced:
		prog, choices, err := parseProgram(a.Data)
		if err != nil {
			return nil, err
		}
		out.program, out.choices = prog, choices
	case KindThreeDSDecisionRule:
		if _, err := parseThreeDSRule(a.Data); err != nil {
			return nil, err
		}
	case "":
		return nil, errs.MissingField("algorithm.type")
	default:
		return nil, errs.InvalidValue("algorithm.type", "must be single, priority, volume_split, advanced or three_ds_decision_rule, got %q", a.Type)
	}
	for _, c := range out.choices {
		if c.choice.Connector == "" {
			return nil, errs.MissingField(c.path.Key("connector").String())
		}
	}
	return out, nil
}

// CreateConfig stores a routing configuration for the profile named (else
// the merchant's default), after checking that every connector it names
// is an account of that profile. It is not active until activated.
func (s *Service) CreateConfig(ctx context.Context, in ConfigInput) (*ent.RoutingAlgorithm, error) {
	merchantID, err := txn.Merchant(ctx)
	if err != nil {
		return nil, err
	}
	if in.Name == nil || *in.Name == "" {
		return nil, errs.MissingField("name")
	}
	if validate.Chars(*in.Name) > 64 {
		return nil, errs.InvalidValue("name", "must be at most 64 characters")
	}
	if in.Description != nil && validate.Chars(*in.Description) > 255 {
		return nil, errs.InvalidValue("description", "must be at most 255 characters")
	}
	if in.Algorithm == nil {
		return nil, errs.MissingField("algorithm")
	}
	forType, err := transactionType(in.TransactionType)
	if err != nil {
		return nil, err
	}
	algo, err := parseAlgorithm(in.Algorithm)
	if err != nil {
		return nil, err
	}
	if forType, err = algorithmFor(algo.Kind, forType, in.TransactionType != nil); err != nil {
		return nil, err
	}
	prof, accounts, err := s.profileWithAccountsFor(ctx, in.ProfileID, forType)
	if err != nil {
		return nil, err
	}
	for _, c := range algo.choices {
		if resolve(c.choice, accounts) == nil {
			return nil, errs.InvalidValue(c.path.String(),
				"%s is not an active %s of profile %s", describe(c.choice), accountKind(forType), prof.ID)
		}
	}
	var out *ent.RoutingAlgorithm
	// A transaction of its own, so that a dashboard user's audit entry is
	// written with the configuration.
	err = s.db.InTx(ctx, func(tx *ent.Tx) error {
		create := tx.RoutingAlgorithm.Create().SetMerchantID(merchantID).SetProfileID(prof.ID).
			SetName(*in.Name).SetKind(routingalgorithm.Kind(algo.Kind)).SetAlgorithm(in.Algorithm).SetTransactionType(forType)
		if in.Description != nil {
			create.SetDescription(*in.Description)
		}
		var err error
		out, err = create.Save(ctx)
		return txn.ErrorOrNil(err, "routing configuration")
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func describe(c schematype.RoutableConnector) string {
	if c.MerchantConnectorID != nil {
		return fmt.Sprintf("%s (%s)", c.Connector, *c.MerchantConnectorID)
	}
	return c.Connector
}

// profileWithAccounts is the profile named (else the caller's or the
// default) and its active payment processors.
func (s *Service) profileWithAccounts(ctx context.Context, named *string) (*ent.Profile, []*ent.MerchantConnectorAccount, error) {
	prof, err := txn.Profile(ctx, s.db.Client, named)
	if err != nil {
		return nil, nil, err
	}
	accounts, err := profileAccounts(ctx, s.db.Client, prof.ID)
	return prof, accounts, err
}

// profileAccounts are the profile's active payment processors, oldest
// first: what routing may choose from.
func profileAccounts(ctx context.Context, db *ent.Client, profileID string) ([]*ent.MerchantConnectorAccount, error) {
	all, err := db.MerchantConnectorAccount.Query().Where(
		merchantconnectoraccount.ProfileID(profileID),
		merchantconnectoraccount.Disabled(false),
		merchantconnectoraccount.StatusEQ(merchantconnectoraccount.StatusActive),
		merchantconnectoraccount.ConnectorTypeEQ(merchantconnectoraccount.ConnectorTypePaymentProcessor),
	).Order(ent.Asc(merchantconnectoraccount.FieldCreatedAt), ent.Asc(merchantconnectoraccount.FieldID)).All(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	return all, nil
}

// resolve is the account a choice names among accounts: by id when it
// gives one (and the name must match), else the first of that connector.
func resolve(c schematype.RoutableConnector, accounts []*ent.MerchantConnectorAccount) *ent.MerchantConnectorAccount {
	for _, a := range accounts {
		if a.ConnectorName != c.Connector {
			continue
		}
		if c.MerchantConnectorID == nil || *c.MerchantConnectorID == a.ID {
			return a
		}
	}
	return nil
}

// ListConfigs are the merchant's configurations (of one profile, and of
// one transaction type, when named), newest first, and the ids of the
// active ones.
func (s *Service) ListConfigs(ctx context.Context, profileID, forType *string, limit, offset int) ([]*ent.RoutingAlgorithm, map[string]bool, error) {
	q := s.db.Client.RoutingAlgorithm.Query()
	if profileID != nil {
		q = q.Where(routingalgorithm.ProfileID(*profileID))
	}
	if forType != nil {
		t, err := transactionType(forType)
		if err != nil {
			return nil, nil, err
		}
		q = q.Where(routingalgorithm.TransactionTypeEQ(t))
	}
	rows, err := q.Order(ent.Desc(routingalgorithm.FieldCreatedAt), ent.Desc(routingalgorithm.FieldID)).
		Limit(limit).Offset(offset).All(ctx)
	if err != nil {
		return nil, nil, errs.Internal(err)
	}
	active, err := s.ActiveIDs(ctx)
	return rows, active, err
}

// ActiveIDs are the ids of the merchant's active configurations (one per
// profile and transaction type at most).
func (s *Service) ActiveIDs(ctx context.Context) (map[string]bool, error) {
	ids, err := s.activeIDs(ctx, s.db.Client.Profile.Query())
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out, nil
}

// activeIDs are the active payment and payout configurations of the
// profiles q finds.
func (s *Service) activeIDs(ctx context.Context, q *ent.ProfileQuery) ([]string, error) {
	profiles, err := q.Where(profile.Or(profile.RoutingAlgorithmIDNotNil(), profile.PayoutRoutingAlgorithmIDNotNil())).
		Select(profile.FieldRoutingAlgorithmID, profile.FieldPayoutRoutingAlgorithmID).All(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	var ids []string
	for _, p := range profiles {
		for _, id := range []*string{p.RoutingAlgorithmID, p.PayoutRoutingAlgorithmID} {
			if id != nil {
				ids = append(ids, *id)
			}
		}
	}
	return ids, nil
}

func errConfigNotFound() *errs.Error { return errs.NotFound("Routing algorithm") }

// GetConfig is one of the merchant's configurations.
func (s *Service) GetConfig(ctx context.Context, id string) (*ent.RoutingAlgorithm, error) {
	out, err := s.db.Client.RoutingAlgorithm.Query().Where(routingalgorithm.ID(id)).Only(ctx)
	if err != nil {
		return nil, txn.ReadError(err, errConfigNotFound)
	}
	return out, nil
}

// Activate makes a configuration its profile's active one, in place of
// the one before. Activating the active one is refused, as in Hyperswitch.
func (s *Service) Activate(ctx context.Context, id string) (*ent.RoutingAlgorithm, error) {
	var out *ent.RoutingAlgorithm
	err := s.changeProfile(ctx, func(tx *ent.Tx) (string, error) {
		var err error
		out, err = tx.RoutingAlgorithm.Query().Where(routingalgorithm.ID(id)).Only(ctx)
		if err != nil {
			return "", txn.ReadError(err, errConfigNotFound)
		}
		if out.Kind == routingalgorithm.KindDynamic {
			return "", errs.InvalidValue("routing_algorithm_id", "%s is a dynamic routing configuration: it is enabled with its profile's dynamic_routing toggle", id)
		}
		if out.TransactionType == routingalgorithm.TransactionTypeThreeDsAuthentication {
			// It decides 3-D Secure, not connectors (Hyperswitch's refusal).
			return "", errs.PreconditionFailed("Cannot use three_ds_authentication's routing algorithm for payment operation")
		}
		prof, err := txn.ForUpdate(s.db, tx.Profile.Query().Where(profile.ID(out.ProfileID))).Only(ctx)
		if err != nil {
			return "", errs.Internal(err)
		}
		if active := activeFor(prof, out.TransactionType); active != nil && *active == id {
			return "", errs.PreconditionFailed("Algorithm is already active")
		}
		if err := setActive(tx.Profile.UpdateOne(prof), out.TransactionType, &id).Exec(ctx); err != nil {
			return "", errs.Internal(err)
		}
		return prof.ID, nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Deactivate leaves the profile (named, else the caller's or the default)
// routing its payments by its fallback order; it answers the configuration
// that was active. With none active it is refused.
func (s *Service) Deactivate(ctx context.Context, profileID *string) (*ent.RoutingAlgorithm, error) {
	return s.DeactivateFor(ctx, profileID, nil)
}

// DeactivateFor is Deactivate for the transaction type given (payment
// when nil): a payout one leaves the profile's payouts to their fallback.
func (s *Service) DeactivateFor(ctx context.Context, profileID, forType *string) (*ent.RoutingAlgorithm, error) {
	t, err := transactionType(forType)
	if err != nil {
		return nil, err
	}
	var out *ent.RoutingAlgorithm
	err = s.changeProfile(ctx, func(tx *ent.Tx) (string, error) {
		prof, err := s.lockProfile(ctx, tx, profileID)
		if err != nil {
			return "", err
		}
		active := activeFor(prof, t)
		if active == nil {
			return "", errs.PreconditionFailed("Algorithm is already inactive")
		}
		if out, err = tx.RoutingAlgorithm.Get(ctx, *active); err != nil {
			return "", errs.Internal(err)
		}
		if err := setActive(tx.Profile.UpdateOne(prof), t, nil).Exec(ctx); err != nil {
			return "", errs.Internal(err)
		}
		return prof.ID, nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// lockProfile is the profile a request acts for, locked for the rest of
// tx: its routing changes one at a time.
func (s *Service) lockProfile(ctx context.Context, tx *ent.Tx, named *string) (*ent.Profile, error) {
	prof, err := txn.Profile(ctx, tx.Client(), named)
	if err != nil {
		return nil, err
	}
	if prof, err = txn.ForUpdate(s.db, tx.Profile.Query().Where(profile.ID(prof.ID))).Only(ctx); err != nil {
		return nil, errs.Internal(err)
	}
	return prof, nil
}

// ActiveConfigs are the active configurations (payment and payout) of the
// profile named, or of every profile of the merchant.
func (s *Service) ActiveConfigs(ctx context.Context, profileID *string) ([]*ent.RoutingAlgorithm, error) {
	q := s.db.Client.Profile.Query()
	if profileID != nil {
		if _, err := txn.Profile(ctx, s.db.Client, profileID); err != nil {
			return nil, err
		}
		q = q.Where(profile.ID(*profileID))
	}
	ids, err := s.activeIDs(ctx, q)
	if err != nil {
		return nil, err
	}
	out, err := s.db.Client.RoutingAlgorithm.Query().Where(routingalgorithm.IDIn(ids...)).
		Order(ent.Asc(routingalgorithm.FieldProfileID), ent.Asc(routingalgorithm.FieldTransactionType)).All(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	return out, nil
}

// Fallback is a profile's default fallback order.
type Fallback struct {
	ProfileID  string
	Connectors []schematype.RoutableConnector
}

// DefaultFallback is the fallback order of the profile named (else the
// caller's or the default): the order set, then the profile's other
// accounts, oldest first.
func (s *Service) DefaultFallback(ctx context.Context, profileID *string) (*Fallback, error) {
	prof, accounts, err := s.profileWithAccounts(ctx, profileID)
	if err != nil {
		return nil, err
	}
	out := &Fallback{ProfileID: prof.ID, Connectors: []schematype.RoutableConnector{}}
	for _, a := range orderAccounts(prof.DefaultFallback, accounts) {
		id := a.ID
		out.Connectors = append(out.Connectors, schematype.RoutableConnector{Connector: a.ConnectorName, MerchantConnectorID: &id})
	}
	return out, nil
}

// SetDefaultFallback sets the profile's fallback order: every choice must
// be an account of the profile, each once.
func (s *Service) SetDefaultFallback(ctx context.Context, profileID *string, order []schematype.RoutableConnector) (*Fallback, error) {
	err := s.changeProfile(ctx, func(tx *ent.Tx) (string, error) {
		prof, err := s.lockProfile(ctx, tx, profileID)
		if err != nil {
			return "", err
		}
		accounts, err := profileAccounts(ctx, tx.Client(), prof.ID)
		if err != nil {
			return "", err
		}
		seen := map[string]bool{}
		stored := make([]schematype.RoutableConnector, 0, len(order))
		for i, c := range order {
			a := resolve(c, accounts)
			if a == nil {
				return "", errs.InvalidValue(fmt.Sprintf("[%d]", i), "%s is not an active connector account of profile %s", describe(c), prof.ID)
			}
			if seen[a.ID] {
				return "", errs.InvalidValue(fmt.Sprintf("[%d]", i), "%s is listed twice", describe(c))
			}
			seen[a.ID] = true
			id := a.ID
			stored = append(stored, schematype.RoutableConnector{Connector: a.ConnectorName, MerchantConnectorID: &id})
		}
		if err := tx.Profile.UpdateOne(prof).SetDefaultFallback(stored).Exec(ctx); err != nil {
			return "", errs.Internal(err)
		}
		return prof.ID, nil
	})
	if err != nil {
		return nil, err
	}
	return s.DefaultFallback(ctx, profileID)
}

// orderAccounts puts accounts in the order of choices, then the rest in
// their own order.
func orderAccounts(choices []schematype.RoutableConnector, accounts []*ent.MerchantConnectorAccount) []*ent.MerchantConnectorAccount {
	out := make([]*ent.MerchantConnectorAccount, 0, len(accounts))
	for _, c := range choices {
		if a := resolve(c, accounts); a != nil && !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	for _, a := range accounts {
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}
