package rest

import (
	"encoding/json"
	"net/http"

	"switchyard/payments/merchant"
)

// profileRequest is Hyperswitch's ProfileCreate, the body of both profile
// create and update. The typed members are stored; the json.RawMessage
// members are Hyperswitch features Switchyard does not implement, accepted
// (so valid Hyperswitch bodies are not refused) and ignored. Any other
// member is refused.
type profileRequest struct {
	ProfileName                                     *string         `json:"profile_name"`
	ReturnURL                                       *string         `json:"return_url"`
	EnablePaymentResponseHash                       *bool           `json:"enable_payment_response_hash"`
	PaymentResponseHashKey                          *string         `json:"payment_response_hash_key"`
	RedirectToMerchantWithHTTPPost                  *bool           `json:"redirect_to_merchant_with_http_post"`
	WebhookDetails                                  *webhookDetails `json:"webhook_details"`
	Metadata                                        map[string]any  `json:"metadata"`
	SessionExpiry                                   *int64          `json:"session_expiry"`
	UseBillingAsPaymentMethodBilling                *bool           `json:"use_billing_as_payment_method_billing"`
	CollectShippingDetailsFromWalletConnector       *bool           `json:"collect_shipping_details_from_wallet_connector"`
	CollectBillingDetailsFromWalletConnector        *bool           `json:"collect_billing_details_from_wallet_connector"`
	AlwaysCollectShippingDetailsFromWalletConnector *bool           `json:"always_collect_shipping_details_from_wallet_connector"`
	AlwaysCollectBillingDetailsFromWalletConnector  *bool           `json:"always_collect_billing_details_from_wallet_connector"`
	IsConnectorAgnosticMitEnabled                   *bool           `json:"is_connector_agnostic_mit_enabled"`
	IsTaxConnectorEnabled                           *bool           `json:"is_tax_connector_enabled"`
	IsNetworkTokenizationEnabled                    *bool           `json:"is_network_tokenization_enabled"`
	IsAutoRetriesEnabled                            *bool           `json:"is_auto_retries_enabled"`
	MaxAutoRetriesEnabled                           *int            `json:"max_auto_retries_enabled"`
	IsManualRetryEnabled                            *bool           `json:"is_manual_retry_enabled"`
	IsClickToPayEnabled                             *bool           `json:"is_click_to_pay_enabled"`
	Force3dsChallenge                               *bool           `json:"force_3ds_challenge"`
	IsIframeRedirectionEnabled                      *bool           `json:"is_iframe_redirection_enabled"`

	RoutingAlgorithm                   json.RawMessage `json:"routing_algorithm"`
	IntentFulfillmentTime              json.RawMessage `json:"intent_fulfillment_time"`
	FrmRoutingAlgorithm                json.RawMessage `json:"frm_routing_algorithm"`
	PayoutRoutingAlgorithm             json.RawMessage `json:"payout_routing_algorithm"`
	ApplepayVerifiedDomains            json.RawMessage `json:"applepay_verified_domains"`
	PaymentLinkConfig                  map[string]any  `json:"payment_link_config"`
	AuthenticationConnectorDetails     json.RawMessage `json:"authentication_connector_details"`
	PayoutLinkConfig                   json.RawMessage `json:"payout_link_config"`
	OutgoingWebhookCustomHTTPHeaders   json.RawMessage `json:"outgoing_webhook_custom_http_headers"`
	TaxConnectorID                     json.RawMessage `json:"tax_connector_id"`
	AlwaysRequestExtendedAuthorization json.RawMessage `json:"always_request_extended_authorization"`
	AuthenticationProductIDs           json.RawMessage `json:"authentication_product_ids"`
	CardTestingGuardConfig             json.RawMessage `json:"card_testing_guard_config"`
	IsClearPanRetriesEnabled           json.RawMessage `json:"is_clear_pan_retries_enabled"`
	IsDebitRoutingEnabled              json.RawMessage `json:"is_debit_routing_enabled"`
	MerchantBusinessCountry            json.RawMessage `json:"merchant_business_country"`
	IsPreNetworkTokenizationEnabled    json.RawMessage `json:"is_pre_network_tokenization_enabled"`
	MerchantCategoryCode               json.RawMessage `json:"merchant_category_code"`
	MerchantCountryCode                json.RawMessage `json:"merchant_country_code"`
	DisputePollingInterval             json.RawMessage `json:"dispute_polling_interval"`
	AlwaysEnableOvercapture            json.RawMessage `json:"always_enable_overcapture"`
	IsExternalVaultEnabled             json.RawMessage `json:"is_external_vault_enabled"`
	ExternalVaultConnectorDetails      json.RawMessage `json:"external_vault_connector_details"`
	BillingProcessorID                 json.RawMessage `json:"billing_processor_id"`
	SurchargeConnectorDetails          json.RawMessage `json:"surcharge_connector_details"`
	IsL2L3Enabled                      json.RawMessage `json:"is_l2_l3_enabled"`
	NetworkTokenizationCredentials     json.RawMessage `json:"network_tokenization_credentials"`
	PaymentMethodBlocking              json.RawMessage `json:"payment_method_blocking"`
}

