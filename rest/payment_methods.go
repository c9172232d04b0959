package rest

import (
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"switchyard/ent"
	"switchyard/payments"
	"switchyard/payments/connector"
	"switchyard/payments/customer"
	"switchyard/payments/errs"
	"switchyard/payments/validate"
)

func cardFromLockerOf(pm *ent.PaymentMethod) *cardFromLockerBody {
	c := pm.Card
	if c == nil {
		return nil
	}
	return &cardFromLockerBody{Scheme: c.CardNetwork, IssuerCountry: c.CardIssuingCntry, Last4Digits: validate.NonEmpty(c.Last4),
		ExpiryMonth: validate.NonEmpty(c.CardExpMonth), ExpiryYear: validate.NonEmpty(c.CardExpYear), CardHolderName: c.CardHolderName,
		CardFingerprint: pm.Fingerprint, CardNetwork: c.CardNetwork, CardISIN: validate.NonEmpty(c.CardISIN), CardIssuer: c.CardIssuer,
		CardType: c.CardType, SavedToLocker: true}
}

func customerPaymentMethodsOf(c *ent.Customer, pms []*ent.PaymentMethod) customerPaymentMethodsBody {
	out := customerPaymentMethodsBody{CustomerPaymentMethods: make([]customerPaymentMethodBody, 0, len(pms))}
	if c == nil {
		guest := true // a payment without a customer
		out.IsGuestCustomer = &guest
		return out
	}
	for _, pm := range pms {
		out.CustomerPaymentMethods = append(out.CustomerPaymentMethods, customerPaymentMethodBody{
			PaymentToken: pm.ID, PaymentMethodID: pm.ID, CustomerID: c.CustomerID, PaymentMethod: pm.PaymentMethod,
			PaymentMethodType: pm.PaymentMethodType, RecurringEnabled: pm.RecurringEnabled, Card: cardFromLockerOf(pm),
			Metadata: pm.Metadata, Created: Timestamp(pm.CreatedAt), RequiresCVV: pm.PaymentMethod == "card",
			LastUsedAt:              ts(pm.LastUsedAt),
			DefaultPaymentMethodSet: c.DefaultPaymentMethodID != nil && *c.DefaultPaymentMethodID == pm.ID,
		})
	}
	return out
}

func paymentMethodBodyOf(pm *ent.PaymentMethod) paymentMethodBody {
	out := paymentMethodBody{MerchantID: pm.MerchantID, PaymentMethodID: pm.ID, PaymentMethod: pm.PaymentMethod,
		PaymentMethodType: pm.PaymentMethodType, Card: cardFromLockerOf(pm), RecurringEnabled: pm.RecurringEnabled,
		Metadata: pm.Metadata, Created: Timestamp(pm.CreatedAt), LastUsedAt: ts(pm.LastUsedAt)}
	if c := pm.Edges.Customer; c != nil {
		out.CustomerID = &c.CustomerID
	}
	return out
}

// registerPaymentMethods adds the saved payment method routes: the secret
// key's (a customer's list, one method, delete, default) and the
// checkout's (its payment's customer's list, by client secret).
func registerPaymentMethods(a *api, svc *customer.Service, pay *payments.Service) {
	a.handle("GET /customers/{customer_id}/payment_methods", MerchantOrAdmin, func(r *http.Request) (any, error) {
		c, pms, err := svc.CustomerPaymentMethods(r.Context(), r.PathValue("customer_id"))
		if err != nil {
			return nil, err
		}
		return customerPaymentMethodsOf(c, pms), nil
	})
	a.handle("GET /customers/payment_methods", ClientOrMerchant, func(r *http.Request) (any, error) {
		c, pms, err := pay.CheckoutSavedMethods(r.Context(), r.URL.Query().Get("client_secret"))
		if err != nil {
			return nil, err
		}
		return customerPaymentMethodsOf(c, pms), nil
	})
	a.handle("GET /account/payment_methods", ClientOrMerchant, func(r *http.Request) (any, error) {
		secret, f, err := checkoutFilter(r)
		if err != nil {
			return nil, err
		}
		return respond(paymentMethodListOf)(pay.ListCheckoutMethods(r.Context(), secret, f))
	})
	a.handle("GET /payment_methods/{method_id}", MerchantOrAdmin, func(r *http.Request) (any, error) {
		return respond(paymentMethodBodyOf)(svc.GetPaymentMethod(r.Context(), r.PathValue("method_id")))
	})
	a.handle("DELETE /payment_methods/{method_id}", MerchantOrAdmin, func(r *http.Request) (any, error) {
		id, err := svc.DeletePaymentMethod(r.Context(), r.PathValue("method_id"))
		if err != nil {
			return nil, err
		}
		return paymentMethodDeletedBody{PaymentMethodID: id, Deleted: true}, nil
	})
}

