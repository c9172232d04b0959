package payments

import (
	"testing"

	"switchyard/ent"
)

// TestAttach: each nested record goes to its own payment's view, in the
// order read, the active attempt is marked, and the customer joined.
func TestAttach(t *testing.T) {
	active, cus := "att_2", "cus_row"
	intents := []*ent.PaymentIntent{{ID: "p1", ActiveAttemptID: &active, CustomerID: &cus}, {ID: "p2"}}
	views := []*PaymentView{{Intent: intents[0]}, {Intent: intents[1]}}
	byID := map[string]*PaymentView{"p1": views[0], "p2": views[1]}
	n := nestedRecords{
		attempts: []*ent.PaymentAttempt{{ID: "att_1", PaymentIntentID: "p1"}, {ID: "att_2", PaymentIntentID: "p1"}, {ID: "att_3", PaymentIntentID: "p2"}},
		captures: []*ent.Capture{{ID: "cap_1", PaymentIntentID: "p2"}},
		refunds:  []*ent.Refund{{ID: "ref_1", PaymentIntentID: "p1"}},
		disputes: []*ent.Dispute{{ID: "dp_1", PaymentIntentID: "p2"}},
		incs:     []*ent.IncrementalAuthorization{{ID: "inc_1", PaymentIntentID: "p1"}},
		custs:    []*ent.Customer{{ID: "cus_row"}},
	}
	n.attach(views, byID)
	p1, p2 := views[0], views[1]
	switch {
	case len(p1.Attempts) != 2 || p1.Attempts[0].ID != "att_1" || p1.Active == nil || p1.Active.ID != "att_2":
		t.Errorf("p1 attempts %v, active %v", p1.Attempts, p1.Active)
	case len(p2.Attempts) != 1 || p2.Active != nil:
		t.Errorf("p2 attempts %v, active %v (it names none)", p2.Attempts, p2.Active)
	case len(p1.Captures) != 0 || len(p2.Captures) != 1:
		t.Errorf("captures %v %v", p1.Captures, p2.Captures)
	case len(p1.Refunds) != 1 || len(p2.Refunds) != 0:
		t.Errorf("refunds %v %v", p1.Refunds, p2.Refunds)
	case len(p1.Disputes) != 0 || len(p2.Disputes) != 1:
		t.Errorf("disputes %v %v", p1.Disputes, p2.Disputes)
	case len(p1.IncrementalAuthorizations) != 1 || len(p2.IncrementalAuthorizations) != 0:
		t.Errorf("incremental authorizations %v %v", p1.IncrementalAuthorizations, p2.IncrementalAuthorizations)
	case p1.Customer == nil || p1.Customer.ID != "cus_row" || p2.Customer != nil:
		t.Errorf("customers %v %v", p1.Customer, p2.Customer)
	}
}

// TestDisputeViewsOf: a dispute's payment is already refunded when what
// went back to the customer (refunds and lost disputes) exceeds what was
// captured, the capture being overridden where the caller knows better.
func TestDisputeViewsOf(t *testing.T) {
	intents := []*ent.PaymentIntent{{ID: "p1", PaymentID: "pay_1", AmountCaptured: 1000}, {ID: "p2", PaymentID: "pay_2", AmountCaptured: 500}}
	for _, tc := range []struct {
		name     string
		refs     []*ent.Refund
		lost     []*ent.Dispute
		captured map[string]int64
		want     bool // p1's
	}{
		{name: "nothing returned", want: false},
		{name: "refunded in full: not over", refs: []*ent.Refund{{PaymentIntentID: "p1", Amount: 1000}}, want: false},
		{name: "refunds over the capture", refs: []*ent.Refund{{PaymentIntentID: "p1", Amount: 600}, {PaymentIntentID: "p1", Amount: 401}}, want: true},
		{name: "a refund and a lost dispute", refs: []*ent.Refund{{PaymentIntentID: "p1", Amount: 600}},
			lost: []*ent.Dispute{{PaymentIntentID: "p1", Amount: 401}}, want: true},
		{name: "another payment's refund", refs: []*ent.Refund{{PaymentIntentID: "p2", Amount: 5000}}, want: false},
		{name: "the capture overridden", refs: []*ent.Refund{{PaymentIntentID: "p1", Amount: 600}},
			captured: map[string]int64{"p1": 500}, want: true},
	} {
		ds := []*ent.Dispute{{ID: "dp_1", PaymentIntentID: "p1"}, {ID: "dp_2", PaymentIntentID: "p2"}}
		views := disputeViewsOf(ds, intents, tc.refs, tc.lost, tc.captured)
		if len(views) != 2 || views[0].PaymentID != "pay_1" || views[1].PaymentID != "pay_2" {
			t.Fatalf("%s: views %+v", tc.name, views)
		}
		if views[0].IsAlreadyRefunded != tc.want {
			t.Errorf("%s: is_already_refunded %v, want %v", tc.name, views[0].IsAlreadyRefunded, tc.want)
		}
	}
}
