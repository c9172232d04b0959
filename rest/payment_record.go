package rest

import (
	"strconv"

	"switchyard/ent"
	"switchyard/ent/schema/schematype"
	"switchyard/payments"
)

// paymentRecord is the spec's full payment record ("Payment (list item)"),
// which is also Hyperswitch's PaymentsResponse: every payment route answers
// with it, and GET /payments/list returns a page of them. Every member of
// the spec's list is here, in its order, and a member without a value is
// null, never missing (hence no omitempty). paymentRecordOf is the one
// mapping from the domain's PaymentView.
type paymentRecord struct {
	// Identity and amounts.
	PaymentID                string  `json:"payment_id"`
	MerchantID               string  `json:"merchant_id"`
	Status                   string  `json:"status"`
	Amount                   int64   `json:"amount"`
	NetAmount                int64   `json:"net_amount"`
	AmountCapturable         int64   `json:"amount_capturable"`
	AmountReceived           *int64  `json:"amount_received"`
	ShippingCost             *int64  `json:"shipping_cost"`
	OrderTaxAmount           *int64  `json:"order_tax_amount"`
	ProcessorMerchantID      string  `json:"processor_merchant_id"`
	Currency                 string  `json:"currency"`
	AttemptCount             int     `json:"attempt_count"`
	Initiator                *string `json:"initiator"`
	Connector                *string `json:"connector"`
	ClientSecret             string  `json:"client_secret"`
	ProfileID                string  `json:"profile_id"`
	MerchantConnectorID      *string `json:"merchant_connector_id"`
	ConnectorLabel           *string `json:"connector_label"`
	ConnectorTransactionID   *string `json:"connector_transaction_id"`
	ReferenceID              *string `json:"reference_id"`
	MerchantOrderReferenceID *string `json:"merchant_order_reference_id"`
	Fingerprint              *string `json:"fingerprint"`
	MerchantDecision         *string `json:"merchant_decision"`

	// Times.
	Created                            Timestamp  `json:"created"`
	ModifiedAt                         Timestamp  `json:"modified_at"`
	Updated                            Timestamp  `json:"updated"`
	CaptureOn                          *Timestamp `json:"capture_on"`
	CaptureBefore                      *Timestamp `json:"capture_before"`
	ExpiresOn                          Timestamp  `json:"expires_on"`
	ExtendedAuthorizationLastAppliedAt *Timestamp `json:"extended_authorization_last_applied_at"`

	// Customer.
	CustomerID *string             `json:"customer_id"`
	Customer   *paymentCustomerOut `json:"customer"`
	Email      *string             `json:"email"`
	Name       *string             `json:"name"`
	Phone      *string             `json:"phone"`

	// Nested lists, oldest first; null when there are none, as Hyperswitch
	// answers.
	Refunds                   []refundBody                `json:"refunds"`
	Disputes                  []paymentDisputeRecord      `json:"disputes"`
	Attempts                  []paymentAttemptRecord      `json:"attempts"`
	Captures                  []paymentCaptureRecord      `json:"captures"`
	IncrementalAuthorizations []paymentIncrementalAuthRec `json:"incremental_authorizations"`

	// Mandates.
	MandateID          *string        `json:"mandate_id"`
	ConnectorMandateID *string        `json:"connector_mandate_id"`
	MandateData        map[string]any `json:"mandate_data"`
	SetupFutureUsage   *string        `json:"setup_future_usage"`
	OffSession         *bool          `json:"off_session"`
	IsStoredCredential *bool          `json:"is_stored_credential"`
	MitCategory        *string        `json:"mit_category"`

	// Method data.
	CaptureMethod                    string                   `json:"capture_method"`
	PaymentMethod                    *string                  `json:"payment_method"`
	PaymentMethodType                *string                  `json:"payment_method_type"`
	PaymentExperience                *string                  `json:"payment_experience"`
	PaymentMethodID                  *string                  `json:"payment_method_id"`
	PaymentMethodStatus              *string                  `json:"payment_method_status"`
	PaymentToken                     *string                  `json:"payment_token"`
	PaymentMethodData                *paymentMethodDataOut    `json:"payment_method_data"`
	CardDiscovery                    *string                  `json:"card_discovery"`
	AllowedPaymentMethodTypes        []string                 `json:"allowed_payment_method_types"`
	NetworkTransactionID             *string                  `json:"network_transaction_id"`
	PaymentChannel                   *string                  `json:"payment_channel"`
	Tokenization                     *string                  `json:"tokenization"`
	PaymentMethodTokenizationDetails *paymentTokenizationInfo `json:"payment_method_tokenization_details"`

	// Addresses.
	Shipping *schematype.AddressWrapper `json:"shipping"`
	Billing  *schematype.AddressWrapper `json:"billing"`

	// Text.
	Description               *string                  `json:"description"`
	ReturnURL                 *string                  `json:"return_url"`
	OrderDetails              []schematype.OrderDetail `json:"order_details"`
	StatementDescriptorName   *string                  `json:"statement_descriptor_name"`
	StatementDescriptorSuffix *string                  `json:"statement_descriptor_suffix"`
	BusinessCountry           *string                  `json:"business_country"`
	BusinessLabel             *string                  `json:"business_label"`
	BusinessSubLabel          *string                  `json:"business_sub_label"`
	CancellationReason        *string                  `json:"cancellation_reason"`

	// Authentication.
	AuthenticationType                 *string          `json:"authentication_type"`
	External3DSAuthenticationAttempted *bool            `json:"external_3ds_authentication_attempted"`
	ExternalAuthenticationDetails      *externalAuthOut `json:"external_authentication_details"`
	Force3DSChallenge                  *bool            `json:"force_3ds_challenge"`
	Force3DSChallengeTrigger           *bool            `json:"force_3ds_challenge_trigger"`

	// Outcome and next step.
	NextAction          map[string]any        `json:"next_action"`
	ErrorCode           *string               `json:"error_code"`
	ErrorMessage        *string               `json:"error_message"`
	UnifiedCode         *string               `json:"unified_code"`
	UnifiedMessage      *string               `json:"unified_message"`
	IssuerErrorCode     *string               `json:"issuer_error_code"`
	IssuerErrorMessage  *string               `json:"issuer_error_message"`
	ManualRetryAllowed  *bool                 `json:"manual_retry_allowed"`
	ErrorDetails        *paymentErrorDetails  `json:"error_details"`
	NetworkDetails      *paymentNetworkInfo   `json:"network_details"`
	FrmMessage          *paymentFrmMessage    `json:"frm_message"`
	FrmMetadata         map[string]any        `json:"frm_metadata"`
	Metadata            map[string]any        `json:"metadata"`
	ConnectorMetadata   map[string]any        `json:"connector_metadata"`
	FeatureMetadata     map[string]any        `json:"feature_metadata"`
	PaymentLink         *paymentLinkOut       `json:"payment_link"`
	SurchargeDetails    *surchargeOut         `json:"surcharge_details"`
	IncrementalAuthOK   *bool                 `json:"incremental_authorization_allowed"`
	AuthorizationCount  *int                  `json:"authorization_count"`
	BrowserInfo         *payments.BrowserInfo `json:"browser_info"`
	SplitPayments       map[string]any        `json:"split_payments"`
	ExtendedAuthApplied *bool                 `json:"extended_authorization_applied"`

	// Extras (the flags).
	RequestExtendedAuthorization     *bool           `json:"request_extended_authorization"`
	EnablePartialAuthorization       *bool           `json:"enable_partial_authorization"`
	EnableOvercapture                *bool           `json:"enable_overcapture"`
	IsOvercaptureEnabled             *bool           `json:"is_overcapture_enabled"`
	IsIframeRedirectionEnabled       *bool           `json:"is_iframe_redirection_enabled"`
	WholeConnectorResponse           *string         `json:"whole_connector_response"`
	BillingDescriptor                *billingDescOut `json:"billing_descriptor"`
	PartnerMerchantIdentifierDetails *partnerDetails `json:"partner_merchant_identifier_details"`
}

