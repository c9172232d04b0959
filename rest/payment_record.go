package rest

import (
	"strconv"

	"switchyard/ent"
	"switchyard/ent/schema/schematype"
	"switchyard/payments"
)

// customerOut is the record's customer object, as Hyperswitch shows it:
// each member the customer's own, else the one the payment was given (a
// payment without a customer shows those, with a null id).
func customerOut(c *ent.Customer, given *schematype.CustomerDetails) *paymentCustomerOut {
	var (
		own *schematype.CustomerDetails
		id  *string
	)
	if c != nil {
		own = &schematype.CustomerDetails{Name: c.Name, Email: c.Email, Phone: c.Phone, PhoneCountryCode: c.PhoneCountryCode}
		id = &c.CustomerID
	}
	d := given.Merge(own)
	if d == nil {
		return nil
	}
	return &paymentCustomerOut{ID: id, Name: d.Name, Email: d.Email, Phone: d.Phone, PhoneCountryCode: d.PhoneCountryCode}
}

// paymentMethodDataOut is payment_method_data: the card as it may be shown
// (never its number) and the payment method's billing address.
type paymentMethodDataOut struct {
	Card    *paymentCardOut            `json:"card"`
	Billing *schematype.AddressWrapper `json:"billing"`
}

// unifiedCategories are Hyperswitch's UnifiedCode values.
var unifiedCategories = map[string]bool{"UE_1000": true, "UE_2000": true, "UE_3000": true, "UE_4000": true, "UE_9000": true}

