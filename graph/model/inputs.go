package model

import "time"

// The mutation inputs are written by hand so that the three payment inputs
// (create, update, confirm) share one Go type and one mapping onto the
// domain, as REST's one PaymentsRequest does. gqlgen.yml binds each GraphQL
// input to its type here; members a GraphQL input lacks stay nil. The json
// tags give the canonical JSON an idempotency key's fingerprint is taken of.

// PaymentRequest is CreatePaymentInput, UpdatePaymentInput and
// ConfirmPaymentInput.
type PaymentRequest struct {
	Amount                               *int64                  `json:"amount"`
	Currency                             *string                 `json:"currency"`
	PaymentID                            *string                 `json:"paymentID"`
	ProfileID                            *string                 `json:"profileID"`
	Confirm                              *bool                   `json:"confirm"`
	CaptureMethod                        *string                 `json:"captureMethod"`
	CaptureOn                            *time.Time              `json:"captureOn"`
	AmountToCapture                      *int64                  `json:"amountToCapture"`
	AuthenticationType                   *string                 `json:"authenticationType"`
	CustomerID                           *string                 `json:"customerID"`
	Customer                             *PaymentCustomerInput   `json:"customer"`
	Description                          *string                 `json:"description"`
	ReturnURL                            *string                 `json:"returnURL"`
	StatementDescriptorName              *string                 `json:"statementDescriptorName"`
	StatementDescriptorSuffix            *string                 `json:"statementDescriptorSuffix"`
	MerchantReferenceID                  *string                 `json:"merchantReferenceID"`
	MerchantOrderReferenceID             *string                 `json:"merchantOrderReferenceID"`
	Billing                              map[string]any          `json:"billing"`
	Shipping                             map[string]any          `json:"shipping"`
	OrderDetails                         []map[string]any        `json:"orderDetails"`
	Metadata                             map[string]any          `json:"metadata"`
	ConnectorMetadata                    map[string]any          `json:"connectorMetadata"`
	FeatureMetadata                      map[string]any          `json:"featureMetadata"`
	FrmMetadata                          map[string]any          `json:"frmMetadata"`
	PaymentLinkConfig                    map[string]any          `json:"paymentLinkConfig"`
	BrowserInfo                          map[string]any          `json:"browserInfo"`
	SetupFutureUsage                     *string                 `json:"setupFutureUsage"`
	OffSession                           *bool                   `json:"offSession"`
	PaymentType                          *string                 `json:"paymentType"`
	PaymentMethod                        *string                 `json:"paymentMethod"`
	PaymentMethodType                    *string                 `json:"paymentMethodType"`
	PaymentMethodData                    *PaymentMethodDataInput `json:"paymentMethodData"`
	Connector                            []string                `json:"connector"`
	SessionExpiry                        *int64                  `json:"sessionExpiry"`
	ShippingCost                         *int64                  `json:"shippingCost"`
	OrderTaxAmount                       *int64                  `json:"orderTaxAmount"`
	SurchargeDetails                     *SurchargeDetailsInput  `json:"surchargeDetails"`
	BusinessCountry                      *string                 `json:"businessCountry"`
	BusinessLabel                        *string                 `json:"businessLabel"`
	BusinessSubLabel                     *string                 `json:"businessSubLabel"`
	AllowedPaymentMethodTypes            []string                `json:"allowedPaymentMethodTypes"`
	RequestIncrementalAuthorization      *bool                   `json:"requestIncrementalAuthorization"`
	RequestExternalThreeDSAuthentication *bool                   `json:"requestExternalThreeDSAuthentication"`
	EnablePartialAuthorization           *bool                   `json:"enablePartialAuthorization"`
	RequestExtendedAuthorization         *bool                   `json:"requestExtendedAuthorization"`
	EnableOvercapture                    *bool                   `json:"enableOvercapture"`
	Force3DSChallenge                    *bool                   `json:"force3DSChallenge"`
	IsIframeRedirectionEnabled           *bool                   `json:"isIframeRedirectionEnabled"`
}

// PaymentCustomerInput is a payment's customer.
type PaymentCustomerInput struct {
	ID               *string `json:"id"`
	Name             *string `json:"name"`
	Email            *string `json:"email"`
	Phone            *string `json:"phone"`
	PhoneCountryCode *string `json:"phoneCountryCode"`
}

// SurchargeDetailsInput is a surcharge and its tax.
type SurchargeDetailsInput struct {
	SurchargeAmount int64  `json:"surchargeAmount"`
	TaxAmount       *int64 `json:"taxAmount"`
}

// PaymentMethodDataInput holds one payment method.
type PaymentMethodDataInput struct {
	Card         *CardInput     `json:"card"`
	Upi          map[string]any `json:"upi"`
	Wallet       map[string]any `json:"wallet"`
	PayLater     map[string]any `json:"payLater"`
	BankRedirect map[string]any `json:"bankRedirect"`
	// The other families, as REST nests them.
	BankTransfer    map[string]any `json:"bankTransfer"`
	BankDebit       map[string]any `json:"bankDebit"`
	Voucher         map[string]any `json:"voucher"`
	GiftCard        map[string]any `json:"giftCard"`
	CardRedirect    map[string]any `json:"cardRedirect"`
	RealTimePayment map[string]any `json:"realTimePayment"`
	OpenBanking     map[string]any `json:"openBanking"`
	MobilePayment   map[string]any `json:"mobilePayment"`
	Crypto          map[string]any `json:"crypto"`
	Reward          *bool          `json:"reward"`
	Billing         map[string]any `json:"billing"`
}

