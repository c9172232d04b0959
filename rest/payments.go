package rest

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"switchyard/payments"
	"switchyard/payments/customer"
	"switchyard/payments/errs"
)

// fields maps the members every operation shares onto the domain's, with
// the address r came from.
func (req *paymentsRequest) fields(r *http.Request) (payments.PaymentFields, error) {
	f := payments.PaymentFields{
		ClientAddr:                   peerAddr(r),
		CaptureMethod:                req.CaptureMethod,
		CaptureOn:                    req.CaptureOn.asTime(),
		AmountToCapture:              req.AmountToCapture,
		AuthenticationType:           req.AuthenticationType,
		Description:                  req.Description,
		ReturnURL:                    req.ReturnURL,
		StatementDescriptor:          req.StatementDescriptorName,
		StatementDescriptorSuffix:    req.StatementDescriptorSuffix,
		MerchantOrderReferenceID:     req.MerchantOrderReferenceID,
		Billing:                      req.Billing,
		Shipping:                     req.Shipping,
		OrderDetails:                 req.OrderDetails,
		Metadata:                     req.Metadata,
		ConnectorMetadata:            req.ConnectorMetadata,
		FeatureMetadata:              req.FeatureMetadata,
		FrmMetadata:                  req.FrmMetadata,
		PaymentLinkConfig:            req.PaymentLinkConfig,
		BrowserInfo:                  req.BrowserInfo,
		SetupFutureUsage:             req.SetupFutureUsage,
		OffSession:                   req.OffSession,
		PaymentType:                  req.PaymentType,
		Connectors:                   req.Connector,
		SessionExpiry:                req.SessionExpiry,
		ShippingCost:                 req.ShippingCost,
		OrderTaxAmount:               req.OrderTaxAmount,
		BusinessCountry:              req.BusinessCountry,
		BusinessLabel:                req.BusinessLabel,
		BusinessSubLabel:             req.BusinessSubLabel,
		AllowedPaymentMethodTypes:    req.AllowedPaymentMethodTypes,
		EnablePartialAuthorization:   req.EnablePartialAuthorization,
		RequestExtendedAuthorization: req.RequestExtendedAuthorization,
		EnableOvercapture:            req.EnableOvercapture,
		Force3DSChallenge:            req.Force3DSChallenge,
		IsIframeRedirectionEnabled:   req.IsIframeRedirectionEnabled,
	}
	if s := req.SurchargeDetails; s != nil {
		if s.SurchargeAmount == nil {
			return f, errs.MissingField("surcharge_details.surcharge_amount")
		}
		f.SurchargeAmount, f.TaxOnSurcharge = s.SurchargeAmount, s.TaxAmount
	}
	f.RequestIncrementalAuthorization = payments.IncrementalAuthorizationFlag(req.RequestIncrementalAuthorization)
	f.RequestExternalThreeDSAuthentication = payments.ExternalThreeDSFlag(req.RequestExternalThreeDSAuthentication)
	f.ThreeDSData = req.ThreeDSData.domain()
	var err error
	if f.Customer, err = req.customer(); err != nil {
		return f, err
	}
	if f.PaymentMethod, err = req.paymentMethod(); err != nil {
		return f, err
	}
	if f.Mandate, f.MandateID, err = req.mandate(); err != nil {
		return f, err
	}
	f.CustomerAcceptance = req.CustomerAcceptance.domain()
	return f, nil
}

// peerAddr is the address a request came from: the connection's peer, as
// sign-in throttling reads it (a proxy's forwarding headers are not
// trusted: any client could write them).
func peerAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// customer merges customer_id, the customer object and the flat (older)
// email/name/phone members (customer.PaymentCustomer).
func (req *paymentsRequest) customer() (*customer.CustomerInput, error) {
	var c paymentCustomerIn
	if req.Customer != nil {
		c = *req.Customer
	}
	return customer.PaymentCustomer(req.CustomerID, c.ID, customer.CustomerInput{
		Name:             firstGiven(c.Name, req.Name),
		Email:            firstGiven(c.Email, req.Email),
		Phone:            firstGiven(c.Phone, req.Phone),
		PhoneCountryCode: firstGiven(c.PhoneCountryCode, req.PhoneCountryCode),
	})
}

