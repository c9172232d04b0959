package rest

import (
	"net/http"

	"switchyard/payments/routing"
)

var dynamicToggleQuery = queryParams{route: "dynamic routing", names: []string{"enable"}}

// enableFeature is the enable query parameter (DynamicRoutingFeatures);
// "" when absent, which the domain refuses as missing.
func enableFeature(r *http.Request) (string, error) {
	values, _, err := dynamicToggleQuery.read(r.URL.RawQuery)
	if err != nil {
		return "", err
	}
	return values["enable"], nil
}

// registerDynamicRouting adds Hyperswitch's success-rate, elimination and
// contract routing routes of a profile (…/business_profile/{profile_id}/dynamic_routing/…).
// The account in the path must be the caller's (the api handler checks),
// and the profile one of its profiles (the domain checks).
func registerDynamicRouting(a *api, svc *routing.Service) {
	const base = "/account/{account_id}/business_profile/{profile_id}/dynamic_routing/"
	registerRoutingFeedback(a, svc)
	toggle := func(typ string) handlerFunc {
		return func(r *http.Request) (any, error) {
			feature, err := enableFeature(r)
			if err != nil {
				return nil, err
			}
			return respond(routingRecordOf)(svc.ToggleDynamic(r.Context(), r.PathValue("profile_id"), typ, feature))
		}
	}
	a.handle("POST "+base+"success_based/toggle", MerchantOrAdmin, toggle(routing.TypeSuccessRate))
	a.handle("POST "+base+"elimination/toggle", MerchantOrAdmin, toggle(routing.TypeElimination))
	a.handle("POST "+base+"success_based/create", MerchantOrAdmin, withBody(func(r *http.Request, req *routing.SuccessBasedConfig) (any, error) {
		feature, err := enableFeature(r)
		if err != nil {
			return nil, err
		}
		return respond(routingRecordOf)(svc.CreateSuccessBased(r.Context(), r.PathValue("profile_id"), feature, *req))
	}))
	a.handle("POST "+base+"elimination/create", MerchantOrAdmin, withBody(func(r *http.Request, req *routing.EliminationConfig) (any, error) {
		feature, err := enableFeature(r)
		if err != nil {
			return nil, err
		}
		return respond(routingRecordOf)(svc.CreateElimination(r.Context(), r.PathValue("profile_id"), feature, *req))
	}))
	a.handle("PATCH "+base+"success_based/config/{algorithm_id}", MerchantOrAdmin, withBody(func(r *http.Request, req *routing.SuccessBasedConfig) (any, error) {
		if err := noQuery(r); err != nil {
			return nil, err
		}
		return respond(routingRecordOf)(svc.UpdateSuccessBased(r.Context(), r.PathValue("profile_id"), r.PathValue("algorithm_id"), *req))
	}))
	a.handle("POST "+base+"contracts/toggle", MerchantOrAdmin, withBody(func(r *http.Request, req *routing.ContractConfig) (any, error) {
		feature, err := enableFeature(r)
		if err != nil {
			return nil, err
		}
		return respond(routingRecordOf)(svc.ToggleContract(r.Context(), r.PathValue("profile_id"), feature, *req))
	}))
	a.handle("PATCH "+base+"contracts/config/{algorithm_id}", MerchantOrAdmin, withBody(func(r *http.Request, req *routing.ContractConfig) (any, error) {
		if err := noQuery(r); err != nil {
			return nil, err
		}
		return respond(routingRecordOf)(svc.UpdateContract(r.Context(), r.PathValue("profile_id"), r.PathValue("algorithm_id"), *req))
	}))
}

// registerRoutingFeedback adds POST /routing/feedback (Hyperswitch's
// UpdateScorePayload): a payment's outcome on a connector account, fed to
// the profile's dynamic routing as an attempt's own outcome is.
func registerRoutingFeedback(a *api, svc *routing.Service) {
	a.handle("POST /routing/feedback", MerchantOrAdmin, withBody(func(r *http.Request, req *routingFeedbackRequest) (any, error) {
		err := svc.RecordFeedback(r.Context(), routing.Feedback{ProfileID: deref(req.MerchantID), Gateway: deref(req.Gateway),
			Status: deref(req.Status), PaymentID: deref(req.PaymentID)})
		if err != nil {
			return nil, err
		}
		return routingFeedbackResponse{Message: "Gateway score updated successfully"}, nil
	}))
}

// noQuery refuses a query string on a config route, which takes none.
func noQuery(r *http.Request) error {
	_, _, err := (queryParams{route: "dynamic routing config"}).read(r.URL.RawQuery)
	return err
}
