package rest

import (
	"net/http"

	"switchyard/payments/connector"
)

// Connector accounts (Hyperswitch's /account/{account_id}/connectors). The
// request and response envelopes are here; the nested value objects
// (payment_methods_enabled, frm_configs, additional_merchant_data, …) are
// the domain's typed values, whose json tags are the wire shape. Bodies are
// read with decode, so an unknown member or a wrong type anywhere is a 400
// naming its path; the domain validates the values.

// connectorCreateRequest is MerchantConnectorCreate (closed).
type connectorCreateRequest struct {
	ConnectorType           connector.Type                    `json:"connector_type"`
	ConnectorName           connector.Name                    `json:"connector_name"`
	ConnectorLabel          *string                           `json:"connector_label"`
	ProfileID               *string                           `json:"profile_id"`
	ConnectorAccountDetails map[string]string                 `json:"connector_account_details"`
	PaymentMethodsEnabled   []connector.PaymentMethodsEnabled `json:"payment_methods_enabled"`
	ConnectorWebhookDetails *connector.WebhookDetails         `json:"connector_webhook_details"`
	Metadata                map[string]any                    `json:"metadata"`
	TestMode                *bool                             `json:"test_mode"`
	Disabled                *bool                             `json:"disabled"`
	FrmConfigs              []connector.FrmConfig             `json:"frm_configs"`
	BusinessCountry         *connector.Country                `json:"business_country"`
	BusinessLabel           *string                           `json:"business_label"`
	BusinessSubLabel        *string                           `json:"business_sub_label"`
	// MerchantConnectorID is accepted and ignored, as Hyperswitch does: the
	// id is always generated (mca_…).
	MerchantConnectorID     *string                           `json:"merchant_connector_id"`
	PmAuthConfig            map[string]any                    `json:"pm_auth_config"`
	Status                  *connector.AccountStatus          `json:"status"`
	AdditionalMerchantData  *connector.AdditionalMerchantData `json:"additional_merchant_data"`
	ConnectorWalletsDetails *connector.WalletDetails          `json:"connector_wallets_details"`
}

// connectorUpdateRequest is MerchantConnectorUpdate (closed): connector_type
// is required; the other members given replace the stored ones.
type connectorUpdateRequest struct {
	ConnectorType           connector.Type                    `json:"connector_type"`
	ConnectorLabel          *string                           `json:"connector_label"`
	ConnectorAccountDetails map[string]string                 `json:"connector_account_details"`
	PaymentMethodsEnabled   []connector.PaymentMethodsEnabled `json:"payment_methods_enabled"`
	ConnectorWebhookDetails *connector.WebhookDetails         `json:"connector_webhook_details"`
	Metadata                map[string]any                    `json:"metadata"`
	TestMode                *bool                             `json:"test_mode"`
	Disabled                *bool                             `json:"disabled"`
	FrmConfigs              []connector.FrmConfig             `json:"frm_configs"`
	PmAuthConfig            map[string]any                    `json:"pm_auth_config"`
	Status                  *connector.AccountStatus          `json:"status"`
	AdditionalMerchantData  *connector.AdditionalMerchantData `json:"additional_merchant_data"`
	ConnectorWalletsDetails *connector.WalletDetails          `json:"connector_wallets_details"`
}

// connectorResponse is MerchantConnectorResponse (closed), in its member
// order. Secrets arrive masked from the domain; absent members are null.
type connectorResponse struct {
	ConnectorType            connector.Type                    `json:"connector_type"`
	ConnectorName            connector.Name                    `json:"connector_name"`
	ConnectorLabel           *string                           `json:"connector_label"`
	MerchantConnectorID      string                            `json:"merchant_connector_id"`
	ProfileID                string                            `json:"profile_id"`
	ConnectorAccountDetails  map[string]any                    `json:"connector_account_details"`
	PaymentMethodsEnabled    []connector.PaymentMethodsEnabled `json:"payment_methods_enabled"`
	ConnectorWebhookDetails  *connector.WebhookDetails         `json:"connector_webhook_details"`
	Metadata                 map[string]any                    `json:"metadata"`
	TestMode                 bool                              `json:"test_mode"`
	Disabled                 bool                              `json:"disabled"`
	FrmConfigs               []connector.FrmConfig             `json:"frm_configs"`
	BusinessCountry          *connector.Country                `json:"business_country"`
	BusinessLabel            *string                           `json:"business_label"`
	BusinessSubLabel         *string                           `json:"business_sub_label"`
	ApplepayVerifiedDomains  []string                          `json:"applepay_verified_domains"`
	PmAuthConfig             map[string]any                    `json:"pm_auth_config"`
	Status                   connector.AccountStatus           `json:"status"`
	AdditionalMerchantData   *connector.AdditionalMerchantData `json:"additional_merchant_data"`
	ConnectorWalletsDetails  *connector.WalletDetails          `json:"connector_wallets_details"`
	WebhookSetupCapabilities *webhookSetupCapabilities         `json:"webhook_setup_capabilities"`
}

// webhookSetupCapabilities is WebhookSetupCapabilities; no connector is
// auto-configured yet, so config_type is always null.
type webhookSetupCapabilities struct {
	IsWebhookAutoConfigurationSupported bool  `json:"is_webhook_auto_configuration_supported"`
	RequiresWebhookSecret               *bool `json:"requires_webhook_secret"`
	ConfigType                          any   `json:"config_type"`
}

