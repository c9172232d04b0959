package connector

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"switchyard/ent"
	"switchyard/internal/secrets"
	"switchyard/payments/errs"
)

// AccountView is a connector account as callers may see it: the
// credentials, webhook secrets and wallet details are masked (first 2 and
// last 2 characters of each string kept), never in clear.
type AccountView struct {
	ID                      string
	MerchantID              string
	ProfileID               string
	ConnectorType           Type
	ConnectorName           Name
	ConnectorLabel          string
	AccountDetails          map[string]any
	PaymentMethodsEnabled   []PaymentMethodsEnabled
	WebhookDetails          *WebhookDetails
	Metadata                map[string]any
	TestMode                bool
	Disabled                bool
	FrmConfigs              []FrmConfig
	BusinessCountry         *Country
	BusinessLabel           *string
	BusinessSubLabel        *string
	PmAuthConfig            map[string]any
	Status                  AccountStatus
	AdditionalMerchantData  *AdditionalMerchantData
	WalletsDetails          *WalletDetails
	ApplepayVerifiedDomains []string
	WebhookSetup            WebhookSetupCapabilities
	CreatedAt               time.Time
	ModifiedAt              time.Time
}

// WebhookSetupCapabilities says how the provider's webhooks are set up.
type WebhookSetupCapabilities struct {
	IsWebhookAutoConfigurationSupported bool
	RequiresWebhookSecret               *bool
}

type sealedSecrets struct{ details, webhook, wallets []byte }

// sealConnectorSecrets seals the members given (nil stays nil) with the
// account id as associated data, so a value copied to another row fails to open.
func (s *Service) sealConnectorSecrets(id string, details map[string]any, webhook *WebhookDetails,
	wallets *WalletDetails) (sealedSecrets, error) {
	var out sealedSecrets
	var err error
	ad := []byte(id)
	if details != nil {
		if out.details, err = s.box.SealJSON(details, ad); err != nil {
			return out, errs.Internal(err)
		}
	}
	if webhook != nil {
		if out.webhook, err = s.box.SealJSON(webhook, ad); err != nil {
			return out, errs.Internal(err)
		}
	}
	if wallets != nil {
		if out.wallets, err = s.box.SealJSON(wallets, ad); err != nil {
			return out, errs.Internal(err)
		}
	}
	return out, nil
}

// connectorAccounts is the caller's connector accounts: the merchant's

// Credentials opens a connector account's credentials, for the
// connector integrations; it never goes on the wire.
func (s *Service) Credentials(row *ent.MerchantConnectorAccount) (map[string]any, error) {
	if row.ConnectorAccountDetailsSealed == nil {
		return nil, nil
	}
	var out map[string]any
	if err := s.box.OpenJSON(row.ConnectorAccountDetailsSealed, []byte(row.ID), &out); err != nil {
		return nil, errs.Internal(fmt.Errorf("open credentials of %s: %w", row.ID, err))
	}
	return out, nil
}

// View is a connector account row as callers may see it:
// the sealed members opened only to be masked. GraphQL maps it from the rows
// its connections load.
func (s *Service) View(row *ent.MerchantConnectorAccount) (*AccountView, error) {
	return s.view(row)
}

