package rest

import (
	"net/http"

	"switchyard/ent"
	"switchyard/payments"
	"switchyard/payments/errs"
)

// registerPaymentAuthorization adds the routes that change a payment's
// authorization after it is given (incremental authorization, extended
// authorization, void after capture), update_metadata, and the checkout
// SDK's eligibility and post_session_tokens calls (publishable key with
// the payment's client secret, like its other calls).
func registerPaymentAuthorization(a *api, svc *payments.Service) {
	a.handle("POST /payments/{payment_id}/incremental_authorization", MerchantOrAdmin, withBody(func(r *http.Request, req *paymentsIncrementRequest) (any, error) {
		if req.Amount == nil {
			return nil, errs.MissingField("amount")
		}
		return respond(paymentResponse)(svc.IncrementAuthorization(r.Context(), r.PathValue("payment_id"),
			payments.IncrementInput{Amount: *req.Amount, Reason: req.Reason}))
	}))
	a.handle("POST /payments/{payment_id}/extend_authorization", MerchantOrAdmin, func(r *http.Request) (any, error) {
		return respond(paymentResponse)(svc.ExtendAuthorization(r.Context(), r.PathValue("payment_id")))
	})
	a.handle("POST /payments/{payment_id}/cancel_post_capture", MerchantOrAdmin, withOptionalBody(func(r *http.Request, req *paymentsCancelPostCaptureRequest) (any, error) {
		return respond(paymentResponse)(svc.CancelPostCapture(r.Context(), r.PathValue("payment_id"), req.CancellationReason))
	}))
	// GET is Hyperswitch's "retrieve a payment cancelled post capture": the
	// payment as it stands.
	a.handle("GET /payments/{payment_id}/cancel_post_capture", MerchantOrAdmin, func(r *http.Request) (any, error) {
		return respond(paymentResponse)(svc.RetrievePayment(r.Context(), r.PathValue("payment_id"), payments.RetrieveInput{}))
	})
	a.handle("POST /payments/{payment_id}/update_metadata", MerchantOrAdmin, withBody(func(r *http.Request, req *paymentsUpdateMetadataRequest) (any, error) {
		return respond(updateMetadataResponse)(svc.UpdateMetadata(r.Context(), r.PathValue("payment_id"),
			payments.MetadataInput{Metadata: req.Metadata, FeatureMetadata: req.FeatureMetadata}))
	}))
	eligibility := func(r *http.Request, req *paymentsEligibilityRequest) (any, error) {
		if req.PaymentMethodType == nil {
			return nil, errs.MissingField("payment_method_type")
		}
		return respond(eligibilityResponse)(svc.CheckEligibility(r.Context(), r.PathValue("payment_id"), payments.EligibilityInput{
			ClientSecret: req.ClientSecret, PaymentMethod: *req.PaymentMethodType, PaymentMethodSubtype: req.PaymentMethodSubtype}))
	}
	a.handle("POST /payments/{payment_id}/eligibility", ClientOrMerchant, withBody(eligibility))
	a.handle("POST /payments/{payment_id}/eligibility_check", ClientOrMerchant, withBody(eligibility))
	a.handle("POST /payments/{payment_id}/post_session_tokens", ClientOrMerchant, withBody(func(r *http.Request, req *paymentsPostSessionTokensRequest) (any, error) {
		if req.PaymentMethod == nil {
			return nil, errs.MissingField("payment_method")
		}
		if req.PaymentMethodType == nil {
			return nil, errs.MissingField("payment_method_type")
		}
		return respond(postSessionTokensResponse)(svc.PostSessionTokens(r.Context(), r.PathValue("payment_id"), payments.PostSessionInput{
			ClientSecret: req.ClientSecret, PaymentMethod: *req.PaymentMethod, PaymentMethodType: *req.PaymentMethodType}))
	}))
}

func updateMetadataResponse(pi *ent.PaymentIntent) paymentsUpdateMetadataResponse {
	return paymentsUpdateMetadataResponse{PaymentID: pi.PaymentID, Status: string(pi.Status),
		Metadata: pi.Metadata, FeatureMetadata: pi.FeatureMetadata}
}

// eligibilityNextAction is Hyperswitch's SdkNextAction as eligibility
// answers it: next_action is its NextActionCall, a union of a bare string
// ("confirm", …) and {"deny":{"message"}} (the generated sdkNextAction
// holds the string only), so it is written by hand.
type eligibilityNextAction struct {
	NextAction         any   `json:"next_action"`
	ShouldBlockConfirm *bool `json:"should_block_confirm"`
}

// eligibilityOut is Hyperswitch's PaymentsEligibilityCheckResponse, and
// its PaymentsEligibilityResponse without surcharge_details (optional:
// the sandbox calculates no external surcharge).
type eligibilityOut struct {
	PaymentID     string                `json:"payment_id"`
	SdkNextAction eligibilityNextAction `json:"sdk_next_action"`
}

// eligibilityResponse tells the SDK to confirm, or to deny with why (and
// to block the confirm).
func eligibilityResponse(e *payments.Eligibility) eligibilityOut {
	out := eligibilityOut{PaymentID: e.PaymentID, SdkNextAction: eligibilityNextAction{NextAction: "confirm"}}
	if e.Denied != "" {
		block := true
		out.SdkNextAction = eligibilityNextAction{NextAction: map[string]any{"deny": map[string]string{"message": e.Denied}},
			ShouldBlockConfirm: &block}
	}
	return out
}

// postSessionTokensOut is Hyperswitch's PaymentsPostSessionTokensResponse;
// next_action is NextActionData's invoke_sdk_client: the wallet's SDK
// approves the connector's order, then the checkout confirms.
type postSessionTokensOut struct {
	PaymentID  string         `json:"payment_id"`
	NextAction map[string]any `json:"next_action"`
	Status     string         `json:"status"`
}

func postSessionTokensResponse(p *payments.PostSession) postSessionTokensOut {
	return postSessionTokensOut{PaymentID: p.Payment.PaymentID, Status: string(p.Payment.Status),
		NextAction: map[string]any{"type": "invoke_sdk_client",
			"next_action_data": map[string]any{"next_action": "confirm", "order_id": p.OrderID}}}
}
