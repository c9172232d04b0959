package payments

import (
	"context"
	"crypto/subtle"
	"fmt"
	"reflect"
	"time"

	"switchyard/ent"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentintent"
	"switchyard/ent/predicate"
	"switchyard/internal/ids"
	"switchyard/internal/tenancy"
	"switchyard/payments/blocklist"
	"switchyard/payments/customer"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// ConfirmInput confirms a payment, optionally changing it first (v1 confirm
// accepts the create members).
type ConfirmInput struct {
	PaymentFields
	// ClientSecret is required when the caller holds only the publishable key.
	ClientSecret *string
}

func paymentAttemptOf(intentID, attemptID string) []predicate.PaymentAttempt {
	return []predicate.PaymentAttempt{paymentattempt.PaymentIntentID(intentID), paymentattempt.ID(attemptID)}
}

// storedFields are the members of a confirm that the payment keeps, beyond
// what the attempt's own update records (the payment method, the route,
// the browser): when there are none, the payment is not written twice.
func (in *ConfirmInput) storedFields() *PaymentFields {
	f := in.PaymentFields
	f.PaymentMethod, f.Connectors, f.MerchantConnectorID, f.BrowserInfo = nil, nil, nil, nil
	f.ThreeDSData = nil // carried to the connector, not kept
	f.ClientAddr = ""
	return &f
}

// checkClientSecret enforces the publishable-key rule (clientSecretRefusal).
func (s *Service) checkClientSecret(ctx context.Context, pi *ent.PaymentIntent, given *string) error {
	p, _ := tenancy.FromContext(ctx)
	if !p.ClientOnly && given == nil {
		return nil
	}
	return clientSecretRefusal(given, pi.ClientSecret, pi.ExpiresOn, s.db.Now())
}

// clientSecretRefusal is the publishable-key rule for a payment whose
// secret is secret, expiring at expiresOn: the client secret must be
// given, match, and not have expired at now. A secret key is held to it
// only when it sends a client secret.
func clientSecretRefusal(given *string, secret string, expiresOn, now time.Time) error {
	if given == nil || *given == "" {
		return errs.ErrClientSecretMissing.New()
	}
	if subtle.ConstantTimeCompare([]byte(*given), []byte(secret)) != 1 {
		return errWrongClientSecret()
	}
	if !now.Before(expiresOn) {
		return errs.ErrClientSecretExpired.New()
	}
	return nil
}

// lockPayer locks and checks the customer a change to cur acts for: the
// payment's own, unless the merchant's change names one (UpsertCustomer
// checks that one). Locked, a delete of the customer waits for this
// transaction or comes first and is seen; a redacted customer is IR_11.
// Nil for a guest payment.
func (s *Service) lockPayer(ctx context.Context, tx *ent.Tx, cur *ent.PaymentIntent, named *customer.CustomerInput) (*ent.Customer, error) {
	if cur.CustomerID == nil || (named != nil && named.Named) {
		return nil, nil
	}
	return s.customers.LockPayer(ctx, tx, *cur.CustomerID)
}

// holdClientMembers keeps a publishable key's confirm to the payment as
// the merchant made it: the browser may echo what the payment already says
// (Hyperswitch's checkout sends the customer with a saved card, the payment
// type and the surcharge it showed), never change it. Another customer
// would open that customer's saved cards to this browser, another payment
// type could meet another routing rule, and another surcharge changes what
// is charged (Hyperswitch, too, refuses a surcharge that is not the one it
// computed). An echo changes nothing and is dropped. payer is the payment's
// customer (nil for a guest payment).
func holdClientMembers(cur *ent.PaymentIntent, payer *ent.Customer, f *PaymentFields) error {
	if c := f.Customer; c != nil {
		switch {
		case !c.Named:
			return errClientMember("customer", "details (name, email, phone) can only be changed")
		case payer == nil || c.ID != payer.CustomerID || c.Details() != nil:
			return errClientMember("customer_id", "can only name the payment's own customer")
		}
		f.Customer = nil
	}
	if t := f.PaymentType; t != nil {
		if *t != string(cur.PaymentType) {
			return errClientMember("payment_type", "can only be the payment's own ("+string(cur.PaymentType)+")")
		}
		f.PaymentType = nil
	}
	if f.SurchargeAmount != nil || f.TaxOnSurcharge != nil {
		if deref(f.SurchargeAmount) != deref(cur.SurchargeAmount) || deref(f.TaxOnSurcharge) != deref(cur.TaxOnSurcharge) {
			// Hyperswitch's words for a surcharge that is not the one it showed.
			return errs.InvalidRequestData("Invalid value provided: 'surcharge_details'. surcharge details provided do not match with surcharge details sent in payment_methods list response").
				WithField("surcharge_details")
		}
		f.SurchargeAmount, f.TaxOnSurcharge = nil, nil
	}
	return nil
}

// errClientMember refuses a member a publishable key sent with a value
// only the merchant's secret key may set.
func errClientMember(field, rule string) *errs.Error {
	e := errs.Forbidden(field)
	e.Message = "Access forbidden: " + field + " " + rule + " with a publishable key; use the secret key to change it"
	return e.WithField(field)
}

// ConfirmPayment authorizes a payment through its connector: one
// transaction records the attempt, the connector is called outside any
// transaction, and a second transaction records the outcome.
func (s *Service) ConfirmPayment(ctx context.Context, paymentID string, in ConfirmInput) (*PaymentView, error) {
	merchantID, err := txn.Merchant(ctx)
	if err != nil {
		return nil, err
	}
	ctx = txn.OneReading(ctx)
	var c *confirmation
	err = s.db.InTx(ctx, func(tx *ent.Tx) error {
		cur, err := s.lockPayment(ctx, tx, paymentID)
		if err != nil {
			return err
		}
		c, err = s.prepareConfirm(ctx, tx, merchantID, cur, in, nil)
		return err
	})
	if err != nil {
		return nil, err
	}
	view, err := s.authorizeConfirmed(ctx, merchantID, c)
	if c.blocked || (err == nil && (c.threeDS == nil || c.threeDS.verdict() != threeDSChallenge)) {
		// The connector has seen the card, or the blocklist refused it:
		// either way it is not kept for another try.
		s.customers.VaultDrop(ctx, merchantID, c.pi.ID)
	}
	if err != nil {
		return nil, err
	}
	return s.viewOr(ctx, view, paymentID)
}

// confirmation is what a confirm's first transaction recorded: the pending
// attempt, and what the connector call about it needs.
type confirmation struct {
	pi     *ent.PaymentIntent
	att    *ent.PaymentAttempt
	mca    *ent.MerchantConnectorAccount
	method *customer.PaymentMethodInput
	// threeDS is the attempt's external authentication, if it has one.
	threeDS *externalThreeDS
	// blocked: the merchant's blocklist holds the card; the attempt fails
	// without a connector call.
	blocked bool
}

// prepareConfirm checks, inside tx, that cur (locked) may be confirmed with
// in (its state, the client secret, the members, the payment method or the
// mandate it charges, a connector account to route to), and records the
// pending attempt. Everything that can refuse a confirm runs here, so a
// refused one writes nothing. With insert, cur is its draft (txn.Draft): a
// payment confirmed at its creation is inserted here, already processing,
// rather than inserted and then updated.
func (s *Service) prepareConfirm(ctx context.Context, tx *ent.Tx, merchantID string, cur *ent.PaymentIntent, in ConfirmInput,
	insert *ent.PaymentIntentCreate) (*confirmation, error) {
	if err := s.checkConfirm(ctx, tx, cur, &in); err != nil {
		return nil, err
	}
	pi, insert, err := s.storeConfirmFields(ctx, tx, cur, &in, insert)
	if err != nil {
		return nil, err
	}
	method, mcaID, err := s.confirmMethod(ctx, tx, merchantID, pi, &in)
	if err != nil {
		return nil, err
	}
	d, err := s.route(ctx, tx, pi, method, in.Connectors, mcaID)
	if err != nil {
		return nil, err
	}
	mca := d.Candidates[0]
	blocked, err := s.blockedCard(ctx, tx, pi.ProfileID, method)
	if err != nil {
		return nil, err
	}
	if err := checkRequiredFields(mca, pi, method); err != nil {
		return nil, err
	}
	attemptID := ids.New(ids.Attempt)
	if pi, err = s.writeProcessing(ctx, tx, pi, insert, attemptID, mca, method); err != nil {
		return nil, err
	}
	ext, err := s.startThreeDS(ctx, tx, pi, method, attemptID, in.ThreeDSData)
	if err != nil {
		return nil, err
	}
	att, err := s.newAttempt(ctx, tx, pi, attemptID, d, method, in.BrowserInfo.Members())
	if err != nil {
		return nil, err
	}
	if ext != nil {
		upd := tx.PaymentAttempt.UpdateOne(att)
		ext.record(upd.Mutation())
		if att, err = upd.Save(ctx); err != nil {
			return nil, errs.Internal(err)
		}
	}
	return &confirmation{pi: pi, att: att, mca: mca, method: method, threeDS: ext, blocked: blocked}, nil
}

// blockedCard reports whether the merchant's blocklist guard refuses the
// card method carries (Hyperswitch's guard_payment_against_blocklist): a
// card given with its number, at confirm or from the vault, or a saved
// card charged by token (payment_token, or a mandate's), by what was kept
// of it when it was saved. The guard is read with the profile's cached
// configuration, so a merchant without it pays no statement for it.
func (s *Service) blockedCard(ctx context.Context, tx *ent.Tx, profileID string, method *customer.PaymentMethodInput) (bool, error) {
	var card blocklist.Card
	switch {
	case s.blocklist == nil:
		return false, nil
	case method.Card != nil && method.Card.Number != "":
		card = blocklist.CardOf(method.Card.Number, s.customers.CardFingerprint)
	case method.Saved != nil && method.Saved.Card != nil:
		card = blocklist.SavedCardOf(method.Saved)
	default:
		return false, nil
	}
	pc, err := s.db.ProfileConfig(ctx, tx.Client(), profileID)
	if err != nil || !pc.BlocklistGuard {
		return false, err
	}
	return s.blocklist.Blocked(ctx, tx, card)
}

// checkConfirm runs the refusals of a confirm of cur that come before its
// payment method: the client secret, the payment's state, its customer,
// and the members in (checked, and held to the payment's own for a
// publishable key).
func (s *Service) checkConfirm(ctx context.Context, tx *ent.Tx, cur *ent.PaymentIntent, in *ConfirmInput) error {
	if err := s.checkClientSecret(ctx, cur, in.ClientSecret); err != nil {
		return err
	}
	if err := s.checkConfirmable(ctx, tx, cur); err != nil {
		return err
	}
	p, _ := tenancy.FromContext(ctx)
	named := in.Customer
	if p.ClientOnly {
		named = nil // a browser can only echo the payment's own customer
	}
	payer, err := s.lockPayer(ctx, tx, cur, named)
	if err != nil {
		return err
	}
	return in.check(cur, payer, p.ClientOnly)
}

// check runs the refusals of the members of a confirm of cur, whose
// customer is payer (nil for a guest payment); client is a publishable
// key's confirm (holdClientMembers). It decides what a top-level
// customer_acceptance asks (resolveAcceptance).
func (in *ConfirmInput) check(cur *ent.PaymentIntent, payer *ent.Customer, client bool) error {
	if client {
		if err := holdClientMembers(cur, payer, &in.PaymentFields); err != nil {
			return err
		}
	}
	ptype := string(cur.PaymentType)
	if in.PaymentType != nil {
		ptype = *in.PaymentType
	}
	if err := in.validate(cur.Amount, &ptype); err != nil {
		return err
	}
	if err := in.PaymentFields.checkMandateMembers(false, true); err != nil {
		return err
	}
	return in.PaymentFields.resolveAcceptance(cur)
}

// storeConfirmFields writes the members of a confirm that the payment
// keeps (storedFields), if it gives any; a draft (insert) is inserted
// first, and nil is returned for it once it is.
func (s *Service) storeConfirmFields(ctx context.Context, tx *ent.Tx, cur *ent.PaymentIntent, in *ConfirmInput,
	insert *ent.PaymentIntentCreate) (*ent.PaymentIntent, *ent.PaymentIntentCreate, error) {
	stored := in.storedFields()
	if reflect.ValueOf(*stored).IsZero() {
		return cur, insert, nil
	}
	var err error
	if insert != nil { // the fields are applied to the row: it goes in first
		if cur, err = insert.Save(ctx); err != nil {
			return nil, nil, txn.Error(err, "payment")
		}
	}
	pi, err := s.applyFields(ctx, tx, cur, stored)
	return pi, nil, err
}

// confirmMethod is what a confirm of pi charges, and the connector account
// that must serve it when one must (nil: routing decides): the payment
// method given, else the one waiting in the vault; a saved card through
// the account that issued its token; a mandate's card through the account
// that holds its token. None is a refusal.
func (s *Service) confirmMethod(ctx context.Context, tx *ent.Tx, merchantID string, pi *ent.PaymentIntent, in *ConfirmInput) (*customer.PaymentMethodInput, *string, error) {
	var err error
	method := in.PaymentMethod
	if method == nil && pi.MandateID == nil {
		if method, err = s.customers.VaultGet(ctx, merchantID, pi.ID); err != nil {
			return nil, nil, err
		}
	}
	if err := customer.CheckMandateIntent(pi, method); err != nil {
		return nil, nil, err
	}
	mcaID := in.MerchantConnectorID
	if method != nil && method.SavedToken != "" {
		if method, err = s.customers.SavedCard(ctx, tx, pi, method.SavedToken, method.SavedCVC); err != nil {
			return nil, nil, err
		}
		mcaID = method.Saved.MerchantConnectorID
	}
	if pi.MandateID != nil {
		if method, err = s.customers.RecurringMethod(ctx, tx, pi, netAmount(pi)); err != nil {
			return nil, nil, err
		}
		mcaID = method.Mandate.MerchantConnectorID
	}
	if method == nil {
		// Hyperswitch's words and code (validate_pm_or_token_given).
		return nil, nil, errs.InvalidRequestData("A payment token or payment method data is required")
	}
	return method, mcaID, nil
}

// writeProcessing writes the payment as its confirm leaves it before the
// connector call (markProcessing), one attempt more: inserting its draft
// (insert), or updating its row. The payment is written before its
// attempt, which refers to it.
func (s *Service) writeProcessing(ctx context.Context, tx *ent.Tx, pi *ent.PaymentIntent, insert *ent.PaymentIntentCreate,
	attemptID string, mca *ent.MerchantConnectorAccount, method *customer.PaymentMethodInput) (*ent.PaymentIntent, error) {
	if insert != nil {
		markProcessing(insert.Mutation(), attemptID, mca, method)
		insert.SetAttemptCount(pi.AttemptCount + 1).SetVersion(pi.Version + 1)
		out, err := insert.Save(ctx)
		if err != nil {
			return nil, txn.Error(err, "payment")
		}
		return out, nil
	}
	upd := tx.PaymentIntent.Update().Where(paymentintent.ID(pi.ID)).AddAttemptCount(1).AddVersion(1)
	markProcessing(upd.Mutation(), attemptID, mca, method)
	out, err := txn.UpdateRow(ctx, s.db, pi, upd)
	if err != nil {
		return nil, errs.Internal(err)
	}
	return out, nil
}

// markProcessing is what a confirm changes on the payment: processing, its
// active attempt attemptID, the connector account mca that serves it, and
// the payment method (its type, subtype and card network).
func markProcessing(m *ent.PaymentIntentMutation, attemptID string, mca *ent.MerchantConnectorAccount, method *customer.PaymentMethodInput) {
	m.SetStatus(paymentintent.StatusProcessing)
	m.SetActiveAttemptID(attemptID)
	m.SetConnector(mca.ConnectorName)
	m.SetMerchantConnectorID(mca.ID)
	m.SetPaymentMethod(method.Type)
	if t := validate.NonEmpty(method.Subtype); t != nil {
		m.SetPaymentMethodType(*t)
	}
	if n := cardNetwork(method); n != nil {
		m.SetCardNetwork(*n)
	}
}

// checkConfirmable refuses a confirm of cur in a state that takes none.
// A failed payment takes one as Hyperswitch's manual retry does (its
// get_attempt_type): when its profile has is_manual_retry_enabled, within
// half the client secret's lifetime from the payment's creation, and when
// its last attempt failed at the connector (manual_retry_allowed is true);
// the confirm then makes a new attempt like any other. The profile and the
// last attempt are read only for a failed payment, each only when the
// rules before it let the retry through.
func (s *Service) checkConfirmable(ctx context.Context, tx *ent.Tx, cur *ent.PaymentIntent) error {
	if retry, err := confirmByStatus(cur.Status); !retry {
		return err
	}
	pc, err := s.db.ProfileConfig(ctx, tx.Client(), cur.ProfileID)
	if err != nil {
		return err
	}
	if err := manualRetryWindow(cur, pc.Profile.IsManualRetryEnabled, s.db.Now()); err != nil {
		return err
	}
	var last *ent.PaymentAttempt
	if cur.ActiveAttemptID != nil {
		if last, err = tx.PaymentAttempt.Query().Where(paymentAttemptOf(cur.ID, *cur.ActiveAttemptID)...).Only(ctx); err != nil {
			return errs.Internal(err)
		}
	}
	return manualRetryAfter(cur, last)
}

// confirmByStatus decides a confirm from the payment's status alone: it is
// allowed (false, nil), refused (false, the refusal), or a manual retry
// that the profile and the last attempt decide (true, nil).
func confirmByStatus(status paymentintent.Status) (manualRetry bool, err error) {
	switch {
	case statusIn(status, confirmableStates...):
		return false, nil
	case status == paymentintent.StatusFailed:
		return true, nil
	}
	return false, ErrUnexpectedState("confirmed", status, confirmableStates)
}

// manualRetryWindow refuses a manual retry of cur at now unless its
// profile enables it (enabled) and half the client secret's lifetime has
// not passed since the payment was made, in whole seconds as Hyperswitch's
// validate_manual_retry_cutoff counts.
func manualRetryWindow(cur *ent.PaymentIntent, enabled *bool, now time.Time) error {
	if enabled == nil || !*enabled {
		return errs.PreconditionFailed("You cannot confirm this payment because it has status failed, " +
			"you can enable `manual_retry` in profile to try this payment again")
	}
	cutoff := int64(cur.ExpiresOn.Sub(cur.CreatedAt)/time.Second) / 2
	if int64(now.Sub(cur.CreatedAt)/time.Second) > cutoff {
		return errs.PreconditionFailed("You cannot confirm this payment using `manual_retry` because the allowed duration has expired")
	}
	return nil
}

// manualRetryAfter refuses a manual retry of the failed payment cur whose
// last attempt (last) did not fail at the connector.
func manualRetryAfter(cur *ent.PaymentIntent, last *ent.PaymentAttempt) error {
	allowed := manualRetryAllowed(cur.Status, last)
	if allowed == nil {
		return errs.Internal(fmt.Errorf("failed payment %s has no failed attempt", cur.ID))
	}
	if !*allowed {
		return errs.PreconditionFailed("You cannot confirm this payment because it has status failed, and the previous attempt has the status %s", last.Status)
	}
	return nil
}