// paymentRecordOf maps a payment and everything nested in it onto the
// record. The outcome (connector transaction, errors, card, next step)
// comes from the active attempt.
func paymentRecordOf(v *payments.PaymentView) paymentRecord {
	pi := v.Intent
	rec := paymentRecord{
		PaymentID:                pi.PaymentID,
		MerchantID:               pi.MerchantID,
		Status:                   string(pi.Status),
		Amount:                   pi.Amount,
		NetAmount:                v.NetAmount(),
		AmountCapturable:         pi.AmountCapturable,
		AmountReceived:           v.Received(),
		ShippingCost:             pi.ShippingCost,
		OrderTaxAmount:           pi.OrderTaxAmount,
		ProcessorMerchantID:      pi.MerchantID,
		Currency:                 string(pi.Currency),
		AttemptCount:             pi.AttemptCount,
		Connector:                pi.Connector,
		ClientSecret:             pi.ClientSecret,
		ProfileID:                pi.ProfileID,
		MerchantConnectorID:      pi.MerchantConnectorID,
		MerchantOrderReferenceID: pi.MerchantOrderReferenceID,

		Created:    Timestamp(pi.CreatedAt),
		ModifiedAt: Timestamp(pi.ModifiedAt),
		Updated:    Timestamp(pi.ModifiedAt),
		CaptureOn:  ts(pi.CaptureOn),
		ExpiresOn:  Timestamp(pi.ExpiresOn),

		MandateID:        pi.MandateID,
		MandateData:      pi.MandateData,
		SetupFutureUsage: enumString(pi.SetupFutureUsage),
		OffSession:       pi.OffSession,

		CaptureMethod:             string(pi.CaptureMethod),
		PaymentMethod:             pi.PaymentMethod,
		PaymentMethodType:         pi.PaymentMethodType,
		AllowedPaymentMethodTypes: pi.AllowedPaymentMethodTypes,

		Shipping: pi.Shipping,
		Billing:  pi.Billing,

		Description:               pi.Description,
		ReturnURL:                 pi.ReturnURL,
		OrderDetails:              pi.OrderDetails,
		StatementDescriptorName:   pi.StatementDescriptor,
		StatementDescriptorSuffix: pi.StatementDescriptorSuffix,
		BusinessCountry:           pi.BusinessCountry,
		BusinessLabel:             pi.BusinessLabel,
		BusinessSubLabel:          pi.BusinessSubLabel,
		CancellationReason:        pi.CancellationReason,

		AuthenticationType: enumString(pi.AuthenticationType),
		Force3DSChallenge:  pi.Force3dsChallenge,

		FrmMetadata:       pi.FrmMetadata,
		Metadata:          pi.Metadata,
		ConnectorMetadata: pi.ConnectorMetadata,
		FeatureMetadata:   pi.FeatureMetadata,
		PaymentLink:       paymentLinkOf(pi.PaymentLink),

		AuthorizationCount: pi.AuthorizationCount,

		RequestExtendedAuthorization: pi.RequestExtendedAuthorization,
		EnablePartialAuthorization:   pi.EnablePartialAuthorization,
		EnableOvercapture:            pi.EnableOvercapture,
		IsIframeRedirectionEnabled:   pi.IsIframeRedirectionEnabled,
	}
	if pi.SurchargeAmount != nil {
		rec.SurchargeDetails = &surchargeOut{SurchargeAmount: *pi.SurchargeAmount, TaxAmount: pi.TaxOnSurcharge}
	}
	rec.Customer = customerOut(v.Customer, pi.CustomerDetails)
	if c := v.Customer; c != nil {
		rec.CustomerID = &c.CustomerID
		rec.Email, rec.Name, rec.Phone = c.Email, c.Name, c.Phone
	}
	rec.IncrementalAuthorizationAllowed = v.IncrementalAuthorizationAllowed()
	if a := v.Active; a != nil {
		rec.ConnectorTransactionID = a.ConnectorTransactionID
		rec.ExtendedAuthorizationApplied = a.ExtendedAuthorizationApplied
		rec.ExtendedAuthorizationLastAppliedAt = ts(a.ExtendedAuthorizationLastAppliedAt)
		rec.ReferenceID = a.ReferenceID
		rec.ConnectorMandateID = a.PaymentToken
		rec.PaymentExperience = a.PaymentExperience
		rec.PaymentMethodID = a.PaymentMethodID
		rec.NetworkTransactionID = a.NetworkTransactionID
		rec.ErrorCode = a.ErrorCode
		rec.ErrorMessage = a.ErrorMessage
		rec.UnifiedCode = a.UnifiedCode
		rec.UnifiedMessage = a.UnifiedMessage
		rec.IssuerErrorCode = a.IssuerErrorCode
		rec.IssuerErrorMessage = a.IssuerErrorMessage
		rec.ErrorDetails = errorDetailsOf(a, pi.CardNetwork)
		if a.NetworkAdviceCode != nil {
			rec.NetworkDetails = &paymentNetworkInfo{NetworkAdviceCode: a.NetworkAdviceCode}
		}
		if a.Card != nil || a.PaymentMethodBilling != nil {
			rec.PaymentMethodData = &paymentMethodDataOut{Card: cardOutOf(a), Billing: a.PaymentMethodBilling}
		}
		rec.BrowserInfo = payments.BrowserInfoOf(a.BrowserInfo)
		rec.ExternalAuthenticationDetails, rec.External3DSAuthenticationAttempted = externalAuthOf(a)
	}
	rec.NextAction = v.NextAction()
	rec.ManualRetryAllowed = v.ManualRetryAllowed()
	for _, r := range v.Refunds {
		rec.Refunds = append(rec.Refunds, refundBodyOf(r, pi.PaymentID))
	}
	for _, d := range v.Disputes {
		rec.Disputes = append(rec.Disputes, paymentDisputeRecord{
			DisputeID: d.ID, Amount: strconv.FormatInt(d.Amount, 10),
			DisputeStage: string(d.DisputeStage), DisputeStatus: string(d.DisputeStatus),
			ConnectorStatus: d.ConnectorStatus, ConnectorDisputeID: d.ConnectorDisputeID,
			CreatedAt: Timestamp(d.CreatedAt), ConnectorReason: d.ConnectorReason,
			ConnectorReasonCode: d.ConnectorReasonCode, ChallengeRequiredBy: ts(d.ChallengeRequiredBy),
			ConnectorCreatedAt: ts(d.ConnectorCreatedAt), ConnectorUpdatedAt: ts(d.ConnectorUpdatedAt),
		})
	}
	for _, a := range v.Attempts {
		rec.Attempts = append(rec.Attempts, paymentAttemptRecord{
			AttemptID: a.ID, Status: string(a.Status), Amount: a.Amount,
			CreatedAt: Timestamp(a.CreatedAt), ModifiedAt: Timestamp(a.ModifiedAt),
			OrderTaxAmount: a.OrderTaxAmount, Currency: string(a.Currency), Connector: a.Connector,
			ErrorMessage: a.ErrorMessage, PaymentMethod: a.PaymentMethod,
			ConnectorTransactionID: a.ConnectorTransactionID, CaptureMethod: enumString(a.CaptureMethod),
			AuthenticationType: enumString(a.AuthenticationType), CancellationReason: a.CancellationReason,
			MandateID: a.MandateID, ErrorCode: a.ErrorCode, ConnectorMetadata: a.ConnectorMetadata,
			PaymentExperience: a.PaymentExperience, PaymentMethodType: a.PaymentMethodType,
			ReferenceID: a.ReferenceID, UnifiedCode: a.UnifiedCode, UnifiedMessage: a.UnifiedMessage,
			ClientSource: a.ClientSource, ClientVersion: a.ClientVersion,
		})
	}
	for _, c := range v.Captures {
		rec.Captures = append(rec.Captures, paymentCaptureRecord{
			CaptureID: c.ID, Status: string(c.Status), Amount: c.Amount, Connector: c.Connector,
			AuthorizedAttemptID: c.AuthorizedAttemptID, CaptureSequence: c.CaptureSequence,
			Currency: string(c.Currency), ConnectorCaptureID: c.ConnectorCaptureID,
			ErrorMessage: c.ErrorMessage, ErrorCode: c.ErrorCode, ErrorReason: c.ErrorReason,
			ReferenceID: c.ReferenceID,
		})
	}
	for _, inc := range v.IncrementalAuthorizations {
		rec.IncrementalAuthorizations = append(rec.IncrementalAuthorizations, paymentIncrementalAuthRec{
			AuthorizationID: inc.ID, Amount: inc.Amount, Status: string(inc.Status),
			PreviouslyAuthorizedAmount: inc.PreviouslyAuthorizedAmount,
			ErrorCode:                  inc.ErrorCode, ErrorMessage: inc.ErrorMessage,
		})
	}
	return rec
}

