package rest

import (
	"encoding/json"
	"net/http"

	"switchyard/payments/errs"
	"switchyard/payments/payouts"
)

// registerPayouts adds Hyperswitch's v1 payout routes. ServeMux prefers
// the literal paths (/payouts/create, /payouts/list, /payouts/filter) to
// /payouts/{payout_id}.
func registerPayouts(a *api, svc *payouts.Service) {
	if svc == nil {
		return
	}
	a.handle("POST /payouts/create", MerchantOrAdmin, withBody(func(r *http.Request, req *payoutRequest) (any, error) {
		in := req.input()
		if ref := idempotencyRef(r); ref != nil {
			in.Idempotency = &payouts.IdempotencyRef{Key: ref.Key, Fingerprint: ref.Fingerprint}
		}
		return respond(payoutBody0)(svc.Create(r.Context(), in))
	}))
	a.handle("GET /payouts/{payout_id}", MerchantOrAdmin, func(r *http.Request) (any, error) {
		values, _, err := payoutGetQuery.read(r.URL.RawQuery)
		if err != nil {
			return nil, err
		}
		forceSync, err := boolParam(values, "force_sync")
		if err != nil {
			return nil, err
		}
		return respond(payoutBodyWithAttempts)(svc.Get(r.Context(), r.PathValue("payout_id"), forceSync))
	})
	a.handle("POST /payouts/{payout_id}", MerchantOrAdmin, withBody(func(r *http.Request, req *payoutRequest) (any, error) {
		return respond(payoutBody0)(svc.Update(r.Context(), r.PathValue("payout_id"), req.input()))
	}))
	a.handle("POST /payouts/{payout_id}/confirm", ClientOrMerchant, withOptionalBody(func(r *http.Request, req *payoutRequest) (any, error) {
		return respond(payoutBody0)(svc.Confirm(r.Context(), r.PathValue("payout_id"), req.input()))
	}))
	a.handle("POST /payouts/{payout_id}/fulfill", MerchantOrAdmin, withOptionalBody(func(r *http.Request, req *payoutActionRequest) (any, error) {
		return respond(payoutBody0)(svc.Fulfil(r.Context(), r.PathValue("payout_id")))
	}))
	a.handle("POST /payouts/{payout_id}/cancel", MerchantOrAdmin, withOptionalBody(func(r *http.Request, req *payoutActionRequest) (any, error) {
		return respond(payoutBody0)(svc.Cancel(r.Context(), r.PathValue("payout_id")))
	}))
	registerPayoutLists(a, svc)
}

// registerPayoutLists adds the payout list and its filters.
func registerPayoutLists(a *api, svc *payouts.Service) {
	a.handle("GET /payouts/list", MerchantOrAdmin, withQuery(payoutListQueryFilter, func(r *http.Request, f payouts.ListFilter) (any, error) {
		return respond(payoutListOf)(svc.List(r.Context(), f))
	}))
	a.handle("POST /payouts/list", MerchantOrAdmin, withOptionalBody(readingBody((*payoutListRequest).filter, func(r *http.Request, f payouts.ListFilter) (any, error) {
		return respond(payoutListOf)(svc.List(r.Context(), f))
	})))
	a.handle("POST /payouts/filter", MerchantOrAdmin, withBody(func(r *http.Request, req *refundTimeRange) (any, error) {
		if req.StartTime == nil {
			return nil, errs.MissingField("start_time")
		}
		return respond(payoutFiltersOf)(svc.Filters(r.Context(), *req.StartTime.asTime(), req.EndTime.asTime()))
	}))
}

// payoutActionRequest is PayoutFulfillRequest and PayoutCancelRequest: the
// path names the payout; a payout_id in the body is accepted and ignored.
type payoutActionRequest struct {
	PayoutID *string `json:"payout_id"`
}

func payoutBody0(v *payouts.View) payoutBody { return payoutBodyOf(v, false) }

func payoutBodyWithAttempts(v *payouts.View) payoutBody { return payoutBodyOf(v, true) }

var payoutGetQuery = queryParams{route: "GET /payouts/{payout_id}", names: []string{"force_sync"}}

// boolParam reads an optional true/false query parameter.
func boolParam(values queryValues, name string) (bool, error) {
	v := values.str(name)
	if v == nil {
		return false, nil
	}
	switch *v {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, errs.InvalidValue(name, "must be true or false, got %q", *v)
}

// input is the request as the domain takes it (the domain checks it).
func (req *payoutRequest) input() payouts.Input {
	in := payouts.Input{
		Amount: req.Amount, Currency: req.Currency, Connectors: req.Connector, Confirm: req.Confirm,
		PayoutType: req.PayoutType, MethodData: req.PayoutMethodData.methodData(), AutoFulfill: req.AutoFulfill, CustomerID: req.CustomerID,
		ReturnURL: req.ReturnURL, BusinessCountry: req.BusinessCountry, BusinessLabel: req.BusinessLabel,
		Description: req.Description, EntityType: req.EntityType, Recurring: req.Recurring, Metadata: req.Metadata,
		PayoutToken: req.PayoutToken, ProfileID: req.ProfileID, Priority: req.Priority,
		SessionExpiry: req.SessionExpiry, MerchantOrderReferenceID: req.MerchantOrderReferenceID,
		ClientSecret: req.ClientSecret, Customer: req.customerDetails(),
	}
	if in.PayoutToken == nil {
		in.PayoutToken = req.PayoutMethodID
	}
	if order := payoutRoutingOrder(req.Routing); order != nil {
		in.Connectors = order
	}
	if in.CustomerID == nil && req.Customer != nil {
		in.CustomerID = req.Customer.ID
	}
	if req.Billing != nil {
		in.Billing = asMap(req.Billing)
	}
	return in
}

// customerDetails are the customer's name, email and phone, from customer
// or the deprecated top-level members.
func (req *payoutRequest) customerDetails() map[string]any {
	out := map[string]any{}
	put := func(k string, vs ...*string) {
		for _, v := range vs {
			if v != nil {
				out[k] = *v
				return
			}
		}
	}
	c := req.Customer
	if c == nil {
		c = &paymentCustomerIn{}
	}
	put("name", c.Name, req.Name)
	put("email", c.Email, req.Email)
	put("phone", c.Phone, req.Phone)
	put("phone_country_code", c.PhoneCountryCode, req.PhoneCountryCode)
	if len(out) == 0 {
		return nil
	}
	return out
}

// asMap is v as a JSON object.
func asMap(v any) map[string]any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return out
}

// payoutRoutingOrder is the processors a payout's own routing (a
// StaticRoutingAlgorithm) names, in order, by account id where it gives
// one: single and priority; any other algorithm leaves the order to the
// profile (nil).
func payoutRoutingOrder(raw json.RawMessage) []string {
	var alg struct {
		Type string          `json:"type"`
		Data json.RawMessage `json:"data"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &alg) != nil {
		return nil
	}
	var choices []routableConnectorChoice
	switch alg.Type {
	case "single":
		var one routableConnectorChoice
		if json.Unmarshal(alg.Data, &one) == nil {
			choices = []routableConnectorChoice{one}
		}
	case "priority":
		_ = json.Unmarshal(alg.Data, &choices)
	}
	var order []string
	for _, c := range choices {
		if c.MerchantConnectorID != nil {
			order = append(order, *c.MerchantConnectorID)
		} else if c.Connector != "" {
			order = append(order, c.Connector)
		}
	}
	return order
}
