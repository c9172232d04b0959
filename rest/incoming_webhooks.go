package rest

import (
	"bytes"
	"errors"
	"io"
	"net/http"

	"switchyard/payments/connector"
	"switchyard/payments/errs"
	"switchyard/payments/inbound"
)

// maxWebhookBody bounds a connector's webhook body; the server bounds every
// body too (internal/app).
const maxWebhookBody = 1 << 20

// registerIncomingWebhooks adds Hyperswitch's connector webhook receiver,
// POST /webhooks/{merchant_id}/{merchant_connector_id}. It takes no api-key:
// the connector's signature over the exact body authenticates it
// (inbound.Service.Receive), so it is registered on the mux directly. The
// answer is the acknowledgement the connector expects, for a replay too.
func registerIncomingWebhooks(a *api, svc *inbound.Service) {
	a.mux.HandleFunc("POST /webhooks/{merchant_id}/{merchant_connector_id}", func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxWebhookBody))
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			WriteError(w, r, errs.BodyTooLarge(tooLarge.Limit))
			return
		}
		if err != nil {
			WriteError(w, r, errs.ErrWebhookBadRequest.Newf("the webhook body could not be read: %v", err))
			return
		}
		_, err = svc.Receive(r.Context(), inbound.Delivery{
			MerchantID: r.PathValue("merchant_id"),
			AccountID:  r.PathValue("merchant_connector_id"),
			Body:       body,
			Signature:  r.Header.Get(connector.WebhookSignatureHeader),
		})
		if err != nil {
			WriteError(w, r, err)
			return
		}
		var buf bytes.Buffer
		encodeInto(&buf, connector.WebhookAck{Received: true})
		writeBody(w, http.StatusOK, buf.Bytes())
	})
}
