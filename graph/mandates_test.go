package graph_test

import (
	"testing"

	"switchyard/internal/testenv"
)

// TestMandateSetUpThroughREST: a mandate set up by a REST payment is in the
// merchant's mandates connection, active, with the connector's token and
// its customer; another merchant's connection does not show it.
func TestMandateSetUpThroughREST(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	key := srv.Demo.SecretKey
	p := restCall(t, srv.URL, "POST", "/payments", key, map[string]any{
		"amount": 1500, "currency": "USD", "confirm": true, "customer_id": "cus_graph",
		"setup_future_usage": "off_session",
		"payment_method_data": map[string]any{"card": map[string]any{"card_number": "4242424242424242",
			"card_exp_month": "12", "card_exp_year": "2035", "card_cvc": "123"}},
		"mandate_data": map[string]any{"customer_acceptance": map[string]any{"acceptance_type": "offline"},
			"mandate_type": map[string]any{"single_use": map[string]any{"amount": 1500, "currency": "USD"}}},
	})
	mandateID, _ := p["mandate_id"].(string)
	if mandateID == "" {
		t.Fatalf("no mandate: %v", p)
	}
	var out struct {
		Mandates struct {
			TotalCount int `json:"totalCount"`
			Edges      []struct {
				Node struct {
					ID                 string `json:"id"`
					Status             string `json:"status"`
					MandateType        string `json:"mandateType"`
					Amount             int    `json:"amount"`
					ConnectorMandateID string `json:"connectorMandateID"`
					OriginalPaymentID  string `json:"originalPaymentID"`
					Customer           struct {
						CustomerID string `json:"customerID"`
					} `json:"customer"`
				} `json:"node"`
			} `json:"edges"`
		} `json:"mandates"`
	}
	q := `{ mandates(first: 10) { totalCount edges { node { id status mandateType amount connectorMandateID originalPaymentID customer { customerID } } } } }`
	newGQL(t, srv.URL, key).must(q, nil, &out)
	if out.Mandates.TotalCount != 1 || len(out.Mandates.Edges) != 1 {
		t.Fatalf("mandates: %+v", out)
	}
	n := out.Mandates.Edges[0].Node
	if n.ID != mandateID || n.Status != "active" || n.MandateType != "single_use" || n.Amount != 1500 ||
		n.ConnectorMandateID == "" || n.OriginalPaymentID != p["payment_id"] || n.Customer.CustomerID != "cus_graph" {
		t.Fatalf("mandate node: %+v", n)
	}
	other := newTenant(t, srv, "merchant_other")
	var none struct {
		Mandates struct {
			TotalCount int `json:"totalCount"`
		} `json:"mandates"`
	}
	newGQL(t, srv.URL, other.key).must(`{ mandates(first: 10) { totalCount } }`, nil, &none)
	if none.Mandates.TotalCount != 0 {
		t.Fatalf("another merchant sees %d mandates", none.Mandates.TotalCount)
	}
}
