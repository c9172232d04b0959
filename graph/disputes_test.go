package graph_test

import (
	"fmt"
	"testing"

	"switchyard/internal/ids"
	"switchyard/internal/testenv"
)

// TestAcceptDisputeMutation: the dashboard accepts a dispute through the
// same domain call as POST /disputes/accept; a replay with the same key
// answers the stored result, accepting again is HE_03 and another
// merchant's dispute is HE_04.
func TestAcceptDisputeMutation(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	c := newGQL(t, srv.URL, srv.Demo.SecretKey)
	var paid struct {
		CreatePayment struct {
			Payment struct {
				Disputes []struct{ ID, DisputeStatus string }
			}
		}
	}
	c.must(`mutation($pm: PaymentMethodDataInput) { createPayment(input: {amount: 100, currency: "USD", confirm: true,
		paymentMethod: "card", paymentMethodData: $pm}) { payment { disputes { id disputeStatus } } } }`,
		map[string]any{"pm": cardInput("4000000000000259")}, &paid)
	ds := paid.CreatePayment.Payment.Disputes
	if len(ds) != 1 || ds[0].DisputeStatus != "dispute_opened" {
		t.Fatalf("disputes: %+v", ds)
	}
	id := ds[0].ID
	accept := fmt.Sprintf(`mutation($key: String) { acceptDispute(id: %q, idempotencyKey: $key) { dispute { id disputeStatus } replayed } }`, id)
	var out struct {
		AcceptDispute struct {
			Dispute  struct{ ID, DisputeStatus string }
			Replayed bool
		}
	}
	key := map[string]any{"key": "accept-" + ids.Base62(10)} // unique to the run: tests may share one Redis
	c.must(accept, key, &out)
	if out.AcceptDispute.Dispute.DisputeStatus != "dispute_accepted" || out.AcceptDispute.Replayed {
		t.Fatalf("accept: %+v", out)
	}
	c.must(accept, key, &out)
	if out.AcceptDispute.Dispute.DisputeStatus != "dispute_accepted" || !out.AcceptDispute.Replayed {
		t.Fatalf("replay: %+v", out)
	}
	c.fails("HE_03", accept, map[string]any{"key": nil})
	other := newTenant(t, srv, "merchant_gql_dispute_other")
	newGQL(t, srv.URL, other.key).fails("HE_04", accept, nil)
}
