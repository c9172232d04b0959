package rest_test

import (
	"context"
	"fmt"
	"net/url"
	"testing"
	"time"

	"switchyard/ent"
	"switchyard/ent/invoice"
	"switchyard/internal/tenancy"
)

// The subscription proofs' harness (TestSubscriptionModel and the kill -9
// test): the catalogue, test clocks and subscriptions through REST, and
// what a subscription's invoices and payments came to.

// proofGoodCard is charged every time; proofDecliningCard
// (4000000000000341) can be saved by a zero-amount setup but every charge
// of it is declined, so only a trial subscription starts with it and its
// first renewal fails.
const (
	proofGoodCard      = "4242424242424242"
	proofDecliningCard = "4000000000000341"
)

// proofPrice is one price of the harness's catalogue.
type proofPrice struct {
	id, planID string
	amount     int64
	interval   string // Day|Week|Month|Year
	count      int
	trialDays  int
}

// next is the end of a period of the price that starts at from. A month
// without from's day ends on its last day (Jan 31 + 1 month is Feb 28), as
// billing counts months.
func (p *proofPrice) next(from time.Time) time.Time {
	months := p.count
	switch p.interval {
	case "Day":
		return from.AddDate(0, 0, p.count)
	case "Week":
		return from.AddDate(0, 0, 7*p.count)
	case "Year":
		months = 12 * p.count
	}
	end := from.AddDate(0, months, 0)
	if end.Day() != from.Day() { // past the month's end: back to its last day
		end = end.AddDate(0, 0, -end.Day())
	}
	return end
}

// subsAPI calls the subscription routes as the demo merchant.
type subsAPI struct {
	t *testing.T
	c *client
}

func (a subsAPI) headers() map[string]string {
	return map[string]string{"X-Profile-Id": a.c.srv.Demo.ProfileID}
}

func (a subsAPI) call(method, path string, body any) response {
	a.t.Helper()
	return a.c.doWith(method, path, a.c.merchantKey(), body, a.headers())
}

// plan makes a plan item with one price and returns the price.
func (a subsAPI) plan(name string, amount int64, interval string, count, trialDays int) *proofPrice {
	a.t.Helper()
	item := a.call("POST", "/subscriptions/catalogue/items", map[string]any{"item_type": "plan", "name": name}).must(a.t, 200)
	itemID := item.str("item_id")
	body := map[string]any{"amount": amount, "currency": "USD", "interval": interval, "interval_count": count}
	if trialDays > 0 {
		body["trial_period"], body["trial_period_unit"] = trialDays, "Day"
	}
	price := a.call("POST", "/subscriptions/catalogue/items/"+itemID+"/prices", body).must(a.t, 200)
	if price.str("price_id") == "" || itemID == "" {
		a.t.Fatalf("catalogue: item %s, price %s", item.Raw, price.Raw)
	}
	return &proofPrice{id: price.str("price_id"), planID: itemID, amount: amount, interval: interval, count: count, trialDays: trialDays}
}

// clock makes a test clock frozen at at.
func (a subsAPI) clock(at time.Time) string {
	a.t.Helper()
	r := a.call("POST", "/test_helpers/test_clocks", map[string]any{"frozen_time": at.Format(time.RFC3339)}).must(a.t, 200)
	if r.str("id") == "" {
		a.t.Fatalf("test clock: %s", r.Raw)
	}
	return r.str("id")
}

// advance moves the clock to to and checks that it is ready there.
func (a subsAPI) advance(clockID string, to time.Time) {
	a.t.Helper()
	r := a.call("POST", "/test_helpers/test_clocks/"+clockID+"/advance", map[string]any{"frozen_time": to.Format(time.RFC3339)}).must(a.t, 200)
	got, err := time.Parse(time.RFC3339, r.str("frozen_time"))
	if err != nil || !got.Equal(to) || r.str("status") != "ready" {
		a.t.Fatalf("advance to %s answered %s", to.Format(time.RFC3339), r.Raw)
	}
}

