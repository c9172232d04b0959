package rest_test

import "testing"

// TestCardIssuers: the admin key adds, renames and deletes issuers; a
// merchant lists and searches them but cannot change them; a name there
// already (in any case) is 400 IR_38 (Hyperswitch's GenericDuplicateError); an unknown id is 404.
func TestCardIssuers(t *testing.T) {
	c := newClient(t)
	admin, key := c.admin(), c.merchantKey()
	sbi := c.do("POST", "/card_issuers", admin, map[string]any{"issuer_name": "STATE BANK OF INDIA"}).must(t, 200)
	id := sbi.str("id")
	if id == "" || sbi.str("issuer_name") != "STATE BANK OF INDIA" {
		t.Fatalf("create: %s", sbi.Raw)
	}
	c.do("POST", "/card_issuers", admin, map[string]any{"issuer_name": "HDFC Bank"}).must(t, 200)
	if r := c.do("POST", "/card_issuers", admin, map[string]any{"issuer_name": "state bank of india"}); r.Status != 400 || r.errCode() != "IR_38" {
		t.Fatalf("a duplicate name: %d %s", r.Status, r.Raw)
	}
	if r := c.do("POST", "/card_issuers", key, map[string]any{"issuer_name": "Mine"}); r.Status != 401 {
		t.Fatalf("a merchant's create: %d %s", r.Status, r.Raw)
	}
	if r := c.do("POST", "/card_issuers", admin, map[string]any{}); r.Status != 400 || r.errCode() != "IR_04" {
		t.Fatalf("no name: %d %s", r.Status, r.Raw)
	}
	list := c.do("GET", "/card_issuers?query=state", key, nil).must(t, 200)
	if issuers := list.list("issuers"); len(issuers) != 1 || issuers[0]["id"] != id {
		t.Fatalf("search: %s", list.Raw)
	}
	if all := c.do("GET", "/card_issuers?limit=1", key, nil).must(t, 200); len(all.list("issuers")) != 1 {
		t.Fatalf("limit: %s", all.Raw)
	}
	renamed := c.do("PUT", "/card_issuers/"+id, admin, map[string]any{"issuer_name": "SBI"}).must(t, 200)
	if renamed.str("issuer_name") != "SBI" {
		t.Fatalf("update: %s", renamed.Raw)
	}
	if r := c.do("PUT", "/card_issuers/"+id, admin, map[string]any{"issuer_name": "hdfc bank"}); r.Status != 400 || r.errCode() != "IR_38" {
		t.Fatalf("a rename onto another: %d %s", r.Status, r.Raw)
	}
	del := c.do("DELETE", "/card_issuers/"+id, admin, nil).must(t, 200)
	if del.str("id") != id || del.obj()["deleted"] != true {
		t.Fatalf("delete: %s", del.Raw)
	}
	for _, method := range []string{"PUT", "DELETE"} {
		if r := c.do(method, "/card_issuers/"+id, admin, map[string]any{"issuer_name": "x"}); r.Status != 404 {
			t.Fatalf("%s of a deleted issuer: %d %s", method, r.Status, r.Raw)
		}
	}
}