// connectorDeleteResponse is MerchantConnectorDeleteResponse.
type connectorDeleteResponse struct {
	MerchantID          string `json:"merchant_id"`
	MerchantConnectorID string `json:"merchant_connector_id"`
	Deleted             bool   `json:"deleted"`
}

func connectorOf(c *connector.AccountView) connectorResponse {
	label := c.ConnectorLabel
	return connectorResponse{
		ConnectorType:           c.ConnectorType,
		ConnectorName:           c.ConnectorName,
		ConnectorLabel:          &label,
		MerchantConnectorID:     c.ID,
		ProfileID:               c.ProfileID,
		ConnectorAccountDetails: c.AccountDetails,
		PaymentMethodsEnabled:   c.PaymentMethodsEnabled,
		ConnectorWebhookDetails: c.WebhookDetails,
		Metadata:                c.Metadata,
		TestMode:                c.TestMode,
		Disabled:                c.Disabled,
		FrmConfigs:              c.FrmConfigs,
		BusinessCountry:         c.BusinessCountry,
		BusinessLabel:           c.BusinessLabel,
		BusinessSubLabel:        c.BusinessSubLabel,
		ApplepayVerifiedDomains: c.ApplepayVerifiedDomains,
		PmAuthConfig:            c.PmAuthConfig,
		Status:                  c.Status,
		AdditionalMerchantData:  c.AdditionalMerchantData,
		ConnectorWalletsDetails: c.WalletsDetails,
		WebhookSetupCapabilities: &webhookSetupCapabilities{
			IsWebhookAutoConfigurationSupported: c.WebhookSetup.IsWebhookAutoConfigurationSupported,
			RequiresWebhookSecret:               c.WebhookSetup.RequiresWebhookSecret,
		},
	}
}

// registerConnectors adds the connector account routes: the merchant's
// secret key or the admin key, except delete (admin key, as Hyperswitch's
// OpenAPI documents it).
func registerConnectors(a *api, svc *connector.Service) {
	a.handle("POST /account/{account_id}/connectors", MerchantOrAdmin, func(r *http.Request) (any, error) {
		var req connectorCreateRequest
		if err := decode(r, &req); err != nil {
			return nil, err
		}
		c, err := svc.CreateAccount(r.Context(), connector.AccountInput{
			ConnectorType:          req.ConnectorType,
			ConnectorName:          req.ConnectorName,
			ConnectorLabel:         req.ConnectorLabel,
			ProfileID:              req.ProfileID,
			AccountDetails:         req.ConnectorAccountDetails,
			PaymentMethodsEnabled:  req.PaymentMethodsEnabled,
			WebhookDetails:         req.ConnectorWebhookDetails,
			Metadata:               req.Metadata,
			TestMode:               req.TestMode,
			Disabled:               req.Disabled,
			FrmConfigs:             req.FrmConfigs,
			BusinessCountry:        req.BusinessCountry,
			BusinessLabel:          req.BusinessLabel,
			BusinessSubLabel:       req.BusinessSubLabel,
			PmAuthConfig:           req.PmAuthConfig,
			Status:                 req.Status,
			AdditionalMerchantData: req.AdditionalMerchantData,
			WalletsDetails:         req.ConnectorWalletsDetails,
		})
		if err != nil {
			return nil, err
		}
		return connectorOf(c), nil
	})
	a.handle("GET /account/{account_id}/connectors", MerchantOrAdmin, func(r *http.Request) (any, error) {
		list, err := svc.ListAccounts(r.Context())
		if err != nil {
			return nil, err
		}
		out := make([]connectorResponse, len(list))
		for i, c := range list {
			out[i] = connectorOf(c)
		}
		return out, nil
	})
	a.handle("GET /account/{account_id}/connectors/{merchant_connector_id}", MerchantOrAdmin, func(r *http.Request) (any, error) {
		c, err := svc.GetAccount(r.Context(), r.PathValue("merchant_connector_id"))
		if err != nil {
			return nil, err
		}
		return connectorOf(c), nil
	})
	a.handle("POST /account/{account_id}/connectors/{merchant_connector_id}", MerchantOrAdmin, func(r *http.Request) (any, error) {
		var req connectorUpdateRequest
		if err := decode(r, &req); err != nil {
			return nil, err
		}
		c, err := svc.UpdateAccount(r.Context(), r.PathValue("merchant_connector_id"), connector.AccountPatch{
			ConnectorType:          req.ConnectorType,
			ConnectorLabel:         req.ConnectorLabel,
			AccountDetails:         req.ConnectorAccountDetails,
			PaymentMethodsEnabled:  req.PaymentMethodsEnabled,
			WebhookDetails:         req.ConnectorWebhookDetails,
			Metadata:               req.Metadata,
			TestMode:               req.TestMode,
			Disabled:               req.Disabled,
			FrmConfigs:             req.FrmConfigs,
			PmAuthConfig:           req.PmAuthConfig,
			Status:                 req.Status,
			AdditionalMerchantData: req.AdditionalMerchantData,
			WalletsDetails:         req.ConnectorWalletsDetails,
		})
		if err != nil {
			return nil, err
		}
		return connectorOf(c), nil
	})
	a.handle("DELETE /account/{account_id}/connectors/{merchant_connector_id}", AdminOnly, func(r *http.Request) (any, error) {
		d, err := svc.DeleteAccount(r.Context(), r.PathValue("merchant_connector_id"))
		if err != nil {
			return nil, err
		}
		return connectorDeleteResponse{MerchantID: d.MerchantID, MerchantConnectorID: d.ID, Deleted: true}, nil
	})
}
