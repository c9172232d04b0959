package payments

import (
	"context"
	"fmt"

	"switchyard/ent"
	"switchyard/ent/merchantaccount"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/ent/schema/schematype"
	"switchyard/internal/ids"
	"switchyard/internal/tenancy"
)

// MerchantAccountInput creates a merchant account and its default profile.
type MerchantAccountInput struct {
	MerchantID             string
	MerchantName           *string
	ReturnURL              *string
	WebhookDetails         *schematype.WebhookDetails
	PaymentResponseHashKey *string
	Metadata               map[string]any
}

// MerchantAccountCreated is a new merchant with its default profile.
type MerchantAccountCreated struct {
	Merchant *ent.MerchantAccount
	Profile  *ent.Profile
}

// CreateMerchantAccount creates a merchant, its publishable key and its
// default profile (which inherits the webhook settings, hash key and return
// URL) in one transaction.
func (s *Service) CreateMerchantAccount(ctx context.Context, in MerchantAccountInput) (*MerchantAccountCreated, error) {
	if in.MerchantID == "" {
		return nil, ErrMissingField("merchant_id")
	}
	var out MerchantAccountCreated
	err := s.inTx(ctx, func(tx *ent.Tx) error {
		exists, err := tx.MerchantAccount.Query().Where(merchantaccount.ID(in.MerchantID)).Exist(ctx)
		if err != nil {
			return ErrInternal(err)
		}
		if exists {
			return ErrDuplicate("The merchant account with the specified details already exists in our records")
		}
		profileID := ids.New(ids.Profile)
		m, err := tx.MerchantAccount.Create().
			SetID(in.MerchantID).
			SetNillableMerchantName(in.MerchantName).
			SetNillableReturnURL(in.ReturnURL).
			SetWebhookDetails(in.WebhookDetails).
			SetPublishableKey(ids.PublishableKey()).
			SetDefaultProfileID(profileID).
			SetMetadata(in.Metadata).
			Save(ctx)
		if err != nil {
			return dbError(err, "merchant account")
		}
		mctx := tenancy.ForMerchant(ctx, m.ID)
		p, err := s.createProfile(mctx, tx, ProfileInput{
			ID:                     profileID,
			ProfileName:            "default",
			IsDefault:              true,
			ReturnURL:              in.ReturnURL,
			WebhookDetails:         in.WebhookDetails,
			PaymentResponseHashKey: in.PaymentResponseHashKey,
		})
		if err != nil {
			return err
		}
		out = MerchantAccountCreated{Merchant: m, Profile: p}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// ProfileInput creates a business profile.
type ProfileInput struct {
	ID                     string
	ProfileName            string
	IsDefault              bool
	ReturnURL              *string
	WebhookDetails         *schematype.WebhookDetails
	PaymentResponseHashKey *string
	SessionExpiry          *int64
}

func (s *Service) createProfile(ctx context.Context, tx *ent.Tx, in ProfileInput) (*ent.Profile, error) {
	if in.ID == "" {
		in.ID = ids.New(ids.Profile)
	}
	hashKey := ids.Base62(64)
	if in.PaymentResponseHashKey != nil && *in.PaymentResponseHashKey != "" {
		hashKey = *in.PaymentResponseHashKey
	}
	sealed, err := s.box.Seal([]byte(hashKey), []byte(in.ID))
	if err != nil {
		return nil, ErrInternal(err)
	}
	p, err := tx.Profile.Create().
		SetID(in.ID).
		SetProfileName(in.ProfileName).
		SetIsDefault(in.IsDefault).
		SetNillableReturnURL(in.ReturnURL).
		SetWebhookDetails(in.WebhookDetails).
		SetPaymentResponseHashKeySealed(sealed).
		SetNillableSessionExpiry(in.SessionExpiry).
		Save(ctx)
	if err != nil {
		return nil, dbError(err, "profile")
	}
	return p, nil
}

// ProfileHashKey opens a profile's payment_response_hash_key.
func (s *Service) ProfileHashKey(p *ent.Profile) (string, error) {
	b, err := s.box.Open(p.PaymentResponseHashKeySealed, []byte(p.ID))
	if err != nil {
		return "", ErrInternal(fmt.Errorf("open hash key of %s: %w", p.ID, err))
	}
	return string(b), nil
}

// SandboxConnectorInput creates a connector account served by the simulator.
type SandboxConnectorInput struct {
	ProfileID     string
	ConnectorName string
	Label         string
	Credentials   map[string]any
}

// CreateSandboxConnector creates an active payment_processor connector
// account with sealed credentials. Issue-level validation of the full
// MerchantConnectorCreate body lives in the REST create operation.
func (s *Service) CreateSandboxConnector(ctx context.Context, in SandboxConnectorInput) (*ent.MerchantConnectorAccount, error) {
	id := ids.New(ids.ConnectorAccount)
	sealed, err := s.box.SealJSON(in.Credentials, []byte(id))
	if err != nil {
		return nil, ErrInternal(err)
	}
	mca, err := s.client.MerchantConnectorAccount.Create().
		SetID(id).
		SetProfileID(in.ProfileID).
		SetConnectorType(merchantconnectoraccount.ConnectorTypePaymentProcessor).
		SetConnectorName(in.ConnectorName).
		SetConnectorLabel(in.Label).
		SetConnectorAccountDetailsSealed(sealed).
		SetTestMode(true).
		SetStatus(merchantconnectoraccount.StatusActive).
		Save(ctx)
	if err != nil {
		return nil, dbError(err, "merchant connector account")
	}
	return mca, nil
}

// dbError turns a constraint violation into HE_01 and anything else into HE_00.
func dbError(err error, what string) error {
	if ent.IsConstraintError(err) {
		return ErrDuplicate("The %s with the specified details already exists in our records", what)
	}
	if _, ok := AsError(err); ok {
		return err
	}
	return ErrInternal(fmt.Errorf("%s: %w", what, err))
}