// defaultPaymentMethodPath is Hyperswitch's
// POST /{customer_id}/payment_methods/{payment_method_id}/default. A
// pattern that starts with a wildcard would overlap every other route of
// four segments in net/http's mux, so the router's fallback matches it.
var defaultPaymentMethodPath = regexp.MustCompile(`^/([^/]+)/payment_methods/([^/]+)/default$`)

// defaultPaymentMethodRoute serves r if it is that route, and reports
// whether it was.
func defaultPaymentMethodRoute(a *api, svc *customer.Service) func(w http.ResponseWriter, r *http.Request) bool {
	h := a.handler(CustomerOrMerchant, func(r *http.Request) (any, error) {
		c, pm, err := svc.SetDefaultPaymentMethod(r.Context(), r.PathValue("customer_id"), r.PathValue("payment_method_id"))
		if err != nil {
			return nil, err
		}
		return customerDefaultPaymentMethodBody{DefaultPaymentMethodID: c.DefaultPaymentMethodID, CustomerID: c.CustomerID,
			PaymentMethod: pm.PaymentMethod, PaymentMethodType: pm.PaymentMethodType}, nil
	})
	return func(w http.ResponseWriter, r *http.Request) bool {
		m := defaultPaymentMethodPath.FindStringSubmatch(r.URL.Path)
		if m == nil || r.Method != http.MethodPost {
			return false
		}
		r.SetPathValue("customer_id", m[1])
		r.SetPathValue("payment_method_id", m[2])
		h(w, r)
		return true
	}
}

func paymentMethodListOf(c *payments.CheckoutMethods) paymentMethodListBody {
	out := paymentMethodListBody{PaymentMethods: []paymentMethodsEnabledOut{}, SDKNextAction: sdkNextAction{NextAction: "confirm"}}
	if pi := c.Payment; pi != nil {
		currency := string(pi.Currency)
		out.RedirectURL, out.Currency, out.IsGuestCustomer = pi.ReturnURL, &currency, pi.CustomerID == nil
		if pi.PaymentType != "" {
			t := string(pi.PaymentType)
			out.PaymentType = &t
		}
	}
	out.PaymentMethods = groupByPaymentMethod(c.Methods, func(pm string, types []paymentMethodTypesOut) paymentMethodsEnabledOut {
		return paymentMethodsEnabledOut{PaymentMethod: pm, PaymentMethodTypes: types}
	}, func(m *connector.EligibleMethod) paymentMethodTypesOut {
		t := paymentMethodTypesOut{PaymentMethodType: m.PaymentMethodType, RequiredFields: requiredFieldsByKey(m)}
		for _, e := range m.PaymentExperience {
			t.PaymentExperience = append(t.PaymentExperience, experienceOut{PaymentExperienceType: e, EligibleConnectors: m.Connectors})
		}
		for _, n := range slices.Sorted(maps.Keys(m.CardNetworks)) {
			t.CardNetworks = append(t.CardNetworks, cardNetworkOut{CardNetwork: n, EligibleConnectors: m.CardNetworks[n]})
		}
		return t
	})
	return out
}

// groupByPaymentMethod lists the eligible methods' types under their
// payment method, the methods in the order they first appear (as the
// checkout and the method list show them): typeOf is a type's entry,
// group a payment method's with its types.
func groupByPaymentMethod[G, T any](methods []*connector.EligibleMethod, group func(paymentMethod string, types []T) G,
	typeOf func(*connector.EligibleMethod) T) []G {
	var order []string
	types := map[string][]T{}
	for _, m := range methods {
		if _, seen := types[m.PaymentMethod]; !seen {
			order = append(order, m.PaymentMethod)
		}
		types[m.PaymentMethod] = append(types[m.PaymentMethod], typeOf(m))
	}
	out := make([]G, 0, len(order))
	for _, pm := range order {
		out = append(out, group(pm, types[pm]))
	}
	return out
}

