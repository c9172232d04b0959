package graph_test

import (
	"strings"
	"testing"

	"switchyard/internal/ids"
	"switchyard/internal/testenv"
)

const (
	addBlocklistEntry = `mutation($in: BlocklistEntryInput!, $key: String) {
		addBlocklistEntry(input: $in, idempotencyKey: $key) { replayed blocklistEntry { id fingerprintID dataKind } } }`
	removeBlocklistEntry = `mutation($in: BlocklistEntryInput!, $key: String) {
		removeBlocklistEntry(input: $in, idempotencyKey: $key) { id deleted replayed } }`
	setBlocklistGuard = `mutation($on: Boolean!, $key: String) { setBlocklistGuard(enabled: $on, idempotencyKey: $key) { enabled replayed } }`
	listBlocklist     = `{ blocklistEntries(first: 20) { totalCount edges { node { id fingerprintID dataKind } } } }`
)

type blocklistRow struct{ ID, FingerprintID, DataKind string }

// TestBlocklistInGraphQL: an operator adds (idempotently), lists and
// removes blocklist entries and turns the guard on through the same domain
// calls as REST (REST reads what GraphQL wrote); REST's codes for a bad
// BIN and a duplicate; another merchant sees none; a viewer changes
// nothing.
func TestBlocklistInGraphQL(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	admin, apiKey := signUp(t, srv.URL, "admin@blocklist.example", "Blocklist shop")
	c := bearer(t, srv.URL, admin.Token)
	other, _ := signUp(t, srv.URL, "admin@other-blocklist.example", "Other blocklist shop")
	oc := bearer(t, srv.URL, other.Token)
	viewer := member(t, srv.URL, c, "viewer@blocklist.example", "VIEWER")
	vc := bearer(t, srv.URL, viewer.Token)

	key := "blocklist-add-" + ids.Base62(12)
	bin := map[string]any{"type": "card_bin", "data": "424242"}
	type addOut struct {
		AddBlocklistEntry struct {
			Replayed       bool
			BlocklistEntry blocklistRow
		}
	}
	var made, again addOut
	c.must(addBlocklistEntry, map[string]any{"in": bin, "key": key}, &made)
	entry := made.AddBlocklistEntry.BlocklistEntry
	if made.AddBlocklistEntry.Replayed || !strings.HasPrefix(entry.ID, "blk_") || entry.FingerprintID != "424242" ||
		entry.DataKind != "card_bin" {
		t.Fatalf("added: %+v", made)
	}
	c.must(addBlocklistEntry, map[string]any{"in": bin, "key": key}, &again)
	if !again.AddBlocklistEntry.Replayed || again.AddBlocklistEntry.BlocklistEntry.ID != entry.ID {
		t.Fatalf("replay: %+v", again)
	}
	status, raw, err := testenv.Call(srv.URL, "GET", "/blocklist?data_kind=card_bin", apiKey, nil)
	if err != nil || status != 200 || !strings.Contains(string(raw), `"fingerprint_id":"424242"`) {
		t.Fatalf("REST list: %d %s %v", status, raw, err)
	}
	c.on(t).fails("IR_16", addBlocklistEntry, map[string]any{"in": bin})
	c.on(t).fails("IR_05", addBlocklistEntry, map[string]any{"in": map[string]any{"type": "extended_card_bin", "data": "4242"}})

	type listOut struct {
		BlocklistEntries struct {
			TotalCount int
			Edges      []struct{ Node blocklistRow }
		}
	}
	var list listOut
	vc.must(listBlocklist, nil, &list)
	if list.BlocklistEntries.TotalCount != 1 || list.BlocklistEntries.Edges[0].Node.ID != entry.ID {
		t.Fatalf("list: %+v", list)
	}
	oc.must(listBlocklist, nil, &list)
	if list.BlocklistEntries.TotalCount != 0 {
		t.Fatalf("another merchant lists: %+v", list)
	}
	oc.fails("IR_37", removeBlocklistEntry, map[string]any{"in": bin})

	var guard struct {
		SetBlocklistGuard struct{ Enabled, Replayed bool }
	}
	c.must(setBlocklistGuard, map[string]any{"on": true, "key": "guard-" + ids.Base62(12)}, &guard)
	if !guard.SetBlocklistGuard.Enabled {
		t.Fatalf("guard: %+v", guard)
	}
	var merchant struct {
		MerchantAccount struct{ BlocklistGuardEnabled bool }
	}
	c.must(`{ merchantAccount { blocklistGuardEnabled } }`, nil, &merchant)
	if !merchant.MerchantAccount.BlocklistGuardEnabled {
		t.Fatalf("the merchant's guard: %+v", merchant)
	}

	for _, doc := range []struct {
		q    string
		vars map[string]any
	}{
		{addBlocklistEntry, map[string]any{"in": map[string]any{"type": "card_bin", "data": "555555"}}},
		{removeBlocklistEntry, map[string]any{"in": bin}},
		{setBlocklistGuard, map[string]any{"on": false}},
	} {
		vc.fails("IR_22", doc.q, doc.vars)
	}

	var removed struct {
		RemoveBlocklistEntry struct {
			ID      string
			Deleted bool
		}
	}
	c.must(removeBlocklistEntry, map[string]any{"in": bin}, &removed)
	if removed.RemoveBlocklistEntry.ID != entry.ID || !removed.RemoveBlocklistEntry.Deleted {
		t.Fatalf("removed: %+v", removed)
	}
	c.must(listBlocklist, nil, &list)
	if list.BlocklistEntries.TotalCount != 0 {
		t.Fatalf("after the removal: %+v", list)
	}
}
