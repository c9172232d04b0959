package payments

import (
	"context"
	"fmt"
	"math"
	"net/http"

	"switchyard/ent"
	"switchyard/ent/merchantaccount"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/ent/profile"
	"switchyard/internal/tenancy"
)

const (
	maxProfileNameLen       = 64
	maxProfileAutoRetries   = 255 // Hyperswitch reads it as an unsigned byte
	maxProfileSessionExpiry = math.MaxInt32
	defaultProfileStem      = "profile_"
)

// errProfileNotFound is Hyperswitch's ProfileNotFound (HE_02); a profile of
// another merchant is not found either.
func errProfileNotFound(id string) *Error {
	return invalid(http.StatusNotFound, "HE_02", "Business profile with the given id %s does not exist", id)
}

func checkProfileInput(in ProfileInput) error {
	if in.ProfileName != nil && (*in.ProfileName == "" || len(*in.ProfileName) > maxProfileNameLen) {
		return ErrInvalidValue("profile_name", "must be 1 to %d characters", maxProfileNameLen)
	}
	if in.ReturnURL != nil {
		if err := checkAbsoluteHTTPURL("return_url", *in.ReturnURL, maxReturnURLLen); err != nil {
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
		return ErrInvalidValue("session_expiry", "must be a number of seconds from 0 to %d", maxProfileSessionExpiry)
	}
	if in.MaxAutoRetriesEnabled != nil && (*in.MaxAutoRetriesEnabled < 0 || *in.MaxAutoRetriesEnabled > maxProfileAutoRetries) {
		return ErrInvalidValue("max_auto_retries_enabled", "must be from 0 to %d", maxProfileAutoRetries)
	}
	return nil
}

// contextMerchant is the merchant the principal in ctx acts for.
func contextMerchant(ctx context.Context) (string, error) {
	p, ok := tenancy.FromContext(ctx)
	if !ok || p.MerchantID == "" {
		return "", ErrNotFound("Merchant account")
	}
	return p.MerchantID, nil
}

// lockMerchantRow reads the merchant row for update inside tx, so profile
// names stay unique and a merchant being deleted gets no new profiles.
func (s *Service) lockMerchantRow(ctx context.Context, tx *ent.Tx, merchantID string) (*ent.MerchantAccount, error) {
	m, err := forUpdate(s, tx.MerchantAccount.Query().Where(merchantaccount.ID(merchantID))).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, ErrNotFound("Merchant account")
	}
	if err != nil {
		return nil, ErrInternal(err)
	}
	return m, nil
}

