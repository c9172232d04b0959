package rest

import (
	"net/http"

	"switchyard/ent"
	"switchyard/payments/errs"

	"switchyard/payments/merchant"
)

func (req *profileRequest) domain() (merchant.ProfileInput, error) {
	if err := checkBusinessLinkConfig(req.PaymentLinkConfig); err != nil {
		return merchant.ProfileInput{}, err
	}
	auth, err := req.AuthenticationConnectorDetails.domain()
	if err != nil {
		return merchant.ProfileInput{}, err
	}
	return merchant.ProfileInput{
		AuthenticationConnectorDetails:                  auth,
		ProfileName:                                     req.ProfileName,
		ReturnURL:                                       req.ReturnURL,
		EnablePaymentResponseHash:                       req.EnablePaymentResponseHash,
		PaymentResponseHashKey:                          req.PaymentResponseHashKey,
		RedirectToMerchantWithHTTPPost:                  req.RedirectToMerchantWithHTTPPost,
		WebhookDetails:                                  req.WebhookDetails.domain(),
		Metadata:                                        req.Metadata,
		SessionExpiry:                                   req.SessionExpiry,
		UseBillingAsPaymentMethodBilling:                req.UseBillingAsPaymentMethodBilling,
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
		Force3dsChallenge:                               req.Force3DSChallenge,
		IsIframeRedirectionEnabled:                      req.IsIframeRedirectionEnabled,
		PaymentLinkConfig:                               req.PaymentLinkConfig,
	}, nil
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
		Force3DSChallenge:                               p.Force3dsChallenge,
		IsIframeRedirectionEnabled:                      p.IsIframeRedirectionEnabled,
		PaymentLinkConfig:                               p.PaymentLinkConfig,
		AuthenticationConnectorDetails:                  p.AuthenticationConnectorDetails,
		AcquirerConfigs:                                 acquirerConfigsOf(p.Acquirers),
	}
}

// acquirerConfigsOf is a profile's acquirer_configs: null when it has
// none, as Hyperswitch shows a profile without an acquirer_config_map.
func acquirerConfigsOf(all []*ent.ProfileAcquirer) any {
	if len(all) == 0 {
		return nil
	}
	return each(profileAcquirerOf)(all)
}

// domain is the profile's authentication_connector_details as it is kept
// (nil when not given): both members are required, as in Hyperswitch.
func (in *authenticationConnectorsIn) domain() (map[string]any, error) {
	if in == nil {
		return nil, nil
	}
	if in.AuthenticationConnectors == nil {
		return nil, errs.MissingField("authentication_connector_details.authentication_connectors")
	}
	if in.ThreeDSRequestorURL == nil {
		return nil, errs.MissingField("authentication_connector_details.three_ds_requestor_url")
	}
	names := make([]any, len(in.AuthenticationConnectors))
	for i, n := range in.AuthenticationConnectors {
		names[i] = n
	}
	out := map[string]any{"authentication_connectors": names, "three_ds_requestor_url": *in.ThreeDSRequestorURL}
	if in.ThreeDSRequestorAppURL != nil {
		out["three_ds_requestor_app_url"] = *in.ThreeDSRequestorAppURL
	}
	return out, nil
}

// registerProfiles adds Hyperswitch's business profile routes. Delete takes
// the admin key, as in Hyperswitch; the rest take the merchant's key too.
func registerProfiles(a *api, svc *merchant.Service) {
	const base = "/account/{account_id}/business_profile"
	a.handle("POST "+base, MerchantOrAdmin, withBody(readingBody((*profileRequest).domain, func(r *http.Request, in merchant.ProfileInput) (any, error) {
		return respond(profileOf)(svc.CreateProfile(r.Context(), in))
	})))
	a.handle("GET "+base, MerchantOrAdmin, func(r *http.Request) (any, error) {
		return respond(each(profileOf))(svc.ListProfiles(r.Context()))
	})
	a.handle("GET "+base+"/{profile_id}", MerchantOrAdmin, func(r *http.Request) (any, error) {
		return respond(profileOf)(svc.GetProfile(r.Context(), r.PathValue("profile_id")))
	})
	a.handle("POST "+base+"/{profile_id}", MerchantOrAdmin, withBody(readingBody((*profileRequest).domain, func(r *http.Request, in merchant.ProfileInput) (any, error) {
		return respond(profileOf)(svc.UpdateProfile(r.Context(), r.PathValue("profile_id"), in))
	})))
	a.handle("DELETE "+base+"/{profile_id}", AdminOnly, func(r *http.Request) (any, error) {
		if err := svc.DeleteProfile(r.Context(), r.PathValue("profile_id")); err != nil {
			return nil, err
		}
		return true, nil
	})
}