// customer makes a customer of the demo merchant and returns its id.
func (a subsAPI) customer() string {
	a.t.Helper()
	r := a.call("POST", "/customers", map[string]any{"name": "Subscriber", "email": "subscriber@example.com"}).must(a.t, 200)
	return r.str("customer_id")
}

// subscribe creates and confirms a subscription to price for customer,
// paying with the card number, on clockID (none when empty).
func (a subsAPI) subscribe(price *proofPrice, customer, number, clockID string) response {
	a.t.Helper()
	return a.call("POST", "/subscriptions", proofSubscribeBody(price, customer, number, clockID))
}

// proofSubscribeBody is POST /subscriptions (create and confirm) for
// customer to price, paying with the card number, on clockID (none when
// empty).
func proofSubscribeBody(price *proofPrice, customer, number, clockID string) map[string]any {
	body := map[string]any{"plan_id": price.planID, "item_price_id": price.id, "customer_id": customer,
		"payment_details": map[string]any{"payment_method": "card", "payment_method_type": "credit",
			"payment_method_data": card(number), "customer_acceptance": acceptance,
			"setup_future_usage": "off_session", "return_url": "https://example.com/done"}}
	if clockID != "" {
		body["test_clock_id"] = clockID
	}
	return body
}

// get reads a subscription through GET /subscriptions/{id}.
func (a subsAPI) get(id string) response {
	a.t.Helper()
	return a.call("GET", "/subscriptions/"+id, nil).must(a.t, 200)
}

// invoices are a subscription's invoices, oldest first, read through ent
// with the merchant's tenancy (no REST route lists them).
func (a subsAPI) invoices(subscriptionID string) []*ent.Invoice {
	a.t.Helper()
	ctx := tenancy.ForMerchant(tenancy.WithPrincipal(context.Background(), tenancy.Principal{Kind: tenancy.KindAdmin}), a.c.srv.Demo.MerchantID)
	invs, err := a.c.srv.Store.Client.Invoice.Query().Where(invoice.SubscriptionID(subscriptionID)).
		Order(ent.Asc(invoice.FieldPeriodStart), ent.Asc(invoice.FieldCreatedAt), ent.Asc(invoice.FieldID)).All(ctx)
	if err != nil {
		a.t.Fatal(err)
	}
	return invs
}

// customerPayments are the customer's payments through GET
// /payments/list (every page), by payment id. The list answers as
// Hyperswitch's does: an array holding one page object.
func (a subsAPI) customerPayments(customer string) map[string]response {
	a.t.Helper()
	out := map[string]response{}
	after := ""
	for {
		q := url.Values{"customer_id": {customer}, "limit": {"100"}}
		if after != "" {
			q.Set("starting_after", after)
		}
		r := a.call("GET", "/payments/list?"+q.Encode(), nil).must(a.t, 200)
		pages, _ := r.Body.([]any)
		if len(pages) != 1 {
			a.t.Fatalf("payments list: %s", r.Raw)
		}
		page := response{Body: pages[0]}.list("data")
		for _, p := range page {
			id, _ := p["payment_id"].(string)
			out[id] = response{Status: 200, Body: p}
		}
		if len(page) < 100 {
			return out
		}
		after, _ = page[len(page)-1]["payment_id"].(string)
	}
}

// proofInvoiceLine shows an invoice for a failure message.
func proofInvoiceLine(inv *ent.Invoice) string {
	pay := "-"
	if inv.PaymentIntentID != nil {
		pay = *inv.PaymentIntentID
	}
	return fmt.Sprintf("%s %s amount %d due %s period %s..%s tries %d payment %s", inv.ID, inv.Status, inv.Amount,
		inv.DueAt.UTC().Format(time.RFC3339), inv.PeriodStart.UTC().Format("2006-01-02"),
		inv.PeriodEnd.UTC().Format("2006-01-02"), inv.AttemptCount, pay)
}
