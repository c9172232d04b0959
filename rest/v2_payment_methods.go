package rest

import (
	"net/http"
	"strings"

	"switchyard/ent"
	"switchyard/payments"
	"switchyard/payments/customer"
	"switchyard/payments/errs"
)

// The v2 saved payment method routes: the same saved cards as v1's, named
// and shaped as Hyperswitch's v2 (the customer by its id, a method's id as
// "id", the card under payment_method_data).

type v2SavedMethodData struct {
	Card *cardFromLockerBody `json:"card"`
}

type v2PaymentMethodsBody struct {
	CustomerPaymentMethods []v2PaymentMethodItem `json:"customer_payment_methods"`
}

type v2PaymentMethodDeletedBody struct {
	ID string `json:"id"`
}

// v2Subtype is a saved method's payment_method_subtype, which v2 always
// names: a card kept without one is the credit or debit its type says.
func v2Subtype(pm *ent.PaymentMethod) string {
	if pm.PaymentMethodType != nil && *pm.PaymentMethodType != "" {
		return *pm.PaymentMethodType
	}
	if pm.Card != nil && pm.Card.CardType != nil && strings.EqualFold(*pm.Card.CardType, "debit") {
		return "debit"
	}
	return "credit"
}

func v2PaymentMethodDataOf(pm *ent.PaymentMethod) *v2SavedMethodData {
	if c := cardFromLockerOf(pm); c != nil {
		return &v2SavedMethodData{Card: c}
	}
	return nil
}

// v2CustomerIDOf is the v2 id of a method's customer (its row id).
func v2CustomerIDOf(pm *ent.PaymentMethod) string {
	if c := pm.Edges.Customer; c != nil {
		return c.ID
	}
	return deref(pm.CustomerID)
}

func v2PaymentMethodOf(pm *ent.PaymentMethod) v2PaymentMethodBody {
	return v2PaymentMethodBody{ID: pm.ID, MerchantID: pm.MerchantID, CustomerID: v2CustomerIDOf(pm),
		PaymentMethodType: pm.PaymentMethod, PaymentMethodSubtype: v2Subtype(pm), RecurringEnabled: pm.RecurringEnabled,
		Created: Timestamp(pm.CreatedAt), LastUsedAt: ts(pm.LastUsedAt), PaymentMethodData: v2PaymentMethodDataOf(pm),
		StorageType: "persistent"}
}

func v2PaymentMethodsOf(c *ent.Customer, pms []*ent.PaymentMethod) v2PaymentMethodsBody {
	out := v2PaymentMethodsBody{CustomerPaymentMethods: make([]v2PaymentMethodItem, 0, len(pms))}
	for _, pm := range pms {
		out.CustomerPaymentMethods = append(out.CustomerPaymentMethods, v2PaymentMethodItem{
			ID: pm.ID, CustomerID: c.ID, PaymentMethodType: pm.PaymentMethod, PaymentMethodSubtype: v2Subtype(pm),
			RecurringEnabled: pm.RecurringEnabled, PaymentMethodData: v2PaymentMethodDataOf(pm),
			Created: Timestamp(pm.CreatedAt), RequiresCVV: pm.PaymentMethod == "card", LastUsedAt: ts(pm.LastUsedAt),
			IsDefault: c.DefaultPaymentMethodID != nil && *c.DefaultPaymentMethodID == pm.ID,
		})
	}
	return out
}

func (req *v2PaymentMethodCreateRequest) input(svc *customer.Service, r *http.Request) (payments.SaveCardInput, error) {
	var in payments.SaveCardInput
	switch {
	case req.PaymentMethodType == nil:
		return in, errs.MissingField("payment_method_type")
	case *req.PaymentMethodType != "card":
		return in, errs.ErrNotSupported.Detailf("the sandbox keeps cards, not %s", *req.PaymentMethodType).WithField("payment_method_type")
	case req.CustomerID == nil:
		return in, errs.MissingField("customer_id")
	case req.StorageType == nil:
		return in, errs.MissingField("storage_type")
	case *req.StorageType != "persistent" && *req.StorageType != "volatile":
		return in, errs.InvalidValue("storage_type", "must be persistent or volatile, got %q", *req.StorageType)
	case req.PaymentMethodData == nil || req.PaymentMethodData.Card == nil:
		return in, errs.MissingField("payment_method_data.card")
	}
	customerID, err := svc.CustomerReference(r.Context(), *req.CustomerID)
	if err != nil {
		return in, err
	}
	card := req.PaymentMethodData.Card
	in = payments.SaveCardInput{CustomerID: &customerID, Metadata: req.Metadata,
		Card: &customer.CardInput{Number: card.CardNumber, ExpMonth: card.CardExpMonth, ExpYear: card.CardExpYear,
			CVC: card.CardCVC, HolderName: card.CardHolderName, Network: card.CardNetwork}}
	if req.PaymentMethodSubtype != nil {
		in.Subtype = *req.PaymentMethodSubtype
	}
	return in, nil
}

func registerV2PaymentMethods(a *api, svc *customer.Service, pay *payments.Service) {
	a.handle("GET /v2/customers/{id}/saved-payment-methods", MerchantOrAdmin, v2CustomerRoute(svc, func(r *http.Request, customerID string) (any, error) {
		c, pms, err := svc.CustomerPaymentMethods(r.Context(), customerID)
		if err != nil {
			return nil, err
		}
		return v2PaymentMethodsOf(c, pms), nil
	}))
	a.handle("POST /v2/payment-methods", MerchantOrAdmin, v2Route(withBody(func(r *http.Request, req *v2PaymentMethodCreateRequest) (any, error) {
		in, err := req.input(svc, r)
		if err != nil {
			return nil, err
		}
		return respond(v2PaymentMethodOf)(pay.SaveCard(r.Context(), in))
	})))
	a.handle("GET /v2/payment-methods/{id}", MerchantOrAdmin, v2Route(func(r *http.Request) (any, error) {
		return respond(v2PaymentMethodOf)(svc.GetPaymentMethod(r.Context(), r.PathValue("id")))
	}))
	a.handle("DELETE /v2/payment-methods/{id}", MerchantOrAdmin, v2Route(func(r *http.Request) (any, error) {
		id, err := svc.DeletePaymentMethod(r.Context(), r.PathValue("id"))
		if err != nil {
			return nil, err
		}
		return v2PaymentMethodDeletedBody{ID: id}, nil
	}))
	a.handle("PUT /v2/payment-methods/{id}/update-saved-payment-method", MerchantOrAdmin, v2Route(withBody(func(r *http.Request, req *v2PaymentMethodUpdateRequest) (any, error) {
		var u customer.CardUpdate
		if d := req.PaymentMethodData; d != nil && d.Card != nil {
			u.HolderName = d.Card.CardHolderName
		}
		return respond(v2PaymentMethodOf)(svc.UpdateSavedCard(r.Context(), r.PathValue("id"), u))
	})))
}
