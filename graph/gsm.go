package graph

import (
	"context"

	"switchyard/ent"
	"switchyard/graph/model"
	"switchyard/payments/gsm"
)

// gsmMutation runs one GSM rule change under its idempotency key.
func (r *Resolver) gsmMutation(ctx context.Context, name string, key *string, args any,
	op func(context.Context) (*ent.GsmRule, error)) (*model.GsmRulePayload, error) {
	rules := rowsOf[model.GsmRulePayload](r.client.GsmRule.Get, "GSM rule")
	return mutateMerchantRow(ctx, r, name, key, args, rules, op)
}

func (r *Resolver) createGsmRule(ctx context.Context, in gsm.RuleInput, key *string) (*model.GsmRulePayload, error) {
	return r.gsmMutation(ctx, "createGsmRule", key, map[string]any{"input": in}, func(ctx context.Context) (*ent.GsmRule, error) {
		return r.gsm.Create(ctx, in)
	})
}

func (r *Resolver) updateGsmRule(ctx context.Context, id string, in gsm.RuleInput, key *string) (*model.GsmRulePayload, error) {
	return r.gsmMutation(ctx, "updateGsmRule", key, map[string]any{"id": id, "input": in}, func(ctx context.Context) (*ent.GsmRule, error) {
		return r.gsm.UpdateByID(ctx, id, in)
	})
}

func (r *Resolver) deleteGsmRule(ctx context.Context, id string, key *string) (*model.DeletedGsmRulePayload, error) {
	deleted, replayed, err := idempotent(ctx, r, "deleteGsmRule", key, map[string]any{"id": id}, func(ctx context.Context) (*string, error) {
		if _, err := merchantPrincipal(ctx); err != nil {
			return nil, err
		}
		rule, err := r.gsm.DeleteByID(ctx, id)
		if err != nil {
			return nil, err
		}
		return &rule.ID, nil
	}, func(_ context.Context, snap *string) (*string, error) {
		return snap, nil
	})
	if err != nil {
		return nil, err
	}
	return &model.DeletedGsmRulePayload{ID: *deleted, Deleted: true, Replayed: replayed}, nil
}