// paymentCustomerOut is the record's customer object.
type paymentCustomerOut struct {
	ID               *string `json:"id"`
	Name             *string `json:"name"`
	Email            *string `json:"email"`
	Phone            *string `json:"phone"`
	PhoneCountryCode *string `json:"phone_country_code"`
}

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

// paymentDisputeRecord is the spec's dispute record (amount as a string, as
// Hyperswitch's StringMinorUnit).
type paymentDisputeRecord struct {
	DisputeID           string     `json:"dispute_id"`
	Amount              string     `json:"amount"`
	DisputeStage        string     `json:"dispute_stage"`
	DisputeStatus       string     `json:"dispute_status"`
	ConnectorStatus     string     `json:"connector_status"`
	ConnectorDisputeID  string     `json:"connector_dispute_id"`
	CreatedAt           Timestamp  `json:"created_at"`
	ConnectorReason     *string    `json:"connector_reason"`
	ConnectorReasonCode *string    `json:"connector_reason_code"`
	ChallengeRequiredBy *Timestamp `json:"challenge_required_by"`
	ConnectorCreatedAt  *Timestamp `json:"connector_created_at"`
	ConnectorUpdatedAt  *Timestamp `json:"connector_updated_at"`
}

// paymentAttemptRecord is the spec's attempt record.
type paymentAttemptRecord struct {
	AttemptID              string         `json:"attempt_id"`
	Status                 string         `json:"status"`
	Amount                 int64          `json:"amount"`
	CreatedAt              Timestamp      `json:"created_at"`
	ModifiedAt             Timestamp      `json:"modified_at"`
	OrderTaxAmount         *int64         `json:"order_tax_amount"`
	Currency               string         `json:"currency"`
	Connector              *string        `json:"connector"`
	ErrorMessage           *string        `json:"error_message"`
	PaymentMethod          *string        `json:"payment_method"`
	ConnectorTransactionID *string        `json:"connector_transaction_id"`
	CaptureMethod          *string        `json:"capture_method"`
	AuthenticationType     *string        `json:"authentication_type"`
	CancellationReason     *string        `json:"cancellation_reason"`
	MandateID              *string        `json:"mandate_id"`
	ErrorCode              *string        `json:"error_code"`
	PaymentToken           *string        `json:"payment_token"`
	ConnectorMetadata      map[string]any `json:"connector_metadata"`
	PaymentExperience      *string        `json:"payment_experience"`
	PaymentMethodType      *string        `json:"payment_method_type"`
	ReferenceID            *string        `json:"reference_id"`
	UnifiedCode            *string        `json:"unified_code"`
	UnifiedMessage         *string        `json:"unified_message"`
	ClientSource           *string        `json:"client_source"`
	ClientVersion          *string        `json:"client_version"`
}