func (req *profileRequest) domain() (merchant.ProfileInput, error) {
	if err := checkBusinessLinkConfig(req.PaymentLinkConfig); err != nil {
		return merchant.ProfileInput{}, err
	}
	return merchant.ProfileInput{
		ProfileName:                      req.ProfileName,
		ReturnURL:                        req.ReturnURL,
		EnablePaymentResponseHash:        req.EnablePaymentResponseHash,
		PaymentResponseHashKey:           req.PaymentResponseHashKey,
		RedirectToMerchantWithHTTPPost:   req.RedirectToMerchantWithHTTPPost,
		WebhookDetails:                   req.WebhookDetails.domain(),
		Metadata:                         req.Metadata,
		SessionExpiry:                    req.SessionExpiry,
		UseBillingAsPaymentMethodBilling: req.UseBillingAsPaymentMethodBilling,
		CollectShippingDetailsFromWalletConnector:       req.CollectShippingDetailsFromWalletConnector,
		CollectBillingDetailsFromWalletConnector:        req.CollectBillingDetailsFromWalletConnector,
		AlwaysCollectShippingDetailsFromWalletConnector: req.AlwaysCollectShippingDetailsFromWalletConnector,
		AlwaysCollectBillingDetailsFromWalletConnector:  req.AlwaysCollectBillingDetailsFromWalletConnector,
		IsConnectorAgnosticMitEnabled:                   req.IsConnectorAgnosticMitEnabled,
		IsTaxConnectorEnabled:                           req.IsTaxConnectorEnabled,
		IsNetworkTokenizationEnabled:                    req.IsNetworkTokenizationEnabled,
		IsAutoRetriesEnabled:                            req.IsAutoRetriesEnabled,
		MaxAutoRetriesEnabled:                           req.MaxAutoRetriesEnabled,
		IsManualRetryEnabled:                            req.IsManualRetryEnabled,
		IsClickToPayEnabled:                             req.IsClickToPayEnabled,
		Force3dsChallenge:                               req.Force3dsChallenge,
		IsIframeRedirectionEnabled:                      req.IsIframeRedirectionEnabled,
		PaymentLinkConfig:                               req.PaymentLinkConfig,
	}, nil
}

