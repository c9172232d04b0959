package rest

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"switchyard/internal/auth"
	"switchyard/internal/tenancy"
	"switchyard/payments"
	"switchyard/payments/customer"
	"switchyard/payments/errs"
)

// The v2 payment intent routes: `Authorization: api-key=<key>` and
// `X-Profile-Id` (internal/auth reads both and checks that the profile is
// the merchant's). The {id} of a route is the payment's id: the payment_id,
// which for intents created here equals the internal pay_… id.

// fields maps the shared members (but amount_details, which create and
// update read differently) onto the domain's payment fields.
func (m *v2IntentMembers) fields(f *payments.PaymentFields) error {
	if err := checkOpenObjects(m.ConnectorMetadata, m.FeatureMetadata, m.PaymentLinkConfig); err != nil {
		return err
	}
	if err := v2Customer(m.CustomerID, f); err != nil {
		return err
	}
	f.MerchantReferenceID = m.MerchantReferenceID
	f.RoutingAlgorithmID = m.RoutingAlgorithmID
	f.CaptureMethod = m.CaptureMethod
	f.AuthenticationType = m.AuthenticationType
	f.Billing, f.Shipping = m.Billing, m.Shipping
	f.CustomerPresent = m.CustomerPresent
	f.Description, f.ReturnURL = m.Description, m.ReturnURL
	f.SetupFutureUsage = m.SetupFutureUsage
	f.ApplyMitExemption = m.ApplyMitExemption
	f.IntentStatementDescriptor = m.StatementDescriptor
	f.OrderDetails = m.OrderDetails
	f.AllowedPaymentMethodTypes = m.AllowedPaymentMethodTypes
	f.Metadata, f.ConnectorMetadata, f.FeatureMetadata = m.Metadata, m.ConnectorMetadata, m.FeatureMetadata
	f.PaymentLinkConfig = m.PaymentLinkConfig
	f.RequestIncrementalAuthorization = m.RequestIncrementalAuthorization
	f.SessionExpiry = m.SessionExpiry
	f.FrmMetadata = m.FrmMetadata
	f.RequestExternalThreeDSAuthentication = m.RequestExternalThreeDSAuthentication
	f.EnablePartialAuthorization = m.EnablePartialAuthorization
	return nil
}

// activeAttemptUpdate is UpdateActiveAttempt: {"Set": "<attempt id>"} or
// "Unset".
type activeAttemptUpdate payments.ActiveAttemptChange

func (u *activeAttemptUpdate) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		if s != "Unset" {
			return errs.InvalidValue("set_active_attempt_id", `must be {"Set": "<attempt id>"} or "Unset", got %q`, s)
		}
		*u = activeAttemptUpdate{Unset: true}
		return nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil || len(obj) != 1 || obj["Set"] == nil {
		return errs.InvalidValue("set_active_attempt_id", `must be {"Set": "<attempt id>"} or "Unset"`)
	}
	var id string
	if err := json.Unmarshal(obj["Set"], &id); err != nil || id == "" {
		return errs.InvalidValue("set_active_attempt_id.Set", "must be an attempt id (a non-empty string)")
	}
	*u = activeAttemptUpdate{ID: id}
	return nil
}

// checkClientMembers refuses, for a publishable key, the members only the
// merchant's server may send.
func (req *v2ConfirmRequest) checkClientMembers() error {
	for name, given := range map[string]bool{
		"merchant_connector_details":    req.MerchantConnectorDetails != nil,
		"webhook_url":                   req.WebhookURL != nil,
		"return_raw_connector_response": req.ReturnRawConnectorResponse != nil,
	} {
		if given {
			return errClientMember(name)
		}
	}
	return nil
}

// v2PaymentMethods is the v2 PaymentMethod enumeration.
var v2PaymentMethods = []string{"card", "card_redirect", "pay_later", "wallet", "bank_redirect", "bank_transfer",
	"crypto", "bank_debit", "reward", "real_time_payment", "upi", "voucher", "gift_card", "open_banking",
	"mobile_payment", "network_token"}