var accountPaymentMethodsQuery = queryParams{route: "GET /account/payment_methods", names: []string{
	"client_secret", "accepted_countries", "accepted_currencies", "amount", "recurring_enabled",
	"installment_payment_enabled", "limit", "card_networks"}}

// checkoutFilter reads the query of GET /account/payment_methods; list
// parameters take comma-separated values.
func checkoutFilter(r *http.Request) (*string, connector.MethodFilter, error) {
	var f connector.MethodFilter
	values, _, err := accountPaymentMethodsQuery.read(r.URL.RawQuery)
	if err != nil {
		return nil, f, err
	}
	list := func(name string) []string {
		if v, ok := values[name]; ok {
			return strings.Split(v, ",")
		}
		return nil
	}
	f.Countries, f.Currencies, f.CardNetworks = list("accepted_countries"), list("accepted_currencies"), list("card_networks")
	if v, ok := values["amount"]; ok {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return nil, f, errs.InvalidValue("amount", "must be a non-negative integer, got %q", v)
		}
		f.Amount = &n
	}
	for name, dst := range map[string]*bool{"recurring_enabled": &f.Recurring, "installment_payment_enabled": &f.Installment} {
		if v, ok := values[name]; ok {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return nil, f, errs.InvalidValue(name, "must be true or false, got %q", v)
			}
			*dst = b
		}
	}
	// Hyperswitch's limit bounds a list of last-used methods this answer
	// does not carry: it is checked and has no effect.
	if v, ok := values["limit"]; ok {
		if _, err := strconv.Atoi(v); err != nil {
			return nil, f, errs.InvalidValue("limit", "must be an integer, got %q", v)
		}
	}
	return values.str("client_secret"), f, nil
}

func (req *paymentMethodCreateRequest) input() (payments.SaveCardInput, error) {
	in := payments.SaveCardInput{CustomerID: req.CustomerID, Metadata: req.Metadata}
	switch {
	case req.PaymentMethod == nil:
		return in, errs.MissingField("payment_method")
	case *req.PaymentMethod != "card":
		return in, errs.ErrNotSupported.Detailf("the sandbox keeps cards, not %s", *req.PaymentMethod).WithField("payment_method")
	}
	card := req.Card
	if card == nil && req.PaymentMethodData != nil {
		card = req.PaymentMethodData.Card
	}
	if card == nil {
		return in, errs.MissingField("card")
	}
	network := card.CardNetwork
	if network == nil {
		network = req.CardNetwork
	}
	in.Card = &customer.CardInput{Number: card.CardNumber, ExpMonth: card.CardExpMonth, ExpYear: card.CardExpYear,
		CVC: card.CardCVC, HolderName: card.CardHolderName, Network: network}
	if req.PaymentMethodType != nil {
		in.Subtype = *req.PaymentMethodType
	}
	return in, nil
}

func registerSavingPaymentMethods(a *api, svc *customer.Service, pay *payments.Service) {
	a.handle("POST /payment_methods", MerchantOrAdmin, withBody(readingBody((*paymentMethodCreateRequest).input, func(r *http.Request, in payments.SaveCardInput) (any, error) {
		return respond(paymentMethodBodyOf)(pay.SaveCard(r.Context(), in))
	})))
	a.handle("POST /payment_methods/{method_id}/update", MerchantOrAdmin, withBody(func(r *http.Request, req *paymentMethodUpdateRequest) (any, error) {
		var u customer.CardUpdate
		if c := req.Card; c != nil {
			u = customer.CardUpdate{ExpMonth: c.CardExpMonth, ExpYear: c.CardExpYear, HolderName: c.CardHolderName}
		}
		return respond(paymentMethodBodyOf)(svc.UpdateSavedCard(r.Context(), r.PathValue("method_id"), u))
	}))
}
