package graph

import (
	"context"

	"switchyard/ent"
	"switchyard/graph/model"
	"switchyard/payments/blocklist"
)

// blocklistEntries are the entries addBlocklistEntry answers with.
func (r *Resolver) blocklistEntries() merchantRow[ent.BlocklistEntry, model.BlocklistEntryPayload] {
	return rowsOf[model.BlocklistEntryPayload](r.client.BlocklistEntry.Get, "blocklist entry")
}

func blocklistEntryOf(in model.BlocklistEntryInput) blocklist.Entry {
	return blocklist.Entry{Type: string(in.Type), Data: in.Data}
}

func (r *Resolver) addBlocklistEntry(ctx context.Context, in model.BlocklistEntryInput, key *string) (*model.BlocklistEntryPayload, error) {
	return mutateMerchantRow(ctx, r, "addBlocklistEntry", key, map[string]any{"input": in}, r.blocklistEntries(), func(ctx context.Context) (*ent.BlocklistEntry, error) {
		return r.blocklist.Add(ctx, blocklistEntryOf(in))
	})
}

func (r *Resolver) removeBlocklistEntry(ctx context.Context, in model.BlocklistEntryInput, key *string) (*model.DeletedBlocklistEntryPayload, error) {
	removed, replayed, err := idempotent(ctx, r, "removeBlocklistEntry", key, map[string]any{"input": in}, func(ctx context.Context) (*string, error) {
		if _, err := merchantPrincipal(ctx); err != nil {
			return nil, err
		}
		e, err := r.blocklist.Remove(ctx, blocklistEntryOf(in))
		if err != nil {
			return nil, err
		}
		return &e.ID, nil
	}, func(_ context.Context, snap *string) (*string, error) {
		return snap, nil
	})
	if err != nil {
		return nil, err
	}
	return &model.DeletedBlocklistEntryPayload{ID: *removed, Deleted: true, Replayed: replayed}, nil
}

func (r *Resolver) setBlocklistGuard(ctx context.Context, enabled bool, key *string) (*model.BlocklistGuardPayload, error) {
	on, replayed, err := idempotent(ctx, r, "setBlocklistGuard", key, map[string]any{"enabled": enabled}, func(ctx context.Context) (bool, error) {
		if _, err := merchantPrincipal(ctx); err != nil {
			return false, err
		}
		return enabled, r.blocklist.SetGuard(ctx, enabled)
	}, func(_ context.Context, snap bool) (bool, error) {
		return snap, nil
	})
	if err != nil {
		return nil, err
	}
	return &model.BlocklistGuardPayload{Enabled: on, Replayed: replayed}, nil
}
