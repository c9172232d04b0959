// Package blocklist owns a merchant's blocklist (Hyperswitch's blocklist):
// the card BINs, extended BINs and card fingerprints it refuses, the
// guard that makes a confirm refuse them, and the CSV batches that add
// many entries at once.
//
// An entry never holds a card number: a BIN is 6 digits, an extended BIN
// 8, and a fingerprint is the keyed hash the customer context gives a
// card (customer.Service.CardFingerprint).
//
// It must not import another domain package.
package blocklist

import (
	"context"
	"strings"

	"switchyard/ent"
	"switchyard/ent/blocklistentry"
	"switchyard/ent/merchantaccount"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// Service runs the blocklist operations.
type Service struct {
	db *txn.DB
}

// New returns the blocklist service over db.
func New(db *txn.DB) *Service { return &Service{db: db} }

// The kinds of entry a merchant adds (BlocklistRequest's type).
const (
	TypeCardBin         = "card_bin"
	TypeExtendedCardBin = "extended_card_bin"
	TypeFingerprint     = "fingerprint"
)

// Entry names what to block or unblock: a BlocklistRequest.
type Entry struct {
	Type string
	Data string
	// Metadata is what a batch row says of the entry (key=value pairs).
	Metadata map[string]any
}

// binLengths are the digits a BIN entry of each kind holds.
var binLengths = map[string]int{TypeCardBin: 6, TypeExtendedCardBin: 8}

// kind is the entry's data_kind, and a refusal of what it cannot hold, in
// Hyperswitch's words (its validate_card_bin and validate_extended_card_bin).
func (e Entry) kind() (blocklistentry.DataKind, error) {
	switch e.Type {
	case TypeCardBin, TypeExtendedCardBin:
		n := binLengths[e.Type]
		if len(e.Data) != n || strings.Trim(e.Data, "0123456789") != "" {
			return "", errs.ErrInvalidDataFormat.Newf("data contains invalid data. Expected format is a %d digit number", n).WithField("data")
		}
		return blocklistentry.DataKind(e.Type), nil
	case TypeFingerprint:
		if e.Data == "" {
			return "", errs.MissingField("data")
		}
		if validate.Chars(e.Data) > 64 {
			return "", errs.InvalidValue("data", "must be at most %d characters", 64)
		}
		return blocklistentry.DataKindPaymentMethod, nil
	case "":
		return "", errs.MissingField("type")
	}
	return "", errs.InvalidValue("type", "must be one of card_bin, fingerprint, extended_card_bin")
}

// change runs do on e, of the kind it names, in one transaction for the
// caller's merchant: what adding and removing an entry share. What e
// cannot be is refused before the database is touched.
func (s *Service) change(ctx context.Context, e Entry,
	do func(*ent.Tx, blocklistentry.DataKind) (*ent.BlocklistEntry, error)) (*ent.BlocklistEntry, error) {
	if _, err := txn.Merchant(ctx); err != nil {
		return nil, err
	}
	kind, err := e.kind()
	if err != nil {
		return nil, err
	}
	var out *ent.BlocklistEntry
	err = s.db.InTx(ctx, func(tx *ent.Tx) error {
		out, err = do(tx, kind)
		return err
	})
	return out, err
}

// DataKinds are the data_kind values a list can ask for.
var DataKinds = []string{"payment_method", "card_bin", "extended_card_bin"}

// Add blocks e for the caller's merchant. A value blocked already is
// refused (PreconditionFailed, as Hyperswitch's duplicate check answers).
// A fingerprint is taken as given, as Hyperswitch's
// insert_entry_into_blocklist takes it: it is an opaque keyed hash, and a
// merchant may block a card before any payment has shown it here.
func (s *Service) Add(ctx context.Context, e Entry) (*ent.BlocklistEntry, error) {
	return s.change(ctx, e, func(tx *ent.Tx, kind blocklistentry.DataKind) (*ent.BlocklistEntry, error) {
		return insert(ctx, tx.Client(), e, kind)
	})
}

// insert writes one entry of kind; a duplicate is errExists.
func insert(ctx context.Context, c *ent.Client, e Entry, kind blocklistentry.DataKind) (*ent.BlocklistEntry, error) {
	create := c.BlocklistEntry.Create().SetFingerprintID(e.Data).SetDataKind(kind)
	if len(e.Metadata) > 0 {
		create.SetMetadata(e.Metadata)
	}
	out, err := create.Save(ctx)
	if ent.IsConstraintError(err) {
		return nil, errExists(kind)
	}
	return out, txn.ErrorOrNil(err, "blocklist entry")
}

// errExists is Hyperswitch's refusal of a value blocked already.
func errExists(kind blocklistentry.DataKind) *errs.Error {
	if kind == blocklistentry.DataKindPaymentMethod {
		return errs.ErrBlocklistEntryExists.New()
	}
	return errs.ErrBlocklistEntryExists.Newf("provided bin is already blocked")
}

// Remove unblocks e and answers the entry it removed; an entry the
// merchant does not have is not found.
func (s *Service) Remove(ctx context.Context, e Entry) (*ent.BlocklistEntry, error) {
	return s.change(ctx, e, func(tx *ent.Tx, kind blocklistentry.DataKind) (*ent.BlocklistEntry, error) {
		out, err := tx.BlocklistEntry.Query().
			Where(blocklistentry.FingerprintID(e.Data), blocklistentry.DataKindEQ(kind)).Only(ctx)
		if err != nil {
			return nil, txn.ReadError(err, func() *errs.Error { return errNotFound(kind) })
		}
		return out, txn.ErrorOrNil(tx.BlocklistEntry.DeleteOne(out).Exec(ctx), "blocklist entry")
	})
}

// errNotFound is Hyperswitch's answer to unblocking what is not blocked.
func errNotFound(kind blocklistentry.DataKind) *errs.Error {
	if kind == blocklistentry.DataKindPaymentMethod {
		return errs.ErrBlocklistEntryNotFound.New()
	}
	return errs.ErrBlocklistEntryNotFound.Newf("could not find a blocklist entry for the given bin")
}

// ListInput asks for a page of one kind of entry (ListBlocklistQuery).
type ListInput struct {
	DataKind      string
	Limit, Offset int
}

// List is a page of the merchant's entries of one kind, newest first.
// Hyperswitch pages the blocklist by offset; a merchant's blocklist is
// short, and the (merchant_id, data_kind, created_at) index serves it.
func (s *Service) List(ctx context.Context, in ListInput) ([]*ent.BlocklistEntry, error) {
	if _, err := txn.Merchant(ctx); err != nil {
		return nil, err
	}
	if in.DataKind == "" {
		return nil, errs.MissingField("data_kind")
	}
	if err := validate.OneOf("data_kind", &in.DataKind, DataKinds...); err != nil {
		return nil, err
	}
	out, err := s.db.Client.BlocklistEntry.Query().
		Where(blocklistentry.DataKindEQ(blocklistentry.DataKind(in.DataKind))).
		Order(ent.Desc(blocklistentry.FieldCreatedAt), ent.Desc(blocklistentry.FieldID)).
		Limit(in.Limit).Offset(in.Offset).All(ctx)
	return out, txn.ErrorOrNil(err, "blocklist entries")
}

// SetGuard turns the merchant's blocklist guard at confirm on or off.
func (s *Service) SetGuard(ctx context.Context, enabled bool) error {
	merchantID, err := txn.Merchant(ctx)
	if err != nil {
		return err
	}
	return s.db.InTx(ctx, func(tx *ent.Tx) error {
		n, err := tx.MerchantAccount.Update().Where(merchantaccount.ID(merchantID)).
			SetBlocklistGuardEnabled(enabled).Save(ctx)
		if err == nil && n == 0 {
			return errs.NotFound("merchant account")
		}
		return txn.ErrorOrNil(err, "merchant account")
	})
}

// Card is what the guard knows of a card at confirm: its BIN, extended
// BIN and keyed fingerprint.
type Card struct {
	BIN, ExtendedBIN, Fingerprint string
}

// CardOf is the card a number stands for, fingerprinted by fingerprint.
func CardOf(number string, fingerprint func(string) string) Card {
	c := Card{Fingerprint: fingerprint(number)}
	if len(number) >= 6 {
		c.BIN = number[:6]
	}
	if len(number) >= 8 {
		c.ExtendedBIN = number[:8]
	}
	return c
}

// SavedCardOf is what the guard knows of a saved card (a payment_token's
// or a mandate's), charged by token without its number: the BIN, extended
// BIN and keyed fingerprint kept with it when it was saved.
func SavedCardOf(pm *ent.PaymentMethod) Card {
	var c Card
	if pm.Fingerprint != nil {
		c.Fingerprint = *pm.Fingerprint
	}
	if pm.Card != nil {
		c.BIN = pm.Card.CardISIN
		if pm.Card.CardExtendedBIN != nil {
			c.ExtendedBIN = *pm.Card.CardExtendedBIN
		}
	}
	return c
}

// Blocked reports, inside tx, whether the merchant's blocklist holds the
// card's BIN, extended BIN or fingerprint (one indexed lookup on
// (merchant_id, fingerprint_id)), as Hyperswitch's
// validate_data_for_blocklist decides; the caller asks only when the
// merchant's guard is on.
func (s *Service) Blocked(ctx context.Context, tx *ent.Tx, c Card) (bool, error) {
	var values []string
	for _, v := range []string{c.BIN, c.ExtendedBIN, c.Fingerprint} {
		if v != "" {
			values = append(values, v)
		}
	}
	if len(values) == 0 {
		return false, nil
	}
	found, err := tx.BlocklistEntry.Query().Where(blocklistentry.FingerprintIDIn(values...)).Exist(ctx)
	return found, txn.ErrorOrNil(err, "blocklist entries")
}
