package rest

import (
	"switchyard/ent"
	"switchyard/ent/schema/schematype"
	"switchyard/payments"
)

func v2EnumOr[T ~string](v *T, def string) string {
	if v == nil {
		return def
	}
	return string(*v)
}

// v2CustomerID is the merchant's id for the payment's customer (the
// payment row holds the internal cus_… id).
func v2CustomerID(v *payments.PaymentView) *string {
	if v.Customer == nil {
		return nil
	}
	id := v.Customer.CustomerID
	return &id
}

func intentBodyOf(v *payments.PaymentView) intentBody {
	pi := v.Intent
	return intentBody{
		ID:     pi.PaymentID,
		Status: string(pi.Status),
		AmountDetails: intentAmountDetails{
			OrderAmount:            pi.Amount,
			Currency:               string(pi.Currency),
			ExternalTaxCalculation: string(pi.ExternalTaxCalculation),
			SurchargeCalculation:   string(pi.SurchargeCalculation),
			ShippingCost:           pi.ShippingCost,
			OrderTaxAmount:         pi.OrderTaxAmount,
			SurchargeAmount:        pi.SurchargeAmount,
			TaxOnSurcharge:         pi.TaxOnSurcharge,
			AmountCaptured:         v.AmountReceived(),
		},
		ClientSecret:                         pi.ClientSecret,
		ProfileID:                            pi.ProfileID,
		CaptureMethod:                        string(pi.CaptureMethod),
		CustomerID:                           v2CustomerID(v),
		CustomerPresent:                      v2EnumOr(pi.CustomerPresent, "present"),
		SetupFutureUsage:                     v2EnumOr(pi.SetupFutureUsage, "on_session"),
		ApplyMitExemption:                    string(pi.ApplyMitExemption),
		PaymentLinkEnabled:                   string(pi.PaymentLinkEnabled),
		RequestIncrementalAuthorization:      string(pi.RequestIncrementalAuthorization),
		SplitTxnsEnabled:                     string(pi.SplitTxnsEnabled),
		ExpiresOn:                            Timestamp(pi.ExpiresOn),
		RequestExternalThreeDSAuthentication: string(pi.RequestExternalThreeDsAuthentication),
		PaymentType:                          string(pi.PaymentType),
		MerchantReferenceID:                  pi.MerchantReferenceID,
		RoutingAlgorithmID:                   pi.RoutingAlgorithmID,
		AuthenticationType:                   v2EnumOr(pi.AuthenticationType, "no_three_ds"),
		v2IntentDetails: v2IntentDetails{
			Billing: pi.Billing, Shipping: pi.Shipping, Description: pi.Description, ReturnURL: pi.ReturnURL,
			StatementDescriptor: pi.StatementDescriptor, OrderDetails: pi.OrderDetails,
			AllowedPaymentMethodTypes: pi.AllowedPaymentMethodTypes, Metadata: pi.Metadata,
			ConnectorMetadata: pi.ConnectorMetadata, FeatureMetadata: pi.FeatureMetadata,
			PaymentLinkConfig: pi.PaymentLinkConfig, FrmMetadata: pi.FrmMetadata,
		},
		EnablePartialAuthorization: pi.EnablePartialAuthorization,
	}
}

type v2PaymentMethodDataBody struct {
	Card    *v2CardBody                `json:"card,omitempty"`
	Billing *schematype.AddressWrapper `json:"billing"`
}

func v2Str(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func v2PaymentBodyOf(v *payments.PaymentView, merchantID string) v2PaymentBody {
	pi := v.Intent
	captured := v.AmountReceived()
	out := v2PaymentBody{
		ID:     pi.PaymentID,
		Status: string(pi.Status),
		Amount: v2PaymentAmount{
			OrderAmount:            pi.Amount,
			Currency:               string(pi.Currency),
			ShippingCost:           pi.ShippingCost,
			OrderTaxAmount:         pi.OrderTaxAmount,
			ExternalTaxCalculation: string(pi.ExternalTaxCalculation),
			SurchargeCalculation:   string(pi.SurchargeCalculation),
			SurchargeAmount:        pi.SurchargeAmount,
			TaxOnSurcharge:         pi.TaxOnSurcharge,
			NetAmount:              v.NetAmount(),
			AmountCapturable:       pi.AmountCapturable,
			AmountCaptured:         &captured,
		},
		CustomerID:                 v2CustomerID(v),
		ProcessorMerchantID:        merchantID,
		Connector:                  pi.Connector,
		Created:                    Timestamp(pi.CreatedAt),
		ModifiedAt:                 Timestamp(pi.ModifiedAt),
		PaymentMethodType:          pi.PaymentMethod,
		PaymentMethodSubtype:       pi.PaymentMethodType,
		MerchantConnectorID:        pi.MerchantConnectorID,
		Shipping:                   pi.Shipping,
		Billing:                    pi.Billing,
		ReturnURL:                  pi.ReturnURL,
		IsIframeRedirectionEnabled: pi.IsIframeRedirectionEnabled,
		MerchantReferenceID:        pi.MerchantReferenceID,
		FeatureMetadata:            pi.FeatureMetadata,
		Metadata:                   pi.Metadata,
	}
	out.AuthenticationType = v2Str(v2EnumOr(pi.AuthenticationType, "no_three_ds"))
	if a := v.Active; a != nil {
		out.Amount.AmountToCapture = a.AmountToCapture
		out.ConnectorTransactionID = a.ConnectorTransactionID
		out.ConnectorReferenceID = a.ReferenceID
		out.BrowserInfo = a.BrowserInfo
		out.PaymentMethodID = a.PaymentMethodID
		out.AuthenticationTypeApplied = v2Str(v2EnumOr(a.AuthenticationType, "no_three_ds"))
		out.PaymentMethodData = v2MethodDataOf(a)
		if a.ErrorCode != nil || a.ErrorMessage != nil {
			out.Error = &v2ErrorDetails{
				Code: v2Deref(a.ErrorCode), Message: v2Deref(a.ErrorMessage), Reason: a.ErrorReason,
				UnifiedCode: a.UnifiedCode, UnifiedMessage: a.UnifiedMessage,
				NetworkAdviceCode: a.NetworkAdviceCode, NetworkDeclineCode: a.NetworkDeclineCode,
			}
		}
	}
	out.NextAction = v.NextAction()
	return out
}

func v2Deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func v2MethodDataOf(a *ent.PaymentAttempt) *v2PaymentMethodDataBody {
	if a.Card == nil && a.PaymentMethodBilling == nil {
		return nil
	}
	out := &v2PaymentMethodDataBody{Billing: a.PaymentMethodBilling}
	if c := a.Card; c != nil {
		out.Card = &v2CardBody{
			Last4: v2Str(c.Last4), CardType: c.CardType, CardNetwork: c.CardNetwork, CardIssuer: c.CardIssuer,
			CardIssuingCountry: c.CardIssuingCntry, CardISIN: v2Str(c.CardISIN), CardExtendedBIN: c.CardExtendedBIN,
			CardExpMonth: v2Str(c.CardExpMonth), CardExpYear: v2Str(c.CardExpYear), CardHolderName: c.CardHolderName,
			PaymentChecks: c.PaymentChecks, AuthenticationData: a.AuthenticationData,
		}
	}
	return out
}