// profileResponse is Hyperswitch's ProfileResponse: every required member,
// the members Switchyard stores, and null for the rest (the any-typed
// members, features Switchyard does not implement).
type profileResponse struct {
	MerchantID                                      string          `json:"merchant_id"`
	ProfileID                                       string          `json:"profile_id"`
	ProfileName                                     string          `json:"profile_name"`
	ReturnURL                                       *string         `json:"return_url"`
	EnablePaymentResponseHash                       bool            `json:"enable_payment_response_hash"`
	PaymentResponseHashKey                          string          `json:"payment_response_hash_key"`
	RedirectToMerchantWithHTTPPost                  bool            `json:"redirect_to_merchant_with_http_post"`
	WebhookDetails                                  *webhookDetails `json:"webhook_details"`
	Metadata                                        map[string]any  `json:"metadata"`
	RoutingAlgorithm                                any             `json:"routing_algorithm"`
	IntentFulfillmentTime                           any             `json:"intent_fulfillment_time"`
	FrmRoutingAlgorithm                             any             `json:"frm_routing_algorithm"`
	PayoutRoutingAlgorithm                          any             `json:"payout_routing_algorithm"`
	ApplepayVerifiedDomains                         any             `json:"applepay_verified_domains"`
	SessionExpiry                                   int64           `json:"session_expiry"`
	PaymentLinkConfig                               any             `json:"payment_link_config"`
	AuthenticationConnectorDetails                  any             `json:"authentication_connector_details"`
	UseBillingAsPaymentMethodBilling                bool            `json:"use_billing_as_payment_method_billing"`
	ExtendedCardInfoConfig                          any             `json:"extended_card_info_config"`
	CollectShippingDetailsFromWalletConnector       bool            `json:"collect_shipping_details_from_wallet_connector"`
	CollectBillingDetailsFromWalletConnector        bool            `json:"collect_billing_details_from_wallet_connector"`
	AlwaysCollectShippingDetailsFromWalletConnector bool            `json:"always_collect_shipping_details_from_wallet_connector"`
	AlwaysCollectBillingDetailsFromWalletConnector  bool            `json:"always_collect_billing_details_from_wallet_connector"`
	IsConnectorAgnosticMitEnabled                   bool            `json:"is_connector_agnostic_mit_enabled"`
	PayoutLinkConfig                                any             `json:"payout_link_config"`
	OutgoingWebhookCustomHTTPHeaders                any             `json:"outgoing_webhook_custom_http_headers"`
	TaxConnectorID                                  any             `json:"tax_connector_id"`
	IsTaxConnectorEnabled                           bool            `json:"is_tax_connector_enabled"`
	IsNetworkTokenizationEnabled                    bool            `json:"is_network_tokenization_enabled"`
	IsAutoRetriesEnabled                            bool            `json:"is_auto_retries_enabled"`
	MaxAutoRetriesEnabled                           *int            `json:"max_auto_retries_enabled"`
	AlwaysRequestExtendedAuthorization              any             `json:"always_request_extended_authorization"`
	IsClickToPayEnabled                             bool            `json:"is_click_to_pay_enabled"`
	AuthenticationProductIDs                        any             `json:"authentication_product_ids"`
	CardTestingGuardConfig                          any             `json:"card_testing_guard_config"`
	IsClearPanRetriesEnabled                        bool            `json:"is_clear_pan_retries_enabled"`
	Force3dsChallenge                               bool            `json:"force_3ds_challenge"`
	IsDebitRoutingEnabled                           any             `json:"is_debit_routing_enabled"`
	MerchantBusinessCountry                         any             `json:"merchant_business_country"`
	IsPreNetworkTokenizationEnabled                 bool            `json:"is_pre_network_tokenization_enabled"`
	AcquirerConfigs                                 any             `json:"acquirer_configs"`
	AcquirerConfigBucket                            any             `json:"acquirer_config_bucket"`
	IsIframeRedirectionEnabled                      bool            `json:"is_iframe_redirection_enabled"`
	MerchantCategoryCode                            any             `json:"merchant_category_code"`
	MerchantCountryCode                             any             `json:"merchant_country_code"`
	DisputePollingInterval                          any             `json:"dispute_polling_interval"`
	IsManualRetryEnabled                            *bool           `json:"is_manual_retry_enabled"`
	AlwaysEnableOvercapture                         any             `json:"always_enable_overcapture"`
	IsExternalVaultEnabled                          any             `json:"is_external_vault_enabled"`
	ExternalVaultConnectorDetails                   any             `json:"external_vault_connector_details"`
	BillingProcessorID                              any             `json:"billing_processor_id"`
	SurchargeConnectorDetails                       any             `json:"surcharge_connector_details"`
	IsL2L3Enabled                                   any             `json:"is_l2_l3_enabled"`
	NetworkTokenizationCredentials                  any             `json:"network_tokenization_credentials"`
	PaymentMethodBlocking                           any             `json:"payment_method_blocking"`
}

