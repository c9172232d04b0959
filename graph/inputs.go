package graph

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"

	"switchyard/ent/schema/schematype"
	"switchyard/graph/model"
	"switchyard/payments"
	"switchyard/payments/connector"
	"switchyard/payments/customer"
	"switchyard/payments/errs"
)

// The mutation inputs mapped onto the domain's, as rest/ maps the REST
// bodies: the same members, the same merging rules, the same errors. The
// nested members that are Maps in the schema (addresses, order lines,
// connector objects) are in the REST shape and decoded strictly: an unknown
// member or a wrong type is IR_06 naming the member, as a REST body's is.

// decodeMember reads a Map member into its domain type.
func decodeMember(field string, src, dst any) error {
	raw, err := json.Marshal(src)
	if err != nil {
		return errs.InvalidRequest("%s: %v", field, err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		if e, ok := errs.As(err); ok {
			return e
		}
		e := errs.InvalidRequest("%s: %s", field, strings.TrimPrefix(err.Error(), "json: "))
		e.Field = field
		return e
	}
	return nil
}

// decodeOptional reads an optional Map member (nil when absent) into its
// domain type.
func decodeOptional[T any](field string, m map[string]any) (*T, error) {
	if m == nil {
		return nil, nil
	}
	var v T
	if err := decodeMember(field, m, &v); err != nil {
		return nil, err
	}
	return &v, nil
}

// asMap is v as a JSON object (a domain value a Map field shows, or a
// decoded input the domain keeps as a map).
func asMap(v any) (map[string]any, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, errs.Internal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, errs.Internal(err)
	}
	return out, nil
}

// paymentFields maps the members create, update and confirm share.
func paymentFields(in *model.PaymentRequest) (payments.PaymentFields, error) {
	f := payments.PaymentFields{
		CaptureMethod:                in.CaptureMethod,
		CaptureOn:                    in.CaptureOn,
		AmountToCapture:              in.AmountToCapture,
		AuthenticationType:           in.AuthenticationType,
		Description:                  in.Description,
		ReturnURL:                    in.ReturnURL,
		StatementDescriptor:          in.StatementDescriptorName,
		StatementDescriptorSuffix:    in.StatementDescriptorSuffix,
		MerchantReferenceID:          in.MerchantReferenceID,
		MerchantOrderReferenceID:     in.MerchantOrderReferenceID,
		Metadata:                     in.Metadata,
		ConnectorMetadata:            in.ConnectorMetadata,
		FeatureMetadata:              in.FeatureMetadata,
		FrmMetadata:                  in.FrmMetadata,
		PaymentLinkConfig:            in.PaymentLinkConfig,
		SetupFutureUsage:             in.SetupFutureUsage,
		OffSession:                   in.OffSession,
		PaymentType:                  in.PaymentType,
		Connectors:                   in.Connector,
		SessionExpiry:                in.SessionExpiry,
		ShippingCost:                 in.ShippingCost,
		OrderTaxAmount:               in.OrderTaxAmount,
		BusinessCountry:              in.BusinessCountry,
		BusinessLabel:                in.BusinessLabel,
		BusinessSubLabel:             in.BusinessSubLabel,
		AllowedPaymentMethodTypes:    in.AllowedPaymentMethodTypes,
		EnablePartialAuthorization:   in.EnablePartialAuthorization,
		RequestExtendedAuthorization: in.RequestExtendedAuthorization,
		EnableOvercapture:            in.EnableOvercapture,
		Force3DSChallenge:            in.Force3DSChallenge,
		IsIframeRedirectionEnabled:   in.IsIframeRedirectionEnabled,
	}
	if in.CaptureOn != nil {
		t := in.CaptureOn.UTC()
		f.CaptureOn = &t
	}
	var err error
	if f.Billing, err = decodeOptional[schematype.AddressWrapper]("billing", in.Billing); err != nil {
		return f, err
	}
	if f.Shipping, err = decodeOptional[schematype.AddressWrapper]("shipping", in.Shipping); err != nil {
		return f, err
	}
	if in.OrderDetails != nil {
		if err := decodeMember("orderDetails", in.OrderDetails, &f.OrderDetails); err != nil {
			return f, err
		}
	}
	// The browser details, as strictly as REST's.
	if f.BrowserInfo, err = decodeOptional[payments.BrowserInfo]("browserInfo", in.BrowserInfo); err != nil {
		return f, err
	}
	if s := in.SurchargeDetails; s != nil {
		amount := int64(s.SurchargeAmount)
		f.SurchargeAmount = &amount
		if s.TaxAmount != nil {
			tax := int64(*s.TaxAmount)
			f.TaxOnSurcharge = &tax
		}
	}
	f.RequestIncrementalAuthorization = payments.IncrementalAuthorizationFlag(in.RequestIncrementalAuthorization)
	f.RequestExternalThreeDSAuthentication = payments.ExternalThreeDSFlag(in.RequestExternalThreeDSAuthentication)
	if f.Customer, err = customerOf(in); err != nil {
		return f, err
	}
	if f.PaymentMethod, err = paymentMethodOf(in); err != nil {
		return f, err
	}
	return f, nil
}

