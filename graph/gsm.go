package graph

import (
	"context"

	"switchyard/ent"
	"switchyard/graph/model"
	"switchyard/payments/gsm"
)

// gsmRules are the rules the GSM rule mutations answer with.
func (r *Resolver) gsmRules() merchantRow[ent.GsmRule, model.GsmRulePayload] {
	return rowsOf[model.GsmRulePayload](r.client.GsmRule.Get, "GSM rule")
}

func (r *Resolver) createGsmRule(ctx context.Context, in gsm.RuleInput, key *string) (*model.GsmRulePayload, error) {
	return mutateMerchantRow(ctx, r, "createGsmRule", key, map[string]any{"input": in}, r.gsmRules(), func(ctx context.Context) (*ent.GsmRule, error) {
		return r.gsm.Create(ctx, in)
	})
}

func (r *Resolver) updateGsmRule(ctx context.Context, id string, in gsm.RuleInput, key *string) (*model.GsmRulePayload, error) {
	args := map[string]any{"id": id, "input": in}
	return mutateMerchantRow(ctx, r, "updateGsmRule", key, args, r.gsmRules(), func(ctx context.Context) (*ent.GsmRule, error) {
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
