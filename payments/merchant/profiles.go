package merchant

import (
	"context"
	"fmt"
	"math"

	"switchyard/ent"
	"switchyard/ent/merchantaccount"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/ent/profile"
	"switchyard/ent/profileacquirer"
	"switchyard/ent/schema/schematype"
	"switchyard/internal/tenancy"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

const (
	maxProfileNameLen       = 64
	maxProfileAutoRetries   = 255 // Hyperswitch reads it as an unsigned byte
	maxProfileSessionExpiry = math.MaxInt32
	defaultProfileStem      = "profile_"
)

func checkProfileInput(in ProfileInput) error {
	if in.ProfileName != nil && (*in.ProfileName == "" || validate.Chars(*in.ProfileName) > maxProfileNameLen) {
		return errs.InvalidValue("profile_name", "must be 1 to %d characters", maxProfileNameLen)
	}
	if in.ReturnURL != nil {
		if err := validate.AbsoluteHTTPURL("return_url", *in.ReturnURL, maxReturnURLLen); err != nil {
			return err
		}
	}
	if err := checkResponseHashKey(in.PaymentResponseHashKey); err != nil {
		return err
	}
	if err := checkWebhookDetails(in.WebhookDetails); err != nil {
		return err
	}
	if in.SessionExpiry != nil && (*in.SessionExpiry < 0 || *in.SessionExpiry > maxProfileSessionExpiry) {
		return errs.InvalidValue("session_expiry", "must be a number of seconds from 0 to %d", maxProfileSessionExpiry)
	}
	if in.MaxAutoRetriesEnabled != nil && (*in.MaxAutoRetriesEnabled < 0 || *in.MaxAutoRetriesEnabled > maxProfileAutoRetries) {
		return errs.InvalidValue("max_auto_retries_enabled", "must be from 0 to %d", maxProfileAutoRetries)
	}
	return nil
}

// lockMerchantRow reads the merchant row for update inside tx, so profile
// names stay unique and a merchant being deleted gets no new profiles.
func (s *Service) lockMerchantRow(ctx context.Context, tx *ent.Tx, merchantID string) (*ent.MerchantAccount, error) {
	m, err := txn.ForUpdate(s.db, tx.MerchantAccount.Query().Where(merchantaccount.ID(merchantID))).Only(ctx)
	if err != nil {
		return nil, txn.ReadError(err, errMerchantNotFound)
	}
	return m, nil
}

// CreateProfile creates a business profile of the merchant in ctx. A
// missing profile_name becomes profile_<n>; a name the merchant already
// uses is HE_01.
func (s *Service) CreateProfile(ctx context.Context, in ProfileInput) (*ProfileView, error) {
	return s.viewOf(s.writeProfile(ctx, in, func(tx *ent.Tx, merchantID string) (*ent.Profile, error) {
		names, err := txn.ForUpdate(s.db, tx.Profile.Query().Where(profile.MerchantID(merchantID))).
			Select(profile.FieldProfileName).Strings(ctx)
		if err != nil {
			return nil, errs.Internal(err)
		}
		taken := accountValueSet(names...)
		if in.ProfileName != nil {
			if taken[*in.ProfileName] {
				return nil, errDuplicateProfileName(*in.ProfileName)
			}
		} else {
			name := ""
			for n := len(names) + 1; name == "" || taken[name]; n++ {
				name = fmt.Sprintf("%s%d", defaultProfileStem, n)
			}
			in.ProfileName = &name
		}
		return s.createProfile(ctx, tx, "", false, in)
	}))
}

// writeProfile checks in and runs write in one transaction that holds the
// row of the merchant in ctx (see lockMerchantRow).
func (s *Service) writeProfile(ctx context.Context, in ProfileInput,
	write func(tx *ent.Tx, merchantID string) (*ent.Profile, error)) (*ent.Profile, error) {
	if err := checkProfileInput(in); err != nil {
		return nil, err
	}
	merchantID, err := txn.Merchant(ctx)
	if err != nil {
		return nil, err
	}
	var out *ent.Profile
	err = s.db.InTx(ctx, func(tx *ent.Tx) error {
		if _, err := s.lockMerchantRow(ctx, tx, merchantID); err != nil {
			return err
		}
		out, err = write(tx, merchantID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// errMerchantNotFound is a merchant account that does not exist (or is
// another tenant's).
func errMerchantNotFound() *errs.Error { return errs.NotFound("Merchant account") }

// errAPIKeyNotFound is an API key the merchant does not have.
func errAPIKeyNotFound() *errs.Error { return errs.NotFound("API Key") }

func errDuplicateProfileName(name string) *errs.Error {
	e := errs.Duplicate("The profile with the specified profile_name %q already exists in our records", name)
	e.Field = "profile_name"
	return e
}

// GetProfile returns a profile of the merchant in ctx.
func (s *Service) GetProfile(ctx context.Context, id string) (*ProfileView, error) {
	p, err := s.db.Client.Profile.Query().Where(profile.ID(id)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, errs.ProfileNotFound(id)
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	v, err := s.viewOf(p, nil)
	if err != nil {
		return nil, err
	}
	return v, s.withAcquirers(ctx, v)
}

// ListProfiles lists the profiles of the merchant in ctx, oldest (the
// default) first.
func (s *Service) ListProfiles(ctx context.Context) ([]*ProfileView, error) {
	if err := s.db.RequireMerchant(ctx); err != nil {
		return nil, err
	}
	ps, err := s.db.Client.Profile.Query().
		Order(ent.Asc(profile.FieldCreatedAt), ent.Asc(profile.FieldID)).All(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	out := make([]*ProfileView, len(ps))
	for i, p := range ps {
		if out[i], err = s.viewOf(p, nil); err != nil {
			return nil, err
		}
	}
	return out, s.withAcquirers(ctx, out...)
}

// ProfileView is a profile as its merchant sees it: its settings, its
// payment_response_hash_key opened, and its acquirer configurations
// (Hyperswitch's acquirer_configs; none is nil).
type ProfileView struct {
	*ent.Profile
	HashKey   string
	Acquirers []*ent.ProfileAcquirer
}

// withAcquirers gives views their acquirer configurations, oldest first,
// read in one query for them all.
func (s *Service) withAcquirers(ctx context.Context, views ...*ProfileView) error {
	byID := make(map[string]*ProfileView, len(views))
	profileIDs := make([]string, 0, len(views))
	for _, v := range views {
		byID[v.ID] = v
		profileIDs = append(profileIDs, v.ID)
	}
	if len(profileIDs) == 0 {
		return nil
	}
	all, err := s.db.Client.ProfileAcquirer.Query().Where(profileacquirer.ProfileIDIn(profileIDs...)).
		Order(ent.Asc(profileacquirer.FieldCreatedAt), ent.Asc(profileacquirer.FieldID)).All(ctx)
	if err != nil {
		return errs.Internal(err)
	}
	for _, a := range all {
		v := byID[a.ProfileID]
		v.Acquirers = append(v.Acquirers, a)
	}
	return nil
}

// viewOf opens p's hash key; it passes err (and a nil p) through.
func (s *Service) viewOf(p *ent.Profile, err error) (*ProfileView, error) {
	if err != nil {
		return nil, err
	}
	key, err := s.ProfileHashKey(p)
	if err != nil {
		return nil, err
	}
	return &ProfileView{Profile: p, HashKey: key}, nil
}

// UpdateProfile applies in to a profile of the merchant in ctx; nil members
// keep their value.
func (s *Service) UpdateProfile(ctx context.Context, id string, in ProfileInput) (*ProfileView, error) {
	v, err := s.viewOf(s.writeProfile(ctx, in, func(tx *ent.Tx, merchantID string) (*ent.Profile, error) {
		p, err := s.lockProfile(ctx, tx, merchantID, id)
		if err != nil {
			return nil, err
		}
		if in.ProfileName != nil && *in.ProfileName != p.ProfileName {
			clash, err := txn.ForUpdate(s.db, tx.Profile.Query().Where(profile.MerchantID(merchantID),
				profile.ProfileName(*in.ProfileName), profile.IDNEQ(id))).Exist(ctx)
			if err != nil {
				return nil, errs.Internal(err)
			}
			if clash {
				return nil, errDuplicateProfileName(*in.ProfileName)
			}
		}
		return s.applyProfileInput(ctx, p, in)
	}))
	if err != nil {
		return nil, err
	}
	return v, s.withAcquirers(ctx, v)
}

// lockProfile reads a profile of the merchant for a change.
func (s *Service) lockProfile(ctx context.Context, tx *ent.Tx, merchantID, id string) (*ent.Profile, error) {
	p, err := txn.ForUpdate(s.db, tx.Profile.Query().Where(profile.ID(id), profile.MerchantID(merchantID))).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, errs.ProfileNotFound(id)
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	return p, nil
}

// WebhookSettingsPatch changes some of a profile's webhook details; nil
// members keep their value. An empty WebhookURL removes the URL.
type WebhookSettingsPatch struct {
	WebhookURL             *string
	DeliveryEnabled        *bool
	PaymentStatusesEnabled []string
	RefundStatusesEnabled  []string
	PayoutStatusesEnabled  []string
	EnabledEventTypes      []string
	WebhookVersion         *string
	WebhookUsername        *string
	WebhookPassword        *string
}

// apply returns cur with the patch's members written over it.
func (p WebhookSettingsPatch) apply(cur *schematype.WebhookDetails) *schematype.WebhookDetails {
	out := schematype.WebhookDetails{}
	if cur != nil {
		out = *cur
	}
	if p.WebhookURL != nil {
		out.WebhookURL = p.WebhookURL
		if *p.WebhookURL == "" {
			out.WebhookURL = nil
		}
	}
	if p.DeliveryEnabled != nil {
		out.DeliveryDisabled = !*p.DeliveryEnabled
	}
	for _, l := range []struct{ dst, src *[]string }{
		{&out.PaymentStatusesEnabled, &p.PaymentStatusesEnabled}, {&out.RefundStatusesEnabled, &p.RefundStatusesEnabled},
		{&out.PayoutStatusesEnabled, &p.PayoutStatusesEnabled}, {&out.EnabledEventTypes, &p.EnabledEventTypes},
	} {
		if *l.src != nil {
			*l.dst = *l.src
		}
	}
	for _, v := range []struct{ dst, src **string }{
		{&out.WebhookVersion, &p.WebhookVersion}, {&out.WebhookUsername, &p.WebhookUsername}, {&out.WebhookPassword, &p.WebhookPassword},
	} {
		if *v.src != nil {
			*v.dst = *v.src
		}
	}
	return &out
}

// Details is the webhook details a new profile gets from the patch: its
// members over none (REST's webhook_details on create).
func (p WebhookSettingsPatch) Details() *schematype.WebhookDetails { return p.apply(nil) }

// UpdateProfileWebhookSettings applies a patch to a profile's webhook
// details. The merge happens under the profile's row lock, so concurrent
// patches of different members all land.
func (s *Service) UpdateProfileWebhookSettings(ctx context.Context, id string, patch WebhookSettingsPatch) (*ent.Profile, error) {
	if p, _ := tenancy.FromContext(ctx); p.ProfileID != "" && p.ProfileID != id {
		return nil, errs.ProfileNotFound(id) // a caller narrowed to one profile changes only that one
	}
	return s.writeProfile(ctx, ProfileInput{}, func(tx *ent.Tx, merchantID string) (*ent.Profile, error) {
		p, err := s.lockProfile(ctx, tx, merchantID, id)
		if err != nil {
			return nil, err
		}
		details := patch.apply(p.WebhookDetails)
		if err := checkWebhookDetails(details); err != nil {
			return nil, err
		}
		return s.applyProfileInput(ctx, p, ProfileInput{WebhookDetails: details})
	})
}

// applyProfileInput writes the non-nil members of in to p, inside the
// transaction p was read in.
func (s *Service) applyProfileInput(ctx context.Context, p *ent.Profile, in ProfileInput) (*ent.Profile, error) {
	upd := p.Update().SetNillableProfileName(in.ProfileName)
	setProfileSettings(upd.Mutation(), in)
	if in.WebhookDetails != nil {
		upd.SetWebhookDetails(in.WebhookDetails)
	}
	if in.Metadata != nil {
		upd.SetMetadata(in.Metadata)
	}
	if in.PaymentResponseHashKey != nil {
		sealed, err := s.box.Seal([]byte(*in.PaymentResponseHashKey), []byte(p.ID))
		if err != nil {
			return nil, errs.Internal(err)
		}
		upd.SetPaymentResponseHashKeySealed(sealed)
	}
	out, err := upd.Save(ctx)
	if err != nil {
		return nil, txn.Error(err, "profile")
	}
	return out, nil
}

// setProfileSettings writes the settings of in that are given (non-nil) to
// m, a profile create (where an absent one keeps its default) or update
// (where it keeps the stored value).
func setProfileSettings(m *ent.ProfileMutation, in ProfileInput) {
	txn.SetIf(in.ReturnURL, m.SetReturnURL)
	txn.SetIf(in.EnablePaymentResponseHash, m.SetEnablePaymentResponseHash)
	txn.SetIf(in.RedirectToMerchantWithHTTPPost, m.SetRedirectToMerchantWithHTTPPost)
	txn.SetIf(in.SessionExpiry, m.SetSessionExpiry)
	txn.SetIf(in.UseBillingAsPaymentMethodBilling, m.SetUseBillingAsPaymentMethodBilling)
	txn.SetIf(in.CollectShippingDetailsFromWalletConnector, m.SetCollectShippingDetailsFromWalletConnector)
	txn.SetIf(in.CollectBillingDetailsFromWalletConnector, m.SetCollectBillingDetailsFromWalletConnector)
	txn.SetIf(in.AlwaysCollectShippingDetailsFromWalletConnector, m.SetAlwaysCollectShippingDetailsFromWalletConnector)
	txn.SetIf(in.AlwaysCollectBillingDetailsFromWalletConnector, m.SetAlwaysCollectBillingDetailsFromWalletConnector)
	txn.SetIf(in.IsConnectorAgnosticMitEnabled, m.SetIsConnectorAgnosticMitEnabled)
	txn.SetIf(in.IsTaxConnectorEnabled, m.SetIsTaxConnectorEnabled)
	txn.SetIf(in.IsNetworkTokenizationEnabled, m.SetIsNetworkTokenizationEnabled)
	txn.SetIf(in.IsAutoRetriesEnabled, m.SetIsAutoRetriesEnabled)
	txn.SetIf(in.MaxAutoRetriesEnabled, m.SetMaxAutoRetriesEnabled)
	txn.SetIf(in.IsManualRetryEnabled, m.SetIsManualRetryEnabled)
	txn.SetIf(in.IsClickToPayEnabled, m.SetIsClickToPayEnabled)
	txn.SetIf(in.Force3dsChallenge, m.SetForce3dsChallenge)
	txn.SetIf(in.IsIframeRedirectionEnabled, m.SetIsIframeRedirectionEnabled)
	txn.SetGiven(in.PaymentLinkConfig, m.SetPaymentLinkConfig)
	txn.SetGiven(in.AuthenticationConnectorDetails, m.SetAuthenticationConnectorDetails)
}

// DeleteProfile deletes a profile of the merchant in ctx and its connector
// accounts in one transaction. The merchant's default profile cannot be
// deleted (IR_16): make another profile the default first.
func (s *Service) DeleteProfile(ctx context.Context, id string) error {
	merchantID, err := txn.Merchant(ctx)
	if err != nil {
		return err
	}
	return s.db.InTx(ctx, func(tx *ent.Tx) error {
		m, err := s.lockMerchantRow(ctx, tx, merchantID)
		if err != nil {
			return err
		}
		p, err := txn.ForUpdate(s.db, tx.Profile.Query().Where(profile.ID(id), profile.MerchantID(merchantID))).Only(ctx)
		if ent.IsNotFound(err) {
			return errs.ProfileNotFound(id)
		}
		if err != nil {
			return errs.Internal(err)
		}
		if p.IsDefault || (m.DefaultProfileID != nil && *m.DefaultProfileID == p.ID) {
			return errs.PreconditionFailed("Business profile %s is the default profile of merchant %s and cannot be deleted; "+
				"make another profile the default (default_profile in POST /accounts/%s) first", p.ID, merchantID, merchantID)
		}
		if _, err := tx.MerchantConnectorAccount.Delete().
			Where(merchantconnectoraccount.MerchantID(merchantID), merchantconnectoraccount.ProfileID(id)).
			Exec(ctx); err != nil {
			return errs.Internal(err)
		}
		if _, err := tx.Profile.Delete().Where(profile.ID(id), profile.MerchantID(merchantID)).Exec(ctx); err != nil {
			return errs.Internal(err)
		}
		return nil
	})
}
