package gsm

import (
	"context"

	"switchyard/ent"
	"switchyard/ent/gsmrule"
	"switchyard/payments/errs"
)

// Failure is a connector's definite refusal of an authorization: its
// error code and message, and the issuer's reason and decline code when
// it gave them.
type Failure struct {
	Connector   string
	Code        string
	Message     string
	Reason      string
	DeclineCode string
}

// Verdict is whether a failed authorization is tried again on the next
// connector of its route, and why.
type Verdict struct {
	Retry bool
	// Why names what decided: "hard_decline", "gsm_rule", "unreached"
	// (the processor never got the request) or "no_rule".
	Why string
	// Rule is the merchant's rule for the failure, if any: its unified
	// code and message go on the attempt whether or not it retries.
	Rule *ent.GsmRule
}

// hardDeclines are issuer answers that card-network rules forbid
// reattempting, or that any processor would give again for the same card:
// no rule retries them.
var hardDeclines = map[string]bool{
	"do_not_honor": true, "do_not_honour": true, "generic_decline": true,
	"lost_card": true, "stolen_card": true, "pickup_card": true, "pick_up_card": true,
	"fraudulent": true, "restricted_card": true, "revocation_of_authorization": true,
	"security_violation": true, "invalid_account": true, "card_not_supported": true,
	"expired_card": true, "incorrect_cvc": true, "invalid_cvc": true, "incorrect_number": true,
	"invalid_number": true, "invalid_card_data": true, "authentication_failed": true,
}

// unreached are failures where the request never reached the processor,
// so nothing can have been authorized and another connector is safe
// without a rule: the sandbox's outage is one.
var unreached = map[string]bool{"service_unavailable": true}

// IsHardDecline reports whether f is a decline no retry may follow.
func IsHardDecline(f Failure) bool {
	return hardDeclines[f.Code] || hardDeclines[f.Reason] || hardDeclines[f.DeclineCode]
}

// Judge decides whether f, a failed authorization, is retried: never a
// hard decline; else as the merchant's rule for it says (retry, or not
// for do_default); without a rule, only when the processor
// was never reached. It reads the rule through tx (one indexed lookup:
// a failed attempt is off the fast path).
func (s *Service) Judge(ctx context.Context, tx *ent.Tx, f Failure) (Verdict, error) {
	return s.JudgeFlow(ctx, tx, FlowAuthorize, f)
}

// JudgeFlow is Judge for a failure of another flow (FlowPayout: a
// payout's creation at its processor), by the merchant's rules of that
// flow.
func (s *Service) JudgeFlow(ctx context.Context, tx *ent.Tx, flow string, f Failure) (Verdict, error) {
	key := Key{Connector: f.Connector, Flow: flow, SubFlow: DefaultSubFlow, Code: f.Code, Message: f.Message}
	rule, err := tx.GsmRule.Query().Where(gsmrule.LookupKey(key.lookupKey())).Only(ctx)
	switch {
	case ent.IsNotFound(err):
		rule = nil
	case err != nil:
		return Verdict{}, errs.Internal(err)
	}
	switch {
	case IsHardDecline(f):
		return Verdict{Why: "hard_decline", Rule: rule}, nil
	case rule != nil:
		return Verdict{Retry: rule.Decision == gsmrule.DecisionRetry, Why: "gsm_rule", Rule: rule}, nil
	case unreached[f.Code]:
		return Verdict{Retry: true, Why: "unreached"}, nil
	}
	return Verdict{Why: "no_rule"}, nil
}