func firstGiven(vs ...*string) *string {
	for _, v := range vs {
		if v != nil {
			return v
		}
	}
	return nil
}

// paymentMethod maps payment_method_data (with payment_method and
// payment_method_type) onto the domain's payment method.
func (req *paymentsRequest) paymentMethod() (*customer.PaymentMethodInput, error) {
	if given(req.PaymentToken) {
		return req.savedMethod()
	}
	d := req.PaymentMethodData
	if d == nil {
		return nil, nil
	}
	if d.CardToken != nil {
		return nil, errs.MissingField("payment_token")
	}
	for name, raw := range map[string]json.RawMessage{
		"network_token": d.NetworkToken, "vault_data_card": d.VaultDataCard, "vault_card_token_data": d.VaultCardTokenData,
	} {
		if given(raw) {
			return nil, errs.ErrNotSupported.Detailf("%s is not served by the sandbox", name).WithField("payment_method_data." + name)
		}
	}
	data := customer.PaymentMethodData{Billing: d.Billing, Card: d.Card.domain(), Reward: d.Bare == "reward"}
	if d.Bare == "mandate_payment" {
		return nil, nil // the mandate (mandate_id) says what is charged
	}
	if err := data.AddFamilies(d.families()); err != nil {
		return nil, err
	}
	data.Upi = d.Upi.Data()
	return data.Method(req.PaymentMethod, req.PaymentMethodType)
}

// savedMethod maps payment_token (a saved method's payment_method_id, as
// the customer's method list gives it) and payment_method_data.card_token
// onto the domain's payment method; card details beside it are refused.
func (req *paymentsRequest) savedMethod() (*customer.PaymentMethodInput, error) {
	var token string
	if err := json.Unmarshal(req.PaymentToken, &token); err != nil || token == "" {
		return nil, errs.InvalidValue("payment_token", "must be the payment_token of a saved payment method")
	}
	pm := &customer.PaymentMethodInput{Type: "card", SavedToken: token, SavedCVC: req.CardCVC}
	if req.PaymentMethod != nil && *req.PaymentMethod != "card" {
		return nil, errs.InvalidValue("payment_method", "a payment_token pays with a saved card: payment_method must be card")
	}
	if d := req.PaymentMethodData; d != nil {
		if d.Card != nil {
			return nil, errs.InvalidValue("payment_token", "cannot be given with payment_method_data.card: it names a saved card")
		}
		if ct := d.CardToken; ct != nil && ct.CardCVC != nil {
			pm.SavedCVC = ct.CardCVC
		}
		pm.Billing = d.Billing
	}
	return pm, nil
}

// clientSettable are the members a publishable key may send to confirm: the
// customer's payment method and what the browser knows. The rest of the
// payment is the merchant's to set, with its secret key.
var clientSettable = map[string]bool{
	"client_secret": true, "payment_id": true, "payment_method": true, "payment_method_type": true,
	"payment_method_data": true, "browser_info": true, "billing": true, "shipping": true,
	"return_url": true, "setup_future_usage": true, "customer_acceptance": true,
	"payment_experience": true, "payment_token": true, "all_keys_required": true,
	"ctp_service_details": true, "threeds_method_comp_ind": true,
	// What Hyperswitch's checkout SDK sends beside the card: the intent's
	// own payment_type, the customer's consent to a mandate, the chosen
	// installment plan, the surcharge it showed, a saved card's CVC and the
	// payment's customer (the payment type, surcharge and customer are
	// held to the payment's own by the domain: payments.holdClientMembers).
	"payment_type": true, "mandate_data": true, "installment_data": true, "surcharge_details": true,
	"card_cvc": true, "customer_id": true,
}

// v1FieldNames are the domain's names for members v1 names otherwise.
var v1FieldNames = map[string]string{"statement_descriptor": "statement_descriptor_name"}

// v1Error names the offending member as the v1 request does.
func v1Error(err error) error { return renameField(err, v1FieldNames) }

// errClientMember refuses a member a publishable key may not set.
func errClientMember(name string) error {
	e := errs.Forbidden(name)
	e.Message = "Access forbidden: " + name + " cannot be set with a publishable key; use the secret key"
	e.Field = name
	return e
}

