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
	connectorMembers
	ConnectorName    connector.Name     `json:"connector_name"`
	ProfileID        *string            `json:"profile_id"`
	BusinessCountry  *connector.Country `json:"business_country"`
	BusinessLabel    *string            `json:"business_label"`
	BusinessSubLabel *string            `json:"business_sub_label"`
	// MerchantConnectorID is accepted and ignored, as Hyperswitch does: the
	// id is always generated (mca_…).
	MerchantConnectorID *string `json:"merchant_connector_id"`
}

// connectorUpdateRequest is MerchantConnectorUpdate (closed): connector_type
// is required; the other members given replace the stored ones.
type connectorUpdateRequest struct {
	connectorMembers
}

// fields are the domain's members of a create or an update.
func (m *connectorMembers) fields() connector.AccountFields {
	return connector.AccountFields{
		ConnectorType:          m.ConnectorType,
		ConnectorLabel:         m.ConnectorLabel,
		AccountDetails:         m.ConnectorAccountDetails,
		PaymentMethodsEnabled:  m.PaymentMethodsEnabled,
		WebhookDetails:         m.ConnectorWebhookDetails,
		Metadata:               m.Metadata,
		TestMode:               m.TestMode,
		Disabled:               m.Disabled,
		FrmConfigs:             m.FrmConfigs,
		PmAuthConfig:           m.PmAuthConfig,
		Status:                 m.Status,
		AdditionalMerchantData: m.AdditionalMerchantData,
		WalletsDetails:         m.ConnectorWalletsDetails,
	}
}

// connectorResponse is MerchantConnectorResponse (closed): the list's
// members and the account's details. Secrets arrive masked from the
// domain; absent members are null.
type connectorResponse struct {
	connectorListItem
	ConnectorAccountDetails  map[string]any                    `json:"connector_account_details"`
	ConnectorWebhookDetails  *connector.WebhookDetails         `json:"connector_webhook_details"`
	Metadata                 map[string]any                    `json:"metadata"`
	AdditionalMerchantData   *connector.AdditionalMerchantData `json:"additional_merchant_data"`
	ConnectorWalletsDetails  *connector.WalletDetails          `json:"connector_wallets_details"`
	WebhookSetupCapabilities *webhookSetupCapabilities         `json:"webhook_setup_capabilities"`
}

func connectorListItemOf(c *connector.AccountView) connectorListItem {
	label := c.ConnectorLabel
	return connectorListItem{ConnectorType: c.ConnectorType, ConnectorName: c.ConnectorName, ConnectorLabel: &label,
		MerchantConnectorID: c.ID, ProfileID: c.ProfileID, PaymentMethodsEnabled: c.PaymentMethodsEnabled,
		TestMode: c.TestMode, Disabled: c.Disabled, FrmConfigs: c.FrmConfigs, BusinessCountry: c.BusinessCountry,
		BusinessLabel: c.BusinessLabel, BusinessSubLabel: c.BusinessSubLabel, ApplepayVerifiedDomains: c.ApplepayVerifiedDomains,
		PmAuthConfig: c.PmAuthConfig, Status: c.Status}
}

func connectorOf(c *connector.AccountView) connectorResponse {
	return connectorResponse{
		connectorListItem:       connectorListItemOf(c),
		ConnectorAccountDetails: c.AccountDetails,
		ConnectorWebhookDetails: c.WebhookDetails,
		Metadata:                c.Metadata,
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
	const base = "/account/{account_id}/connectors"
	a.handle("POST "+base, MerchantOrAdmin, withBody(func(r *http.Request, req *connectorCreateRequest) (any, error) {
		return respond(connectorOf)(svc.CreateAccount(r.Context(), connector.AccountInput{
			AccountFields: req.fields(), ConnectorName: req.ConnectorName, ProfileID: req.ProfileID,
			BusinessCountry: req.BusinessCountry, BusinessLabel: req.BusinessLabel, BusinessSubLabel: req.BusinessSubLabel,
		}))
	}))
	a.handle("GET "+base, MerchantOrAdmin, func(r *http.Request) (any, error) {
		return respond(each(connectorListItemOf))(svc.ListAccounts(r.Context()))
	})
	a.handle("GET "+base+"/{merchant_connector_id}", MerchantOrAdmin, func(r *http.Request) (any, error) {
		return respond(connectorOf)(svc.GetAccount(r.Context(), r.PathValue("merchant_connector_id")))
	})
	a.handle("POST "+base+"/{merchant_connector_id}", MerchantOrAdmin, withBody(func(r *http.Request, req *connectorUpdateRequest) (any, error) {
		return respond(connectorOf)(svc.UpdateAccount(r.Context(), r.PathValue("merchant_connector_id"),
			connector.AccountPatch{AccountFields: req.fields()}))
	}))
	a.handle("DELETE "+base+"/{merchant_connector_id}", AdminOnly, func(r *http.Request) (any, error) {
		return respond(connectorDeletedOf)(svc.DeleteAccount(r.Context(), r.PathValue("merchant_connector_id")))
	})
}

func connectorDeletedOf(d *connector.DeletedAccount) connectorDeleteResponse {
	return connectorDeleteResponse{MerchantID: d.MerchantID, MerchantConnectorID: d.ID, Deleted: true}
}
