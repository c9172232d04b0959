package rest

import (
	"switchyard/ent"
	"switchyard/ent/schema/schematype"
	"switchyard/payments"
)

// intentBody is the spec's payment intent object (Hyperswitch's
// PaymentsIntentResponse): every member present, null when absent.
// Members Hyperswitch requires show their documented default when the
// payment never set them.
type intentBody struct {
	ID                                   string              `json:"id"`
	Status                               string              `json:"status"`
	AmountDetails                        intentAmountDetails `json:"amount_details"`
	ClientSecret                         string              `json:"client_secret"`
	ProfileID                            string              `json:"profile_id"`
	CaptureMethod                        string              `json:"capture_method"`
	CustomerID                           *string             `json:"customer_id"`
	CustomerPresent                      string              `json:"customer_present"`
	SetupFutureUsage                     string              `json:"setup_future_usage"`
	ApplyMitExemption                    string              `json:"apply_mit_exemption"`
	PaymentLinkEnabled                   string              `json:"payment_link_enabled"`
	RequestIncrementalAuthorization      string              `json:"request_incremental_authorization"`
	SplitTxnsEnabled                     string              `json:"split_txns_enabled"`
	ExpiresOn                            Timestamp           `json:"expires_on"`
	RequestExternalThreeDSAuthentication string              `json:"request_external_three_ds_authentication"`
	PaymentType                          string              `json:"payment_type"`
	MerchantReferenceID                  *string             `json:"merchant_reference_id"`
	RoutingAlgorithmID                   *string             `json:"routing_algorithm_id"`
	AuthenticationType                   string              `json:"authentication_type"`
	v2IntentDetails
	EnablePartialAuthorization *bool `json:"enable_partial_authorization"`
}

// intentAmountDetails is AmountDetailsResponse, computed from the payment:
// amount_captured is what its captures have taken so far.
type intentAmountDetails struct {
	OrderAmount            int64  `json:"order_amount"`
	Currency               string `json:"currency"`
	ExternalTaxCalculation string `json:"external_tax_calculation"`
	SurchargeCalculation   string `json:"surcharge_calculation"`
	ShippingCost           *int64 `json:"shipping_cost"`
	OrderTaxAmount         *int64 `json:"order_tax_amount"`
	SurchargeAmount        *int64 `json:"surcharge_amount"`
	TaxOnSurcharge         *int64 `json:"tax_on_surcharge"`
	AmountCaptured         int64  `json:"amount_captured"`
}

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

// v2PaymentBody is the v2 PaymentsResponse that confirm-intent answers
// with: the payment after its attempt, with every member, null when absent.
type v2PaymentBody struct {
	ID                         string                     `json:"id"`
	Status                     string                     `json:"status"`
	Amount                     v2PaymentAmount            `json:"amount"`
	CustomerID                 *string                    `json:"customer_id"`
	ProcessorMerchantID        string                     `json:"processor_merchant_id"`
	Initiator                  *string                    `json:"initiator"`
	Connector                  *string                    `json:"connector"`
	Created                    Timestamp                  `json:"created"`
	ModifiedAt                 Timestamp                  `json:"modified_at"`
	PaymentMethodData          *v2PaymentMethodDataBody   `json:"payment_method_data"`
	PaymentMethodType          *string                    `json:"payment_method_type"`
	PaymentMethodSubtype       *string                    `json:"payment_method_subtype"`
	ConnectorTransactionID     *string                    `json:"connector_transaction_id"`
	ConnectorReferenceID       *string                    `json:"connector_reference_id"`
	MerchantConnectorID        *string                    `json:"merchant_connector_id"`
	BrowserInfo                map[string]any             `json:"browser_info"`
	Error                      *v2ErrorDetails            `json:"error"`
	Shipping                   *schematype.AddressWrapper `json:"shipping"`
	Billing                    *schematype.AddressWrapper `json:"billing"`
	Attempts                   []any                      `json:"attempts"`
	ConnectorTokenDetails      map[string]any             `json:"connector_token_details"`
	PaymentMethodID            *string                    `json:"payment_method_id"`
	NextAction                 map[string]any             `json:"next_action"`
	ReturnURL                  *string                    `json:"return_url"`
	AuthenticationType         *string                    `json:"authentication_type"`
	AuthenticationTypeApplied  *string                    `json:"authentication_type_applied"`
	IsIframeRedirectionEnabled *bool                      `json:"is_iframe_redirection_enabled"`
	MerchantReferenceID        *string                    `json:"merchant_reference_id"`
	RawConnectorResponse       *string                    `json:"raw_connector_response"`
	FeatureMetadata            map[string]any             `json:"feature_metadata"`
	Metadata                   map[string]any             `json:"metadata"`
}

// v2PaymentAmount is PaymentAmountDetailsResponse.
type v2PaymentAmount struct {
	OrderAmount            int64  `json:"order_amount"`
	Currency               string `json:"currency"`
	ShippingCost           *int64 `json:"shipping_cost"`
	OrderTaxAmount         *int64 `json:"order_tax_amount"`
	ExternalTaxCalculation string `json:"external_tax_calculation"`
	SurchargeCalculation   string `json:"surcharge_calculation"`
	SurchargeAmount        *int64 `json:"surcharge_amount"`
	TaxOnSurcharge         *int64 `json:"tax_on_surcharge"`
	NetAmount              int64  `json:"net_amount"`
	AmountToCapture        *int64 `json:"amount_to_capture"`
	AmountCapturable       int64  `json:"amount_capturable"`
	AmountCaptured         *int64 `json:"amount_captured"`
}

type v2PaymentMethodDataBody struct {
	Card    *v2CardBody                `json:"card,omitempty"`
	Billing *schematype.AddressWrapper `json:"billing"`
}

// v2CardBody is CardResponse: what is kept of a card.
type v2CardBody struct {
	Last4              *string           `json:"last4"`
	CardType           *string           `json:"card_type"`
	CardNetwork        *string           `json:"card_network"`
	CardIssuer         *string           `json:"card_issuer"`
	CardIssuingCountry *string           `json:"card_issuing_country"`
	CardISIN           *string           `json:"card_isin"`
	CardExtendedBIN    *string           `json:"card_extended_bin"`
	CardExpMonth       *string           `json:"card_exp_month"`
	CardExpYear        *string           `json:"card_exp_year"`
	CardHolderName     *string           `json:"card_holder_name"`
	PaymentChecks      map[string]string `json:"payment_checks"`
	AuthenticationData map[string]any    `json:"authentication_data"`
	AuthCode           *string           `json:"auth_code"`
}

// v2ErrorDetails is ErrorDetails.
type v2ErrorDetails struct {
	Code                string  `json:"code"`
	Message             string  `json:"message"`
	Reason              *string `json:"reason"`
	UnifiedCode         *string `json:"unified_code"`
	UnifiedMessage      *string `json:"unified_message"`
	NetworkAdviceCode   *string `json:"network_advice_code"`
	NetworkDeclineCode  *string `json:"network_decline_code"`
	NetworkErrorMessage *string `json:"network_error_message"`
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