// checkClientMembers refuses, for a publishable key, every member it may not
// set.
func (req *paymentsRequest) checkClientMembers() error {
	v := reflect.ValueOf(req).Elem()
	t := v.Type()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		f := v.Field(i)
		if f.IsZero() || clientSettable[name] {
			continue
		}
		if raw, ok := f.Interface().(json.RawMessage); ok && !given(raw) {
			continue
		}
		return errClientMember(name)
	}
	return nil
}

// samePaymentID refuses a body payment_id that is not the path's.
func samePaymentID(body *string, path string) error {
	if body != nil && *body != path {
		return errs.InvalidValue("payment_id", "must match the payment id in the path")
	}
	return nil
}

// registerPayments adds the v1 payment routes and the sandbox's 3-D Secure
// page. Confirm and retrieve are the client-side routes: they also take the
// publishable key, with the payment's client secret.
func registerPayments(a *api, svc *payments.Service) {
	a.handle("POST /payments", MerchantOrAdmin, withBody(func(r *http.Request, req *paymentsRequest) (any, error) {
		in, err := req.createInput(r)
		if err != nil {
			return nil, err
		}
		in.Idempotency = idempotencyRef(r)
		view, err := svc.CreatePayment(r.Context(), in)
		return respond(paymentResponse)(view, v1Error(err))
	}))
	a.handle("GET /payments/{payment_id}", ClientOrMerchant, func(r *http.Request) (any, error) {
		var in payments.RetrieveInput
		q := r.URL.Query()
		if q.Has("client_secret") {
			s := q.Get("client_secret")
			in.ClientSecret = &s
		}
		if q.Has("force_sync") {
			v, err := strconv.ParseBool(q.Get("force_sync"))
			if err != nil {
				return nil, errs.InvalidValue("force_sync", "must be true or false, got %q", q.Get("force_sync"))
			}
			in.ForceSync = v
		}
		return respond(paymentResponse)(svc.RetrievePayment(r.Context(), r.PathValue("payment_id"), in))
	})
	a.handle("POST /payments/{payment_id}", MerchantOrAdmin, withBody(changePayment((*paymentsRequest).patch, svc.UpdatePayment)))
	a.handle("POST /payments/{payment_id}/confirm", ClientOrMerchant, withOptionalBody(changePayment((*paymentsRequest).confirmInput, svc.ConfirmPayment)))
	a.handle("POST /payments/{payment_id}/capture", MerchantOrAdmin, withOptionalBody(func(r *http.Request, req *paymentsCaptureRequest) (any, error) {
		return respond(paymentResponse)(svc.CapturePayment(r.Context(), r.PathValue("payment_id"),
			payments.CaptureInput{AmountToCapture: req.AmountToCapture}))
	}))
	a.handle("POST /payments/{payment_id}/cancel", MerchantOrAdmin, withOptionalBody(func(r *http.Request, req *paymentsCancelRequest) (any, error) {
		return respond(paymentResponse)(svc.CancelPayment(r.Context(), r.PathValue("payment_id"), req.CancellationReason))
	}))
	// The sandbox's stand-in for the customer, their bank or the shop's
	// till, for a merchant's tests: see docs/sandbox.md.
	a.handle("POST /sandbox/payments/{payment_id}/customer_action", MerchantOrAdmin, withBody(func(r *http.Request, req *sandboxCustomerActionRequest) (any, error) {
		if req.Approve == nil {
			return nil, errs.MissingField("approve")
		}
		return respond(paymentResponse)(svc.SimulateCustomerAction(r.Context(), r.PathValue("payment_id"), *req.Approve))
	}))
	registerSandboxPages(a.mux, svc)
}

// sandboxCustomerActionRequest is what the customer did: approve (true:
// approved on the page, paid the transfer or the voucher) or not (declined,
// or let the transfer or voucher expire unpaid).
type sandboxCustomerActionRequest struct {
	Approve *bool `json:"approve"`
}

