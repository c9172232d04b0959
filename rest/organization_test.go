package rest_test

import (
	"strings"
	"testing"
)

// TestOrganizationLifecycle: the admin creates, reads and updates an
// organization; merchant accounts join an existing one or get their own.
func TestOrganizationLifecycle(t *testing.T) {
	c := newClient(t)
	admin := c.admin()

	created := c.do("POST", "/organization", admin, map[string]any{"organization_name": "Acme",
		"organization_details": map[string]any{"hq": "Lisbon"}, "metadata": map[string]any{"tier": "gold"}}).must(t, 200)
	id := created.str("organization_id")
	if !strings.HasPrefix(id, "org_") || len(id) != 24 || created.str("organization_name") != "Acme" ||
		created.str("organization_details", "hq") != "Lisbon" || created.str("metadata", "tier") != "gold" ||
		created.str("created_at") == "" || created.str("modified_at") == "" {
		t.Fatalf("create: %s", created.Raw)
	}
	if got := c.do("GET", "/organization/"+id, admin, nil).must(t, 200); got.str("organization_name") != "Acme" || got.str("metadata", "tier") != "gold" {
		t.Fatalf("retrieve: %s", got.Raw)
	}
	updated := c.do("PUT", "/organization/"+id, admin, map[string]any{"organization_name": "Acme Group",
		"platform_merchant_id": "merchant_x"}).must(t, 200)
	if updated.str("organization_name") != "Acme Group" || updated.str("organization_details", "hq") != "Lisbon" {
		t.Fatalf("update keeps what it does not give: %s", updated.Raw)
	}
	if got := c.do("GET", "/organization/"+id, admin, nil).must(t, 200); got.str("organization_name") != "Acme Group" {
		t.Fatalf("update not stored: %s", got.Raw)
	}

	// A merchant joins the organization it names.
	m := c.do("POST", "/accounts", admin, map[string]any{"merchant_id": "merchant_org_member", "organization_id": id}).must(t, 200)
	if m.str("organization_id") != id {
		t.Fatalf("merchant's organization: %s", m.Raw)
	}
	list := c.do("GET", "/accounts/list?organization_id="+id, admin, nil).must(t, 200)
	if items := list.Body.([]any); len(items) != 1 {
		t.Fatalf("organization's merchants: %s", list.Raw)
	}
	// Without one, it gets an organization of its own, which exists.
	own := c.do("POST", "/accounts", admin, map[string]any{"merchant_id": "merchant_org_own"}).must(t, 200).str("organization_id")
	if own == id || own == "" {
		t.Fatalf("own organization %q", own)
	}
	if got := c.do("GET", "/organization/"+own, admin, nil).must(t, 200); got.str("organization_id") != own {
		t.Fatalf("generated organization: %s", got.Raw)
	}
	// The demo merchant's organization exists too (bootstrap creates it).
	demoOrg := c.do("GET", "/accounts/"+c.srv.Demo.MerchantID, admin, nil).must(t, 200).str("organization_id")
	c.do("GET", "/organization/"+demoOrg, admin, nil).must(t, 200)
}

// TestOrganizationRefusals: the admin key only; unknown ids are 404;
// bad bodies are 400s naming the member.
func TestOrganizationRefusals(t *testing.T) {
	c := newClient(t)
	admin, merchantKey := c.admin(), c.srv.Demo.SecretKey
	id := c.do("POST", "/organization", admin, map[string]any{"organization_name": "Acme"}).must(t, 200).str("organization_id")
	for _, tc := range []struct {
		name, key, method, path string
		body                    any
		status                  int
		code, mention           string
	}{
		{"merchant key create", merchantKey, "POST", "/organization", map[string]any{"organization_name": "X"}, 401, "IR_01", ""},
		{"merchant key read", merchantKey, "GET", "/organization/" + id, nil, 401, "IR_01", ""},
		{"merchant key update", merchantKey, "PUT", "/organization/" + id, map[string]any{"organization_name": "X"}, 401, "IR_01", ""},
		{"unknown read", admin, "GET", "/organization/org_nope", nil, 404, "HE_02", "Organization"},
		{"unknown update", admin, "PUT", "/organization/org_nope", map[string]any{"organization_name": "X"}, 404, "HE_02", "Organization"},
		{"no name", admin, "POST", "/organization", map[string]any{"metadata": map[string]any{}}, 400, "IR_04", "organization_name"},
		{"long name", admin, "POST", "/organization", map[string]any{"organization_name": strings.Repeat("n", 256)}, 400, "IR_07", "organization_name"},
		{"unknown member", admin, "POST", "/organization", map[string]any{"organization_name": "X", "colour": "red"}, 400, "IR_06", "colour"},
		{"merchant in unknown organization", admin, "POST", "/accounts", map[string]any{"merchant_id": "merchant_org_x", "organization_id": "org_nope"}, 404, "HE_02", "organization"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := c.do(tc.method, tc.path, tc.key, tc.body)
			if r.Status != tc.status || r.errCode() != tc.code || !strings.Contains(r.str("error", "message"), tc.mention) {
				t.Fatalf("%d %s", r.Status, r.Raw)
			}
		})
	}
	// Nothing was created for the refused merchant.
	if r := c.do("GET", "/accounts/merchant_org_x", admin, nil); r.Status != 404 {
		t.Fatalf("refused merchant exists: %s", r.Raw)
	}
}
