// Package schematype holds the Go types of the structured JSON columns of the
// data model (addresses, order lines, masked card details, webhook settings,
// delivery records) and the closed currency set. It imports nothing of ent,
// so the domain and wire layers can share it.
package schematype

import "encoding/json"

// AddressWrapper is the spec's `{address, phone, email}` object.
type AddressWrapper struct {
	Address *Address `json:"address"`
	Phone   *Phone   `json:"phone"`
	Email   *string  `json:"email"`
}

// Address is a postal address; every member is optional.
type Address struct {
	City      *string `json:"city"`
	Country   *string `json:"country"`
	Line1     *string `json:"line1"`
	Line2     *string `json:"line2"`
	Line3     *string `json:"line3"`
	Zip       *string `json:"zip"`
	State     *string `json:"state"`
	FirstName *string `json:"first_name"`
	LastName  *string `json:"last_name"`
	OriginZip *string `json:"origin_zip"`
}

// CustomerDocument is a customer's identity document (Hyperswitch's
// CustomerDocumentDetails).
type CustomerDocument struct {
	DocumentType   string `json:"document_type"`
	DocumentNumber string `json:"document_number"`
}

// CustomerDetails are the customer details a payment was given (name,
// email, phone), kept on the payment as Hyperswitch keeps its intent's
// customer_details: a payment without a customer still shows them, and a
// change that gives some keeps the others.
type CustomerDetails struct {
	Name             *string `json:"name,omitempty"`
	Email            *string `json:"email,omitempty"`
	Phone            *string `json:"phone,omitempty"`
	PhoneCountryCode *string `json:"phone_country_code,omitempty"`
}

// Merge returns d with the members over gives, d's own where over has none.
func (d *CustomerDetails) Merge(over *CustomerDetails) *CustomerDetails {
	if d == nil {
		return over
	}
	if over == nil {
		return d
	}
	out := *d
	for _, m := range []struct{ dst, src **string }{{&out.Name, &over.Name}, {&out.Email, &over.Email},
		{&out.Phone, &over.Phone}, {&out.PhoneCountryCode, &over.PhoneCountryCode}} {
		if *m.src != nil {
			*m.dst = *m.src
		}
	}
	return &out
}

// Phone is a number with its country calling code (leading plus sign).
type Phone struct {
	Number      *string `json:"number"`
	CountryCode *string `json:"country_code"`
}

// OrderDetail is one product line; amounts must sum to the order amount.
type OrderDetail struct {
	ProductName string  `json:"product_name"`
	Quantity    int     `json:"quantity"`
	Amount      int64   `json:"amount"`
	ProductImg  *string `json:"product_img_link,omitempty"`
	ProductID   *string `json:"product_id,omitempty"`
	Category    *string `json:"category,omitempty"`
	// The other members of Hyperswitch's OrderDetailsWithAmount, kept as
	// given (a JSON column: no migration).
	TaxRate            *float64 `json:"tax_rate,omitempty"`
	TotalTaxAmount     *int64   `json:"total_tax_amount,omitempty"`
	RequiresShipping   *bool    `json:"requires_shipping,omitempty"`
	SubCategory        *string  `json:"sub_category,omitempty"`
	Brand              *string  `json:"brand,omitempty"`
	ProductType        *string  `json:"product_type,omitempty"` // physical, digital, travel, ride, event, accommodation
	ProductTaxCode     *string  `json:"product_tax_code,omitempty"`
	Description        *string  `json:"description,omitempty"`
	SKU                *string  `json:"sku,omitempty"`
	UPC                *string  `json:"upc,omitempty"`
	CommodityCode      *string  `json:"commodity_code,omitempty"`
	UnitOfMeasure      *string  `json:"unit_of_measure,omitempty"`
	TotalAmount        *int64   `json:"total_amount,omitempty"`
	UnitDiscountAmount *int64   `json:"unit_discount_amount,omitempty"`
}

