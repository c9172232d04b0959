package payouts

import (
	"context"
	"time"

	"switchyard/ent"
	"switchyard/ent/migrate"
	"switchyard/ent/payout"
	"switchyard/ent/schema/schematype"
	"switchyard/internal/ids"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// vaultFor is how long a payout method given at create waits for the
// payout's confirm, sealed in the vault.
const vaultFor = 24 * time.Hour

// Create makes a payout (POST /payouts/create): it waits for its method or
// its confirmation, or, with confirm, is created at a payout processor at
// once (and, with auto_fulfill, fulfilled). A retry of an Idempotency-Key
// answers with the payout the key made: its insert, refused by the key's
// unique index, finds it (as a payment's does; no read before).
func (s *Service) Create(ctx context.Context, in Input) (*View, error) {
	if err := in.decodeMethod(); err != nil {
		return nil, err
	}
	if err := s.withSavedMethod(ctx, &in, in.CustomerID); err != nil {
		return nil, err
	}
	if err := checkCreate(&in); err != nil {
		return nil, err
	}
	pc, err := s.db.ProfileAndAccounts(ctx, s.db.Client, in.ProfileID)
	if err != nil {
		return nil, err
	}
	po, err := s.insert(ctx, pc.Profile.ID, &in)
	if ent.IsConstraintError(err) && in.Idempotency != nil {
		return s.payoutOfKey(ctx, &in) // the same key, made at once by another request
	}
	if err != nil {
		return nil, txn.Error(err, "payout")
	}
	if in.Confirm != nil && *in.Confirm && in.method != nil {
		return s.confirm(ctx, po.ID, in.method, in.Connectors, false) // a new payout: nothing kept in the vault
	}
	if in.method != nil {
		if err := s.keepMethod(ctx, po, in.method); err != nil {
			return nil, err
		}
	}
	return s.view(ctx, s.db.Client, po)
}

// decodeMethod checks the payout method given into the one paid to.
func (in *Input) decodeMethod() (err error) {
	in.method, err = in.MethodData.Method()
	return err
}

// checkCreate checks a create's members: an amount and a currency are
// required.
func checkCreate(in *Input) error {
	if in.Amount == nil {
		return errs.MissingField("amount")
	}
	if in.Currency == nil {
		return errs.MissingField("currency")
	}
	return checkInput(in)
}

// checkInput checks the members a create, update or confirm may give.
func checkInput(in *Input) error {
	if a := in.Amount; a != nil && (*a <= 0 || *a > maxPayoutAmount) {
		return errs.InvalidValue("amount", "must be greater than 0 and at most %d", maxPayoutAmount)
	}
	if in.Currency != nil {
		if err := validate.Currencies.Check("currency", *in.Currency); err != nil {
			return err
		}
	}
	if err := validate.First(payoutTypes.Optional("payout_type", in.PayoutType),
		entityTypes.Optional("entity_type", in.EntityType), priorities.Optional("priority", in.Priority)); err != nil {
		return err
	}
	if e := in.SessionExpiry; e != nil && (*e < 60 || *e > maxSessionSecs) {
		return errs.InvalidValue("session_expiry", "must be between 60 and %d seconds", maxSessionSecs)
	}
	if err := validate.Countries.Optional("business_country", in.BusinessCountry); err != nil {
		return err
	}
	if err := checkLengths(in); err != nil {
		return err
	}
	if in.method != nil && in.PayoutType != nil && *in.PayoutType != in.method.Type {
		return errs.InvalidValue("payout_type", "is %s, but payout_method_data is a %s method", *in.PayoutType, in.method.Type)
	}
	return checkMethod(in.method)
}

// stringColumns are the sizes of the columns of the stored string members,
// each named as its column.
var stringColumns = validate.ColumnsOf(migrate.PayoutsTable, payout.FieldCustomerID,
	payout.FieldMerchantOrderReferenceID, payout.FieldPayoutToken, payout.FieldDescription, payout.FieldReturnURL,
	payout.FieldBusinessLabel, payout.FieldProfileID)

// checkLengths refuses a member longer than its column can hold (IR_07
// naming it), as a payment's members are refused: the database must
// never be what says no.
func checkLengths(in *Input) error {
	c := stringColumns
	return validate.Lengths(c.Length(payout.FieldCustomerID, in.CustomerID),
		c.Length(payout.FieldMerchantOrderReferenceID, in.MerchantOrderReferenceID),
		c.Length(payout.FieldPayoutToken, in.PayoutToken), c.Length(payout.FieldDescription, in.Description),
		c.Length(payout.FieldReturnURL, in.ReturnURL), c.Length(payout.FieldBusinessLabel, in.BusinessLabel),
		c.Length(payout.FieldProfileID, in.ProfileID))
}

// insert writes the new payout, bound to its Idempotency-Key.
func (s *Service) insert(ctx context.Context, profileID string, in *Input) (*ent.Payout, error) {
	merchantID, err := txn.Merchant(ctx)
	if err != nil {
		return nil, err
	}
	id := newPayoutID()
	expiry := defaultSessionSecs
	if in.SessionExpiry != nil {
		expiry = *in.SessionExpiry
	}
	create := s.db.Client.Payout.Create().SetID(id).SetMerchantID(merchantID).SetProfileID(profileID).
		SetAmount(*in.Amount).SetCurrency(schematype.Currency(*in.Currency)).
		SetStatus(createdStatus(in.method != nil)).
		SetClientSecret(ids.ClientSecret(id)).SetClientSecretExpiresAt(s.db.Now().Add(time.Duration(expiry) * time.Second))
	setMembers(create.Mutation(), in)
	if ref := in.Idempotency; ref != nil {
		create.SetIdempotencyKey(ref.Key).SetIdempotencyFingerprint(ref.Fingerprint)
	}
	return create.Save(ctx)
}

// setMembers sets what in gives on a payout's create or update.
func setMembers(m *ent.PayoutMutation, in *Input) {
	txn.SetIf(in.Amount, m.SetAmount)
	if in.Currency != nil {
		m.SetCurrency(schematype.Currency(*in.Currency))
	}
	if in.method != nil {
		m.SetPayoutType(payout.PayoutType(in.method.Type))
		m.SetPayoutMethodType(in.method.Subtype)
		m.SetPayoutMethodData(masked(in.method))
	} else if in.PayoutType != nil {
		m.SetPayoutType(payout.PayoutType(*in.PayoutType))
	}
	txn.SetIf(in.AutoFulfill, m.SetAutoFulfill)
	txn.SetIf(in.Recurring, m.SetRecurring)
	txn.SetIf(in.EntityType, m.SetEntityType)
	txn.SetIf(in.CustomerID, m.SetCustomerID)
	txn.SetIf(in.ReturnURL, m.SetReturnURL)
	txn.SetIf(in.BusinessCountry, m.SetBusinessCountry)
	txn.SetIf(in.BusinessLabel, m.SetBusinessLabel)
	txn.SetIf(in.Description, m.SetDescription)
	txn.SetIf(in.Priority, m.SetPriority)
	txn.SetIf(in.PayoutToken, m.SetPayoutToken)
	txn.SetIf(in.MerchantOrderReferenceID, m.SetMerchantOrderReferenceID)
	txn.SetGiven(in.Billing, m.SetBilling)
	txn.SetGiven(in.Customer, m.SetCustomerDetails)
	txn.SetGiven(in.Metadata, m.SetMetadata)
}

// newPayoutID is a payout_… id of Hyperswitch's 30 characters.
func newPayoutID() string { return ids.Payout + "_" + ids.Base62(30-len(ids.Payout)-1) }

// payoutOfKey is the payout an Idempotency-Key already made, if any:
// after a crash (the key's Redis record gone), a retry answers with that
// payout, never a new one, carried as far as its request asked (resume).
// The same key with another request is 422.
func (s *Service) payoutOfKey(ctx context.Context, in *Input) (*View, error) {
	po, err := txn.KeyedRow(ctx, in.Idempotency, func(key string) (*ent.Payout, error) {
		return s.db.Client.Payout.Query().Where(payout.IdempotencyKey(key)).Only(ctx)
	}, func(po *ent.Payout) (*string, string) { return po.IdempotencyFingerprint, po.ProfileID })
	if po == nil || err != nil {
		return nil, err
	}
	return s.resume(ctx, po, in)
}
