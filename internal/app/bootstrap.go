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
	"switchyard/payments/users"
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
// same domain operations the API calls (provision). It reuses what an
// earlier start made: the secret key is kept (owner-only) in the data
// directory, because the database holds only its hash. A kept key that no
// longer works is replaced by a new one.
func (a *App) Bootstrap(ctx context.Context) (*DemoKeys, error) {
	path := filepath.Join(a.Config.DataDir, demoKeysFile)
	var kept DemoKeys
	if b, err := os.ReadFile(path); err == nil && json.Unmarshal(b, &kept) == nil && kept.SecretKey != "" {
		if owner, _, err := a.Merchants.ActiveSecretKey(ctx, kept.SecretKey); err != nil || owner != DemoMerchantID {
			kept.SecretKey = ""
		}
	}
	made, created, err := a.provision(ctx, users.NewMerchant{ID: DemoMerchantID, Name: "Demo merchant"}, kept.SecretKey == "")
	if err != nil {
		return nil, err
	}
	keys := &DemoKeys{MerchantID: made.MerchantID, ProfileID: made.ProfileID, SecretKey: kept.SecretKey,
		PublishableKey: made.PublishableKey, ConnectorAccount: made.ConnectorAccountID, Created: created}
	if made.SecretKey != "" {
		keys.SecretKey = made.SecretKey
	}
	if err := writePrivateJSON(path, keys); err != nil {
		return nil, err
	}
	return keys, nil
}

// Provision makes a dashboard user's new merchant as Bootstrap makes the
// demo one (users.Provisioner): only what is missing, and a secret key
// when the merchant has none.
func (a *App) Provision(ctx context.Context, nm users.NewMerchant) (*users.Provisioned, error) {
	admin := tenancy.WithPrincipal(ctx, tenancy.Principal{Kind: tenancy.KindAdmin})
	keys, err := a.Merchants.ListAPIKeys(tenancy.ForMerchant(admin, nm.ID), 1, 0)
	if err != nil {
		return nil, err
	}
	made, _, err := a.provision(ctx, nm, len(keys) == 0)
	return made, err
}

// provision makes sure merchantID exists with its default profile and a
// sandbox connector account, and makes a secret key when newKey says so,
// through the domain operations the API calls. created says whether it
// made the merchant.
func (a *App) provision(ctx context.Context, nm users.NewMerchant, newKey bool) (*users.Provisioned, bool, error) {
	admin := tenancy.WithPrincipal(ctx, tenancy.Principal{Kind: tenancy.KindAdmin})
	view, err := a.Merchants.GetMerchantAccount(admin, nm.ID)
	created := false
	if e, ok := errs.As(err); ok && e.Kind == errs.KindNotFound {
		in := merchant.MerchantAccountInput{
			MerchantID: nm.ID, MerchantAccountFields: merchant.MerchantAccountFields{MerchantName: &nm.Name},
		}
		if nm.TimeZone != "" {
			in.TimeZone = &nm.TimeZone
		}
		made, err := a.Merchants.CreateMerchantAccount(admin, in)
		if err != nil {
			return nil, false, fmt.Errorf("create merchant %s: %w", nm.ID, err)
		}
		view, created = made, true
	} else if err != nil {
		return nil, false, err
	}
	m, prof := view.Merchant, view.DefaultProfile
	if prof == nil {
		return nil, false, fmt.Errorf("merchant %s has no default profile", m.ID)
	}
	mctx := tenancy.ForMerchant(admin, m.ID)
	out := &users.Provisioned{MerchantID: m.ID, ProfileID: prof.ID, PublishableKey: m.PublishableKey}
	if newKey {
		desc := "created with the merchant"
		if _, out.SecretKey, err = a.Merchants.CreateAPIKey(mctx, merchant.APIKeyInput{Name: "default", Description: &desc}); err != nil {
			return nil, false, fmt.Errorf("api key of %s: %w", m.ID, err)
		}
	}
	mcas, err := a.Connectors.ListAccounts(mctx)
	if err != nil {
		return nil, false, err
	}
	// The account provisioning made is the oldest on the default profile
	// (the list is newest first): later ones are the merchant's own.
	for _, mca := range mcas {
		if mca.ProfileID == prof.ID {
			out.ConnectorAccountID = mca.ID
		}
	}
	if out.ConnectorAccountID == "" {
		mca, err := a.Connectors.CreateSandboxAccount(mctx, connector.SandboxAccountInput{
			ProfileID:     prof.ID,
			ConnectorName: DemoConnectorName,
			Label:         prof.ProfileName + "_" + DemoConnectorName,
			Credentials:   map[string]any{"auth_type": "HeaderKey", "api_key": "sandbox_simulator"},
		})
		if err != nil {
			return nil, false, fmt.Errorf("sandbox connector account of %s: %w", m.ID, err)
		}
		out.ConnectorAccountID = mca.ID
	}
	return out, created, nil
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
