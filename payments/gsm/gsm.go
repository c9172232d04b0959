// Package gsm owns a merchant's Global Status Mapping rules (Hyperswitch's
// GSM): what a connector's error means, keyed by connector, flow,
// sub-flow, code and message, and above all whether a payment that error
// failed may be retried on the next connector of its route. It also holds
// the two lists no rule can override: the hard declines, which are never
// retried, and the failures that are retried without a rule because the
// payment never reached the processor.
//
// Hyperswitch keeps one global table behind its admin key; Switchyard
// keeps each merchant's rules apart, so that one merchant's rules never
// move another's payments.
//
// It must not import another domain package.
package gsm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"

	"switchyard/ent"
	"switchyard/ent/gsmrule"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// Service runs the GSM operations.
type Service struct {
	db *txn.DB
	// knownConnector reports whether a name is one of Hyperswitch's
	// connectors (the connector context knows; this one must not import it).
	knownConnector func(string) bool
}

// New returns the GSM service over db.
func New(db *txn.DB, knownConnector func(string) bool) *Service {
	return &Service{db: db, knownConnector: knownConnector}
}

// The flow and sub-flow under which Hyperswitch looks up the rule of a
// failed authorization, and so the ones a retry rule must name.
const (
	FlowAuthorize  = "Authorize"
	FlowPayout     = "payout_flow"
	DefaultSubFlow = "sub_flow"
)

// Decisions a rule can take.
const (
	DecisionRetry     = "retry"
	DecisionDoDefault = "do_default"
)

// Key names a rule: a connector's error in a flow.
type Key struct {
	Connector, Flow, SubFlow, Code, Message string
}

// lookupKey is the hash the rule is stored and found under.
func (k Key) lookupKey() string {
	h := sha256.New()
	for _, part := range []string{k.Connector, k.Flow, k.SubFlow, k.Code, k.Message} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// RuleInput creates or updates a rule (GsmCreateRequest, GsmUpdateRequest).
// The retry members may come at the top level (deprecated in Hyperswitch)
// or in FeatureData; FeatureData wins.
type RuleInput struct {
	Key
	Status                   *string
	RouterError              *string
	Decision                 *string
	StepUpPossible           *bool
	ClearPanPossible         *bool
	AlternateNetworkPossible *bool
	UnifiedCode              *string
	UnifiedMessage           *string
	ErrorCategory            *string
	Feature                  *string
	StandardisedCode         *string
	Description              *string
	UserGuidanceMessage      *string
}

var (
	// decisions a request may give: Hyperswitch's v1 GsmDecision. Its older
	// requeue is not in that document, and a rule holding it would answer a
	// GsmResponse outside it, so it is refused (it never retried anyway).
	decisions = []string{DecisionRetry, DecisionDoDefault}
	// standardisedCodes are Hyperswitch's StandardisedCode values.
	standardisedCodes = []string{
		"account_closed_or_invalid", "authentication_failed", "authentication_required",
		"authorization_missing_or_revoked", "card_lost_or_stolen", "card_not_supported_restricted",
		"cfg_pm_not_enabled_or_misconfigured", "compliance_or_sanctions_restriction", "configuration_issue",
		"credit_limit_exceeded", "currency_or_corridor_not_enabled", "do_not_honor", "downstream_technical_issue",
		"duplicate_request", "generic_unknown_error", "incorrect_authentication_code", "insufficient_funds",
		"integ_cryptographic_issue", "integration_issue", "invalid_card_number", "invalid_credentials",
		"invalid_cvv", "invalid_expiry_date", "invalid_state", "issuer_unavailable", "merchant_inactive",
		"missing_or_invalid_param", "operation_not_allowed", "payment_cancelled_by_user", "payment_method_issue",
		"payment_session_timeout", "pm_address_mismatch", "psp_acquirer_error", "psp_fraud_engine_decline",
		"rate_limit", "stored_credential_or_mit_not_enabled", "subscription_plan_inactive", "suspected_fraud",
		"three_ds_authentication_service_issue", "three_ds_configuration_issue", "three_ds_data_or_protocol_invalid",
		"transaction_not_permitted", "transaction_timed_out", "velocity_limit_exceeded",
		"wallet_or_token_config_issue",
	}
	errorCategories = []string{"frm_decline", "processor_downtime", "processor_decline_unauthorized",
		"issue_with_payment_method", "processor_decline_incorrect_data", "hard_decline", "soft_decline"}
)

// checkKey refuses a key that names no rule Hyperswitch could store.
func (s *Service) checkKey(k Key) error {
	if k.Connector == "" {
		return errs.MissingField("connector")
	}
	for _, f := range []struct {
		name, value string
		max         int
	}{{"connector", k.Connector, 64}, {"flow", k.Flow, 64}, {"sub_flow", k.SubFlow, 64}, {"code", k.Code, 255},
		{"message", k.Message, 65535}} {
		if validate.Chars(f.value) > f.max {
			return errs.InvalidValue(f.name, "must be at most %d characters", f.max)
		}
	}
	if s.knownConnector != nil && !s.knownConnector(k.Connector) {
		return errs.InvalidValue("connector", "%q is not a connector Hyperswitch knows", k.Connector)
	}
	return nil
}

func (in *RuleInput) check() error {
	if err := validate.OneOf("decision", in.Decision, decisions...); err != nil {
		return err
	}
	if err := validate.OneOf("error_category", in.ErrorCategory, errorCategories...); err != nil {
		return err
	}
	if err := validate.OneOf("standardised_code", in.StandardisedCode, standardisedCodes...); err != nil {
		return err
	}
	if err := validate.OneOf("feature", in.Feature, "retry"); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		v    *string
		max  int
	}{{"status", in.Status, 64}, {"router_error", in.RouterError, 255}, {"unified_code", in.UnifiedCode, 255},
		{"unified_message", in.UnifiedMessage, 1024}} {
		if f.v != nil && validate.Chars(*f.v) > f.max {
			return errs.InvalidValue(f.name, "must be at most %d characters", f.max)
		}
	}
	return nil
}