// v2Route is a v2 route: the caller is a merchant (its key, or the admin
// key with X-Merchant-Id) and names its profile in X-Profile-Id, which every
// v2 route requires before it reads anything else. A payment of another
// profile is then 404, like a foreign id (the domain reads within the
// principal's profile).
func v2Route(fn handlerFunc) handlerFunc {
	return func(r *http.Request) (any, error) {
		if principal(r).ProfileID == "" {
			return nil, errs.MissingField("X-Profile-Id")
		}
		return fn(r)
	}
}

// v2Result names a domain error's member as the v2 request does (v2Error).
func v2Result[T any](v T, err error) (T, error) { return v, v2Error(err) }

// v2FieldNames are the domain's names for members v2 nests or renames.
var v2FieldNames = map[string]string{
	"amount":              "amount_details.order_amount",
	"currency":            "amount_details.currency",
	"shipping_cost":       "amount_details.shipping_cost",
	"order_tax_amount":    "amount_details.order_tax_amount",
	"surcharge_amount":    "amount_details.surcharge_amount",
	"tax_on_surcharge":    "amount_details.tax_on_surcharge",
	"payment_method":      "payment_method_type",
	"payment_method_type": "payment_method_subtype",
}

// v2Error names the offending member as the v2 request does.
func v2Error(err error) error { return renameField(err, v2FieldNames) }

// renameField names the offending member of err by names (the domain's
// name to the request's), when it has another name there.
func renameField(err error, names map[string]string) error {
	e, ok := errs.As(err)
	if !ok || e.Field == "" {
		return err
	}
	name, ok := names[e.Field]
	if !ok {
		return err
	}
	out := *e
	out.Message = strings.Replace(e.Message, e.Field, name, 1)
	out.Field = name
	return &out
}

// fields maps the amount details onto the domain's members.
func (d *v2AmountDetails) fields(f *payments.PaymentFields) error {
	if d == nil {
		return nil
	}
	ext, err := eitherName("amount_details", "skip_external_tax_calculation", d.SkipExternalTaxCalculation,
		"external_tax_calculation", d.ExternalTaxCalculation)
	if err != nil {
		return err
	}
	sur, err := eitherName("amount_details", "skip_surcharge_calculation", d.SkipSurchargeCalculation,
		"surcharge_calculation", d.SurchargeCalculation)
	if err != nil {
		return err
	}
	f.ExternalTaxCalculation, f.SurchargeCalculation = ext, sur
	f.ShippingCost, f.OrderTaxAmount = d.ShippingCost, d.OrderTaxAmount
	f.SurchargeAmount, f.TaxOnSurcharge = d.SurchargeAmount, d.TaxOnSurcharge
	return nil
}

// eitherName reads a member that may come under two names, refusing two
// different values.
func eitherName(parent, a string, va *string, b string, vb *string) (*string, error) {
	if va != nil && vb != nil && *va != *vb {
		return nil, errs.InvalidValue(parent+"."+a, "and %s.%s name the same setting and disagree", parent, b)
	}
	if va != nil {
		return va, nil
	}
	return vb, nil
}

// checkOpenObjects checks the documented members of the open objects.
func checkOpenObjects(connectorMetadata, featureMetadata, paymentLinkConfig map[string]any) error {
	for _, c := range []struct {
		name  string
		v     map[string]any
		shape docShape
	}{
		{"connector_metadata", connectorMetadata, connectorMetadataShape},
		{"feature_metadata", featureMetadata, featureMetadataShape},
		{"payment_link_config", paymentLinkConfig, paymentLinkConfigShape},
	} {
		if c.v == nil {
			continue
		}
		if err := checkDoc(c.name, c.v, c.shape); err != nil {
			return err
		}
	}
	return nil
}

// v2 customer ids are 32 to 64 characters (the spec's limit for the
// intent's customer_id; v1 allows 1 to 64).
const (
	minV2CustomerID = 32
	maxV2CustomerID = 64
)

// v2Customer applies a v2 customer_id (32 to 64 characters).
func v2Customer(id *string, f *payments.PaymentFields) error {
	if id == nil {
		return nil
	}
	if n := len(*id); n < minV2CustomerID || n > maxV2CustomerID {
		return errs.InvalidValue("customer_id", "must be %d to %d characters, got %d", minV2CustomerID, maxV2CustomerID, n)
	}
	f.Customer = &customer.CustomerInput{ID: *id, Named: true}
	return nil
}

