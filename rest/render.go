package rest

import (
	"encoding/json"

	"switchyard/ent"
	"switchyard/payments"
	"switchyard/payments/customer"
	"switchyard/payments/subscriptions"
)

// Renderer gives events the JSON this API returns for their objects, so a
// webhook's content.object is what GET /payments/{id}, GET /refunds/{id},
// GET /disputes/{id} or GET /mandates/{id} shows at the moment of the event.
type Renderer struct{}

var (
	_ payments.Renderer      = Renderer{}
	_ subscriptions.Renderer = Renderer{}
)

// Payment is the full payment record.
func (Renderer) Payment(v *payments.PaymentView) (json.RawMessage, error) {
	return json.Marshal(paymentRecordOf(v))
}

// Refund is the refund object.
func (Renderer) Refund(r *ent.Refund, paymentID string) (json.RawMessage, error) {
	return json.Marshal(refundBodyOf(r, paymentID))
}

// Dispute is the dispute object (Hyperswitch's DisputeResponse).
func (Renderer) Dispute(v *payments.DisputeView) (json.RawMessage, error) {
	return json.Marshal(disputeBodyOf(v))
}

// Mandate is the mandate object (Hyperswitch's MandateResponse).
func (Renderer) Mandate(v *customer.MandateView) (json.RawMessage, error) {
	return json.Marshal(mandateBodyOf(v))
}

// Subscription is the subscription (Hyperswitch's SubscriptionResponse).
func (Renderer) Subscription(v *subscriptions.View) (json.RawMessage, error) {
	return json.Marshal(subscriptionBodyOf(v))
}

// Invoice is the invoice (Hyperswitch's Invoice).
func (Renderer) Invoice(inv *ent.Invoice) (json.RawMessage, error) {
	return json.Marshal(invoiceBodyOf(inv))
}

// paymentResponse is the payment record as a response: the JSON its
// event already rendered when the request wrote one (the same object, as
// TestEventObjectIsTheRetrievedPayment checks), else rendered now.
func paymentResponse(v *payments.PaymentView) any {
	if raw := v.Rendered(); raw != nil {
		return preEncoded(raw)
	}
	return paymentRecordOf(v)
}