func profileOf(p *merchant.ProfileView) profileResponse {
	return profileResponse{
		MerchantID:                       p.MerchantID,
		ProfileID:                        p.ID,
		ProfileName:                      p.ProfileName,
		ReturnURL:                        p.ReturnURL,
		EnablePaymentResponseHash:        p.EnablePaymentResponseHash,
		PaymentResponseHashKey:           p.HashKey,
		RedirectToMerchantWithHTTPPost:   p.RedirectToMerchantWithHTTPPost,
		WebhookDetails:                   webhookDetailsOf(p.WebhookDetails),
		Metadata:                         p.Metadata,
		SessionExpiry:                    p.SessionExpiry,
		UseBillingAsPaymentMethodBilling: p.UseBillingAsPaymentMethodBilling,
		CollectShippingDetailsFromWalletConnector:       p.CollectShippingDetailsFromWalletConnector,
		CollectBillingDetailsFromWalletConnector:        p.CollectBillingDetailsFromWalletConnector,
		AlwaysCollectShippingDetailsFromWalletConnector: p.AlwaysCollectShippingDetailsFromWalletConnector,
		AlwaysCollectBillingDetailsFromWalletConnector:  p.AlwaysCollectBillingDetailsFromWalletConnector,
		IsConnectorAgnosticMitEnabled:                   p.IsConnectorAgnosticMitEnabled,
		IsTaxConnectorEnabled:                           p.IsTaxConnectorEnabled,
		IsNetworkTokenizationEnabled:                    p.IsNetworkTokenizationEnabled,
		IsAutoRetriesEnabled:                            p.IsAutoRetriesEnabled,
		MaxAutoRetriesEnabled:                           p.MaxAutoRetriesEnabled,
		IsManualRetryEnabled:                            p.IsManualRetryEnabled,
		IsClickToPayEnabled:                             p.IsClickToPayEnabled,
		Force3dsChallenge:                               p.Force3dsChallenge,
		IsIframeRedirectionEnabled:                      p.IsIframeRedirectionEnabled,
		PaymentLinkConfig:                               p.PaymentLinkConfig,
	}
}

// registerProfiles adds Hyperswitch's business profile routes. Delete takes
// the admin key, as in Hyperswitch; the rest take the merchant's key too.
func registerProfiles(a *api, svc *merchant.Service) {
	const base = "/account/{account_id}/business_profile"
	a.handle("POST "+base, MerchantOrAdmin, withBody(func(r *http.Request, req *profileRequest) (any, error) {
		in, err := req.domain()
		if err != nil {
			return nil, err
		}
		return respond(profileOf)(svc.CreateProfile(r.Context(), in))
	}))
	a.handle("GET "+base, MerchantOrAdmin, func(r *http.Request) (any, error) {
		return respond(each(profileOf))(svc.ListProfiles(r.Context()))
	})
	a.handle("GET "+base+"/{profile_id}", MerchantOrAdmin, func(r *http.Request) (any, error) {
		return respond(profileOf)(svc.GetProfile(r.Context(), r.PathValue("profile_id")))
	})
	a.handle("POST "+base+"/{profile_id}", MerchantOrAdmin, withBody(func(r *http.Request, req *profileRequest) (any, error) {
		in, err := req.domain()
		if err != nil {
			return nil, err
		}
		return respond(profileOf)(svc.UpdateProfile(r.Context(), r.PathValue("profile_id"), in))
	}))
	a.handle("DELETE "+base+"/{profile_id}", AdminOnly, func(r *http.Request) (any, error) {
		if err := svc.DeleteProfile(r.Context(), r.PathValue("profile_id")); err != nil {
			return nil, err
		}
		return true, nil
	})
}
