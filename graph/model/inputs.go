package model

import "time"

// The mutation inputs that several GraphQL inputs share are written by
// hand, so that they have one Go type and one mapping onto the domain: the
// three payment inputs (create, update, confirm), as REST's one
// PaymentsRequest does, and the two connector account inputs. gqlgen.yml
// binds each GraphQL input to its type here; members a GraphQL input lacks
// stay nil. The json tags give the canonical JSON an idempotency key's
// fingerprint is taken of.

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
