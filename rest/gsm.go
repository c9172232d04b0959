package rest

import (
	"cmp"
	"context"
	"net/http"

	"switchyard/ent"
	"switchyard/payments/errs"
	"switchyard/payments/gsm"
)

// gsmKeyRequest is GsmRetrieveRequest and GsmDeleteRequest: the five
// members that name a rule, each required.
type gsmKeyRequest struct {
	Connector *string `json:"connector"`
	Flow      *string `json:"flow"`
	SubFlow   *string `json:"sub_flow"`
	Code      *string `json:"code"`
	Message   *string `json:"message"`
}

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

// gsmRetryFeature is RetryFeatureData.
type gsmRetryFeature struct {
	StepUpPossible           *bool   `json:"step_up_possible"`
	ClearPanPossible         *bool   `json:"clear_pan_possible"`
	AlternateNetworkPossible *bool   `json:"alternate_network_possible"`
	Decision                 *string `json:"decision"`
}

// gsmRuleRequest is GsmCreateRequest and GsmUpdateRequest.
type gsmRuleRequest struct {
	gsmKeyRequest
	Status           *string `json:"status"`
	RouterError      *string `json:"router_error"`
	Decision         *string `json:"decision"`
	StepUpPossible   *bool   `json:"step_up_possible"`
	UnifiedCode      *string `json:"unified_code"`
	UnifiedMessage   *string `json:"unified_message"`
	ErrorCategory    *string `json:"error_category"`
	ClearPanPossible *bool   `json:"clear_pan_possible"`
	Feature          *string `json:"feature"`
	FeatureData      *struct {
		Retry *gsmRetryFeature `json:"retry"`
	} `json:"feature_data"`
	StandardisedCode    *string `json:"standardised_code"`
	Description         *string `json:"description"`
	UserGuidanceMessage *string `json:"user_guidance_message"`
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

// gsmResponse is Hyperswitch's GsmResponse.
type gsmResponse struct {
	Connector           string  `json:"connector"`
	Flow                string  `json:"flow"`
	SubFlow             string  `json:"sub_flow"`
	Code                string  `json:"code"`
	Message             string  `json:"message"`
	Status              string  `json:"status"`
	RouterError         *string `json:"router_error"`
	Decision            string  `json:"decision"`
	StepUpPossible      bool    `json:"step_up_possible"`
	UnifiedCode         *string `json:"unified_code"`
	UnifiedMessage      *string `json:"unified_message"`
	ErrorCategory       *string `json:"error_category"`
	ClearPanPossible    bool    `json:"clear_pan_possible"`
	Feature             string  `json:"feature"`
	FeatureData         any     `json:"feature_data"`
	StandardisedCode    *string `json:"standardised_code"`
	Description         *string `json:"description"`
	UserGuidanceMessage *string `json:"user_guidance_message"`
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

// gsmDeleteResponse is Hyperswitch's GsmDeleteResponse.
type gsmDeleteResponse struct {
	GsmRuleDelete bool   `json:"gsm_rule_delete"`
	Connector     string `json:"connector"`
	Flow          string `json:"flow"`
	SubFlow       string `json:"sub_flow"`
	Code          string `json:"code"`
}

// registerGSM adds Hyperswitch's /gsm routes. Hyperswitch serves them
// with its admin key over one global table; here each merchant keeps its
// own rules (the admin key acts for the merchant X-Merchant-Id names).
func registerGSM(a *api, svc *gsm.Service) {
	// Create and update take the whole rule and answer with it.
	savingRule := func(save func(context.Context, gsm.RuleInput) (*ent.GsmRule, error)) handlerFunc {
		return withBody(func(r *http.Request, req *gsmRuleRequest) (any, error) {
			in, err := req.input()
			if err != nil {
				return nil, err
			}
			return respond(gsmResponseOf)(save(r.Context(), in))
		})
	}
	a.handle("POST /gsm", MerchantOrAdmin, savingRule(svc.Create))
	a.handle("POST /gsm/get", MerchantOrAdmin, withBody(func(r *http.Request, req *gsmKeyRequest) (any, error) {
		k, err := req.key()
		if err != nil {
			return nil, err
		}
		return respond(gsmResponseOf)(svc.Get(r.Context(), k))
	}))
	a.handle("POST /gsm/update", MerchantOrAdmin, savingRule(svc.Update))
	a.handle("POST /gsm/delete", MerchantOrAdmin, withBody(func(r *http.Request, req *gsmKeyRequest) (any, error) {
		k, err := req.key()
		if err != nil {
			return nil, err
		}
		if err := svc.Delete(r.Context(), k); err != nil {
			return nil, err
		}
		return gsmDeleteResponse{GsmRuleDelete: true, Connector: k.Connector, Flow: k.Flow, SubFlow: k.SubFlow, Code: k.Code}, nil
	}))
}