// changePayment is a v1 route that changes the payment of its path: read
// makes the body op's input (what it refuses is the answer), and op's
// errors name members as v1 does.
func changePayment[In any](read func(*paymentsRequest, *http.Request) (In, error),
	op func(context.Context, string, In) (*payments.PaymentView, error)) func(*http.Request, *paymentsRequest) (any, error) {
	return func(r *http.Request, req *paymentsRequest) (any, error) {
		in, err := read(req, r)
		if err != nil {
			return nil, err
		}
		view, err := op(r.Context(), r.PathValue("payment_id"), in)
		return respond(paymentResponse)(view, v1Error(err))
	}
}

// createInput is the create's domain input: amount and currency required.
func (req *paymentsRequest) createInput(r *http.Request) (payments.PaymentInput, error) {
	amount, currency, err := payments.RequireAmount(req.Amount, req.Currency, "amount", "currency")
	if err != nil {
		return payments.PaymentInput{}, err
	}
	f, err := req.fields(r)
	if err != nil {
		return payments.PaymentInput{}, err
	}
	if err := checkLinkConfig("payment_link_config", req.PaymentLinkConfig); err != nil {
		return payments.PaymentInput{}, err
	}
	return payments.PaymentInput{
		PaymentID: req.PaymentID, ProfileID: req.ProfileID, Amount: amount, Currency: currency,
		Confirm: req.Confirm != nil && *req.Confirm, PaymentFields: f,
		PaymentLink: req.PaymentLink != nil && *req.PaymentLink, PaymentLinkConfigID: req.PaymentLinkConfigID,
	}, nil
}

// patch is the update's domain input: the payment (r's) and its profile
// stay as they are.
func (req *paymentsRequest) patch(r *http.Request) (payments.PaymentPatch, error) {
	if err := samePaymentID(req.PaymentID, r.PathValue("payment_id")); err != nil {
		return payments.PaymentPatch{}, err
	}
	if req.ProfileID != nil {
		return payments.PaymentPatch{}, errs.InvalidValue("profile_id", "cannot be changed once the payment is created")
	}
	f, err := req.fields(r)
	if err != nil {
		return payments.PaymentPatch{}, err
	}
	return payments.PaymentPatch{Amount: req.Amount, Currency: req.Currency, PaymentFields: f,
		Confirm: req.Confirm != nil && *req.Confirm}, nil
}

// confirmInput is the confirm's domain input. A client (publishable key)
// may send only the client members; the amount is fixed by the time the
// customer confirms (change it with an update first).
func (req *paymentsRequest) confirmInput(r *http.Request) (payments.ConfirmInput, error) {
	if principal(r).ClientOnly {
		if err := req.checkClientMembers(); err != nil {
			return payments.ConfirmInput{}, err
		}
	}
	if err := samePaymentID(req.PaymentID, r.PathValue("payment_id")); err != nil {
		return payments.ConfirmInput{}, err
	}
	for _, m := range []struct {
		name  string
		given bool
	}{{"amount", req.Amount != nil}, {"currency", req.Currency != nil}, {"profile_id", req.ProfileID != nil}} {
		if m.given {
			return payments.ConfirmInput{}, errs.InvalidValue(m.name, "cannot be changed when confirming; update the payment first")
		}
	}
	if req.Confirm != nil && !*req.Confirm {
		return payments.ConfirmInput{}, errs.InvalidValue("confirm", "must be true (or absent) on confirm")
	}
	f, err := req.fields(r)
	if err != nil {
		return payments.ConfirmInput{}, err
	}
	return payments.ConfirmInput{PaymentFields: f, ClientSecret: req.ClientSecret}, nil
}

// domain is three_ds_data as the payment takes it (nil when not given).
func (in *externalThreeDSDataIn) domain() *payments.ExternalThreeDSData {
	if in == nil {
		return nil
	}
	out := &payments.ExternalThreeDSData{DSTransID: in.DsTransID, Version: in.Version, ECI: in.Eci,
		TransStatus: deref(in.TransactionStatus)}
	if c := in.AuthenticationCryptogram; c != nil && c.Cavv != nil {
		out.Cryptogram = deref(c.Cavv.AuthenticationCryptogram)
	}
	return out
}

// cryptogramIn is Hyperswitch's Cryptogram (three_ds_data's
// authentication_cryptogram): the CAVV, the one variant there is.
type cryptogramIn struct {
	Cavv *struct {
		AuthenticationCryptogram *string `json:"authentication_cryptogram"`
	} `json:"cavv"`
}
