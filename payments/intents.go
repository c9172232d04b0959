package payments

import (
	"context"
	"errors"
	"time"

	"switchyard/ent"
	"switchyard/ent/paymentintent"
	"switchyard/ent/schema/schematype"
	"switchyard/internal/ids"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

// CreatePayment creates a payment intent (and its customer on first use) in
// one transaction. With Confirm the same transaction records its attempt
// (or refuses the whole call), and the payment is then authorized, as POST
// /payments with confirm: true does.
func (s *Service) CreatePayment(ctx context.Context, in PaymentInput) (*PaymentView, error) {
	paymentID, err := in.check()
	if err != nil {
		return nil, err
	}
	merchantID, err := txn.Merchant(ctx)
	if err != nil {
		return nil, err
	}
	ctx = txn.OneReading(ctx)
	// A payment this Idempotency-Key already made (its Redis record lost
	// after a crash) or a payment_id already taken is found by the
	// payment's unique keys when it is inserted, not looked up first.
	id := ids.New(ids.Payment)
	// A payment method given without confirm waits in the vault. It goes in
	// first, so a vault that is down refuses the call before anything is
	// written; with confirm it goes straight to the connector instead.
	if in.PaymentMethod != nil && !in.Confirm {
		if err := s.customers.VaultPut(ctx, merchantID, id, in.PaymentMethod, vaultExpiry(in.SessionExpiry)); err != nil {
			return nil, err
		}
	}
	if paymentID == "" {
		paymentID = id
	}
	var (
		pi      *ent.PaymentIntent
		confirm *confirmation
	)
	err = s.db.InTx(ctx, func(tx *ent.Tx) (err error) {
		pi, confirm, err = s.insertPayment(ctx, tx, merchantID, id, paymentID, &in)
		return err
	})
	if err != nil {
		return s.createRefused(ctx, in.Idempotency, err)
	}
	if confirm != nil {
		view, err := s.authorizeConfirmed(ctx, merchantID, confirm)
		if err != nil {
			return nil, err
		}
		return s.viewOr(ctx, view, paymentID)
	}
	return s.GetPayment(ctx, pi.PaymentID)
}

// check runs every refusal of a create that needs no database, in the
// order the client is told about them, and returns the merchant's
// payment_id ("" when it gave none).
func (in *PaymentInput) check() (string, error) {
	if err := validateCurrency(in.Currency); err != nil {
		return "", err
	}
	if err := validateAmount(in.Amount, in.PaymentType); err != nil {
		return "", err
	}
	if err := in.validate(in.Amount, in.PaymentType); err != nil {
		return "", err
	}
	if err := in.PaymentFields.resolveAcceptance(nil); err != nil {
		return "", err
	}
	if err := in.PaymentFields.checkMandateMembers(true, in.Confirm); err != nil {
		return "", err
	}
	if err := in.checkPaymentLinkCreate(); err != nil {
		return "", err
	}
	if in.PaymentID == nil {
		return "", nil
	}
	paymentID := *in.PaymentID
	if paymentID == "" || len(paymentID) > maxPaymentID || !idPattern.MatchString(paymentID) {
		return "", errs.InvalidValue("payment_id", "must be 1 to %d characters of letters, digits, '_' and '-'", maxPaymentID)
	}
	return paymentID, nil
}

// vaultExpiry is how long a payment method given at create waits in the
// vault for the confirm: the session_expiry given, else the default.
func vaultExpiry(sessionExpiry *int64) time.Duration {
	if sessionExpiry != nil {
		return time.Duration(*sessionExpiry) * time.Second
	}
	return time.Duration(defaultSessionExpiry) * time.Second
}

// intentStart is how a new payment starts: its client secret's lifetime
// (the session_expiry given, else its profile's), when that ends, and the
// return_url it takes from its profile when the request gives none.
// expires_on is created_at + session_expiry, here and on update, so both
// come from the same clock reading. Its status is requires_payment_method
// until its members say otherwise (statusAfterFields).
type intentStart struct {
	sessionExpiry int64
	expiresOn     time.Time
	returnURL     *string
}

func startOf(in *PaymentInput, prof *ent.Profile, now time.Time) intentStart {
	st := intentStart{sessionExpiry: int64(prof.SessionExpiry)}
	if in.SessionExpiry != nil {
		st.sessionExpiry = *in.SessionExpiry
	}
	st.expiresOn = now.Add(time.Duration(st.sessionExpiry) * time.Second)
	if in.ReturnURL == nil {
		st.returnURL = prof.ReturnURL
	}
	return st
}

// insertPayment writes a new payment inside tx: inserted as given, or,
// with Confirm, inserted once by prepareConfirm, already processing.
func (s *Service) insertPayment(ctx context.Context, tx *ent.Tx, merchantID, id, paymentID string, in *PaymentInput) (*ent.PaymentIntent, *confirmation, error) {
	pc, err := s.db.ProfileAndAccounts(ctx, tx.Client(), in.ProfileID)
	if err != nil {
		return nil, nil, err
	}
	now := s.db.Now().Truncate(time.Microsecond)
	st := startOf(in, pc.Profile, now)
	create := tx.PaymentIntent.Create().
		SetID(id).
		SetMerchantID(merchantID). // the tenancy hook would; a draft needs it before
		SetCreatedAt(now).
		SetModifiedAt(now).
		SetPaymentID(paymentID).
		SetProfileID(pc.Profile.ID).
		SetAmount(in.Amount).
		SetCurrency(schematype.Currency(in.Currency)).
		SetClientSecret(ids.ClientSecret(paymentID)).
		SetSessionExpiry(st.sessionExpiry).
		SetExpiresOn(st.expiresOn).
		SetStatus(paymentintent.StatusRequiresPaymentMethod)
	if st.returnURL != nil {
		create.SetReturnURL(*st.returnURL)
	}
	if ref := in.Idempotency; ref != nil {
		create.SetIdempotencyKey(ref.Key).SetIdempotencyFingerprint(ref.Fingerprint)
	}
	if err := s.addPaymentLink(ctx, tx, create, in, pc.Profile, merchantID, paymentID, now); err != nil {
		return nil, nil, err
	}
	if err := s.setFields(ctx, tx, create.Mutation(), paymentRef{id: id, createdAt: now, status: paymentintent.StatusRequiresPaymentMethod}, &in.PaymentFields); err != nil {
		return nil, nil, err
	}
	if !in.Confirm {
		pi, err := create.Save(ctx)
		if err != nil {
			return nil, nil, txn.Error(err, "payment")
		}
		// No event says so: open dashboards are told here.
		s.events.PaymentChanged(tx, merchantID, pi.ID)
		return pi, nil, nil
	}
	// Confirmed at once: everything that can refuse the confirm runs in
	// this transaction too, so a refused one leaves no payment behind, and
	// the payment is inserted once, already processing, from its draft.
	// What only the authorization uses goes to it directly: the card, the
	// routing preference and the browser details (the intent keeps none).
	draft, err := txn.Draft(ctx, s.db, create)
	if err != nil {
		return nil, nil, txn.Error(err, "payment")
	}
	confirm, err := s.prepareConfirm(ctx, tx, merchantID, draft, ConfirmInput{PaymentFields: PaymentFields{
		PaymentMethod: in.PaymentMethod, Connectors: in.Connectors,
		MerchantConnectorID: in.MerchantConnectorID, BrowserInfo: in.BrowserInfo,
	}}, create)
	return nil, confirm, err
}

// createRefused is what a create whose transaction failed with err
// answers. A unique key that names no field is the payment's own: the
// key's payment exists (made before a crash, or by another request after
// this one's lease ended) and is the answer; otherwise the payment_id is
// taken.
func (s *Service) createRefused(ctx context.Context, ref *IdempotencyRef, err error) (*PaymentView, error) {
	e, ok := errs.As(err)
	if !ok || !errors.Is(err, errs.ErrUniqueKey) || e.Field != "" {
		return nil, err
	}
	if v, kerr := s.paymentOfKey(ctx, ref); v != nil || kerr != nil {
		return v, kerr
	}
	return nil, errDuplicatePayment()
}

// paymentOfKey is the payment an Idempotency-Key already made, if any:
// after a crash (the key's Redis record gone with its lease), a retry
// answers with that payment, settled first when its attempt was left
// pending, never with a new one. The same key with another request is 422,
// as it is while the Redis record lives.
func (s *Service) paymentOfKey(ctx context.Context, ref *IdempotencyRef) (*PaymentView, error) {
	pi, err := txn.KeyedRow(ctx, ref, func(key string) (*ent.PaymentIntent, error) {
		return s.db.Client.PaymentIntent.Query().Where(paymentintent.IdempotencyKey(key)).Only(ctx)
	}, func(pi *ent.PaymentIntent) (*string, string) { return pi.IdempotencyFingerprint, pi.ProfileID })
	if pi == nil || err != nil {
		return nil, err
	}
	if err := s.syncPayment(ctx, pi, s.recoveryAfter); err != nil {
		return nil, err
	}
	return s.GetPayment(ctx, pi.PaymentID)
}

func errDuplicatePayment() *errs.Error {
	return errs.Duplicate("The payment with the specified payment_id already exists in our records")
}
