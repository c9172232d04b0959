package merchant

import (
	"context"

	"switchyard/ent"
	"switchyard/ent/migrate"
	"switchyard/ent/organization"
	"switchyard/internal/ids"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// OrganizationInput is Hyperswitch's OrganizationCreateRequest and
// OrganizationUpdateRequest: on update a nil member leaves the stored
// value alone.
type OrganizationInput struct {
	Name    *string
	Details map[string]any
	// Metadata replaces the stored metadata when non-nil.
	Metadata map[string]any
}

var maxOrganizationName = validate.Column(migrate.OrganizationsTable, organization.FieldOrganizationName)

func (in OrganizationInput) check() error {
	if in.Name != nil && validate.Chars(*in.Name) > maxOrganizationName {
		return errs.InvalidValue("organization_name", "must be at most %d characters", maxOrganizationName)
	}
	return nil
}

// newOrganizationID is a new organization_id: org_ and 20 characters, as
// Hyperswitch's.
func newOrganizationID() string { return ids.Organization + "_" + ids.Base62(20) }

func errOrganizationNotFound() *errs.Error { return errs.NotFound("Organization") }

// CreateOrganization creates an organization (a platform operation: the
// admin or the system).
func (s *Service) CreateOrganization(ctx context.Context, in OrganizationInput) (*ent.Organization, error) {
	if in.Name == nil {
		return nil, errs.MissingField("organization_name")
	}
	return s.writeOrganization(ctx, in, func(ctx context.Context, tx *ent.Tx) (*ent.Organization, error) {
		return createOrganization(ctx, tx, newOrganizationID(), in)
	})
}

// writeOrganization checks in and runs write in one transaction, in the
// platform's context: what creating and updating an organization share.
func (s *Service) writeOrganization(ctx context.Context, in OrganizationInput,
	write func(context.Context, *ent.Tx) (*ent.Organization, error)) (*ent.Organization, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	ctx, err := platformContext(ctx)
	if err != nil {
		return nil, err
	}
	var out *ent.Organization
	err = s.db.InTx(ctx, func(tx *ent.Tx) error {
		out, err = write(ctx, tx)
		return err
	})
	return out, err
}

func createOrganization(ctx context.Context, tx *ent.Tx, id string, in OrganizationInput) (*ent.Organization, error) {
	org, err := tx.Organization.Create().SetID(id).SetNillableOrganizationName(in.Name).
		SetOrganizationDetails(in.Details).SetMetadata(in.Metadata).Save(ctx)
	return org, txn.ErrorOrNil(err, "organization")
}

// GetOrganization is one organization (admin only).
func (s *Service) GetOrganization(ctx context.Context, id string) (*ent.Organization, error) {
	ctx, err := platformContext(ctx)
	if err != nil {
		return nil, err
	}
	org, err := s.db.Client.Organization.Get(ctx, id)
	if err != nil {
		return nil, txn.ReadError(err, errOrganizationNotFound)
	}
	return org, nil
}

// UpdateOrganization changes what in gives of an organization (admin only).
func (s *Service) UpdateOrganization(ctx context.Context, id string, in OrganizationInput) (*ent.Organization, error) {
	return s.writeOrganization(ctx, in, func(ctx context.Context, tx *ent.Tx) (*ent.Organization, error) {
		org, err := txn.ForUpdate(s.db, tx.Organization.Query().Where(organization.ID(id))).Only(ctx)
		if err != nil {
			return nil, txn.ReadError(err, errOrganizationNotFound)
		}
		u := org.Update().SetNillableOrganizationName(in.Name)
		if in.Details != nil {
			u.SetOrganizationDetails(in.Details)
		}
		if in.Metadata != nil {
			u.SetMetadata(in.Metadata)
		}
		out, err := u.Save(ctx)
		return out, txn.ErrorOrNil(err, "organization")
	})
}

// organizationFor is the organization a new merchant account joins: the one
// it names, which must exist, else a new one without a name, as
// Hyperswitch creates one for a merchant created without an organization.
func organizationFor(ctx context.Context, tx *ent.Tx, named *string) (string, error) {
	if named == nil {
		org, err := createOrganization(ctx, tx, newOrganizationID(), OrganizationInput{})
		if err != nil {
			return "", err
		}
		return org.ID, nil
	}
	found, err := tx.Organization.Query().Where(organization.ID(*named)).Exist(ctx)
	if err != nil {
		return "", errs.Internal(err)
	}
	if !found {
		return "", errs.NotFound("Organization with the given organization_id").WithField("organization_id")
	}
	return *named, nil
}