// customerOf merges customerID and the customer object
// (customer.PaymentCustomer, as REST does).
func customerOf(in *model.PaymentRequest) (*customer.CustomerInput, error) {
	var c model.PaymentCustomerInput
	if in.Customer != nil {
		c = *in.Customer
	}
	return customer.PaymentCustomer(in.CustomerID, c.ID,
		customer.CustomerInput{Name: c.Name, Email: c.Email, Phone: c.Phone, PhoneCountryCode: c.PhoneCountryCode})
}

// paymentMethodOf maps paymentMethodData (with paymentMethod and
// paymentMethodType) onto the domain's payment method, as REST does.
func paymentMethodOf(in *model.PaymentRequest) (*customer.PaymentMethodInput, error) {
	d := in.PaymentMethodData
	if d == nil {
		return nil, nil
	}
	billing, err := decodeOptional[schematype.AddressWrapper]("payment_method_data.billing", d.Billing)
	if err != nil {
		return nil, err
	}
	data := customer.PaymentMethodData{Billing: billing, Card: d.Card, Reward: d.Reward != nil && *d.Reward}
	if err := data.AddFamilies(map[string]any{
		"wallet": d.Wallet, "pay_later": d.PayLater, "bank_redirect": d.BankRedirect,
		"bank_transfer": d.BankTransfer, "bank_debit": d.BankDebit, "voucher": d.Voucher,
		"gift_card": d.GiftCard, "card_redirect": d.CardRedirect, "real_time_payment": d.RealTimePayment,
		"open_banking": d.OpenBanking, "mobile_payment": d.MobilePayment, "crypto": d.Crypto,
	}); err != nil {
		return nil, err
	}
	upi, err := decodeOptional[customer.UpiRequest]("payment_method_data.upi", d.Upi)
	if err != nil {
		return nil, err
	}
	data.Upi = upi.Data()
	return data.Method(in.PaymentMethod, in.PaymentMethodType)
}

// connectorFieldsOf maps a connector account input onto the members the
// domain's create and update share, its nested members decoded from their
// REST shape as strictly as a REST body.
func connectorFieldsOf(in *model.ConnectorAccountRequest) (connector.AccountFields, error) {
	f := connector.AccountFields{
		ConnectorType: connector.Type(in.ConnectorType), ConnectorLabel: in.ConnectorLabel,
		Metadata: in.Metadata, TestMode: in.TestMode, Disabled: in.Disabled, PmAuthConfig: in.PmAuthConfig,
	}
	for _, d := range []struct {
		field string
		src   any
		dst   any
		given bool
	}{
		{"connector_account_details", in.ConnectorAccountDetails, &f.AccountDetails, in.ConnectorAccountDetails != nil},
		{"payment_methods_enabled", in.PaymentMethodsEnabled, &f.PaymentMethodsEnabled, in.PaymentMethodsEnabled != nil},
		{"connector_webhook_details", in.ConnectorWebhookDetails, &f.WebhookDetails, in.ConnectorWebhookDetails != nil},
		{"frm_configs", in.FrmConfigs, &f.FrmConfigs, in.FrmConfigs != nil},
		{"additional_merchant_data", in.AdditionalMerchantData, &f.AdditionalMerchantData, in.AdditionalMerchantData != nil},
		{"connector_wallets_details", in.ConnectorWalletsDetails, &f.WalletsDetails, in.ConnectorWalletsDetails != nil},
	} {
		if d.given {
			if err := decodeMember(d.field, d.src, d.dst); err != nil {
				return f, err
			}
		}
	}
	if in.Status != nil {
		s := connector.AccountStatus(*in.Status)
		f.Status = &s
	}
	return f, nil
}

// expiration reads CreateApiKeyInput.expiration: "never" or an RFC 3339
// date-time (REST's Expiration).
func expiration(s string) (*time.Time, error) {
	if s == "never" {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return nil, errs.InvalidValue("expiration", `must be "never" or an ISO 8601 date-time, got %q`, s)
	}
	t = t.UTC()
	return &t, nil
}