// paymentCaptureRecord is the spec's capture record.
type paymentCaptureRecord struct {
	CaptureID           string  `json:"capture_id"`
	Status              string  `json:"status"`
	Amount              int64   `json:"amount"`
	Connector           *string `json:"connector"`
	AuthorizedAttemptID string  `json:"authorized_attempt_id"`
	CaptureSequence     int     `json:"capture_sequence"`
	Currency            string  `json:"currency"`
	ConnectorCaptureID  *string `json:"connector_capture_id"`
	ErrorMessage        *string `json:"error_message"`
	ErrorCode           *string `json:"error_code"`
	ErrorReason         *string `json:"error_reason"`
	ReferenceID         *string `json:"reference_id"`
}

// paymentIncrementalAuthRec is the spec's incremental-authorization record.
type paymentIncrementalAuthRec struct {
	AuthorizationID            string  `json:"authorization_id"`
	Amount                     int64   `json:"amount"`
	Status                     string  `json:"status"`
	PreviouslyAuthorizedAmount int64   `json:"previously_authorized_amount"`
	ErrorCode                  *string `json:"error_code"`
	ErrorMessage               *string `json:"error_message"`
}

// paymentMethodDataOut is payment_method_data: the card as it may be shown
// (never its number) and the payment method's billing address.
type paymentMethodDataOut struct {
	Card    *paymentCardOut            `json:"card"`
	Billing *schematype.AddressWrapper `json:"billing"`
}

