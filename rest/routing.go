package rest

import (
	"net/http"

	"switchyard/ent"
	"switchyard/ent/routingalgorithm"
	"switchyard/ent/schema/schematype"
	"switchyard/payments/errs"
	"switchyard/payments/routing"
)

func routingRecordOf(a *ent.RoutingAlgorithm) routingRecord {
	return routingRecord{ID: a.ID, ProfileID: a.ProfileID, Name: a.Name, Kind: string(a.Kind), Description: a.Description,
		CreatedAt: a.CreatedAt.UnixMilli(), ModifiedAt: a.ModifiedAt.UnixMilli(), AlgorithmFor: string(a.TransactionType)}
}

func routingAlgorithmOf(a *ent.RoutingAlgorithm) routingAlgorithmBody {
	var algorithm any = a.Algorithm
	if a.Kind == routingalgorithm.KindDynamic { // a DynamicRoutingAlgorithm is the configuration itself
		algorithm = a.Algorithm.Data
	}
	return routingAlgorithmBody{ID: a.ID, ProfileID: a.ProfileID, Name: a.Name, Description: a.Description,
		Algorithm: algorithm, CreatedAt: a.CreatedAt.UnixMilli(), ModifiedAt: a.ModifiedAt.UnixMilli(),
		AlgorithmFor: string(a.TransactionType)}
}

func profileFallbackOf(f *routing.Fallback) profileFallbackBody {
	return profileFallbackBody{ProfileID: f.ProfileID, Connectors: f.Connectors}
}

func fallbackConnectorsOf(f *routing.Fallback) []schematype.RoutableConnector { return f.Connectors }

var routingListQuery = queryParams{route: "GET /routing", names: []string{"limit", "offset", "profile_id", "transaction_type"}}

// optionalQuery is a query parameter's value, nil when not given.
func optionalQuery(r *http.Request, name string) *string {
	if q := r.URL.Query(); q.Has(name) {
		v := q.Get(name)
		return &v
	}
	return nil
}

// registerRouting adds the routing configuration routes (Hyperswitch's
// v1 /routing…): configurations per profile, which is active, and the
// profile's default fallback order.
func registerRouting(a *api, svc *routing.Service) {
	a.handle("POST /routing", MerchantOrAdmin, withBody(func(r *http.Request, req *routingConfigRequest) (any, error) {
		return respond(routingRecordOf)(svc.CreateConfig(r.Context(), routing.ConfigInput{Name: req.Name,
			Description: req.Description, Algorithm: req.Algorithm, ProfileID: req.ProfileID, TransactionType: req.TransactionType}))
	}))
	a.handle("GET /routing", MerchantOrAdmin, func(r *http.Request) (any, error) {
		if _, _, err := routingListQuery.read(r.URL.RawQuery); err != nil {
			return nil, err
		}
		limit, err := intParam(r, "limit", 100)
		if err != nil {
			return nil, err
		}
		if limit < 1 || limit > 100 {
			return nil, errs.InvalidValue("limit", "must be between 1 and 100, got %d", limit)
		}
		offset, err := intParam(r, "offset", 0)
		if err != nil {
			return nil, err
		}
		if offset < 0 {
			return nil, errs.InvalidValue("offset", "must not be negative, got %d", offset)
		}
		rows, _, err := svc.ListConfigs(r.Context(), optionalQuery(r, "profile_id"), optionalQuery(r, "transaction_type"), limit, offset)
		return respond(each(routingRecordOf))(rows, err)
	})
	a.handle("GET /routing/active", MerchantOrAdmin, func(r *http.Request) (any, error) {
		if _, _, err := (queryParams{route: "GET /routing/active", names: []string{"profile_id"}}).read(r.URL.RawQuery); err != nil {
			return nil, err
		}
		return respond(each(routingRecordOf))(svc.ActiveConfigs(r.Context(), optionalQuery(r, "profile_id")))
	})
	a.handle("POST /routing/deactivate", MerchantOrAdmin, withOptionalBody(func(r *http.Request, req *routingConfigRequest) (any, error) {
		return respond(routingRecordOf)(svc.DeactivateFor(r.Context(), req.ProfileID, req.TransactionType))
	}))
	a.handle("GET /routing/default", MerchantOrAdmin, func(r *http.Request) (any, error) {
		return respond(fallbackConnectorsOf)(svc.DefaultFallback(r.Context(), nil))
	})
	a.handle("POST /routing/default", MerchantOrAdmin, withList(func(r *http.Request, order []schematype.RoutableConnector) (any, error) {
		return respond(fallbackConnectorsOf)(svc.SetDefaultFallback(r.Context(), nil, order))
	}))
	a.handle("GET /routing/default/profile", MerchantOrAdmin, func(r *http.Request) (any, error) {
		return respond(profileFallbackOf)(svc.DefaultFallback(r.Context(), nil))
	})
	a.handle("POST /routing/default/profile/{profile_id}", MerchantOrAdmin, withList(func(r *http.Request, order []schematype.RoutableConnector) (any, error) {
		id := r.PathValue("profile_id")
		return respond(profileFallbackOf)(svc.SetDefaultFallback(r.Context(), &id, order))
	}))
	a.handle("GET /routing/{routing_algorithm_id}", MerchantOrAdmin, func(r *http.Request) (any, error) {
		return respond(routingAlgorithmOf)(svc.GetConfig(r.Context(), r.PathValue("routing_algorithm_id")))
	})
	a.handle("POST /routing/{routing_algorithm_id}/activate", MerchantOrAdmin, func(r *http.Request) (any, error) {
		return respond(routingRecordOf)(svc.Activate(r.Context(), r.PathValue("routing_algorithm_id")))
	})
	registerRoutingEvaluate(a, svc)
}
