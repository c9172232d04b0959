package rest

import (
	"encoding/json"
	"net/http"
	"time"

	"switchyard/ent/schema/schematype"
	"switchyard/payments/customer"
	"switchyard/payments/errs"
	"switchyard/payments/validate"
)

// domain is the acceptance as the domain keeps it (nil when not given).
func (a *customerAcceptanceIn) domain() *customer.CustomerAcceptance {
	if a == nil {
		return nil
	}
	out := &customer.CustomerAcceptance{AcceptedAt: a.AcceptedAt.asTime()}
	if a.AcceptanceType != nil {
		out.AcceptanceType = *a.AcceptanceType
	}
	if o := a.Online; o != nil {
		out.Online = &customer.OnlineAcceptance{IPAddress: deref(o.IPAddress), UserAgent: deref(o.UserAgent)}
	}
	return out
}

// mandate maps mandate_data, mandate_id and recurring_details onto the
// domain's mandate request (set one up) and mandate id (charge one). The
// domain checks how they fit the payment, and decides what a top-level
// customer_acceptance asks (a mandate, or keeping the card).
func (req *paymentsRequest) mandate() (*customer.MandateRequest, *string, error) {
	var setup *customer.MandateRequest
	if d := req.MandateData; d != nil {
		setup = &customer.MandateRequest{UpdateMandateID: d.UpdateMandateID,
			CustomerAcceptance: d.CustomerAcceptance.domain()}
		if d.MandateType != nil {
			if len(d.MandateType) != 1 {
				return nil, nil, errs.InvalidValue("mandate_data.mandate_type", "must hold exactly one of single_use or multi_use")
			}
			for kind, l := range d.MandateType {
				switch kind {
				case "single_use":
					setup.SingleUse = true
				case "multi_use":
				default:
					e := errs.InvalidRequest("unknown field %q: mandate_type is single_use or multi_use", "mandate_data.mandate_type."+kind)
					e.Field = "mandate_data.mandate_type." + kind
					return nil, nil, e
				}
				if l != nil {
					setup.Limits = &customer.MandateLimits{Amount: l.Amount, Currency: l.Currency,
						StartDate: l.StartDate.asTime(), EndDate: l.EndDate.asTime(), Metadata: l.Metadata}
				}
			}
		}
	}
	mandateID := req.MandateID
	if rd := req.RecurringDetails; rd != nil {
		switch {
		case rd.Type == nil:
			return nil, nil, errs.MissingField("recurring_details.type")
		case *rd.Type != "mandate_id":
			for _, t := range []string{"payment_method_id", "processor_payment_token", "network_transaction_id_and_card_details",
				"network_transaction_id_and_network_token_details", "network_transaction_id_and_decrypted_wallet_token_details",
				"card_with_limited_data"} {
				if *rd.Type == t {
					return nil, nil, errs.InvalidValue("recurring_details.type", "%q is not supported: use mandate_id", t)
				}
			}
			return nil, nil, errs.InvalidValue("recurring_details.type", "must be mandate_id, got %q", *rd.Type)
		case !given(rd.Data):
			return nil, nil, errs.MissingField("recurring_details.data")
		}
		var id string
		if err := json.Unmarshal(rd.Data, &id); err != nil {
			e := errs.InvalidRequest("recurring_details.data: expected a string (the mandate id)")
			e.Field = "recurring_details.data"
			return nil, nil, e
		}
		if mandateID != nil && *mandateID != id {
			return nil, nil, errs.InvalidValue("recurring_details.data", "names another mandate than mandate_id")
		}
		mandateID = &id
	}
	return setup, mandateID, nil
}

// mandateBodyOf maps a mandate view.
func mandateBodyOf(v *customer.MandateView) mandateBody {
	m := v.Mandate
	out := mandateBody{MandateID: m.ID, Status: string(m.Status)}
	if pm := v.PaymentMethod; pm != nil {
		out.PaymentMethodID, out.PaymentMethod, out.PaymentMethodType = pm.ID, pm.PaymentMethod, pm.PaymentMethodType
		if c := pm.Card; c != nil {
			out.Card = mandateCardOf(c, pm.Fingerprint)
		}
	} else if m.PaymentMethodID != nil {
		out.PaymentMethodID = *m.PaymentMethodID
	}
	if m.CustomerAcceptance != nil {
		raw, _ := json.Marshal(m.CustomerAcceptance)
		var a struct {
			customerAcceptanceOut
			AcceptedAt *time.Time `json:"accepted_at"`
		}
		if json.Unmarshal(raw, &a) == nil {
			out.CustomerAcceptance = &a.customerAcceptanceOut
			out.CustomerAcceptance.AcceptedAt = ts(a.AcceptedAt)
		}
	}
	return out
}

func mandateCardOf(c *schematype.CardDetails, fingerprint *string) *mandateCardBody {
	return &mandateCardBody{
		Last4Digits:     validate.NonEmpty(c.Last4),
		CardExpMonth:    validate.NonEmpty(c.CardExpMonth),
		CardExpYear:     validate.NonEmpty(c.CardExpYear),
		CardHolderName:  c.CardHolderName,
		Scheme:          c.CardNetwork,
		IssuerCountry:   c.CardIssuingCntry,
		CardFingerprint: fingerprint,
		CardISIN:        validate.NonEmpty(c.CardISIN),
		CardIssuer:      c.CardIssuer,
		CardNetwork:     c.CardNetwork,
		CardType:        c.CardType,
	}
}

// registerMandates adds Hyperswitch's v1 mandate routes. Like the refund
// routes they name no merchant: the caller's key (or the admin key with
// X-Merchant-Id) scopes them, so another merchant's mandate or customer is
// not found.
func registerMandates(a *api, svc *customer.Service) {
	a.handle("GET /mandates/{mandate_id}", MerchantOrAdmin, func(r *http.Request) (any, error) {
		return respond(mandateBodyOf)(svc.GetMandate(r.Context(), r.PathValue("mandate_id")))
	})
	// Hyperswitch's revoke takes no body; an empty object is accepted.
	a.handle("POST /mandates/revoke/{mandate_id}", MerchantOrAdmin, withOptionalBody(func(r *http.Request, _ *struct{}) (any, error) {
		return respond(mandateRevokedOf)(svc.RevokeMandate(r.Context(), r.PathValue("mandate_id")))
	}))
	a.handle("GET /customers/{customer_id}/mandates", MerchantOrAdmin, func(r *http.Request) (any, error) {
		return respond(each(mandateBodyOf))(svc.ListCustomerMandates(r.Context(), r.PathValue("customer_id")))
	})
}

func mandateRevokedOf(v *customer.MandateView) mandateRevokedBody {
	return mandateRevokedBody{MandateID: v.Mandate.ID, Status: string(v.Mandate.Status)}
}