// errRuleNotFound and errRuleExists are the answers for a key without a
// rule and a key stored twice (Hyperswitch's GenericNotFoundError and
// GenericDuplicateError, with its words).
func errRuleNotFound() *errs.Error {
	return errs.ErrGSMRuleNotFound.New()
}

func errRuleExists() *errs.Error {
	return errs.ErrGSMRuleExists.New()
}

// Create stores a rule; one with the same key already stored is refused.
func (s *Service) Create(ctx context.Context, in RuleInput) (*ent.GsmRule, error) {
	if _, err := txn.Merchant(ctx); err != nil {
		return nil, err
	}
	if err := s.checkKey(in.Key); err != nil {
		return nil, err
	}
	switch {
	case in.Status == nil:
		return nil, errs.MissingField("status")
	case in.Decision == nil:
		return nil, errs.MissingField("decision")
	}
	if err := in.check(); err != nil {
		return nil, err
	}
	// A transaction of its own, so that a dashboard user's audit entry is
	// written with the rule.
	var out *ent.GsmRule
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		var err error
		out, err = createRule(tx.Client(), in).Save(ctx)
		if ent.IsConstraintError(err) {
			return errRuleExists()
		}
		return txn.ErrorOrNil(err, "GSM rule")
	})
	return out, err
}

// createRule is the insert of the rule in describes.
func createRule(c *ent.Client, in RuleInput) *ent.GsmRuleCreate {
	create := c.GsmRule.Create().
		SetConnector(in.Connector).SetFlow(in.Flow).SetSubFlow(in.SubFlow).SetCode(in.Code).SetMessage(in.Message).
		SetLookupKey(in.lookupKey())
	setGiven(create.Mutation(), in)
	return create
}

// setGiven sets the members in gives (not its key) on a rule's insert or
// update; a nil member is left as it is. A create has checked that status
// and decision are given.
func setGiven(m *ent.GsmRuleMutation, in RuleInput) {
	set(in.Status, m.SetStatus)
	if in.Decision != nil {
		m.SetDecision(gsmrule.Decision(*in.Decision))
	}
	set(in.RouterError, m.SetRouterError)
	set(in.StepUpPossible, m.SetStepUpPossible)
	set(in.ClearPanPossible, m.SetClearPanPossible)
	set(in.AlternateNetworkPossible, m.SetAlternateNetworkPossible)
	set(in.UnifiedCode, m.SetUnifiedCode)
	set(in.UnifiedMessage, m.SetUnifiedMessage)
	set(in.StandardisedCode, m.SetStandardisedCode)
	set(in.Description, m.SetDescription)
	set(in.UserGuidanceMessage, m.SetUserGuidanceMessage)
	if in.ErrorCategory != nil {
		m.SetErrorCategory(gsmrule.ErrorCategory(*in.ErrorCategory))
	}
}

