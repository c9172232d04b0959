package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"switchyard/internal/tenancy"
	"switchyard/payments/connector"
	"switchyard/payments/errs"
	"switchyard/payments/merchant"
)

// Demo merchant of the embedded default (and of `switchyard bootstrap`).
const (
	DemoMerchantID    = "merchant_demo"
	DemoConnectorName = "stripe_test"
	demoKeysFile      = "demo_keys.json"
)

// DemoKeys is what a newcomer needs to call the API as the demo merchant.
type DemoKeys struct {
	MerchantID       string `json:"merchant_id"`
	ProfileID        string `json:"profile_id"`
	SecretKey        string `json:"secret_key"`
	PublishableKey   string `json:"publishable_key"`
	ConnectorAccount string `json:"merchant_connector_id"`
	// Created is true when this start created the merchant.
	Created bool `json:"-"`
}

// Bootstrap makes sure the demo merchant exists with its default profile, a
// secret key, a publishable key and a sandbox connector account, through the
// same domain operations the API calls. It reuses what an earlier start
// made: the secret key is kept (owner-only) in the data directory, because
// the database holds only its hash. A kept key that no longer works is
// replaced by a new one.
func (a *App) Bootstrap(ctx context.Context) (*DemoKeys, error) {
	admin := tenancy.WithPrincipal(ctx, tenancy.Principal{Kind: tenancy.KindAdmin})
	view, err := a.Merchants.GetMerchantAccount(admin, DemoMerchantID)
	created := false
	if e, ok := errs.As(err); ok && e.Kind == errs.KindNotFound {
		name := "Demo merchant"
		made, err := a.Merchants.CreateMerchantAccount(admin, merchant.MerchantAccountInput{
			MerchantID: DemoMerchantID, MerchantAccountFields: merchant.MerchantAccountFields{MerchantName: &name},
		})
		if err != nil {
			return nil, fmt.Errorf("create demo merchant: %w", err)
		}
		view, created = made, true
	} else if err != nil {
		return nil, err
	}
	m, prof := view.Merchant, view.DefaultProfile
	if prof == nil {
		return nil, fmt.Errorf("demo merchant %s has no default profile", m.ID)
	}
	mctx := tenancy.ForMerchant(admin, m.ID)

	keys := &DemoKeys{MerchantID: m.ID, ProfileID: prof.ID, PublishableKey: m.PublishableKey, Created: created}
	path := filepath.Join(a.Config.DataDir, demoKeysFile)
	var kept DemoKeys
	if b, err := os.ReadFile(path); err == nil && json.Unmarshal(b, &kept) == nil && kept.SecretKey != "" {
		if owner, _, err := a.Merchants.ActiveSecretKey(ctx, kept.SecretKey); err == nil && owner == m.ID {
			keys.SecretKey = kept.SecretKey
		}
	}
	if keys.SecretKey == "" {
		desc := "created by the embedded default for the demo merchant"
		if _, keys.SecretKey, err = a.Merchants.CreateAPIKey(mctx, merchant.APIKeyInput{Name: "demo", Description: &desc}); err != nil {
			return nil, fmt.Errorf("demo api key: %w", err)
		}
	}

	mcas, err := a.Connectors.ListAccounts(mctx)
	if err != nil {
		return nil, err
	}
	for _, mca := range mcas {
		if mca.ProfileID == prof.ID && keys.ConnectorAccount == "" {
			keys.ConnectorAccount = mca.ID
		}
	}
	if keys.ConnectorAccount == "" {
		mca, err := a.Connectors.CreateSandboxAccount(mctx, connector.SandboxAccountInput{
			ProfileID:     prof.ID,
			ConnectorName: DemoConnectorName,
			Label:         prof.ProfileName + "_" + DemoConnectorName,
			Credentials:   map[string]any{"auth_type": "HeaderKey", "api_key": "sandbox_simulator"},
		})
		if err != nil {
			return nil, fmt.Errorf("demo connector account: %w", err)
		}
		keys.ConnectorAccount = mca.ID
	}

	if err := writePrivateJSON(path, keys); err != nil {
		return nil, err
	}
	return keys, nil
}

// writePrivateJSON writes v readable only by the owner.
func writePrivateJSON(path string, v any) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return errors.Join(err, os.Remove(tmp))
	}
	return nil
}
