package merchant

import (
	"context"
	"fmt"

	"switchyard/ent"
	"switchyard/ent/merchantaccount"
	"switchyard/ent/schema/schematype"
	"switchyard/internal/ids"
	"switchyard/internal/tenancy"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

// MerchantAccountInput creates a merchant account and its default profile
// (Hyperswitch's MerchantAccountCreate, the members Switchyard implements).
type MerchantAccountInput struct {
	MerchantID string
	MerchantAccountFields
	// OrganizationID names an existing organization; when absent a new
	// one is created for the merchant.
	OrganizationID *string
	// MerchantAccountType must be "standard" when given.
	MerchantAccountType *string
	// TimeZone is the merchant's IANA time zone, UTC when absent. Not a
	// Hyperswitch member: only the dashboard's sign-up gives it.
	TimeZone *string
}

// MerchantAccountFields are the members a merchant account's create and
// update share. On create a nil member takes its default; on update it
// leaves the stored value alone.
type MerchantAccountFields struct {
	MerchantName    *string
	MerchantDetails *MerchantDetails
	ReturnURL       *string
	WebhookDetails  *schematype.WebhookDetails
	// EnablePaymentResponseHash defaults to true.
	EnablePaymentResponseHash      *bool
	PaymentResponseHashKey         *string
	RedirectToMerchantWithHTTPPost *bool
	Metadata                       map[string]any
	LockerID                       *string
	// PrimaryBusinessDetails replaces the list when non-nil (empty clears it).
	PrimaryBusinessDetails []PrimaryBusinessDetails
}

// CreateMerchantAccount creates a merchant, its publishable key and its
// default profile (which inherits the return URL, webhook settings, hash key
// and redirect flags) in one transaction. It is a platform operation: the
// caller must be the admin (or the system).
func (s *Service) CreateMerchantAccount(ctx context.Context, in MerchantAccountInput) (*MerchantAccountView, error) {
	if err := checkMerchantAccountInput(in); err != nil {
		return nil, err
	}
	ctx, err := platformContext(ctx)
	if err != nil {
		return nil, err
	}
	var out MerchantAccountView
	err = s.db.InTx(ctx, func(tx *ent.Tx) error {
		exists, err := tx.MerchantAccount.Query().Where(merchantaccount.ID(in.MerchantID)).Exist(ctx)
		if err != nil {
			return errs.Internal(err)
		}
		if exists {
			return errs.Duplicate("The merchant account with the specified details already exists in our records")
		}
		orgID, err := organizationFor(ctx, tx, in.OrganizationID)
		if err != nil {
			return err
		}
		profileID := ids.New(ids.Profile)
		m, err := in.create(tx.MerchantAccount.Create(), profileID, orgID).Save(ctx)
		if err != nil {
			return txn.Error(err, "merchant account")
		}
		p, err := s.createProfile(tenancy.ForMerchant(ctx, m.ID), tx, profileID, true, in.defaultProfile())
		if err != nil {
			return err
		}
		out = MerchantAccountView{Merchant: m, DefaultProfile: p}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, s.withHashKey(&out)
}

// create sets on c the merchant the input creates, with its default
// profile and organization.
func (in *MerchantAccountInput) create(c *ent.MerchantAccountCreate, profileID, orgID string) *ent.MerchantAccountCreate {
	c.SetID(in.MerchantID).
		SetNillableMerchantName(in.MerchantName).
		SetNillableReturnURL(in.ReturnURL).
		SetWebhookDetails(in.WebhookDetails).
		SetNillableEnablePaymentResponseHash(in.EnablePaymentResponseHash).
		SetNillableRedirectToMerchantWithHTTPPost(in.RedirectToMerchantWithHTTPPost).
		SetPublishableKey(ids.PublishableKey()).
		SetDefaultProfileID(profileID).
		SetOrganizationID(orgID).
		SetNillableLockerID(in.LockerID).
		SetNillableTimeZone(in.TimeZone).
		SetMetadata(in.Metadata).
		SetPrimaryBusinessDetails(businessDetailsRows(in.PrimaryBusinessDetails)).
		SetMerchantAccountType(merchantaccount.MerchantAccountTypeStandard)
	if in.MerchantDetails != nil {
		c.SetMerchantDetails(in.MerchantDetails.row())
	}
	return c
}

// defaultProfile is the merchant's first profile: named default, it
// inherits the return URL, webhook settings, hash key, redirect flag and
// metadata.
func (in *MerchantAccountInput) defaultProfile() ProfileInput {
	name := "default"
	return ProfileInput{
		ProfileName:                    &name,
		ReturnURL:                      in.ReturnURL,
		WebhookDetails:                 in.WebhookDetails,
		EnablePaymentResponseHash:      in.EnablePaymentResponseHash,
		PaymentResponseHashKey:         in.PaymentResponseHashKey,
		RedirectToMerchantWithHTTPPost: in.RedirectToMerchantWithHTTPPost,
		Metadata:                       in.Metadata,
	}
}

// ProfileInput holds the settable members of a business profile
// (Hyperswitch's ProfileCreate, the members Switchyard stores). On create a
// nil member takes its default; on update it leaves the stored value alone.
type ProfileInput struct {
	// ProfileName defaults to profile_<n> on create; unique per merchant.
	ProfileName *string
	ReturnURL   *string
	// EnablePaymentResponseHash defaults to true.
	EnablePaymentResponseHash *bool
	// PaymentResponseHashKey is generated (64 base62 characters) when absent.
	PaymentResponseHashKey         *string
	RedirectToMerchantWithHTTPPost *bool
	WebhookDetails                 *schematype.WebhookDetails
	Metadata                       map[string]any
	// SessionExpiry is the client-secret expiry in seconds (default 900).
	SessionExpiry *int64
	// PaymentLinkConfig is Hyperswitch's BusinessPaymentLinkConfig, kept
	// as given: the defaults of the profile's payment links.
	PaymentLinkConfig map[string]any
	// AuthenticationConnectorDetails is Hyperswitch's
	// AuthenticationConnectorDetails: the authentication connectors (by
	// connector name, in order) that authenticate the profile's payments
	// that ask for external 3-D Secure, and the 3DS requestor URL.
	AuthenticationConnectorDetails map[string]any

	UseBillingAsPaymentMethodBilling                *bool
	CollectShippingDetailsFromWalletConnector       *bool
	CollectBillingDetailsFromWalletConnector        *bool
	AlwaysCollectShippingDetailsFromWalletConnector *bool
	AlwaysCollectBillingDetailsFromWalletConnector  *bool
	IsConnectorAgnosticMitEnabled                   *bool
	IsTaxConnectorEnabled                           *bool
	IsNetworkTokenizationEnabled                    *bool
	IsAutoRetriesEnabled                            *bool
	MaxAutoRetriesEnabled                           *int
	IsManualRetryEnabled                            *bool
	IsClickToPayEnabled                             *bool
	Force3dsChallenge                               *bool
	IsIframeRedirectionEnabled                      *bool
}

// createProfile writes a profile of the merchant in ctx; the caller has
// validated in and holds the transaction.
func (s *Service) createProfile(ctx context.Context, tx *ent.Tx, id string, isDefault bool, in ProfileInput) (*ent.Profile, error) {
	if id == "" {
		id = ids.New(ids.Profile)
	}
	hashKey := ids.Base62(64)
	if in.PaymentResponseHashKey != nil {
		hashKey = *in.PaymentResponseHashKey
	}
	sealed, err := s.box.Seal([]byte(hashKey), []byte(id))
	if err != nil {
		return nil, errs.Internal(err)
	}
	create := tx.Profile.Create().
		SetID(id).
		SetProfileName(*in.ProfileName).
		SetIsDefault(isDefault).
		SetPaymentResponseHashKeySealed(sealed).
		SetWebhookDetails(in.WebhookDetails).
		SetMetadata(in.Metadata)
	setProfileSettings(create.Mutation(), in)
	p, err := create.Save(ctx)
	if err != nil {
		return nil, txn.Error(err, "profile")
	}
	return p, nil
}

// ProfileHashKey opens a profile's payment_response_hash_key.
func (s *Service) ProfileHashKey(p *ent.Profile) (string, error) {
	b, err := s.box.Open(p.PaymentResponseHashKeySealed, []byte(p.ID))
	if err != nil {
		return "", errs.Internal(fmt.Errorf("open hash key of %s: %w", p.ID, err))
	}
	return string(b), nil
}
