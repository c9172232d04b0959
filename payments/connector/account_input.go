package connector

import (
	"switchyard/payments/errs"
	"switchyard/payments/validate"
)

// AccountInput creates a connector account (MerchantConnectorCreate). Nil
// members are absent; Validate checks every rule of the spec.
type AccountInput struct {
	AccountFields
	ConnectorName Name
	// ProfileID nil means the merchant's default profile.
	ProfileID        *string
	BusinessCountry  *Country
	BusinessLabel    *string
	BusinessSubLabel *string
}

// AccountPatch updates a connector account (MerchantConnectorUpdate):
// ConnectorType is required, every other nil member is left as it is, and a
// given member replaces the stored one whole.
type AccountPatch struct {
	AccountFields
}

// AccountFields are the members a connector account's create and update
// share.
type AccountFields struct {
	ConnectorType  Type
	ConnectorLabel *string
	// AccountDetails are the provider credentials, sealed at rest.
	AccountDetails         map[string]any
	PaymentMethodsEnabled  []PaymentMethodsEnabled
	WebhookDetails         *WebhookDetails
	Metadata               map[string]any
	TestMode               *bool
	Disabled               *bool
	FrmConfigs             []FrmConfig
	PmAuthConfig           map[string]any
	Status                 *AccountStatus
	AdditionalMerchantData *AdditionalMerchantData
	WalletsDetails         *WalletDetails
}

func (in AccountInput) Validate() error {
	if err := connectorTypes.Required("connector_type", string(in.ConnectorType)); err != nil {
		return err
	}
	if err := KnownNames.Required("connector_name", string(in.ConnectorName)); err != nil {
		return err
	}
	if err := checkLabel(in.ConnectorLabel); err != nil {
		return err
	}
	if in.ProfileID != nil && (*in.ProfileID == "" || validate.Chars(*in.ProfileID) > MaxProfileIDLen) {
		return errs.InvalidValue("profile_id", "must be 1 to %d characters", MaxProfileIDLen)
	}
	if err := validateCommon(in.AccountDetails, in.PaymentMethodsEnabled, in.WebhookDetails, in.Metadata, in.FrmConfigs,
		in.Status, in.AdditionalMerchantData); err != nil {
		return err
	}
	if err := validate.Countries.Optional("business_country", (*string)(in.BusinessCountry)); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"business_label", in.BusinessLabel}, {"business_sub_label", in.BusinessSubLabel}} {
		if f.v != nil && validate.Chars(*f.v) > MaxBusinessLabelLen {
			return errs.InvalidValue(f.name, "must be at most %d characters", MaxBusinessLabelLen)
		}
	}
	return nil
}

// Validate checks an update request; the first violation is returned.
func (p AccountPatch) Validate() error {
	if err := connectorTypes.Required("connector_type", string(p.ConnectorType)); err != nil {
		return err
	}
	if err := checkLabel(p.ConnectorLabel); err != nil {
		return err
	}
	return validateCommon(p.AccountDetails, p.PaymentMethodsEnabled, p.WebhookDetails, p.Metadata, p.FrmConfigs,
		p.Status, p.AdditionalMerchantData)
}

func checkLabel(label *string) error {
	if label != nil && (*label == "" || validate.Chars(*label) > MaxConnectorLabelLen) {
		return errs.InvalidValue("connector_label", "must be 1 to %d characters", MaxConnectorLabelLen)
	}
	return nil
}

// validateCommon checks the members create and update share, in the order
// of the request object.
func validateCommon(details map[string]any, pme []PaymentMethodsEnabled, webhook *WebhookDetails,
	metadata map[string]any, frm []FrmConfig, status *AccountStatus, amd *AdditionalMerchantData) error {
	if err := validateAccountDetails("connector_account_details", details); err != nil {
		return err
	}
	if err := validateEach("payment_methods_enabled", pme); err != nil {
		return err
	}
	if webhook != nil {
		if err := webhook.validate("connector_webhook_details"); err != nil {
			return err
		}
	}
	// metadata is free-form but for its sandbox object.
	if _, err := ParseSandboxFailures(metadata); err != nil {
		return err
	}
	if _, err := SandboxRequiredFields(metadata); err != nil {
		return err
	}
	if err := validateEach("frm_configs", frm); err != nil {
		return err
	}
	if err := connectorStatuses.Optional("status", (*string)(status)); err != nil {
		return err
	}
	if amd != nil {
		if err := amd.validate("additional_merchant_data"); err != nil {
			return err
		}
	}
	return nil
}

// errDuplicateAccount is Hyperswitch's DuplicateMerchantConnectorAccount (HE_01).
func errDuplicateAccount(profileID, label string) *errs.Error {
	return errs.Duplicate("The merchant connector account with the specified profile_id '%s' and connector_label '%s' already exists in our records",
		profileID, label)
}

func errAccountNotFound() *errs.Error { return errs.NotFound("Merchant connector account") }
