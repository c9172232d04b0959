package connector

import (
	"context"

	"switchyard/ent"
	"switchyard/ent/merchantaccount"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/ent/profile"
	"switchyard/internal/ids"
	"switchyard/internal/tenancy"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

// Validate checks a create request; the first violation is returned.

// CreateAccount creates a connector account for the merchant in
// ctx, under in.ProfileID or the merchant's default profile. The label
// defaults to "<profile_name>_<connector_name>" and is unique per profile.
// Credentials, webhook secrets and wallet details are sealed with the
// account's id as associated data.
func (s *Service) CreateAccount(ctx context.Context, in AccountInput) (*AccountView, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	return s.writeAccount(ctx, func(tx *ent.Tx) (*accountWrite, error) {
		prof, err := s.connectorProfile(ctx, tx, in.ProfileID)
		if err != nil {
			return nil, err
		}
		label := prof.ProfileName + "_" + string(in.ConnectorName)
		if in.ConnectorLabel != nil {
			label = *in.ConnectorLabel
		}
		if err := s.checkLabelFree(ctx, tx, prof.ID, label, ""); err != nil {
			return nil, err
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
		return &accountWrite{id: id, m: create.Mutation(), save: create.Save, fields: in.AccountFields,
			profileID: prof.ID, label: label}, nil
	})
}

// accountWrite is a connector account's create or update, as prepared
// inside its transaction: the account's id, its mutation and its save, the
// members to store as given, and the profile and label it must be unique
// under.
type accountWrite struct {
	id               string
	m                *ent.MerchantConnectorAccountMutation
	save             func(context.Context) (*ent.MerchantConnectorAccount, error)
	fields           AccountFields
	profileID, label string
}

// writeAccount runs a connector account's create or update in one
// transaction: prepare checks and builds it, then the shared members are
// written (setConnectorMembers) and it is saved; a clash on the profile's
// unique label is the API's duplicate error.
func (s *Service) writeAccount(ctx context.Context, prepare func(tx *ent.Tx) (*accountWrite, error)) (*AccountView, error) {
	var row *ent.MerchantConnectorAccount
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		w, err := prepare(tx)
		if err != nil {
			return err
		}
		if err := s.setConnectorMembers(w.m, w.id, w.fields); err != nil {
			return err
		}
		row, err = w.save(ctx)
		if ent.IsConstraintError(err) {
			return errDuplicateAccount(w.profileID, w.label)
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

// setConnectorMembers writes the members create and update both store as
// given (the secrets, the typed values and the free-form objects) to m, the
// create or update of account id: secrets sealed, typed values as JSON. A
// nil member is not written, so an update leaves the stored value as it is.
func (s *Service) setConnectorMembers(m *ent.MerchantConnectorAccountMutation, id string, in AccountFields) error {
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
	txn.SetGiven(sealed.details, m.SetConnectorAccountDetailsSealed)
	txn.SetGiven(sealed.webhook, m.SetConnectorWebhookDetailsSealed)
	txn.SetGiven(sealed.wallets, m.SetConnectorWalletsDetailsSealed)
	txn.SetGiven(pme, m.SetPaymentMethodsEnabled)
	txn.SetGiven(frm, m.SetFrmConfigs)
	txn.SetGiven(amd, m.SetAdditionalMerchantData)
	txn.SetGiven(in.Metadata, m.SetMetadata)
	txn.SetGiven(in.PmAuthConfig, m.SetPmAuthConfig)
	return nil
}

// (tenancy scopes every query), narrowed to the caller's profile if any.
func connectorAccounts(ctx context.Context, c *ent.MerchantConnectorAccountClient) *ent.MerchantConnectorAccountQuery {
	return c.Query().Where(txn.InProfile(ctx, merchantconnectoraccount.ProfileID)...)
}

// GetAccount returns one of the caller's connector accounts; any
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

// lockAccount reads one of the caller's connector accounts for update in
// tx; any other id, foreign or unknown, is HE_02.
func (s *Service) lockAccount(ctx context.Context, tx *ent.Tx, id string) (*ent.MerchantConnectorAccount, error) {
	cur, err := txn.ForUpdate(s.db, connectorAccounts(ctx, tx.MerchantConnectorAccount).
		Where(merchantconnectoraccount.ID(id))).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, errAccountNotFound()
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	return cur, nil
}

// ListAccounts returns the caller's connector accounts, newest first.
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

// UpdateAccount applies a patch: the members given replace the
// stored ones (secrets re-sealed), and the label stays unique per profile.
func (s *Service) UpdateAccount(ctx context.Context, id string, p AccountPatch) (*AccountView, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return s.writeAccount(ctx, func(tx *ent.Tx) (*accountWrite, error) {
		cur, err := s.lockAccount(ctx, tx, id)
		if err != nil {
			return nil, err
		}
		label := cur.ConnectorLabel
		if p.ConnectorLabel != nil && *p.ConnectorLabel != cur.ConnectorLabel {
			label = *p.ConnectorLabel
			if err := s.checkLabelFree(ctx, tx, cur.ProfileID, label, cur.ID); err != nil {
				return nil, err
			}
		}
		upd := cur.Update().
			SetConnectorType(merchantconnectoraccount.ConnectorType(p.ConnectorType)).
			SetConnectorLabel(label).
			SetNillableTestMode(p.TestMode).
			SetNillableDisabled(p.Disabled).
			SetNillableStatus((*merchantconnectoraccount.Status)(p.Status))
		return &accountWrite{id: cur.ID, m: upd.Mutation(), save: upd.Save, fields: p.AccountFields,
			profileID: cur.ProfileID, label: label}, nil
	})
}

// DeletedAccount identifies a deleted connector account.
type DeletedAccount struct {
	MerchantID string
	ID         string
}

// DeleteAccount deletes one of the caller's connector accounts.
func (s *Service) DeleteAccount(ctx context.Context, id string) (*DeletedAccount, error) {
	var out *DeletedAccount
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		cur, err := s.lockAccount(ctx, tx, id)
		if err != nil {
			return err
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

// SandboxAccountInput creates a connector account served by the simulator.
type SandboxAccountInput struct {
	ProfileID     string
	ConnectorName string
	Label         string
	Credentials   map[string]any
}

// CreateSandboxAccount creates an active payment_processor connector
// account in test mode, through the same checks as the REST create.
func (s *Service) CreateSandboxAccount(ctx context.Context, in SandboxAccountInput) (*AccountView, error) {
	testMode := true
	input := AccountInput{
		AccountFields: AccountFields{
			ConnectorType:         Type(merchantconnectoraccount.ConnectorTypePaymentProcessor),
			AccountDetails:        in.Credentials,
			TestMode:              &testMode,
			PaymentMethodsEnabled: SandboxMethods(),
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
