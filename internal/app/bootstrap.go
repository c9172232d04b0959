package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"switchyard/ent"
	"switchyard/ent/profile"
	"switchyard/internal/tenancy"
	"switchyard/payments"
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
// secret key, a publishable key and a sandbox connector account. It reuses
// what an earlier start made: the secret key is kept (owner-only) in the data
// directory, because the database holds only its hash. A kept key that no
// longer works is replaced by a new one.
func Bootstrap(ctx context.Context, svc *payments.Service, dataDir string) (*DemoKeys, error) {
	admin := tenancy.WithPrincipal(ctx, tenancy.Principal{Kind: tenancy.KindAdmin})
	m, err := svc.Client().MerchantAccount.Get(admin, DemoMerchantID)
	created := false
	switch {
	case ent.IsNotFound(err):
		name := "Demo merchant"
		if _, err := svc.CreateMerchantAccount(admin, payments.MerchantAccountInput{
			MerchantID: DemoMerchantID, MerchantName: &name,
		}); err != nil {
			return nil, fmt.Errorf("create demo merchant: %w", err)
		}
		if m, err = svc.Client().MerchantAccount.Get(admin, DemoMerchantID); err != nil {
			return nil, err
		}
		created = true
	case err != nil:
		return nil, err
	}
	mctx := tenancy.ForMerchant(admin, m.ID)
	prof, err := svc.Client().Profile.Query().Where(profile.IsDefault(true)).First(mctx)
	if err != nil {
		return nil, fmt.Errorf("demo profile: %w", err)
	}

	keys := &DemoKeys{MerchantID: m.ID, ProfileID: prof.ID, PublishableKey: m.PublishableKey, Created: created}
	path := filepath.Join(dataDir, demoKeysFile)
	var kept DemoKeys
	if b, err := os.ReadFile(path); err == nil && json.Unmarshal(b, &kept) == nil && kept.SecretKey != "" {
		if k, err := svc.ActiveAPIKeyByHash(ctx, svc.Box().HashAPIKey(kept.SecretKey)); err == nil && k.MerchantID == m.ID {
			keys.SecretKey = kept.SecretKey
		}
	}
	if keys.SecretKey == "" {
		desc := "created by the embedded default for the demo merchant"
		if _, keys.SecretKey, err = svc.CreateAPIKey(mctx, payments.APIKeyInput{Name: "demo", Description: &desc}); err != nil {
			return nil, fmt.Errorf("demo api key: %w", err)
		}
	}

	mcas, err := prof.QueryConnectorAccounts().All(mctx)
	if err != nil {
		return nil, err
	}
	if len(mcas) > 0 {
		keys.ConnectorAccount = mcas[0].ID
	} else {
		mca, err := svc.CreateSandboxConnector(mctx, payments.SandboxConnectorInput{
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