// CardInput is a card on its way to the connector.
type CardInput struct {
	CardNumber     string  `json:"cardNumber"`
	CardExpMonth   string  `json:"cardExpMonth"`
	CardExpYear    string  `json:"cardExpYear"`
	CardCvc        string  `json:"cardCvc"`
	CardHolderName *string `json:"cardHolderName"`
	CardNetwork    *string `json:"cardNetwork"`
}

// CapturePaymentInput is a capture.
type CapturePaymentInput struct {
	AmountToCapture *int64 `json:"amountToCapture"`
}

// CancelPaymentInput is a cancellation.
type CancelPaymentInput struct {
	CancellationReason *string `json:"cancellationReason"`
}

// CreateRefundInput is a refund.
type CreateRefundInput struct {
	PaymentID  string         `json:"paymentID"`
	RefundID   *string        `json:"refundID"`
	Amount     *int64         `json:"amount"`
	Reason     *string        `json:"reason"`
	RefundType *string        `json:"refundType"`
	Metadata   map[string]any `json:"metadata"`
}

// ConnectorAccountRequest is CreateConnectorAccountInput and
// UpdateConnectorAccountInput.
type ConnectorAccountRequest struct {
	ConnectorType           string           `json:"connectorType"`
	ConnectorName           *string          `json:"connectorName"`
	ConnectorLabel          *string          `json:"connectorLabel"`
	ProfileID               *string          `json:"profileID"`
	ConnectorAccountDetails map[string]any   `json:"connectorAccountDetails"`
	PaymentMethodsEnabled   []map[string]any `json:"paymentMethodsEnabled"`
	ConnectorWebhookDetails map[string]any   `json:"connectorWebhookDetails"`
	Metadata                map[string]any   `json:"metadata"`
	TestMode                *bool            `json:"testMode"`
	Disabled                *bool            `json:"disabled"`
	FrmConfigs              []map[string]any `json:"frmConfigs"`
	BusinessCountry         *string          `json:"businessCountry"`
	BusinessLabel           *string          `json:"businessLabel"`
	BusinessSubLabel        *string          `json:"businessSubLabel"`
	PmAuthConfig            map[string]any   `json:"pmAuthConfig"`
	Status                  *string          `json:"status"`
	AdditionalMerchantData  map[string]any   `json:"additionalMerchantData"`
	ConnectorWalletsDetails map[string]any   `json:"connectorWalletsDetails"`
}

// CreateAPIKeyInput is a new merchant secret key.
type CreateAPIKeyInput struct {
	Name        string  `json:"name"`
	Description *string `json:"description"`
	Expiration  string  `json:"expiration"`
}

// WebhookSettingsInput changes a profile's webhook settings.
type WebhookSettingsInput struct {
	WebhookURL             *string  `json:"webhookURL"`
	DeliveryEnabled        *bool    `json:"deliveryEnabled"`
	PaymentStatusesEnabled []string `json:"paymentStatusesEnabled"`
	RefundStatusesEnabled  []string `json:"refundStatusesEnabled"`
	PayoutStatusesEnabled  []string `json:"payoutStatusesEnabled"`
	EnabledEventTypes      []string `json:"enabledEventTypes"`
	WebhookVersion         *string  `json:"webhookVersion"`
	WebhookUsername        *string  `json:"webhookUsername"`
	WebhookPassword        *string  `json:"webhookPassword"`
}

// CreateProfileInput is a new business profile: its name, return URL and
// webhook settings.
type CreateProfileInput struct {
	ProfileName     *string               `json:"profileName"`
	ReturnURL       *string               `json:"returnURL"`
	WebhookSettings *WebhookSettingsInput `json:"webhookSettings"`
}

// PayoutRequest is CreatePayoutInput and ConfirmPayoutInput, as REST's one
// PayoutsCreateRequest serves create, update and confirm.
type PayoutRequest struct {
	Amount                   *int64                `json:"amount"`
	Currency                 *string               `json:"currency"`
	ProfileID                *string               `json:"profileID"`
	CustomerID               *string               `json:"customerID"`
	Customer                 *PaymentCustomerInput `json:"customer"`
	Connector                []string              `json:"connector"`
	Confirm                  *bool                 `json:"confirm"`
	PayoutType               *string               `json:"payoutType"`
	PayoutMethodData         *PayoutMethodInput    `json:"payoutMethodData"`
	Billing                  map[string]any        `json:"billing"`
	AutoFulfill              *bool                 `json:"autoFulfill"`
	ReturnURL                *string               `json:"returnURL"`
	BusinessCountry          *string               `json:"businessCountry"`
	BusinessLabel            *string               `json:"businessLabel"`
	Description              *string               `json:"description"`
	EntityType               *string               `json:"entityType"`
	Recurring                *bool                 `json:"recurring"`
	Metadata                 map[string]any        `json:"metadata"`
	PayoutToken              *string               `json:"payoutToken"`
	Priority                 *string               `json:"priority"`
	SessionExpiry            *int64                `json:"sessionExpiry"`
	MerchantOrderReferenceID *string               `json:"merchantOrderReferenceID"`
}