// CardDetails is what is kept of a card: never the PAN, never the CVC.
type CardDetails struct {
	Last4            string  `json:"last4"`
	CardISIN         string  `json:"card_isin"` // the BIN, first 6 digits
	CardExtendedBIN  *string `json:"card_extended_bin"`
	CardNetwork      *string `json:"card_network"`
	CardType         *string `json:"card_type"`
	CardIssuer       *string `json:"card_issuer"`
	CardIssuingCntry *string `json:"card_issuing_country"`
	CardExpMonth     string  `json:"card_exp_month"`
	CardExpYear      string  `json:"card_exp_year"`
	CardHolderName   *string `json:"card_holder_name"`
	// PaymentChecks are the connector's cvc/address checks (pass, fail, unavailable).
	PaymentChecks map[string]string `json:"payment_checks,omitempty"`
}

// WebhookDetails are a profile's outgoing-webhook settings: Hyperswitch's
// WebhookDetails, and the delivery switches that are Switchyard's own.
type WebhookDetails struct {
	HyperswitchWebhookDetails
	MultipleWebhooksListEnabled   *bool    `json:"multiple_webhooks_list,omitempty"`
	DeliveryDisabled              bool     `json:"delivery_disabled,omitempty"`
	EnabledEventTypes             []string `json:"enabled_event_types,omitempty"`
	AllowPrivateNetworkDeliveries *bool    `json:"allow_private_network_deliveries,omitempty"`
}

// HyperswitchWebhookDetails are the members of Hyperswitch's WebhookDetails,
// a closed object: what REST clients set and read. An empty status list
// means every status.
type HyperswitchWebhookDetails struct {
	WebhookVersion          *string  `json:"webhook_version"`
	WebhookUsername         *string  `json:"webhook_username"`
	WebhookPassword         *string  `json:"webhook_password"`
	WebhookURL              *string  `json:"webhook_url"`
	PaymentCreatedEnabled   *bool    `json:"payment_created_enabled"`
	PaymentSucceededEnabled *bool    `json:"payment_succeeded_enabled"`
	PaymentFailedEnabled    *bool    `json:"payment_failed_enabled"`
	PaymentStatusesEnabled  []string `json:"payment_statuses_enabled"`
	RefundStatusesEnabled   []string `json:"refund_statuses_enabled"`
	PayoutStatusesEnabled   []string `json:"payout_statuses_enabled"`
}

// DeliveryRequest is the request half of a webhook delivery attempt. Body
// is empty on the attempts Switchyard writes: what was sent is the event's
// content, which is immutable, so readers take it from the event rather
// than every attempt storing a copy.
type DeliveryRequest struct {
	Body    string      `json:"body,omitempty"`
	Headers [][2]string `json:"headers"`
}

// DeliveryResponse is the response half of a webhook delivery attempt.
type DeliveryResponse struct {
	Body         *string     `json:"body"`
	Headers      [][2]string `json:"headers"`
	StatusCode   *int        `json:"status_code"`
	ErrorMessage *string     `json:"error_message"`
}

// RoutableConnector is a connector a routing algorithm may choose
// (Hyperswitch's RoutableConnectorChoice): the connector's name, and the
// merchant's account of it when the profile has more than one.
type RoutableConnector struct {
	Connector           string  `json:"connector"`
	MerchantConnectorID *string `json:"merchant_connector_id,omitempty"`
}

// RoutingAlgorithm is a stored routing configuration's algorithm
// (Hyperswitch's StaticRoutingAlgorithm): its kind and its data, kept as
// the merchant sent them once validated.
type RoutingAlgorithm struct {
	Type string          `json:"type"`
	Data json.RawMessage `json:"data"`
}

// DynamicRouting is a profile's dynamic routing (Hyperswitch's
// DynamicRoutingAlgorithmRef): its success-rate and its elimination
// configuration, each nil until first toggled or created.
type DynamicRouting struct {
	SuccessBased *DynamicRoutingRef `json:"success_based_algorithm,omitempty"`
	Elimination  *DynamicRoutingRef `json:"elimination_routing_algorithm,omitempty"`
}

// DynamicRoutingRef is one dynamic configuration of a profile and the
// feature it is enabled with: metrics, dynamic_connector_selection or none.
type DynamicRoutingRef struct {
	AlgorithmID    string `json:"algorithm_id"`
	EnabledFeature string `json:"enabled_feature"`
}
