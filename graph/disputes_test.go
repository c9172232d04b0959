package graph_test

import (
	"encoding/base64"
	"fmt"
	"strings"
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

// TestDisputeEvidenceMutations: the dashboard attaches a receipt
// (attachDisputeEvidence, base64) and submits text (submitDisputeEvidence):
// the dispute's evidence field shows both and the dispute is challenged;
// bad base64, a non-string member and another merchant's dispute are
// refused.
func TestDisputeEvidenceMutations(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	c := newGQL(t, srv.URL, srv.Demo.SecretKey)
	var paid struct {
		CreatePayment struct {
			Payment struct {
				Disputes []struct{ ID string }
			}
		}
	}
	c.must(`mutation($pm: PaymentMethodDataInput) { createPayment(input: {amount: 100, currency: "USD", confirm: true,
		paymentMethod: "card", paymentMethodData: $pm}) { payment { disputes { id } } } }`,
		map[string]any{"pm": cardInput("4000000000000259")}, &paid)
	id := paid.CreatePayment.Payment.Disputes[0].ID

	attach := `mutation($id: ID!, $content: String!) { attachDisputeEvidence(id: $id, evidenceType: "receipt",
		fileName: "r.pdf", fileType: "application/pdf", contentBase64: $content) { dispute { disputeStatus evidence } } }`
	var attached struct {
		AttachDisputeEvidence struct {
			Dispute struct {
				DisputeStatus string
				Evidence      map[string]any
			}
		}
	}
	c.must(attach, map[string]any{"id": id, "content": base64.StdEncoding.EncodeToString([]byte("%PDF receipt"))}, &attached)
	receipt, _ := attached.AttachDisputeEvidence.Dispute.Evidence["receipt"].(string)
	if !strings.HasPrefix(receipt, "file_") || attached.AttachDisputeEvidence.Dispute.DisputeStatus != "dispute_opened" {
		t.Fatalf("attach: %+v", attached)
	}
	c.fails("IR_07", attach, map[string]any{"id": id, "content": "not base64!"})

	submit := `mutation($id: ID!, $ev: Map!) { submitDisputeEvidence(id: $id, evidence: $ev) { dispute { disputeStatus evidence } } }`
	var submitted struct {
		SubmitDisputeEvidence struct {
			Dispute struct {
				DisputeStatus string
				Evidence      map[string]any
			}
		}
	}
	c.fails("IR_07", submit, map[string]any{"id": id, "ev": map[string]any{"uncategorized_text": 5}})
	newGQL(t, srv.URL, newTenant(t, srv, "merchant_gql_evidence_other").key).fails("HE_04", submit,
		map[string]any{"id": id, "ev": map[string]any{"uncategorized_text": "win"}})
	c.must(submit, map[string]any{"id": id, "ev": map[string]any{"uncategorized_text": "win"}}, &submitted)
	d := submitted.SubmitDisputeEvidence.Dispute
	if d.DisputeStatus != "dispute_challenged" || d.Evidence["receipt"] != receipt || d.Evidence["uncategorized_text"] != "win" {
		t.Fatalf("submit: %+v", submitted)
	}
}
