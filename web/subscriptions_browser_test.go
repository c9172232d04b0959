package web_test

import (
	"fmt"
	"strings"
	"testing"

	"switchyard/ent/billingsubscription"
	"switchyard/ent/profile"
	"switchyard/internal/tenancy"
)

// TestDashboardSubscriptions: an admin adds a plan and its monthly price
// with the Plans page's forms, and Plans lists them; two subscriptions to
// that price (one active, one paused) are listed in Subscriptions, newest
// first, and the status filter keeps one; the active one's page shows its
// plan and price, and Pause (a double click on the confirmation sends one
// request) pauses it, as the API then says, leaving Resume and Cancel.
// axe-core finds no serious or critical violation on the pages.
func TestDashboardSubscriptions(t *testing.T) {
	d := newDashTab(t)
	d.open("/plans", "#plans-title")
	d.setField("#item-name", "Gold")
	d.click(`//form[@aria-label="New item"]//button[@type="submit"]`)
	d.poll("the plan listed", `(document.querySelector('[data-testid="plan-list"]')?.innerText ?? "").includes("Gold")`)
	d.setField("#price-amount", "15")
	d.click(`//form[@aria-label="New price"]//button[@type="submit"]`)
	d.poll("its price listed", `(document.querySelector('[data-testid="plan-list"]')?.innerText ?? "").includes("a month")`)
	d.checkAxe("Plans")

	items := d.gql(`{ me { merchantID } subscriptionItems(first: 5) { edges { node { id name prices(first: 5) { edges { node { id amount } } } } } } }`, nil)
	merchantID := items["me"].(map[string]any)["merchantID"].(string)
	edges := items["subscriptionItems"].(map[string]any)["edges"].([]any)
	if len(edges) != 1 {
		d.fail("the server has %d items, want the one added", len(edges))
	}
	item := edges[0].(map[string]any)["node"].(map[string]any)
	prices := item["prices"].(map[string]any)["edges"].([]any)
	if item["name"] != "Gold" || len(prices) != 1 || prices[0].(map[string]any)["node"].(map[string]any)["amount"] != float64(1500) {
		d.fail("the server has the item as %v", item)
	}
	priceID := prices[0].(map[string]any)["node"].(map[string]any)["id"].(string)

	// Two subscriptions to it, written straight to the store (a
	// subscription's first payment is the REST API's business, tested there).
	ctx := tenancy.ForMerchant(tenancy.System(t.Context()), merchantID)
	c := d.srv.Store.Client
	prof, err := c.Profile.Query().Where(profile.IsDefault(true)).Only(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var subs []string
	for i, status := range []billingsubscription.Status{billingsubscription.StatusActive, billingsubscription.StatusPaused} {
		s, err := c.BillingSubscription.Create().SetProfileID(prof.ID).SetCustomerID(fmt.Sprintf("cus_dash_%d", i)).
			SetStatus(status).SetPlanID(item["id"].(string)).SetItemPriceID(priceID).
			SetClientSecret(fmt.Sprintf("secret_dash_%d", i)).Save(ctx)
		if err != nil {
			t.Fatal(err)
		}
		subs = append(subs, s.ID)
	}

	d.open("/subscriptions", "#subscriptions-title")
	listed := `[...document.querySelectorAll('[data-testid="subscription-list"] tbody tr')].map(r => r.dataset.subscriptionId).join(",")`
	d.poll("both subscriptions listed", fmt.Sprintf(`%s === %q`, listed, subs[1]+","+subs[0]))
	d.checkAxe("Subscriptions")
	d.open("/subscriptions?status=paused", "#subscriptions-title")
	d.poll("the filter keeps one", fmt.Sprintf(`%s === %q`, listed, subs[1]))

	d.open("/subscriptions/"+subs[0], "#subscription-title")
	d.poll("the subscription's page", `!!document.querySelector('[data-testid="subscription-status"]')`)
	facts := d.text(`dl.facts`)
	for _, want := range []string{"active", "Gold", "cus_dash_0", "a month"} {
		if !strings.Contains(facts, want) {
			d.fail("the subscription's facts lack %q:\n%s", want, facts)
		}
	}
	d.checkAxe("a subscription's page")
	d.click(`//button[text()="Pause subscription"]`)
	d.clickTwice(`//form[@aria-label="Pause subscription"]//button[@type="submit"]`)
	d.poll("paused", `document.querySelector('[data-testid="subscription-status"]').innerText === "paused"`)
	got := d.gql(`query($id: ID!) { subscription(id: $id) { status } }`, map[string]any{"id": subs[0]})
	if st := got["subscription"].(map[string]any)["status"]; st != "paused" {
		t.Fatalf("after Pause the server has %v", st)
	}
	if buttons := d.text(`div.actions [role="group"]`); !strings.Contains(buttons, "Resume subscription") || strings.Contains(buttons, "Pause") {
		d.fail("a paused subscription offers %q", buttons)
	}
}
