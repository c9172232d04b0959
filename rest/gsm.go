package rest

import (
	"cmp"
	"context"
	"net/http"

	"switchyard/ent"
	"switchyard/payments/errs"
	"switchyard/payments/gsm"
)

func (k *gsmKeyRequest) key() (gsm.Key, error) {
	for _, f := range []struct {
		name string
		v    *string
	}{{"connector", k.Connector}, {"flow", k.Flow}, {"sub_flow", k.SubFlow}, {"code", k.Code}, {"message", k.Message}} {
		if f.v == nil {
			return gsm.Key{}, errs.MissingField(f.name)
		}
	}
	return gsm.Key{Connector: *k.Connector, Flow: *k.Flow, SubFlow: *k.SubFlow, Code: *k.Code, Message: *k.Message}, nil
}

// input is the rule the request describes; feature_data.retry, where
// given, wins over the deprecated top-level members.
func (req *gsmRuleRequest) input() (gsm.RuleInput, error) {
	k, err := req.key()
	if err != nil {
		return gsm.RuleInput{}, err
	}
	in := gsm.RuleInput{Key: k, Status: req.Status, RouterError: req.RouterError, Decision: req.Decision,
		StepUpPossible: req.StepUpPossible, ClearPanPossible: req.ClearPanPossible, UnifiedCode: req.UnifiedCode,
		UnifiedMessage: req.UnifiedMessage, ErrorCategory: req.ErrorCategory, Feature: req.Feature,
		StandardisedCode: req.StandardisedCode, Description: req.Description, UserGuidanceMessage: req.UserGuidanceMessage}
	if fd := req.FeatureData; fd != nil && fd.Retry != nil {
		r := fd.Retry
		in.Decision = cmp.Or(r.Decision, in.Decision)
		in.StepUpPossible = cmp.Or(r.StepUpPossible, in.StepUpPossible)
		in.ClearPanPossible = cmp.Or(r.ClearPanPossible, in.ClearPanPossible)
		in.AlternateNetworkPossible = r.AlternateNetworkPossible
	}
	return in, nil
}

func gsmResponseOf(r *ent.GsmRule) gsmResponse {
	var category *string
	if r.ErrorCategory != nil {
		c := string(*r.ErrorCategory)
		category = &c
	}
	return gsmResponse{Connector: r.Connector, Flow: r.Flow, SubFlow: r.SubFlow, Code: r.Code, Message: r.Message,
		Status: r.Status, RouterError: r.RouterError, Decision: string(r.Decision), StepUpPossible: r.StepUpPossible,
		UnifiedCode: r.UnifiedCode, UnifiedMessage: r.UnifiedMessage, ErrorCategory: category,
		ClearPanPossible: r.ClearPanPossible, Feature: "retry",
		FeatureData: map[string]any{"retry": map[string]any{"step_up_possible": r.StepUpPossible,
			"clear_pan_possible": r.ClearPanPossible, "alternate_network_possible": r.AlternateNetworkPossible,
			"decision": string(r.Decision)}},
		StandardisedCode: r.StandardisedCode, Description: r.Description, UserGuidanceMessage: r.UserGuidanceMessage}
}

// registerGSM adds Hyperswitch's /gsm routes. Hyperswitch serves them
// with its admin key over one global table; here each merchant keeps its
// own rules (the admin key acts for the merchant X-Merchant-Id names).
func registerGSM(a *api, svc *gsm.Service) {
	// Create and update take the whole rule and answer with it.
	savingRule := func(save func(context.Context, gsm.RuleInput) (*ent.GsmRule, error)) handlerFunc {
		return withBody(readingBody((*gsmRuleRequest).input, func(r *http.Request, in gsm.RuleInput) (any, error) {
			return respond(gsmResponseOf)(save(r.Context(), in))
		}))
	}
	a.handle("POST /gsm", MerchantOrAdmin, savingRule(svc.Create))
	a.handle("POST /gsm/get", MerchantOrAdmin, withBody(readingBody((*gsmKeyRequest).key, func(r *http.Request, k gsm.Key) (any, error) {
		return respond(gsmResponseOf)(svc.Get(r.Context(), k))
	})))
	a.handle("POST /gsm/update", MerchantOrAdmin, savingRule(svc.Update))
	a.handle("POST /gsm/delete", MerchantOrAdmin, withBody(readingBody((*gsmKeyRequest).key, func(r *http.Request, k gsm.Key) (any, error) {
		if err := svc.Delete(r.Context(), k); err != nil {
			return nil, err
		}
		return gsmDeleteResponse{GsmRuleDelete: true, Connector: k.Connector, Flow: k.Flow, SubFlow: k.SubFlow, Code: k.Code}, nil
	})))
}
