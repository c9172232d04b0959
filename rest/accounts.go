package rest

import (
	"encoding/json"
	"net/http"

	"switchyard/ent/schema/schematype"
	"switchyard/payments/merchant"
)

// webhookDetails is Hyperswitch's WebhookDetails on the wire: a closed
// object. Switchyard's stored form adds internal members (delivery
// switches) that clients may not set, so the wire type is only its
// Hyperswitch part.
type webhookDetails schematype.HyperswitchWebhookDetails

func (w *webhookDetails) domain() *schematype.WebhookDetails {
	if w == nil {
		return nil
	}
	return &schematype.WebhookDetails{HyperswitchWebhookDetails: schematype.HyperswitchWebhookDetails(*w)}
}

func webhookDetailsOf(d *schematype.WebhookDetails) *webhookDetails {
	if d == nil {
		return nil
	}
	w := webhookDetails(d.HyperswitchWebhookDetails)
	// Both lists are required members of the response object.
	if w.PaymentStatusesEnabled == nil {
		w.PaymentStatusesEnabled = []string{}
	}
	if w.RefundStatusesEnabled == nil {
		w.RefundStatusesEnabled = []string{}
	}
	return &w
}

// merchantAccountCreateRequest is Hyperswitch's MerchantAccountCreate. The
// json.RawMessage members are Hyperswitch features Switchyard does not
// implement: accepted, so valid Hyperswitch bodies are not refused, and
// ignored.
type merchantAccountCreateRequest struct {
	merchantAccountMembers
	OrganizationID      *string         `json:"organization_id"`
	MerchantAccountType *string         `json:"merchant_account_type"`
	ProductType         json.RawMessage `json:"product_type"`
}

// merchantAccountUpdateRequest is Hyperswitch's MerchantAccountUpdate.
type merchantAccountUpdateRequest struct {
	merchantAccountMembers
	DefaultProfile *string `json:"default_profile"`
}

// merchantAccountOf maps a merchant (and its default profile's hash key,
// which the admin sees) onto the wire.
func merchantAccountOf(v *merchant.MerchantAccountView) merchantAccountResponse {
	m := v.Merchant
	return merchantAccountResponse{
		MerchantID:                     m.ID,
		MerchantName:                   m.MerchantName,
		ReturnURL:                      m.ReturnURL,
		EnablePaymentResponseHash:      m.EnablePaymentResponseHash,
		PaymentResponseHashKey:         v.HashKey,
		RedirectToMerchantWithHTTPPost: m.RedirectToMerchantWithHTTPPost,
		MerchantDetails:                merchant.MerchantDetailsOf(m),
		WebhookDetails:                 webhookDetailsOf(m.WebhookDetails),
		PublishableKey:                 m.PublishableKey,
		Metadata:                       m.Metadata,
		LockerID:                       m.LockerID,
		PrimaryBusinessDetails:         merchant.PrimaryBusinessDetailsOf(m),
		OrganizationID:                 m.OrganizationID,
		IsReconEnabled:                 m.IsReconEnabled,
		DefaultProfile:                 m.DefaultProfileID,
		ReconStatus:                    "not_requested",
		MerchantAccountType:            string(m.MerchantAccountType),
	}
}

// fields are the domain's members of a create or an update.
func (req *merchantAccountMembers) fields() merchant.MerchantAccountFields {
	return merchant.MerchantAccountFields{
		MerchantName:                   req.MerchantName,
		MerchantDetails:                req.MerchantDetails,
		ReturnURL:                      req.ReturnURL,
		WebhookDetails:                 req.WebhookDetails.domain(),
		EnablePaymentResponseHash:      req.EnablePaymentResponseHash,
		PaymentResponseHashKey:         req.PaymentResponseHashKey,
		RedirectToMerchantWithHTTPPost: req.RedirectToMerchantWithHTTPPost,
		Metadata:                       req.Metadata,
		LockerID:                       req.LockerID,
		PrimaryBusinessDetails:         req.PrimaryBusinessDetails,
	}
}

// registerAccounts adds Hyperswitch's merchant account routes (admin key).
func registerAccounts(a *api, svc *merchant.Service) {
	a.handle("POST /accounts", AdminOnly, withBody(func(r *http.Request, req *merchantAccountCreateRequest) (any, error) {
		return respond(merchantAccountOf)(svc.CreateMerchantAccount(r.Context(), merchant.MerchantAccountInput{
			MerchantID: deref(req.MerchantID), MerchantAccountFields: req.fields(),
			OrganizationID: req.OrganizationID, MerchantAccountType: req.MerchantAccountType,
		}))
	}))
	// The literal /accounts/list is more specific than /accounts/{account_id},
	// so the mux never hands "list" to the retrieve route.
	a.handle("GET /accounts/list", AdminOnly, func(r *http.Request) (any, error) {
		limit, err := intParam(r, "limit", 100)
		if err != nil {
			return nil, err
		}
		f := merchant.MerchantAccountFilter{Limit: limit}
		if q := r.URL.Query(); q.Has("organization_id") {
			org := q.Get("organization_id")
			f.OrganizationID = &org
		}
		return respond(each(merchantAccountOf))(svc.ListMerchantAccounts(r.Context(), f))
	})
	a.handle("GET /accounts/{account_id}", AdminOnly, func(r *http.Request) (any, error) {
		return respond(merchantAccountOf)(svc.GetMerchantAccount(r.Context(), r.PathValue("account_id")))
	})
	a.handle("POST /accounts/{account_id}", AdminOnly, withBody(func(r *http.Request, req *merchantAccountUpdateRequest) (any, error) {
		return respond(merchantAccountOf)(svc.UpdateMerchantAccount(r.Context(), r.PathValue("account_id"), merchant.MerchantAccountPatch{
			MerchantID: deref(req.MerchantID), MerchantAccountFields: req.fields(), DefaultProfile: req.DefaultProfile,
		}))
	}))
	a.handle("DELETE /accounts/{account_id}", AdminOnly, func(r *http.Request) (any, error) {
		id := r.PathValue("account_id")
		if err := svc.DeleteMerchantAccount(r.Context(), id); err != nil {
			return nil, err
		}
		return merchantAccountDeleteResponse{MerchantID: id, Deleted: true}, nil
	})
}
