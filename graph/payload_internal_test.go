package graph

import (
	"testing"

	"switchyard/ent"
	"switchyard/graph/model"
)

// TestPayloadHoldsTheRow checks that merchantRow.payload finds, in each
// row mutation's payload, the member of the row's type and Replayed.
func TestPayloadHoldsTheRow(t *testing.T) {
	check := func(name string, got, want any, replayed bool) {
		t.Helper()
		if got != want || !replayed {
			t.Errorf("%s: the payload holds %v (replayed %v), want the row", name, got, replayed)
		}
	}
	pi := &ent.PaymentIntent{ID: "pay_1"}
	p := merchantRow[ent.PaymentIntent, model.PaymentPayload]{}.payload(pi, true)
	check("payment", p.Payment, pi, p.Replayed)
	po := &ent.Payout{ID: "po_1"}
	q := merchantRow[ent.Payout, model.PayoutPayload]{}.payload(po, true)
	check("payout", q.Payout, po, q.Replayed)
	c := &ent.Customer{ID: "cus_1"}
	cp := merchantRow[ent.Customer, model.CustomerPayload]{}.payload(c, true)
	check("customer", cp.Customer, c, cp.Replayed)
	a := &ent.MerchantConnectorAccount{ID: "mca_1"}
	ap := merchantRow[ent.MerchantConnectorAccount, model.ConnectorAccountPayload]{}.payload(a, true)
	check("connector account", ap.ConnectorAccount, a, ap.Replayed)
	if got := entID(a); got != "mca_1" {
		t.Errorf("entID = %q, want mca_1", got)
	}
}