// CreateProfile creates a business profile of the merchant in ctx. A
// missing profile_name becomes profile_<n>; a name the merchant already
// uses is HE_01.
func (s *Service) CreateProfile(ctx context.Context, in ProfileInput) (*ent.Profile, error) {
	if err := checkProfileInput(in); err != nil {
		return nil, err
	}
	merchantID, err := contextMerchant(ctx)
	if err != nil {
		return nil, err
	}
	var out *ent.Profile
	err = s.inTx(ctx, func(tx *ent.Tx) error {
		if _, err := s.lockMerchantRow(ctx, tx, merchantID); err != nil {
			return err
		}
		names, err := forUpdate(s, tx.Profile.Query().Where(profile.MerchantID(merchantID))).
			Select(profile.FieldProfileName).Strings(ctx)
		if err != nil {
			return ErrInternal(err)
		}
		taken := accountValueSet(names...)
		if in.ProfileName != nil {
			if taken[*in.ProfileName] {
				return errDuplicateProfileName(*in.ProfileName)
			}
		} else {
			name := ""
			for n := len(names) + 1; name == "" || taken[name]; n++ {
				name = fmt.Sprintf("%s%d", defaultProfileStem, n)
			}
			in.ProfileName = &name
		}
		out, err = s.createProfile(ctx, tx, "", false, in)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func errDuplicateProfileName(name string) *Error {
	e := ErrDuplicate("The profile with the specified profile_name %q already exists in our records", name)
	e.Field = "profile_name"
	return e
}

// GetProfile returns a profile of the merchant in ctx.
func (s *Service) GetProfile(ctx context.Context, id string) (*ent.Profile, error) {
	p, err := s.client.Profile.Query().Where(profile.ID(id)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, errProfileNotFound(id)
	}
	if err != nil {
		return nil, ErrInternal(err)
	}
	return p, nil
}

// ListProfiles lists the profiles of the merchant in ctx, oldest (the
// default) first.
func (s *Service) ListProfiles(ctx context.Context) ([]*ent.Profile, error) {
	if err := s.requireMerchant(ctx); err != nil {
		return nil, err
	}
	ps, err := s.client.Profile.Query().
		Order(ent.Asc(profile.FieldCreatedAt), ent.Asc(profile.FieldID)).All(ctx)
	if err != nil {
		return nil, ErrInternal(err)
	}
	return ps, nil
}

// UpdateProfile applies in to a profile of the merchant in ctx; nil members
// keep their value.
func (s *Service) UpdateProfile(ctx context.Context, id string, in ProfileInput) (*ent.Profile, error) {
	if err := checkProfileInput(in); err != nil {
		return nil, err
	}
	merchantID, err := contextMerchant(ctx)
	if err != nil {
		return nil, err
	}
	var out *ent.Profile
	err = s.inTx(ctx, func(tx *ent.Tx) error {
		if _, err := s.lockMerchantRow(ctx, tx, merchantID); err != nil {
			return err
		}
		p, err := forUpdate(s, tx.Profile.Query().Where(profile.ID(id), profile.MerchantID(merchantID))).Only(ctx)
		if ent.IsNotFound(err) {
			return errProfileNotFound(id)
		}
		if err != nil {
			return ErrInternal(err)
		}
		if in.ProfileName != nil && *in.ProfileName != p.ProfileName {
			clash, err := forUpdate(s, tx.Profile.Query().Where(profile.MerchantID(merchantID),
				profile.ProfileName(*in.ProfileName), profile.IDNEQ(id))).Exist(ctx)
			if err != nil {
				return ErrInternal(err)
			}
			if clash {
				return errDuplicateProfileName(*in.ProfileName)
			}
		}
		out, err = s.applyProfileInput(ctx, p, in)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// applyProfileInput writes the non-nil members of in to p, inside the
// transaction p was read in.
func (s *Service) applyProfileInput(ctx context.Context, p *ent.Profile, in ProfileInput) (*ent.Profile, error) {
	upd := p.Update().
		SetNillableProfileName(in.ProfileName).
		SetNillableReturnURL(in.ReturnURL).
		SetNillableEnablePaymentResponseHash(in.EnablePaymentResponseHash).
		SetNillableRedirectToMerchantWithHTTPPost(in.RedirectToMerchantWithHTTPPost).
		SetNillableSessionExpiry(in.SessionExpiry).
		SetNillableUseBillingAsPaymentMethodBilling(in.UseBillingAsPaymentMethodBilling).
		SetNillableCollectShippingDetailsFromWalletConnector(in.CollectShippingDetailsFromWalletConnector).
		SetNillableCollectBillingDetailsFromWalletConnector(in.CollectBillingDetailsFromWalletConnector).
		SetNillableAlwaysCollectShippingDetailsFromWalletConnector(in.AlwaysCollectShippingDetailsFromWalletConnector).
		SetNillableAlwaysCollectBillingDetailsFromWalletConnector(in.AlwaysCollectBillingDetailsFromWalletConnector).
		SetNillableIsConnectorAgnosticMitEnabled(in.IsConnectorAgnosticMitEnabled).
		SetNillableIsTaxConnectorEnabled(in.IsTaxConnectorEnabled).
		SetNillableIsNetworkTokenizationEnabled(in.IsNetworkTokenizationEnabled).
		SetNillableIsAutoRetriesEnabled(in.IsAutoRetriesEnabled).
		SetNillableMaxAutoRetriesEnabled(in.MaxAutoRetriesEnabled).
		SetNillableIsClickToPayEnabled(in.IsClickToPayEnabled).
		SetNillableForce3dsChallenge(in.Force3dsChallenge).
		SetNillableIsIframeRedirectionEnabled(in.IsIframeRedirectionEnabled)
	if in.WebhookDetails != nil {
		upd.SetWebhookDetails(in.WebhookDetails)
	}
	if in.Metadata != nil {
		upd.SetMetadata(in.Metadata)
	}
	if in.PaymentResponseHashKey != nil {
		sealed, err := s.box.Seal([]byte(*in.PaymentResponseHashKey), []byte(p.ID))
		if err != nil {
			return nil, ErrInternal(err)
		}
		upd.SetPaymentResponseHashKeySealed(sealed)
	}
	out, err := upd.Save(ctx)
	if err != nil {
		return nil, dbError(err, "profile")
	}
	return out, nil
}

// DeleteProfile deletes a profile of the merchant in ctx and its connector
// accounts in one transaction. The merchant's default profile cannot be
// deleted (IR_16): make another profile the default first.
func (s *Service) DeleteProfile(ctx context.Context, id string) error {
	merchantID, err := contextMerchant(ctx)
	if err != nil {
		return err
	}
	return s.inTx(ctx, func(tx *ent.Tx) error {
		m, err := s.lockMerchantRow(ctx, tx, merchantID)
		if err != nil {
			return err
		}
		p, err := forUpdate(s, tx.Profile.Query().Where(profile.ID(id), profile.MerchantID(merchantID))).Only(ctx)
		if ent.IsNotFound(err) {
			return errProfileNotFound(id)
		}
		if err != nil {
			return ErrInternal(err)
		}
		if p.IsDefault || (m.DefaultProfileID != nil && *m.DefaultProfileID == p.ID) {
			return ErrPreconditionFailed("Business profile %s is the default profile of merchant %s and cannot be deleted; "+
				"make another profile the default (default_profile in POST /accounts/%s) first", p.ID, merchantID, merchantID)
		}
		if _, err := tx.MerchantConnectorAccount.Delete().
			Where(merchantconnectoraccount.MerchantID(merchantID), merchantconnectoraccount.ProfileID(id)).
			Exec(ctx); err != nil {
			return ErrInternal(err)
		}
		if _, err := tx.Profile.Delete().Where(profile.ID(id), profile.MerchantID(merchantID)).Exec(ctx); err != nil {
			return ErrInternal(err)
		}
		return nil
	})
}