// cardOutOf is the card of an attempt as it may be shown: never its number.
func cardOutOf(a *ent.PaymentAttempt) *paymentCardOut {
	c := a.Card
	if c == nil {
		return nil
	}
	out := &paymentCardOut{
		Last4: c.Last4, CardType: c.CardType, CardNetwork: c.CardNetwork, CardIssuer: c.CardIssuer,
		CardIssuingCountry: c.CardIssuingCntry, CardISIN: c.CardISIN, CardExtendedBIN: c.CardExtendedBIN,
		CardExpMonth: c.CardExpMonth, CardExpYear: c.CardExpYear, CardHolderName: c.CardHolderName,
		PaymentChecks: c.PaymentChecks,
	}
	if len(a.AuthenticationData) > 0 {
		out.AuthenticationData = a.AuthenticationData
	}
	return out
}

// errorDetailsOf is error_details: the connector's code, message and reason,
// the issuer's decline code with the network's advice, and the unified
// code when there is one. Null when the attempt carries no error.
func errorDetailsOf(a *ent.PaymentAttempt, network *string) *paymentErrorDetails {
	if a.ErrorCode == nil && a.ErrorMessage == nil && a.IssuerErrorCode == nil && a.UnifiedCode == nil {
		return nil
	}
	d := &paymentErrorDetails{}
	if a.ErrorCode != nil || a.ErrorMessage != nil {
		d.ConnectorDetails = &connectorErrorDetails{Code: a.ErrorCode, Message: a.ErrorMessage, Reason: a.ErrorReason}
	}
	if a.IssuerErrorCode != nil || a.NetworkAdviceCode != nil {
		d.IssuerDetails = &issuerErrorDetails{Code: a.IssuerErrorCode, Message: a.IssuerErrorMessage}
		if a.NetworkAdviceCode != nil {
			d.IssuerDetails.NetworkDetails = &issuerNetworkDetail{Name: network, AdviceCode: a.NetworkAdviceCode}
		}
	}
	if a.UnifiedCode != nil || a.UnifiedMessage != nil {
		// A unified code (UE_…) is the error's category; the standardised
		// code is another set, which attempts do not keep.
		d.UnifiedDetails = &unifiedErrorDetails{Message: a.UnifiedMessage}
		if a.UnifiedCode != nil && unifiedCategories[*a.UnifiedCode] {
			d.UnifiedDetails.Category = a.UnifiedCode
		}
	}
	return d
}

// enumString turns a stored optional enum (a named string type) into the
// wire's optional string.
func enumString[T ~string](v *T) *string {
	if v == nil {
		return nil
	}
	s := string(*v)
	return &s
}

// externalAuthOf is the attempt's external 3-D Secure authentication
// (external_authentication_details) and whether one was made
// (external_3ds_authentication_attempted); nil for an attempt without one.
func externalAuthOf(a *ent.PaymentAttempt) (*externalAuthOut, *bool) {
	if a.ExternalThreeDsStatus == nil {
		return nil, nil
	}
	attempted := true
	return &externalAuthOut{Status: enumString(a.ExternalThreeDsStatus), AuthenticationFlow: enumString(a.ExternalThreeDsFlow),
		ElectronicCommerceIndicator: a.ExternalThreeDsEci, DsTransactionID: a.ExternalThreeDsDsTransID,
		Version: a.ExternalThreeDsVersion, ErrorCode: a.ExternalThreeDsErrorCode, ErrorMessage: a.ExternalThreeDsErrorMessage}, &attempted
}