func (req *v2IntentCreateRequest) input(p tenancy.Principal) (payments.PaymentInput, error) {
	in := payments.PaymentInput{ProfileID: &p.ProfileID}
	d := req.AmountDetails
	if d == nil {
		return in, errs.MissingField("amount_details")
	}
	var err error
	if in.Amount, in.Currency, err = payments.RequireAmount(d.OrderAmount, d.Currency, "amount_details.order_amount", "amount_details.currency"); err != nil {
		return in, err
	}
	if err := d.fields(&in.PaymentFields); err != nil {
		return in, err
	}
	if err := req.v2IntentMembers.fields(&in.PaymentFields); err != nil {
		return in, err
	}
	in.PaymentLinkEnabled = req.PaymentLinkEnabled
	in.Force3DSChallenge = req.Force3DSChallenge
	return in, nil
}

func (req *v2IntentUpdateRequest) patch() (payments.PaymentPatch, error) {
	var pt payments.PaymentPatch
	if d := req.AmountDetails; d != nil {
		pt.Amount, pt.Currency = d.OrderAmount, d.Currency
		if err := d.fields(&pt.PaymentFields); err != nil {
			return pt, err
		}
	}
	if err := req.v2IntentMembers.fields(&pt.PaymentFields); err != nil {
		return pt, err
	}
	f := &pt.PaymentFields
	if a := req.SetActiveAttemptID; a != nil {
		c := payments.ActiveAttemptChange(*a)
		f.ActiveAttempt = &c
	}
	return pt, nil
}

func (req *v2ConfirmRequest) input() (payments.ConfirmInput, error) {
	var in payments.ConfirmInput
	if req.PaymentMethodType == nil {
		return in, errs.MissingField("payment_method_type")
	}
	pmType := *req.PaymentMethodType
	if !slices.Contains(v2PaymentMethods, pmType) {
		return in, errs.InvalidValue("payment_method_type", "%q is not a PaymentMethod; expected one of %s",
			pmType, strings.Join(v2PaymentMethods, ", "))
	}
	if req.PaymentMethodData == nil {
		return in, errs.MissingField("payment_method_data")
	}
	if len(req.SplitPaymentMethodData) > 0 {
		return in, errs.ErrFlowNotSupported.Newf("split payment flow not supported").WithField("split_payment_method_data")
	}
	if req.PaymentMethodID != nil || req.PaymentToken != nil {
		// No payment method is ever saved here, so none can be found.
		return in, errs.NotFound("Payment method")
	}
	if ca := req.CustomerAcceptance; ca != nil {
		if ca.AcceptanceType == nil {
			return in, errs.MissingField("customer_acceptance.acceptance_type")
		}
		if *ca.AcceptanceType != "online" && *ca.AcceptanceType != "offline" {
			return in, errs.InvalidValue("customer_acceptance.acceptance_type", "must be online or offline, got %q", *ca.AcceptanceType)
		}
	}
	pm, err := req.PaymentMethodData.method(pmType)
	if err != nil {
		return in, err
	}
	if req.PaymentMethodSubtype != nil {
		pm.Subtype = *req.PaymentMethodSubtype
	}
	in.PaymentMethod = pm
	in.ReturnURL = req.ReturnURL
	in.Shipping = req.Shipping
	in.BrowserInfo = req.BrowserInfo
	return in, nil
}

