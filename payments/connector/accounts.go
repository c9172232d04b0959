package connector

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"switchyard/ent"
	"switchyard/ent/merchantaccount"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/ent/profile"
	"switchyard/internal/ids"
	"switchyard/internal/secrets"
	"switchyard/internal/tenancy"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
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
	AccountDetails         map[string]string
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

// Validate checks a create request; the first violation is returned.
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
	if in.ProfileID != nil && (*in.ProfileID == "" || len(*in.ProfileID) > MaxProfileIDLen) {
		return errs.InvalidValue("profile_id", "must be 1 to %d characters", MaxProfileIDLen)
	}
	if err := validateCommon(in.AccountDetails, in.PaymentMethodsEnabled, in.WebhookDetails, in.FrmConfigs,
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
		if f.v != nil && len(*f.v) > MaxBusinessLabelLen {
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
	return validateCommon(p.AccountDetails, p.PaymentMethodsEnabled, p.WebhookDetails, p.FrmConfigs,
		p.Status, p.AdditionalMerchantData)
}

func checkLabel(label *string) error {
	if label != nil && (*label == "" || len(*label) > MaxConnectorLabelLen) {
		return errs.InvalidValue("connector_label", "must be 1 to %d characters", MaxConnectorLabelLen)
	}
	return nil
}

// validateCommon checks the members create and update share, in the order
// of the request object.
func validateCommon(details map[string]string, pme []PaymentMethodsEnabled, webhook *WebhookDetails,
	frm []FrmConfig, status *AccountStatus, amd *AdditionalMerchantData) error {
	if err := validateAccountDetails("connector_account_details", details); err != nil {
		return err
	}
	if err := validatePaymentMethodsEnabled("payment_methods_enabled", pme); err != nil {
		return err
	}
	if webhook != nil {
		if err := webhook.validate("connector_webhook_details"); err != nil {
			return err
		}
	}
	if err := validateFrmConfigs("frm_configs", frm); err != nil {
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

// errDuplicateConnectorAccount is Hyperswitch's DuplicateMerchantConnectorAccount (HE_01).
func errDuplicateAccount(profileID, label string) *errs.Error {
	return errs.Duplicate("The merchant connector account with the specified profile_id '%s' and connector_label '%s' already exists in our records",
		profileID, label)
}

func errAccountNotFound() *errs.Error { return errs.NotFound("Merchant connector account") }

// CreateConnectorAccount creates a connector account for the merchant in
// ctx, under in.ProfileID or the merchant's default profile. The label
// defaults to "<profile_name>_<connector_name>" and is unique per profile.
// Credentials, webhook secrets and wallet details are sealed with the
// account's id as associated data.
func (s *Service) CreateAccount(ctx context.Context, in AccountInput) (*AccountView, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	var row *ent.MerchantConnectorAccount
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		prof, err := s.connectorProfile(ctx, tx, in.ProfileID)
		if err != nil {
			return err
		}
		label := prof.ProfileName + "_" + string(in.ConnectorName)
		if in.ConnectorLabel != nil {
			label = *in.ConnectorLabel
		}
		if err := s.checkLabelFree(ctx, tx, prof.ID, label, ""); err != nil {
			return err
		}
		id := ids.New(ids.ConnectorAccount)
		status := merchantconnectoraccount.StatusActive
		if in.Status != nil {
			status = merchantconnectoraccount.Status(*in.Status)
		}
		create := tx.MerchantConnectorAccount.Create().
			SetID(id).
			SetProfileID(prof.ID).
			SetConnectorType(merchantconnectoraccount.ConnectorType(in.ConnectorType)).
			SetConnectorName(string(in.ConnectorName)).
			SetConnectorLabel(label).
			SetNillableTestMode(in.TestMode).
			SetNillableDisabled(in.Disabled).
			SetNillableBusinessCountry((*string)(in.BusinessCountry)).
			SetNillableBusinessLabel(in.BusinessLabel).
			SetNillableBusinessSubLabel(in.BusinessSubLabel).
			SetStatus(status)
		if err := s.setConnectorMembers(create.Mutation(), id, connectorMembers{
			AccountDetails:         in.AccountDetails,
			WebhookDetails:         in.WebhookDetails,
			WalletsDetails:         in.WalletsDetails,
			PaymentMethodsEnabled:  in.PaymentMethodsEnabled,
			FrmConfigs:             in.FrmConfigs,
			AdditionalMerchantData: in.AdditionalMerchantData,
			Metadata:               in.Metadata,
			PmAuthConfig:           in.PmAuthConfig,
		}); err != nil {
			return err
		}
		row, err = create.Save(ctx)
		if ent.IsConstraintError(err) {
			return errDuplicateAccount(prof.ID, label)
		}
		return txn.ErrorOrNil(err, "merchant connector account")
	})
	if err != nil {
		return nil, err
	}
	return s.view(row)
}

// connectorProfile resolves the profile a new connector account goes
// under: the one named (it must be the merchant's, and the caller's when
// the caller is held to a profile), else the caller's profile, else the
// merchant's default profile.
func (s *Service) connectorProfile(ctx context.Context, tx *ent.Tx, profileID *string) (*ent.Profile, error) {
	p, ok := tenancy.FromContext(ctx)
	if !ok || p.MerchantID == "" {
		return nil, errs.NotFound("Merchant account")
	}
	m, err := tx.MerchantAccount.Query().Where(merchantaccount.ID(p.MerchantID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, errs.NotFound("Merchant account")
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	var q *ent.ProfileQuery
	var id string
	switch {
	case profileID != nil:
		id = *profileID
		if p.ProfileID != "" && p.ProfileID != id {
			return nil, errs.ProfileNotFound(id).WithField("profile_id")
		}
		q = tx.Profile.Query().Where(profile.ID(id))
	case p.ProfileID != "":
		id = p.ProfileID
		q = tx.Profile.Query().Where(profile.ID(id))
	case m.DefaultProfileID != nil && *m.DefaultProfileID != "":
		id = *m.DefaultProfileID
		q = tx.Profile.Query().Where(profile.ID(id))
	default:
		q = tx.Profile.Query().Where(profile.IsDefault(true)).Order(ent.Asc(profile.FieldCreatedAt))
	}
	prof, err := q.First(ctx)
	if ent.IsNotFound(err) {
		if id == "" {
			return nil, errs.MissingField("profile_id")
		}
		return nil, errs.ProfileNotFound(id).WithField("profile_id")
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	return prof, nil
}

// checkLabelFree is HE_01 when another account of the profile (not except)
// has the label; the unique index is the final guard.
func (s *Service) checkLabelFree(ctx context.Context, tx *ent.Tx, profileID, label, except string) error {
	q := tx.MerchantConnectorAccount.Query().Where(
		merchantconnectoraccount.ProfileID(profileID), merchantconnectoraccount.ConnectorLabel(label))
	if except != "" {
		q = q.Where(merchantconnectoraccount.IDNEQ(except))
	}
	taken, err := q.Exist(ctx)
	if err != nil {
		return errs.Internal(err)
	}
	if taken {
		return errDuplicateAccount(profileID, label)
	}
	return nil
}

// connectorMembers are the members create and update both store as given:
// the secrets, the typed values and the free-form objects.
type connectorMembers struct {
	AccountDetails         map[string]string
	WebhookDetails         *WebhookDetails
	WalletsDetails         *WalletDetails
	PaymentMethodsEnabled  []PaymentMethodsEnabled
	FrmConfigs             []FrmConfig
	AdditionalMerchantData *AdditionalMerchantData
	Metadata               map[string]any
	PmAuthConfig           map[string]any
}

// setConnectorMembers writes the non-nil members of in to m, the create or
// update of account id: secrets sealed, typed values as JSON. A nil member
// is not written, so an update leaves the stored value as it is.
func (s *Service) setConnectorMembers(m *ent.MerchantConnectorAccountMutation, id string, in connectorMembers) error {
	sealed, err := s.sealConnectorSecrets(id, in.AccountDetails, in.WebhookDetails, in.WalletsDetails)
	if err != nil {
		return err
	}
	pme, err := toJSONMaps(in.PaymentMethodsEnabled)
	if err != nil {
		return err
	}
	frm, err := toJSONMaps(in.FrmConfigs)
	if err != nil {
		return err
	}
	amd, err := toJSONMap(in.AdditionalMerchantData)
	if err != nil {
		return err
	}
	if sealed.details != nil {
		m.SetConnectorAccountDetailsSealed(sealed.details)
	}
	if sealed.webhook != nil {
		m.SetConnectorWebhookDetailsSealed(sealed.webhook)
	}
	if sealed.wallets != nil {
		m.SetConnectorWalletsDetailsSealed(sealed.wallets)
	}
	if pme != nil {
		m.SetPaymentMethodsEnabled(pme)
	}
	if frm != nil {
		m.SetFrmConfigs(frm)
	}
	if amd != nil {
		m.SetAdditionalMerchantData(amd)
	}
	if in.Metadata != nil {
		m.SetMetadata(in.Metadata)
	}
	if in.PmAuthConfig != nil {
		m.SetPmAuthConfig(in.PmAuthConfig)
	}
	return nil
}

type sealedSecrets struct{ details, webhook, wallets []byte }

// sealConnectorSecrets seals the members given (nil stays nil) with the
// account id as associated data, so a value copied to another row fails to open.
func (s *Service) sealConnectorSecrets(id string, details map[string]string, webhook *WebhookDetails,
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
// (tenancy scopes every query), narrowed to the caller's profile if any.
func connectorAccounts(ctx context.Context, c *ent.MerchantConnectorAccountClient) *ent.MerchantConnectorAccountQuery {
	q := c.Query()
	if p, ok := tenancy.FromContext(ctx); ok && p.ProfileID != "" {
		q = q.Where(merchantconnectoraccount.ProfileID(p.ProfileID))
	}
	return q
}

// GetConnectorAccount returns one of the caller's connector accounts; any
// other id, foreign or unknown, is HE_02.
func (s *Service) GetAccount(ctx context.Context, id string) (*AccountView, error) {
	row, err := connectorAccounts(ctx, s.db.Client.MerchantConnectorAccount).
		Where(merchantconnectoraccount.ID(id)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, errAccountNotFound()
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	return s.view(row)
}

// ListConnectorAccounts returns the caller's connector accounts, newest first.
func (s *Service) ListAccounts(ctx context.Context) ([]*AccountView, error) {
	if err := s.db.RequireMerchant(ctx); err != nil {
		return nil, err
	}
	rows, err := connectorAccounts(ctx, s.db.Client.MerchantConnectorAccount).
		Order(ent.Desc(merchantconnectoraccount.FieldCreatedAt), ent.Desc(merchantconnectoraccount.FieldID)).
		All(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	out := make([]*AccountView, len(rows))
	for i, r := range rows {
		if out[i], err = s.view(r); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// UpdateConnectorAccount applies a patch: the members given replace the
// stored ones (secrets re-sealed), and the label stays unique per profile.
func (s *Service) UpdateAccount(ctx context.Context, id string, p AccountPatch) (*AccountView, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	var row *ent.MerchantConnectorAccount
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		cur, err := txn.ForUpdate(s.db, connectorAccounts(ctx, tx.MerchantConnectorAccount).
			Where(merchantconnectoraccount.ID(id))).Only(ctx)
		if ent.IsNotFound(err) {
			return errAccountNotFound()
		}
		if err != nil {
			return errs.Internal(err)
		}
		label := cur.ConnectorLabel
		if p.ConnectorLabel != nil && *p.ConnectorLabel != cur.ConnectorLabel {
			label = *p.ConnectorLabel
			if err := s.checkLabelFree(ctx, tx, cur.ProfileID, label, cur.ID); err != nil {
				return err
			}
		}
		upd := cur.Update().
			SetConnectorType(merchantconnectoraccount.ConnectorType(p.ConnectorType)).
			SetConnectorLabel(label).
			SetNillableTestMode(p.TestMode).
			SetNillableDisabled(p.Disabled).
			SetNillableStatus((*merchantconnectoraccount.Status)(p.Status))
		if err := s.setConnectorMembers(upd.Mutation(), cur.ID, connectorMembers{
			AccountDetails:         p.AccountDetails,
			WebhookDetails:         p.WebhookDetails,
			WalletsDetails:         p.WalletsDetails,
			PaymentMethodsEnabled:  p.PaymentMethodsEnabled,
			FrmConfigs:             p.FrmConfigs,
			AdditionalMerchantData: p.AdditionalMerchantData,
			Metadata:               p.Metadata,
			PmAuthConfig:           p.PmAuthConfig,
		}); err != nil {
			return err
		}
		row, err = upd.Save(ctx)
		if ent.IsConstraintError(err) {
			return errDuplicateAccount(cur.ProfileID, label)
		}
		return txn.ErrorOrNil(err, "merchant connector account")
	})
	if err != nil {
		return nil, err
	}
	return s.view(row)
}

// DeletedConnectorAccount identifies a deleted connector account.
type DeletedAccount struct {
	MerchantID string
	ID         string
}

// DeleteConnectorAccount deletes one of the caller's connector accounts.
func (s *Service) DeleteAccount(ctx context.Context, id string) (*DeletedAccount, error) {
	var out *DeletedAccount
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		cur, err := txn.ForUpdate(s.db, connectorAccounts(ctx, tx.MerchantConnectorAccount).
			Where(merchantconnectoraccount.ID(id))).Only(ctx)
		if ent.IsNotFound(err) {
			return errAccountNotFound()
		}
		if err != nil {
			return errs.Internal(err)
		}
		if err := tx.MerchantConnectorAccount.DeleteOne(cur).Exec(ctx); err != nil {
			if ent.IsNotFound(err) {
				return errAccountNotFound()
			}
			return errs.Internal(err)
		}
		out = &DeletedAccount{MerchantID: cur.MerchantID, ID: cur.ID}
		return nil
	})
	return out, err
}

// ConnectorCredentials opens a connector account's credentials, for the
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

// ConnectorAccountView is a connector account row as callers may see it:
// the sealed members opened only to be masked. GraphQL maps it from the rows
// its connections load.
func (s *Service) View(row *ent.MerchantConnectorAccount) (*AccountView, error) {
	return s.view(row)
}

// connectorAccountView opens the sealed members only to mask them.
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
		return nil, err
	}
	if details != nil {
		v.AccountDetails = maskJSON(details).(map[string]any)
	}
	var webhook *WebhookDetails
	if err := open(row.ConnectorWebhookDetailsSealed, &webhook, "webhook details"); err != nil {
		return nil, err
	}
	if webhook != nil {
		v.WebhookDetails = &WebhookDetails{
			MerchantSecret:   secrets.Mask(webhook.MerchantSecret),
			AdditionalSecret: secrets.Mask(webhook.AdditionalSecret),
		}
	}
	var wallets *WalletDetails
	if err := open(row.ConnectorWalletsDetailsSealed, &wallets, "wallet details"); err != nil {
		return nil, err
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

// maskJSON masks every string in a decoded JSON value with secrets.Mask,
// recursing into objects and arrays; numbers, booleans and null are kept.
func maskJSON(v any) any {
	switch t := v.(type) {
	case string:
		return secrets.Mask(t)
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

// SandboxConnectorInput creates a connector account served by the simulator.
type SandboxAccountInput struct {
	ProfileID     string
	ConnectorName string
	Label         string
	Credentials   map[string]any
}

// CreateSandboxConnector creates an active payment_processor connector
// account in test mode, through the same checks as the REST create.
func (s *Service) CreateSandboxAccount(ctx context.Context, in SandboxAccountInput) (*AccountView, error) {
	details := make(map[string]string, len(in.Credentials))
	for k, v := range in.Credentials {
		if str, ok := v.(string); ok {
			details[k] = str
		} else {
			details[k] = fmt.Sprint(v)
		}
	}
	testMode := true
	input := AccountInput{
		AccountFields: AccountFields{
			ConnectorType:  Type(merchantconnectoraccount.ConnectorTypePaymentProcessor),
			AccountDetails: details,
			TestMode:       &testMode,
		},
		ConnectorName: Name(in.ConnectorName),
	}
	if in.ProfileID != "" {
		input.ProfileID = &in.ProfileID
	}
	if in.Label != "" {
		input.ConnectorLabel = &in.Label
	}
	return s.CreateAccount(ctx, input)
}