type paymentCardOut struct {
	Last4              string            `json:"last4"`
	CardType           *string           `json:"card_type"`
	CardNetwork        *string           `json:"card_network"`
	CardIssuer         *string           `json:"card_issuer"`
	CardIssuingCountry *string           `json:"card_issuing_country"`
	CardISIN           string            `json:"card_isin"`
	CardExtendedBIN    *string           `json:"card_extended_bin"`
	CardExpMonth       string            `json:"card_exp_month"`
	CardExpYear        string            `json:"card_exp_year"`
	CardHolderName     *string           `json:"card_holder_name"`
	PaymentChecks      map[string]string `json:"payment_checks"`
	AuthenticationData map[string]any    `json:"authentication_data"`
}

type paymentTokenizationInfo struct {
	PaymentMethodID         *string `json:"payment_method_id"`
	PSPTokenization         *bool   `json:"psp_tokenization"`
	NetworkTokenization     *bool   `json:"network_tokenization"`
	IsEligibleForMitPayment *bool   `json:"is_eligible_for_mit_payment"`
	PaymentMethodStatus     *string `json:"payment_method_status"`
	NetworkTransactionID    *string `json:"network_transaction_id"`
}

type externalAuthOut struct {
	Status                      *string `json:"status"`
	AuthenticationFlow          *string `json:"authentication_flow"`
	ElectronicCommerceIndicator *string `json:"electronic_commerce_indicator"`
	DsTransactionID             *string `json:"ds_transaction_id"`
	Version                     *string `json:"version"`
	ErrorCode                   *string `json:"error_code"`
	ErrorMessage                *string `json:"error_message"`
}

type paymentErrorDetails struct {
	UnifiedDetails   *unifiedErrorDetails   `json:"unified_details"`
	IssuerDetails    *issuerErrorDetails    `json:"issuer_details"`
	ConnectorDetails *connectorErrorDetails `json:"connector_details"`
}

type unifiedErrorDetails struct {
	Category            *string `json:"category"`
	Message             *string `json:"message"`
	StandardisedCode    *string `json:"standardised_code"`
	Description         *string `json:"description"`
	UserGuidanceMessage *string `json:"user_guidance_message"`
	RecommendedAction   *string `json:"recommended_action"`
}

// unifiedCategories are Hyperswitch's UnifiedCode values.
var unifiedCategories = map[string]bool{"UE_1000": true, "UE_2000": true, "UE_3000": true, "UE_4000": true, "UE_9000": true}

type issuerErrorDetails struct {
	Code           *string              `json:"code"`
	Message        *string              `json:"message"`
	NetworkDetails *issuerNetworkDetail `json:"network_details"`
}

type issuerNetworkDetail struct {
	Name          *string `json:"name"`
	AdviceCode    *string `json:"advice_code"`
	AdviceMessage *string `json:"advice_message"`
}

type connectorErrorDetails struct {
	Code    *string `json:"code"`
	Message *string `json:"message"`
	Reason  *string `json:"reason"`
}

type paymentNetworkInfo struct {
	NetworkAdviceCode *string `json:"network_advice_code"`
}

type paymentFrmMessage struct {
	FrmName            string  `json:"frm_name"`
	FrmTransactionID   *string `json:"frm_transaction_id"`
	FrmTransactionType *string `json:"frm_transaction_type"`
	FrmStatus          *string `json:"frm_status"`
	FrmScore           *int    `json:"frm_score"`
	FrmReason          any     `json:"frm_reason"`
	FrmError           *string `json:"frm_error"`
}

type paymentLinkOut struct {
	Link          string  `json:"link"`
	PaymentLinkID string  `json:"payment_link_id"`
	SecureLink    *string `json:"secure_link"`
}

type surchargeOut struct {
	SurchargeAmount int64  `json:"surcharge_amount"`
	TaxAmount       *int64 `json:"tax_amount"`
}

type billingDescOut struct {
	Name                      *string `json:"name"`
	City                      *string `json:"city"`
	Phone                     *string `json:"phone"`
	StatementDescriptor       *string `json:"statement_descriptor"`
	StatementDescriptorSuffix *string `json:"statement_descriptor_suffix"`
	Reference                 *string `json:"reference"`
}

type partnerDetails struct {
	PartnerDetails  map[string]any `json:"partner_details"`
	MerchantDetails map[string]any `json:"merchant_details"`
}

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
	if a := v.Active; a != nil {
		rec.ConnectorTransactionID = a.ConnectorTransactionID
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