// method picks the one payment method member, which must be the one
// payment_method_type names.
func (d *v2PaymentMethodData) method(pmType string) (*customer.PaymentMethodInput, error) {
	given := map[string]bool{
		"card": d.Card != nil, "upi": d.Upi != nil, "wallet": d.Wallet != nil, "pay_later": d.PayLater != nil,
		"bank_redirect": d.BankRedirect != nil, "card_redirect": d.CardRedirect != nil,
		"bank_debit": d.BankDebit != nil, "bank_transfer": d.BankTransfer != nil,
		"real_time_payment": d.RealTimePayment != nil, "crypto": d.Crypto != nil, "voucher": d.Voucher != nil,
		"gift_card": d.GiftCard != nil, "card_token": d.CardToken != nil, "open_banking": d.OpenBanking != nil,
		"mobile_payment": d.MobilePayment != nil, "network_token": d.NetworkToken != nil,
	}
	var names []string
	for name, ok := range given {
		if ok {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	switch {
	case len(names) > 1:
		return nil, errs.InvalidValue("payment_method_data", "must hold one payment method, got %s", strings.Join(names, " and "))
	case len(names) == 1 && names[0] != pmType:
		return nil, errs.InvalidValue("payment_method_data", "holds %s, but payment_method_type is %s", names[0], pmType)
	case len(names) == 0 && pmType != "reward":
		return nil, errs.MissingField("payment_method_data." + pmType)
	}
	data := customer.PaymentMethodData{Billing: d.Billing, Reward: pmType == "reward"}
	if d.Card != nil {
		data.Card = &d.Card.CardInput
	}
	if u := d.Upi; u != nil {
		data.Upi = &customer.UpiData{Collect: u.UpiCollect != nil, Intent: u.UpiIntent != nil, QRCode: u.UpiQr != nil}
		if u.UpiCollect != nil {
			data.Upi.CollectVPA = u.UpiCollect.VpaID
		}
	}
	if err := data.AddFamilies(map[string]any{
		"wallet": d.Wallet, "pay_later": d.PayLater, "bank_redirect": d.BankRedirect, "card_redirect": d.CardRedirect,
		"bank_debit": d.BankDebit, "bank_transfer": d.BankTransfer, "real_time_payment": d.RealTimePayment,
		"crypto": d.Crypto, "voucher": d.Voucher, "gift_card": d.GiftCard, "open_banking": d.OpenBanking,
		"mobile_payment": d.MobilePayment,
	}); err != nil {
		return nil, err
	}
	if pmType == "network_token" {
		return &customer.PaymentMethodInput{Type: pmType, Billing: d.Billing}, nil // refused by the domain, IR_19
	}
	return data.Method(&pmType, nil)
}

// registerV2Payments adds the v2 payment intent routes.
func registerV2Payments(a *api, svc *payments.Service) {
	a.handle("POST /v2/payments/create-intent", MerchantOrAdmin, v2Route(withBody(func(r *http.Request, req *v2IntentCreateRequest) (any, error) {
		in, err := req.input(principal(r))
		if err != nil {
			return nil, err
		}
		in.Idempotency = idempotencyRef(r)
		return respond(intentBodyOf)(v2Result(svc.CreatePayment(r.Context(), in)))
	})))
	a.handle("GET /v2/payments/{id}/get-intent", MerchantOrAdmin, v2Route(func(r *http.Request) (any, error) {
		return respond(intentBodyOf)(svc.GetPayment(r.Context(), r.PathValue("id")))
	}))
	a.handle("PUT /v2/payments/{id}/update-intent", MerchantOrAdmin, v2Route(withBody(func(r *http.Request, req *v2IntentUpdateRequest) (any, error) {
		patch, err := req.patch()
		if err != nil {
			return nil, err
		}
		return respond(intentBodyOf)(v2Result(svc.UpdatePayment(r.Context(), r.PathValue("id"), patch)))
	})))
	// confirm-intent is the client's call in Hyperswitch v2: it also takes
	// `Authorization: publishable-key=<key>,client-secret=<secret>`.
	a.handle("POST /v2/payments/{id}/confirm-intent", ClientOrMerchant, v2Route(withBody(func(r *http.Request, req *v2ConfirmRequest) (any, error) {
		in, err := req.input()
		if err != nil {
			return nil, err
		}
		if principal(r).ClientOnly {
			if err := req.checkClientMembers(); err != nil {
				return nil, err
			}
			secret := auth.ClientSecretFromRequest(r)
			in.ClientSecret = &secret // checked by the domain: none or another payment's is refused
		}
		v, err := v2Result(svc.ConfirmPayment(r.Context(), r.PathValue("id"), in))
		if err != nil {
			return nil, err
		}
		return v2PaymentBodyOf(v, principal(r).MerchantID), nil
	})))
}
