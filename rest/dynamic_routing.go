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

// registerDynamicRouting adds Hyperswitch's success-rate and elimination
// routing routes of a profile (…/business_profile/{profile_id}/dynamic_routing/…).
// The account in the path must be the caller's (the api handler checks),
// and the profile one of its profiles (the domain checks).
func registerDynamicRouting(a *api, svc *routing.Service) {
	const base = "/account/{account_id}/business_profile/{profile_id}/dynamic_routing/"
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
		if _, _, err := (queryParams{route: "dynamic routing config"}).read(r.URL.RawQuery); err != nil {
			return nil, err
		}
		return respond(routingRecordOf)(svc.UpdateSuccessBased(r.Context(), r.PathValue("profile_id"), r.PathValue("algorithm_id"), *req))
	}))
}