// view opens the sealed members only to mask them.
func (s *Service) view(row *ent.MerchantConnectorAccount) (*AccountView, error) {
	requiresSecret := true
	v := &AccountView{
		ID:                      row.ID,
		MerchantID:              row.MerchantID,
		ProfileID:               row.ProfileID,
		ConnectorType:           Type(row.ConnectorType),
		ConnectorName:           Name(row.ConnectorName),
		ConnectorLabel:          row.ConnectorLabel,
		Metadata:                row.Metadata,
		TestMode:                row.TestMode,
		Disabled:                row.Disabled,
		BusinessCountry:         (*Country)(row.BusinessCountry),
		BusinessLabel:           row.BusinessLabel,
		BusinessSubLabel:        row.BusinessSubLabel,
		PmAuthConfig:            row.PmAuthConfig,
		Status:                  AccountStatus(row.Status),
		ApplepayVerifiedDomains: row.ApplepayVerifiedDomains,
		WebhookSetup:            WebhookSetupCapabilities{RequiresWebhookSecret: &requiresSecret},
		CreatedAt:               row.CreatedAt,
		ModifiedAt:              row.ModifiedAt,
	}
	if err := s.openMasked(row, v); err != nil {
		return nil, err
	}
	var err error
	if v.PaymentMethodsEnabled, err = fromJSON[[]PaymentMethodsEnabled](row.PaymentMethodsEnabled); err != nil {
		return nil, err
	}
	if v.FrmConfigs, err = fromJSON[[]FrmConfig](row.FrmConfigs); err != nil {
		return nil, err
	}
	if row.AdditionalMerchantData != nil {
		if v.AdditionalMerchantData, err = fromJSON[*AdditionalMerchantData](row.AdditionalMerchantData); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// openMasked opens the row's sealed members (credentials, webhook and
// wallet details) into v, every secret in them masked.
func (s *Service) openMasked(row *ent.MerchantConnectorAccount, v *AccountView) error {
	ad := []byte(row.ID)
	open := func(sealed []byte, dst any, what string) error {
		if sealed == nil {
			return nil
		}
		if err := s.box.OpenJSON(sealed, ad, dst); err != nil {
			return errs.Internal(fmt.Errorf("open %s of %s: %w", what, row.ID, err))
		}
		return nil
	}
	var details map[string]any
	if err := open(row.ConnectorAccountDetailsSealed, &details, "credentials"); err != nil {
		return err
	}
	if details != nil {
		v.AccountDetails = maskJSON(details).(map[string]any)
	}
	var webhook *WebhookDetails
	if err := open(row.ConnectorWebhookDetailsSealed, &webhook, "webhook details"); err != nil {
		return err
	}
	if webhook != nil {
		v.WebhookDetails = &WebhookDetails{
			MerchantSecret:   secrets.Mask(webhook.MerchantSecret),
			AdditionalSecret: secrets.Mask(webhook.AdditionalSecret),
		}
	}
	var wallets *WalletDetails
	if err := open(row.ConnectorWalletsDetailsSealed, &wallets, "wallet details"); err != nil {
		return err
	}
	if wallets != nil {
		v.WalletsDetails = &WalletDetails{
			ApplePayCombined: maskMap(wallets.ApplePayCombined),
			ApplePay:         maskMap(wallets.ApplePay),
			AmazonPay:        maskMap(wallets.AmazonPay),
			SamsungPay:       maskMap(wallets.SamsungPay),
			Paze:             maskMap(wallets.Paze),
			GooglePay:        maskMap(wallets.GooglePay),
		}
	}
	return nil
}

// maskJSON masks every string in a decoded JSON value with secrets.Mask,
// recursing into objects and arrays; numbers, booleans and null are kept.
func maskJSON(v any) any {
	switch t := v.(type) {
	case string:
		return secrets.Mask(t)
	case float64: // an account number is as secret as a key
		return secrets.Mask(strconv.FormatFloat(t, 'f', -1, 64))
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = maskJSON(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = maskJSON(e)
		}
		return out
	}
	return v
}

func maskMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	return maskJSON(m).(map[string]any)
}

// toJSONMaps turns typed values into the JSON column's []map[string]any
// (nil stays nil).
func toJSONMaps[T any](list []T) ([]map[string]any, error) {
	if list == nil {
		return nil, nil
	}
	return fromJSON[[]map[string]any](list)
}

func toJSONMap[T any](v *T) (map[string]any, error) {
	if v == nil {
		return nil, nil
	}
	return fromJSON[map[string]any](v)
}

// fromJSON converts between shapes through JSON.
func fromJSON[T any](v any) (T, error) {
	var out T
	b, err := json.Marshal(v)
	if err != nil {
		return out, errs.Internal(err)
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return out, errs.Internal(err)
	}
	return out, nil
}
