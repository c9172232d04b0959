package graph

import (
	"context"
	"encoding/json"
	"time"

	"switchyard/ent"
	"switchyard/ent/schema/schematype"
	"switchyard/graph/model"
	"switchyard/payments/analytics"
	"switchyard/payments/errs"
	"switchyard/payments/routing"
)

// routingMutation runs one routing change under its idempotency key and
// answers the configuration it names.
func (r *Resolver) routingMutation(ctx context.Context, name string, key *string, args any,
	op func(context.Context) (*ent.RoutingAlgorithm, error)) (*model.RoutingAlgorithmPayload, error) {
	algorithms := rowsOf[model.RoutingAlgorithmPayload](r.client.RoutingAlgorithm.Get, "Routing algorithm")
	payload, err := mutateMerchantRow(ctx, r, name, key, args, algorithms, op)
	if err != nil {
		return nil, err
	}
	if l := loadersOf(ctx); l != nil {
		l.mu.Lock()
		l.activeRouting = nil // the document reads what this mutation changed
		l.mu.Unlock()
	}
	return payload, nil
}

func (r *Resolver) createRoutingAlgorithm(ctx context.Context, in model.CreateRoutingAlgorithmInput, key *string) (*model.RoutingAlgorithmPayload, error) {
	return r.routingMutation(ctx, "createRoutingAlgorithm", key, map[string]any{"input": in}, func(ctx context.Context) (*ent.RoutingAlgorithm, error) {
		var algo schematype.RoutingAlgorithm
		raw, err := json.Marshal(in.Algorithm)
		if err == nil {
			err = json.Unmarshal(raw, &algo)
		}
		if err != nil {
			return nil, errs.InvalidValue("algorithm", "must be an object {type, data}")
		}
		return r.routing.CreateConfig(ctx, routing.ConfigInput{Name: &in.Name, Description: in.Description,
			Algorithm: &algo, ProfileID: in.ProfileID, TransactionType: in.TransactionType})
	})
}

func (r *Resolver) activateRoutingAlgorithm(ctx context.Context, id string, key *string) (*model.RoutingAlgorithmPayload, error) {
	return r.routingMutation(ctx, "activateRoutingAlgorithm", key, map[string]any{"id": id}, func(ctx context.Context) (*ent.RoutingAlgorithm, error) {
		return r.routing.Activate(ctx, id)
	})
}

func (r *Resolver) deactivateRouting(ctx context.Context, profileID, transactionType, key *string) (*model.RoutingAlgorithmPayload, error) {
	vars := map[string]any{"profileID": profileID, "transactionType": transactionType}
	return r.routingMutation(ctx, "deactivateRouting", key, vars, func(ctx context.Context) (*ent.RoutingAlgorithm, error) {
		return r.routing.DeactivateFor(ctx, profileID, transactionType)
	})
}

// routingAlgorithmJSON is a configuration's algorithm as Hyperswitch writes it.
func routingAlgorithmJSON(a *ent.RoutingAlgorithm) (map[string]any, error) {
	return asMap(a.Algorithm)
}

// routingActive reports whether a is its profile's active configuration:
// the merchant's active ones are read once per document.
func (r *Resolver) routingActive(ctx context.Context, a *ent.RoutingAlgorithm) (bool, error) {
	l := loadersOf(ctx)
	if l == nil {
		l = newLoaders()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.activeRouting == nil {
		active, err := r.routing.ActiveIDs(ctx)
		if err != nil {
			return false, err
		}
		l.activeRouting = active
	}
	return l.activeRouting[a.ID], nil
}

// connectorSuccessRates is the analytics count of attempts per connector
// account, in UTC hours or days (or whole).
func (r *Resolver) connectorSuccessRates(ctx context.Context, from, to time.Time, bucket *model.SuccessRateBucket, profileID *string) ([]*analytics.ConnectorRate, error) {
	q := analytics.Range{From: from, To: to, ProfileID: profileID, TimeZone: "UTC"}
	if bucket != nil {
		q.Bucket = map[model.SuccessRateBucket]string{model.SuccessRateBucketHour: analytics.BucketHour, model.SuccessRateBucketDay: analytics.BucketDay}[*bucket]
	}
	return pointers(r.analytics.ConnectorRates(ctx, q))
}
