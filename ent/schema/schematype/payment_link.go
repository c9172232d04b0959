package schematype

import "time"

// PaymentLinkConfig is Hyperswitch's PaymentLinkConfigRequest: how a
// payment link looks. Every member is optional; a payment's config is
// merged over its profile's (payments.ResolveLinkConfig).
type PaymentLinkConfig struct {
	Theme                     *string                        `json:"theme,omitempty"`
	Logo                      *string                        `json:"logo,omitempty"`
	SellerName                *string                        `json:"seller_name,omitempty"`
	SDKLayout                 *string                        `json:"sdk_layout,omitempty"`
	DisplaySDKOnly            *bool                          `json:"display_sdk_only,omitempty"`
	EnabledSavedPaymentMethod *bool                          `json:"enabled_saved_payment_method,omitempty"`
	HideCardNicknameField     *bool                          `json:"hide_card_nickname_field,omitempty"`
	ShowCardFormByDefault     *bool                          `json:"show_card_form_by_default,omitempty"`
	TransactionDetails        []PaymentLinkTransactionDetail `json:"transaction_details,omitempty"`
	BackgroundImage           *PaymentLinkBackgroundImage    `json:"background_image,omitempty"`
	DetailsLayout             *string                        `json:"details_layout,omitempty"`
	PaymentButtonText         *string                        `json:"payment_button_text,omitempty"`
	PaymentButtonColour       *string                        `json:"payment_button_colour,omitempty"`
	PaymentButtonTextColour   *string                        `json:"payment_button_text_colour,omitempty"`
	BackgroundColour          *string                        `json:"background_colour,omitempty"`
	SkipStatusScreen          *bool                          `json:"skip_status_screen,omitempty"`
	ShowMerchantName          *bool                          `json:"show_merchant_name,omitempty"`
	PaymentFormHeaderText     *string                        `json:"payment_form_header_text,omitempty"`
}

// PaymentLinkTransactionDetail is one key-value line a link shows
// (Hyperswitch's PaymentLinkTransactionDetails).
type PaymentLinkTransactionDetail struct {
	Key             string                       `json:"key"`
	Value           string                       `json:"value"`
	UIConfiguration *PaymentLinkTransactionStyle `json:"ui_configuration,omitempty"`
}

// PaymentLinkTransactionStyle is where a transaction detail is shown and
// how (Hyperswitch's TransactionDetailsUiConfiguration).
type PaymentLinkTransactionStyle struct {
	Position    *int32 `json:"position,omitempty"`
	IsKeyBold   *bool  `json:"is_key_bold,omitempty"`
	IsValueBold *bool  `json:"is_value_bold,omitempty"`
}

// PaymentLinkBackgroundImage is Hyperswitch's
// PaymentLinkBackgroundImageConfig; size is one of its ElementSize
// objects, kept as given.
type PaymentLinkBackgroundImage struct {
	URL      string         `json:"url"`
	Position *string        `json:"position,omitempty"`
	Size     map[string]any `json:"size,omitempty"`
}

// BusinessPaymentLinkConfig is a profile's payment_link_config
// (Hyperswitch's BusinessPaymentLinkConfig): the defaults of every link of
// the profile, named alternatives a payment picks by
// payment_link_config_id, the domain links are served on, and the
// domains that may embed the secure link.
type BusinessPaymentLinkConfig struct {
	PaymentLinkConfig
	DomainName              *string                      `json:"domain_name,omitempty"`
	BusinessSpecificConfigs map[string]PaymentLinkConfig `json:"business_specific_configs,omitempty"`
	AllowedDomains          []string                     `json:"allowed_domains,omitempty"`
	BrandingVisibility      *bool                        `json:"branding_visibility,omitempty"`
}

// PaymentLink is a payment's hosted checkout link, as created with the
// payment: its id, its URLs, and the look it was resolved to then (the
// payment's config over its profile's, over the defaults). It expires
// with the payment's client secret (expires_on).
type PaymentLink struct {
	ID         string    `json:"payment_link_id"`
	Link       string    `json:"link"`
	SecureLink *string   `json:"secure_link,omitempty"`
	CreatedAt  time.Time `json:"created_at"`
	// Config is the resolved look: every member the page reads is set.
	Config PaymentLinkConfig `json:"config"`
	// AllowedDomains are the profile's, when the link was made: the
	// secure link may be framed by these (glob patterns) only.
	AllowedDomains []string `json:"allowed_domains,omitempty"`
}
