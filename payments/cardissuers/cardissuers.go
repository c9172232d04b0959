// Package cardissuers owns the global catalogue of card issuer names
// (Hyperswitch's /card_issuers): the admin key adds, renames and removes
// them; every merchant reads them. It belongs to no merchant.
//
// It must not import another domain package.
package cardissuers

import (
	"context"
	"strings"

	"switchyard/ent"
	"switchyard/ent/cardissuer"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// Service runs the catalogue's operations. It holds only the catalogue's
// table: every operation is one statement on it, with no transaction and
// no merchant to scope it to.
type Service struct{ issuers *ent.CardIssuerClient }

// New returns the catalogue kept in db.
func New(db *txn.DB) *Service { return &Service{issuers: db.Client.CardIssuer} }

// maxName is the longest issuer name, the column's size.
const maxName = 255

// nameKey is what makes two spellings of one issuer the same entry.
func nameKey(name string) string { return strings.ToUpper(strings.Join(strings.Fields(name), " ")) }

func checkName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return errs.InvalidValue("issuer_name", "must not be empty")
	case validate.Chars(name) > maxName:
		return errs.InvalidValue("issuer_name", "must be at most %d characters", maxName)
	}
	return nil
}

// Create adds name to the catalogue; a name there already is a conflict.
func (s *Service) Create(ctx context.Context, name string) (*ent.CardIssuer, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	out, err := s.issuers.Create().SetIssuerName(name).SetNameKey(nameKey(name)).Save(ctx)
	if ent.IsConstraintError(err) {
		return nil, errs.ErrCardIssuerExists.New()
	}
	return out, txn.ErrorOrNil(err, "card issuer")
}

// Update renames the issuer id.
func (s *Service) Update(ctx context.Context, id, name string) (*ent.CardIssuer, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	out, err := s.issuers.UpdateOneID(id).SetIssuerName(name).SetNameKey(nameKey(name)).Save(ctx)
	switch {
	case ent.IsNotFound(err):
		return nil, errs.ErrCardIssuerNotFound.New()
	case ent.IsConstraintError(err):
		return nil, errs.ErrCardIssuerExists.Newf("Card issuer with this name already exists")
	}
	return out, txn.ErrorOrNil(err, "card issuer")
}

// Delete removes the issuer id.
func (s *Service) Delete(ctx context.Context, id string) error {
	err := s.issuers.DeleteOneID(id).Exec(ctx)
	if ent.IsNotFound(err) {
		return errs.ErrCardIssuerNotFound.New()
	}
	return txn.ErrorOrNil(err, "card issuer")
}

// List is up to limit issuers whose name holds query (any case), by name.
func (s *Service) List(ctx context.Context, query string, limit int) ([]*ent.CardIssuer, error) {
	if limit < 0 {
		return nil, errs.InvalidValue("limit", "must not be negative")
	}
	q := s.issuers.Query().Order(ent.Asc(cardissuer.FieldNameKey))
	if k := nameKey(query); k != "" {
		q.Where(cardissuer.NameKeyContains(k))
	}
	if limit > 0 {
		q.Limit(limit)
	}
	out, err := q.All(ctx)
	return out, txn.ErrorOrNil(err, "card issuers")
}