func set[T any](v *T, setter func(T)) {
	if v != nil {
		setter(*v)
	}
}

// Get is the merchant's rule for k.
func (s *Service) Get(ctx context.Context, k Key) (*ent.GsmRule, error) {
	if _, err := txn.Merchant(ctx); err != nil {
		return nil, err
	}
	if err := s.checkKey(k); err != nil {
		return nil, err
	}
	return s.find(ctx, s.db.Client, k)
}

func (s *Service) find(ctx context.Context, c *ent.Client, k Key) (*ent.GsmRule, error) {
	out, err := c.GsmRule.Query().Where(gsmrule.LookupKey(k.lookupKey())).Only(ctx)
	if err != nil {
		return nil, txn.ReadError(err, errRuleNotFound)
	}
	return out, nil
}

// Update changes the members given of the rule for in.Key.
func (s *Service) Update(ctx context.Context, in RuleInput) (*ent.GsmRule, error) {
	if _, err := txn.Merchant(ctx); err != nil {
		return nil, err
	}
	if err := s.checkKey(in.Key); err != nil {
		return nil, err
	}
	return s.update(ctx, in, func(c *ent.Client) (*ent.GsmRule, error) { return s.find(ctx, c, in.Key) })
}

// ByID is the merchant's rule with id (another merchant's is not found).
func (s *Service) ByID(ctx context.Context, id string) (*ent.GsmRule, error) {
	if _, err := txn.Merchant(ctx); err != nil {
		return nil, err
	}
	return byID(ctx, s.db.Client, id)
}

func byID(ctx context.Context, c *ent.Client, id string) (*ent.GsmRule, error) {
	out, err := c.GsmRule.Get(ctx, id)
	if err != nil {
		return nil, txn.ReadError(err, errRuleNotFound)
	}
	return out, nil
}

// UpdateByID is Update for the rule with id, as the dashboard names it:
// in.Key is not read (a rule's key never changes).
func (s *Service) UpdateByID(ctx context.Context, id string, in RuleInput) (*ent.GsmRule, error) {
	if _, err := txn.Merchant(ctx); err != nil {
		return nil, err
	}
	return s.update(ctx, in, func(c *ent.Client) (*ent.GsmRule, error) { return byID(ctx, c, id) })
}

// update changes the members given of the rule locate finds.
func (s *Service) update(ctx context.Context, in RuleInput, locate func(*ent.Client) (*ent.GsmRule, error)) (*ent.GsmRule, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	var out *ent.GsmRule
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		cur, err := locate(tx.Client())
		if err != nil {
			return err
		}
		upd := cur.Update()
		setGiven(upd.Mutation(), in)
		out, err = upd.Save(ctx)
		return txn.ErrorOrNil(err, "GSM rule")
	})
	return out, err
}

// Delete removes the rule for k.
func (s *Service) Delete(ctx context.Context, k Key) error {
	if _, err := txn.Merchant(ctx); err != nil {
		return err
	}
	if err := s.checkKey(k); err != nil {
		return err
	}
	_, err := s.remove(ctx, func(c *ent.Client) (*ent.GsmRule, error) { return s.find(ctx, c, k) })
	return err
}

// DeleteByID removes the rule with id and answers it as it was.
func (s *Service) DeleteByID(ctx context.Context, id string) (*ent.GsmRule, error) {
	if _, err := txn.Merchant(ctx); err != nil {
		return nil, err
	}
	return s.remove(ctx, func(c *ent.Client) (*ent.GsmRule, error) { return byID(ctx, c, id) })
}

// remove deletes the rule locate finds, in a transaction of its own (a
// dashboard user's audit entry is written with it).
func (s *Service) remove(ctx context.Context, locate func(*ent.Client) (*ent.GsmRule, error)) (*ent.GsmRule, error) {
	var out *ent.GsmRule
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		cur, err := locate(tx.Client())
		if err != nil {
			return err
		}
		if err := tx.GsmRule.DeleteOne(cur).Exec(ctx); ent.IsNotFound(err) {
			return errRuleNotFound() // deleted meanwhile
		} else if err != nil {
			return errs.Internal(err)
		}
		out = cur
		return nil
	})
	return out, err
}
