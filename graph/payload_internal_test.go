package graph

import (
	"testing"

	"switchyard/ent"
	"switchyard/graph/model"
)

// TestPayloadHoldsTheRow checks that merchantRow.payload finds, in each
// row mutation's payload, the member of the row's type and Replayed.
func TestPayloadHoldsTheRow(t *testing.T) {
	pi, po := &ent.PaymentIntent{ID: "pay_1"}, &ent.Payout{ID: "po_1"}
	c, a := &ent.Customer{ID: "cus_1"}, &ent.MerchantConnectorAccount{ID: "mca_1"}
	for name, ok := range map[string]func() bool{
		"payment": func() bool {
			p := merchantRow[ent.PaymentIntent, model.PaymentPayload]{}.payload(pi, true)
			return p.Payment == pi && p.Replayed
		},
		"payout": func() bool {
			p := merchantRow[ent.Payout, model.PayoutPayload]{}.payload(po, true)
			return p.Payout == po && p.Replayed
		},
		"customer": func() bool {
			p := merchantRow[ent.Customer, model.CustomerPayload]{}.payload(c, false)
			return p.Customer == c && !p.Replayed
		},
		"connector account": func() bool {
			p := merchantRow[ent.MerchantConnectorAccount, model.ConnectorAccountPayload]{}.payload(a, true)
			return p.ConnectorAccount == a && p.Replayed && entID(a) == "mca_1"
		},
	} {
		if !ok() {
			t.Errorf("%s: the payload does not hold the row and whether it is replayed", name)
		}
	}
}
