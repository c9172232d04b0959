package merchant

import (
	"context"
	"encoding/json"
	"fmt"

	"switchyard/ent"
	"switchyard/ent/apikey"
	"switchyard/ent/auditentry"
	"switchyard/ent/capture"
	"switchyard/ent/customer"
	"switchyard/ent/dispute"
	"switchyard/ent/event"
	"switchyard/ent/eventdeliveryattempt"
	"switchyard/ent/gsmrule"
	"switchyard/ent/incrementalauthorization"
	"switchyard/ent/invitation"
	"switchyard/ent/mandate"
	"switchyard/ent/membership"
	"switchyard/ent/merchantaccount"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentintent"
	"switchyard/ent/paymentmethod"
	"switchyard/ent/profile"
	"switchyard/ent/refund"
	"switchyard/ent/routingalgorithm"
	"switchyard/ent/schema/schematype"
	"switchyard/ent/webhookdeliverytask"
	"switchyard/internal/tenancy"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// MerchantDetails is Hyperswitch's MerchantDetails: the merchant's contacts
// and address. It is a closed object; every member is optional.
type MerchantDetails struct {
	PrimaryContactPerson      *string             `json:"primary_contact_person"`
	PrimaryPhone              *string             `json:"primary_phone"`
	PrimaryEmail              *string             `json:"primary_email"`
	SecondaryContactPerson    *string             `json:"secondary_contact_person"`
	SecondaryPhone            *string             `json:"secondary_phone"`
	SecondaryEmail            *string             `json:"secondary_email"`
	Website                   *string             `json:"website"`
	AboutBusiness             *string             `json:"about_business"`
	Address                   *schematype.Address `json:"address"`
	MerchantTaxRegistrationID *string             `json:"merchant_tax_registration_id"`
}

// row is the stored form (a JSON object column).
func (d *MerchantDetails) row() map[string]any {
	raw, _ := json.Marshal(d)
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	return m
}

// MerchantDetailsOf reads a merchant's stored details; nil when none.
func MerchantDetailsOf(m *ent.MerchantAccount) *MerchantDetails {
	if m.MerchantDetails == nil {
		return nil
	}
	raw, err := json.Marshal(m.MerchantDetails)
	if err != nil {
		return nil
	}
	var d MerchantDetails
	if json.Unmarshal(raw, &d) != nil {
		return nil
	}
	return &d
}

// PrimaryBusinessDetails is one of a merchant's business units: a country
// and a business label (Hyperswitch's PrimaryBusinessDetails).
type PrimaryBusinessDetails struct {
	Country  string `json:"country"`
	Business string `json:"business"`
}

func businessDetailsRows(in []PrimaryBusinessDetails) []map[string]any {
	out := make([]map[string]any, 0, len(in))
	for _, d := range in {
		out = append(out, map[string]any{"country": d.Country, "business": d.Business})
	}
	return out
}

// PrimaryBusinessDetailsOf reads a merchant's stored business units; never nil.
func PrimaryBusinessDetailsOf(m *ent.MerchantAccount) []PrimaryBusinessDetails {
	out := make([]PrimaryBusinessDetails, 0, len(m.PrimaryBusinessDetails))
	for _, row := range m.PrimaryBusinessDetails {
		country, _ := row["country"].(string)
		business, _ := row["business"].(string)
		out = append(out, PrimaryBusinessDetails{Country: country, Business: business})
	}
	return out
}

// MerchantAccountView is a merchant with its default profile (nil if it has
// none), and that profile's hash key, which the merchant response shows.
type MerchantAccountView struct {
	Merchant       *ent.MerchantAccount
	DefaultProfile *ent.Profile
	// HashKey is the default profile's payment_response_hash_key, opened.
	HashKey *string
}

// withHashKey opens the default profile's hash key into v.
func (s *Service) withHashKey(v *MerchantAccountView) error {
	if v.DefaultProfile == nil {
		return nil
	}
	key, err := s.ProfileHashKey(v.DefaultProfile)
	if err != nil {
		return err
	}
	v.HashKey = &key
	return nil
}

// MerchantAccountPatch is Hyperswitch's MerchantAccountUpdate: nil members
// are left as they are. MerchantID must repeat the merchant being updated.
// ReturnURL, WebhookDetails, EnablePaymentResponseHash,
// PaymentResponseHashKey and RedirectToMerchantWithHTTPPost also change
// every profile of the merchant, as Hyperswitch does for compatibility.
type MerchantAccountPatch struct {
	MerchantID string
	MerchantAccountFields
	// DefaultProfile makes another profile of the merchant the default.
	DefaultProfile *string
}

// MerchantAccountFilter narrows ListMerchantAccounts.
type MerchantAccountFilter struct {
	OrganizationID *string
	// Limit is 1..100.
	Limit int
}

// platformContext checks the caller may manage merchant accounts (the admin or the
// system) and returns a context that is not narrowed to one merchant, so
// an X-Merchant-Id header cannot turn a platform operation into a
// merchant's.
func platformContext(ctx context.Context) (context.Context, error) {
	p, ok := tenancy.FromContext(ctx)
	if !ok || (p.Kind != tenancy.KindAdmin && p.Kind != tenancy.KindSystem) {
		return nil, errs.Unauthorized()
	}
	return tenancy.WithPrincipal(ctx, tenancy.Principal{Kind: p.Kind, KeyID: p.KeyID}), nil
}

// GetMerchantAccount returns the merchant and its default profile.
func (s *Service) GetMerchantAccount(ctx context.Context, merchantID string) (*MerchantAccountView, error) {
	m, err := s.db.Client.MerchantAccount.Query().Where(merchantaccount.ID(merchantID)).Only(ctx)
	if err != nil {
		return nil, txn.ReadError(err, errMerchantNotFound)
	}
	v := &MerchantAccountView{Merchant: m}
	if v.DefaultProfile, err = s.defaultProfileOf(ctx, s.db.Client, m); err != nil {
		return nil, err
	}
	return v, s.withHashKey(v)
}

func (s *Service) defaultProfileOf(ctx context.Context, c *ent.Client, m *ent.MerchantAccount) (*ent.Profile, error) {
	if m.DefaultProfileID == nil {
		return nil, nil
	}
	p, err := c.Profile.Query().Where(profile.ID(*m.DefaultProfileID), profile.MerchantID(m.ID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	return p, nil
}

// UpdateMerchantAccount applies p to the merchant (and, for the members
// Hyperswitch cascades, to each of its profiles) in one transaction.
func (s *Service) UpdateMerchantAccount(ctx context.Context, merchantID string, p MerchantAccountPatch) (*MerchantAccountView, error) {
	if err := p.validate(merchantID); err != nil {
		return nil, err
	}
	var out MerchantAccountView
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		m, err := txn.ForUpdate(s.db, tx.MerchantAccount.Query().Where(merchantaccount.ID(merchantID))).Only(ctx)
		if err != nil {
			return txn.ReadError(err, errMerchantNotFound)
		}
		upd := p.update(m.Update())
		if p.DefaultProfile != nil && (m.DefaultProfileID == nil || *m.DefaultProfileID != *p.DefaultProfile) {
			if err := moveDefaultProfile(ctx, tx, merchantID, *p.DefaultProfile); err != nil {
				return err
			}
			upd.SetDefaultProfileID(*p.DefaultProfile)
		}
		if m, err = upd.Save(ctx); err != nil {
			return txn.Error(err, "merchant account")
		}
		if cascade, ok := p.cascade(); ok {
			if err := s.cascadeToProfiles(ctx, tx, merchantID, cascade); err != nil {
				return err
			}
		}
		out.Merchant = m
		out.DefaultProfile, err = s.defaultProfileOf(ctx, tx.Client(), m)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &out, s.withHashKey(&out)
}

// validate checks a patch of the merchant merchantID on its own, before
// anything is read.
func (p *MerchantAccountPatch) validate(merchantID string) error {
	if p.MerchantID == "" {
		return errs.MissingField("merchant_id")
	}
	if p.MerchantID != merchantID {
		return errs.InvalidValue("merchant_id", "must be the merchant in the path (%s)", merchantID)
	}
	if err := checkMerchantFields(p.MerchantName, p.MerchantDetails, p.ReturnURL, p.WebhookDetails,
		p.PaymentResponseHashKey, p.LockerID, p.PrimaryBusinessDetails); err != nil {
		return err
	}
	if p.DefaultProfile != nil && *p.DefaultProfile == "" {
		return errs.InvalidValue("default_profile", "must be the id of a profile of this merchant")
	}
	return nil
}

// update sets on upd the merchant's own members the patch gives.
func (p *MerchantAccountPatch) update(upd *ent.MerchantAccountUpdateOne) *ent.MerchantAccountUpdateOne {
	upd.SetNillableMerchantName(p.MerchantName).
		SetNillableReturnURL(p.ReturnURL).
		SetNillableEnablePaymentResponseHash(p.EnablePaymentResponseHash).
		SetNillableRedirectToMerchantWithHTTPPost(p.RedirectToMerchantWithHTTPPost).
		SetNillableLockerID(p.LockerID)
	if p.MerchantDetails != nil {
		upd.SetMerchantDetails(p.MerchantDetails.row())
	}
	if p.WebhookDetails != nil {
		upd.SetWebhookDetails(p.WebhookDetails)
	}
	if p.Metadata != nil {
		upd.SetMetadata(p.Metadata)
	}
	if p.PrimaryBusinessDetails != nil {
		upd.SetPrimaryBusinessDetails(businessDetailsRows(p.PrimaryBusinessDetails))
	}
	return upd
}

// cascade is what the patch changes of every profile of the merchant, as
// Hyperswitch does for compatibility; false when it changes none of those
// members.
func (p *MerchantAccountPatch) cascade() (ProfileInput, bool) {
	if p.ReturnURL == nil && p.WebhookDetails == nil && p.EnablePaymentResponseHash == nil &&
		p.PaymentResponseHashKey == nil && p.RedirectToMerchantWithHTTPPost == nil {
		return ProfileInput{}, false
	}
	return ProfileInput{
		ReturnURL:                      p.ReturnURL,
		WebhookDetails:                 p.WebhookDetails,
		EnablePaymentResponseHash:      p.EnablePaymentResponseHash,
		PaymentResponseHashKey:         p.PaymentResponseHashKey,
		RedirectToMerchantWithHTTPPost: p.RedirectToMerchantWithHTTPPost,
	}, true
}

// moveDefaultProfile makes profileID, which must be the merchant's, its
// only default profile.
func moveDefaultProfile(ctx context.Context, tx *ent.Tx, merchantID, profileID string) error {
	ok, err := tx.Profile.Query().Where(profile.ID(profileID), profile.MerchantID(merchantID)).Exist(ctx)
	if err != nil {
		return errs.Internal(err)
	}
	if !ok {
		return errs.InvalidValue("default_profile", "no profile %s belongs to this merchant", profileID)
	}
	if _, err := tx.Profile.Update().Where(profile.MerchantID(merchantID), profile.IsDefault(true)).
		SetIsDefault(false).Save(ctx); err != nil {
		return errs.Internal(err)
	}
	if _, err := tx.Profile.Update().Where(profile.ID(profileID), profile.MerchantID(merchantID)).
		SetIsDefault(true).Save(ctx); err != nil {
		return errs.Internal(err)
	}
	return nil
}

// cascadeToProfiles applies in to every profile of the merchant, locked.
func (s *Service) cascadeToProfiles(ctx context.Context, tx *ent.Tx, merchantID string, in ProfileInput) error {
	profiles, err := txn.ForUpdate(s.db, tx.Profile.Query().Where(profile.MerchantID(merchantID))).All(ctx)
	if err != nil {
		return errs.Internal(err)
	}
	for _, pr := range profiles {
		if _, err := s.applyProfileInput(ctx, pr, in); err != nil {
			return err
		}
	}
	return nil
}

// SetTimeZone changes the time zone of the merchant in ctx: an IANA name
// (validate.TimeZone), which the dashboard's days, ranges and times are
// local to. It changes nothing already stored: times are kept in UTC.
func (s *Service) SetTimeZone(ctx context.Context, name string) (*ent.MerchantAccount, error) {
	merchantID, err := txn.Merchant(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := validate.TimeZone("timeZone", name); err != nil {
		return nil, err
	}
	var out *ent.MerchantAccount
	err = s.db.InTx(ctx, func(tx *ent.Tx) error {
		n, err := tx.MerchantAccount.Update().Where(merchantaccount.ID(merchantID)).SetTimeZone(name).Save(ctx)
		if err != nil {
			return txn.Error(err, "merchant account")
		}
		if n == 0 {
			return errMerchantNotFound()
		}
		out, err = tx.MerchantAccount.Get(ctx, merchantID)
		return txn.ErrorOrNil(err, "merchant account")
	})
	return out, err
}

// DeleteMerchantAccount deletes the merchant and, in the same transaction,
// every row it owns: profiles, API keys (so they are refused at once),
// connector accounts, and any customers, payments, refunds, disputes,
// mandates and events, so that a merchant later created with the same id
// inherits nothing.
func (s *Service) DeleteMerchantAccount(ctx context.Context, merchantID string) error {
	return s.db.InTx(ctx, func(tx *ent.Tx) error {
		_, err := txn.ForUpdate(s.db, tx.MerchantAccount.Query().Where(merchantaccount.ID(merchantID))).Only(ctx)
		if err != nil {
			return txn.ReadError(err, errMerchantNotFound)
		}
		// The merchant's keys stop working at once, on every instance.
		hashes, err := tx.APIKey.Query().Where(apikey.MerchantID(merchantID)).Select(apikey.FieldHash).Strings(ctx)
		if err != nil {
			return errs.Internal(err)
		}
		if err := s.forgetKeys(ctx, hashes...); err != nil {
			return err
		}
		deletes := []struct {
			what string
			run  func(context.Context) (int, error)
		}{
			{"api keys", tx.APIKey.Delete().Where(apikey.MerchantID(merchantID)).Exec},
			{"connector accounts", tx.MerchantConnectorAccount.Delete().Where(merchantconnectoraccount.MerchantID(merchantID)).Exec},
			{"routing configurations", tx.RoutingAlgorithm.Delete().Where(routingalgorithm.MerchantID(merchantID)).Exec},
			{"gsm rules", tx.GsmRule.Delete().Where(gsmrule.MerchantID(merchantID)).Exec},
			{"profiles", tx.Profile.Delete().Where(profile.MerchantID(merchantID)).Exec},
			{"webhook tasks", tx.WebhookDeliveryTask.Delete().Where(webhookdeliverytask.MerchantID(merchantID)).Exec},
			{"delivery attempts", tx.EventDeliveryAttempt.Delete().Where(eventdeliveryattempt.MerchantID(merchantID)).Exec},
			{"events", tx.Event.Delete().Where(event.MerchantID(merchantID)).Exec},
			{"disputes", tx.Dispute.Delete().Where(dispute.MerchantID(merchantID)).Exec},
			{"refunds", tx.Refund.Delete().Where(refund.MerchantID(merchantID)).Exec},
			{"captures", tx.Capture.Delete().Where(capture.MerchantID(merchantID)).Exec},
			{"incremental authorizations", tx.IncrementalAuthorization.Delete().Where(incrementalauthorization.MerchantID(merchantID)).Exec},
			{"payment attempts", tx.PaymentAttempt.Delete().Where(paymentattempt.MerchantID(merchantID)).Exec},
			{"payment intents", tx.PaymentIntent.Delete().Where(paymentintent.MerchantID(merchantID)).Exec},
			{"mandates", tx.Mandate.Delete().Where(mandate.MerchantID(merchantID)).Exec},
			{"payment methods", tx.PaymentMethod.Delete().Where(paymentmethod.MerchantID(merchantID)).Exec},
			{"customers", tx.Customer.Delete().Where(customer.MerchantID(merchantID)).Exec},
			{"memberships", tx.Membership.Delete().Where(membership.MerchantID(merchantID)).Exec},
			{"invitations", tx.Invitation.Delete().Where(invitation.MerchantID(merchantID)).Exec},
			{"audit entries", tx.AuditEntry.Delete().Where(auditentry.MerchantID(merchantID)).Exec},
		}
		for _, d := range deletes {
			if _, err := d.run(ctx); err != nil {
				return errs.Internal(fmt.Errorf("delete %s of %s: %w", d.what, merchantID, err))
			}
		}
		n, err := tx.MerchantAccount.Delete().Where(merchantaccount.ID(merchantID)).Exec(ctx)
		if err != nil {
			return errs.Internal(err)
		}
		if n == 0 {
			return errMerchantNotFound()
		}
		return nil
	})
}

// ListMerchantAccounts lists merchant accounts, newest first (admin only).
func (s *Service) ListMerchantAccounts(ctx context.Context, f MerchantAccountFilter) ([]*MerchantAccountView, error) {
	if f.Limit < 1 || f.Limit > 100 {
		return nil, errs.InvalidValue("limit", "must be between 1 and 100")
	}
	if f.OrganizationID != nil {
		if err := checkAccountIDValue("organization_id", *f.OrganizationID); err != nil {
			return nil, err
		}
	}
	ctx, err := platformContext(ctx)
	if err != nil {
		return nil, err
	}
	q := s.db.Client.MerchantAccount.Query()
	if f.OrganizationID != nil {
		q.Where(merchantaccount.OrganizationID(*f.OrganizationID))
	}
	ms, err := q.Order(ent.Desc(merchantaccount.FieldCreatedAt), ent.Desc(merchantaccount.FieldID)).
		Limit(f.Limit).All(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	byID, err := txn.LoadRefs(ms, func(m *ent.MerchantAccount) *string { return m.DefaultProfileID },
		func(ids []string) ([]*ent.Profile, error) {
			return s.db.Client.Profile.Query().Where(profile.IDIn(ids...)).All(ctx)
		}, func(p *ent.Profile) string { return p.ID })
	if err != nil {
		return nil, err
	}
	out := make([]*MerchantAccountView, len(ms))
	for i, m := range ms {
		out[i] = &MerchantAccountView{Merchant: m}
		if m.DefaultProfileID != nil {
			if p := byID[*m.DefaultProfileID]; p != nil && p.MerchantID == m.ID {
				out[i].DefaultProfile = p
			}
		}
		if err := s.withHashKey(out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}
