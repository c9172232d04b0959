package payments

import (
	"context"
	"errors"
	"time"

	"switchyard/ent"
	"switchyard/ent/paymentintent"
	"switchyard/ent/schema/schematype"
	"switchyard/internal/ids"
	"switchyard/internal/tenancy"
	"switchyard/payments/customer"
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
		view, err := s.authorize(ctx, confirm.pi, confirm.att, confirm.mca, confirm.method)
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
	if ref == nil {
		return nil, nil
	}
	pi, err := s.db.Client.PaymentIntent.Query().Where(paymentintent.IdempotencyKey(ref.Key)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	p, _ := tenancy.FromContext(ctx)
	if pi.IdempotencyFingerprint == nil || *pi.IdempotencyFingerprint != ref.Fingerprint ||
		(p.ProfileID != "" && p.ProfileID != pi.ProfileID) {
		return nil, errs.IdempotencyMismatch()
	}
	if err := s.syncPayment(ctx, pi, s.recoveryAfter); err != nil {
		return nil, err
	}
	return s.GetPayment(ctx, pi.PaymentID)
}

func errDuplicatePayment() *errs.Error {
	return errs.Duplicate("The payment with the specified payment_id already exists in our records")
}

// applyFields writes the given members onto a payment inside tx.
func (s *Service) applyFields(ctx context.Context, tx *ent.Tx, pi *ent.PaymentIntent, f *PaymentFields) (*ent.PaymentIntent, error) {
	upd := tx.PaymentIntent.Update().Where(paymentintent.ID(pi.ID)).AddVersion(1)
	if err := s.setFields(ctx, tx, upd.Mutation(), paymentRef{pi.ID, pi.CreatedAt, pi.Status, pi.CustomerID, pi.CustomerDetails}, f); err != nil {
		return nil, err
	}
	out, err := txn.UpdateRow(ctx, s.db, pi, upd)
	if err != nil {
		return nil, txn.Error(err, "payment")
	}
	return out, nil
}

// paymentRef is what setFields needs to know of the payment it writes to:
// its customer (row id) and customer details too, none for a new one.
type paymentRef struct {
	id         string
	createdAt  time.Time
	status     paymentintent.Status
	customerID *string
	details    *schematype.CustomerDetails
}

// setCustomer applies a change's customer members to the payment, as
// Hyperswitch does: a customer named is created or filled in with the
// details given and becomes the payment's; details without a customer id
// fill in the payment's own customer, if it has one. The payment keeps the
// details given over those it had, with or without a customer, so a guest
// payment shows them and the customer a later confirm names is shown with
// them where its own row has none.
func (s *Service) setCustomer(ctx context.Context, tx *ent.Tx, upd *ent.PaymentIntentMutation, pi paymentRef, in *customer.CustomerInput) error {
	named := in
	if !in.Named {
		named = nil
		if pi.customerID != nil && in.Details() != nil {
			owner, err := tx.Customer.Get(ctx, *pi.customerID)
			if err != nil {
				return errs.Internal(err)
			}
			c := *in
			c.ID, c.Named = owner.CustomerID, true
			named = &c
		}
	}
	if named != nil {
		c, err := s.customers.UpsertCustomer(ctx, tx, named)
		if err != nil {
			return err
		}
		upd.SetCustomerID(c.ID)
	}
	if d := in.Details(); d != nil {
		upd.SetCustomerDetails(pi.details.Merge(d))
	}
	return nil
}

// setIf sets a member that was given.
func setIf[T any](v *T, set func(T)) {
	if v != nil {
		set(*v)
	}
}

// setFields writes the given members into the mutation of a payment being
// created or updated (one statement either way). What needs the database
// comes first, in this order: the customer, then the checks that a
// merchant_reference_id is free and that an active attempt is the
// payment's. What is left is decided from the members alone (writeFields).
func (s *Service) setFields(ctx context.Context, tx *ent.Tx, upd *ent.PaymentIntentMutation, pi paymentRef, f *PaymentFields) error {
	if f.Customer != nil {
		if err := s.setCustomer(ctx, tx, upd, pi, f.Customer); err != nil {
			return err
		}
	}
	if err := checkReferenceFree(ctx, tx, pi.id, f.MerchantReferenceID); err != nil {
		return err
	}
	if err := checkAttemptOf(ctx, tx, pi.id, f.ActiveAttempt); err != nil {
		return err
	}
	writeFields(upd, pi.createdAt, pi.status, f)
	return nil
}

// checkReferenceFree refuses a merchant_reference_id another payment has.
func checkReferenceFree(ctx context.Context, tx *ent.Tx, paymentRowID string, ref *string) error {
	if ref == nil {
		return nil
	}
	taken, err := tx.PaymentIntent.Query().Where(
		paymentintent.MerchantReferenceID(*ref), paymentintent.IDNEQ(paymentRowID)).Exist(ctx)
	if err != nil {
		return errs.Internal(err)
	}
	if taken {
		e := errs.Duplicate("The merchant_reference_id %q is already used by another payment", *ref)
		e.Field = "merchant_reference_id"
		return e
	}
	return nil
}

// checkAttemptOf refuses set_active_attempt_id naming an attempt the
// payment does not have: a bad value in the request, not a missing path
// resource.
func checkAttemptOf(ctx context.Context, tx *ent.Tx, paymentRowID string, c *ActiveAttemptChange) error {
	if c == nil || c.Unset {
		return nil
	}
	ok, err := tx.PaymentAttempt.Query().Where(paymentAttemptOf(paymentRowID, c.ID)...).Exist(ctx)
	if err != nil {
		return errs.Internal(err)
	}
	if !ok {
		return errs.InvalidValue("set_active_attempt_id", "the payment has no attempt %q", c.ID)
	}
	return nil
}

// writeFields sets in upd every member f gives (the customer aside, which
// setCustomer writes), and the status the payment moves to
// (statusAfterFields). createdAt and status are the payment's as it stands.
func writeFields(upd *ent.PaymentIntentMutation, createdAt time.Time, status paymentintent.Status, f *PaymentFields) {
	writeSettings(upd, f)
	writeValues(upd, f)
	writeDocuments(upd, f)
	if f.SessionExpiry != nil {
		upd.SetSessionExpiry(*f.SessionExpiry)
		upd.SetExpiresOn(createdAt.Add(time.Duration(*f.SessionExpiry) * time.Second))
	}
	if c := f.ActiveAttempt; c != nil {
		if c.Unset {
			upd.ClearActiveAttemptID()
		} else {
			upd.SetActiveAttemptID(c.ID)
		}
	}
	if f.PaymentMethod != nil {
		upd.SetPaymentMethod(f.PaymentMethod.Type)
		if f.PaymentMethod.Subtype != "" {
			upd.SetPaymentMethodType(f.PaymentMethod.Subtype)
		}
	}
	if next, ok := statusAfterFields(status, f); ok {
		upd.SetStatus(next)
	}
}

// statusAfterFields is the status a change of f moves a payment in status
// to, if it moves it: a payment method given to a payment that waits for
// one makes it wait for its confirm.
func statusAfterFields(status paymentintent.Status, f *PaymentFields) (paymentintent.Status, bool) {
	if f.PaymentMethod != nil && status == paymentintent.StatusRequiresPaymentMethod {
		return paymentintent.StatusRequiresConfirmation, true
	}
	return status, false
}

// writeSettings sets the members that are one of a closed set.
func writeSettings(upd *ent.PaymentIntentMutation, f *PaymentFields) {
	if f.CaptureMethod != nil {
		upd.SetCaptureMethod(paymentintent.CaptureMethod(*f.CaptureMethod))
	}
	if f.AuthenticationType != nil {
		upd.SetAuthenticationType(paymentintent.AuthenticationType(*f.AuthenticationType))
	}
	if f.SetupFutureUsage != nil {
		upd.SetSetupFutureUsage(paymentintent.SetupFutureUsage(*f.SetupFutureUsage))
	}
	if f.PaymentType != nil {
		upd.SetPaymentType(paymentintent.PaymentType(*f.PaymentType))
	}
	if f.CustomerPresent != nil {
		upd.SetCustomerPresent(paymentintent.CustomerPresent(*f.CustomerPresent))
	}
	if f.ApplyMitExemption != nil {
		upd.SetApplyMitExemption(paymentintent.ApplyMitExemption(*f.ApplyMitExemption))
	}
	if f.PaymentLinkEnabled != nil {
		upd.SetPaymentLinkEnabled(paymentintent.PaymentLinkEnabled(*f.PaymentLinkEnabled))
	}
	if f.SplitTxnsEnabled != nil {
		upd.SetSplitTxnsEnabled(paymentintent.SplitTxnsEnabled(*f.SplitTxnsEnabled))
	}
	if f.RequestIncrementalAuthorization != nil {
		upd.SetRequestIncrementalAuthorization(paymentintent.RequestIncrementalAuthorization(*f.RequestIncrementalAuthorization))
	}
	if f.RequestExternalThreeDSAuthentication != nil {
		upd.SetRequestExternalThreeDsAuthentication(paymentintent.RequestExternalThreeDsAuthentication(*f.RequestExternalThreeDSAuthentication))
	}
	if f.ExternalTaxCalculation != nil {
		upd.SetExternalTaxCalculation(paymentintent.ExternalTaxCalculation(*f.ExternalTaxCalculation))
	}
	if f.SurchargeCalculation != nil {
		upd.SetSurchargeCalculation(paymentintent.SurchargeCalculation(*f.SurchargeCalculation))
	}
}

// writeValues sets the members kept as they are given.
func writeValues(upd *ent.PaymentIntentMutation, f *PaymentFields) {
	if f.AmountToCapture != nil {
		upd.SetAmountToCapture(*f.AmountToCapture)
	}
	if f.MerchantReferenceID != nil {
		upd.SetMerchantReferenceID(*f.MerchantReferenceID)
	}
	setIf(f.MandateID, upd.SetMandateID)
	setIf(f.CaptureOn, upd.SetCaptureOn)
	setIf(f.Description, upd.SetDescription)
	setIf(f.ReturnURL, upd.SetReturnURL)
	setIf(f.StatementDescriptor, upd.SetStatementDescriptor)
	setIf(f.IntentStatementDescriptor, upd.SetStatementDescriptor)
	setIf(f.StatementDescriptorSuffix, upd.SetStatementDescriptorSuffix)
	setIf(f.MerchantOrderReferenceID, upd.SetMerchantOrderReferenceID)
	setIf(f.OffSession, upd.SetOffSession)
	setIf(f.ShippingCost, upd.SetShippingCost)
	setIf(f.OrderTaxAmount, upd.SetOrderTaxAmount)
	setIf(f.SurchargeAmount, upd.SetSurchargeAmount)
	setIf(f.TaxOnSurcharge, upd.SetTaxOnSurcharge)
	setIf(f.BusinessCountry, upd.SetBusinessCountry)
	setIf(f.BusinessLabel, upd.SetBusinessLabel)
	setIf(f.BusinessSubLabel, upd.SetBusinessSubLabel)
	setIf(f.EnablePartialAuthorization, upd.SetEnablePartialAuthorization)
	setIf(f.RequestExtendedAuthorization, upd.SetRequestExtendedAuthorization)
	setIf(f.EnableOvercapture, upd.SetEnableOvercapture)
	setIf(f.Force3DSChallenge, upd.SetForce3dsChallenge)
	setIf(f.IsIframeRedirectionEnabled, upd.SetIsIframeRedirectionEnabled)
	setIf(f.RoutingAlgorithmID, upd.SetRoutingAlgorithmID)
}

// writeDocuments sets the members kept as JSON: each replaces the old
// value, as the spec says.
func writeDocuments(upd *ent.PaymentIntentMutation, f *PaymentFields) {
	if f.Metadata != nil {
		upd.SetMetadata(f.Metadata)
	}
	if f.ConnectorMetadata != nil {
		upd.SetConnectorMetadata(f.ConnectorMetadata)
	}
	if f.FeatureMetadata != nil {
		upd.SetFeatureMetadata(f.FeatureMetadata)
	}
	if f.FrmMetadata != nil {
		upd.SetFrmMetadata(f.FrmMetadata)
	}
	if f.PaymentLinkConfig != nil {
		upd.SetPaymentLinkConfig(f.PaymentLinkConfig)
	}
	if f.Billing != nil {
		upd.SetBilling(f.Billing)
	}
	if f.Shipping != nil {
		upd.SetShipping(f.Shipping)
	}
	if f.OrderDetails != nil {
		upd.SetOrderDetails(f.OrderDetails)
	}
	if f.AllowedPaymentMethodTypes != nil {
		upd.SetAllowedPaymentMethodTypes(f.AllowedPaymentMethodTypes)
	}
	if f.Mandate != nil {
		upd.SetMandateData(f.Mandate.AsMap())
	}
	if f.CustomerAcceptance != nil {
		upd.SetCustomerAcceptance(f.CustomerAcceptance.AsMap())
	}
}

// lockPayment reads a payment by its payment_id and locks its row until tx
// ends: every state change of a payment goes through here, so two
// concurrent captures or refunds are serialised.
func (s *Service) lockPayment(ctx context.Context, tx *ent.Tx, paymentID string) (*ent.PaymentIntent, error) {
	pi, err := txn.ForUpdate(s.db, tx.PaymentIntent.Query().Where(paymentWhere(ctx, paymentID)...)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, errPaymentNotFound()
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	return pi, nil
}

// UpdatePayment changes a payment that has not been confirmed yet (v1
// POST /payments/{id}, v2 update-intent).
func (s *Service) UpdatePayment(ctx context.Context, paymentID string, p PaymentPatch) (*PaymentView, error) {
	if !p.Confirm {
		return s.updatePayment(ctx, paymentID, p)
	}
	// The mandate a payment charges is named by the call that authorizes
	// it: with confirm, it goes to the confirm.
	var confirm ConfirmInput
	confirm.MandateID, p.MandateID = p.MandateID, nil
	if _, err := s.updatePayment(ctx, paymentID, p); err != nil {
		return nil, err
	}
	return s.ConfirmPayment(ctx, paymentID, confirm)
}

// updatePayment is UpdatePayment without the confirm.
func (s *Service) updatePayment(ctx context.Context, paymentID string, p PaymentPatch) (*PaymentView, error) {
	if p.Currency != nil {
		if err := validateCurrency(*p.Currency); err != nil {
			return nil, err
		}
	}
	if err := p.PaymentFields.checkMandateMembers(false, false); err != nil {
		return nil, err
	}
	merchantID, err := txn.Merchant(ctx)
	if err != nil {
		return nil, err
	}
	if p.PaymentMethod != nil {
		// Vault first: a vault that is down refuses the update before it is written.
		if err := s.vaultPatchMethod(ctx, merchantID, paymentID, p.PaymentMethod); err != nil {
			return nil, err
		}
	}
	var pi *ent.PaymentIntent
	err = s.db.InTx(ctx, func(tx *ent.Tx) (err error) {
		pi, err = s.applyPatch(ctx, tx, merchantID, paymentID, &p)
		return err
	})
	if err != nil {
		return nil, err
	}
	return s.GetPayment(ctx, pi.PaymentID)
}

// vaultPatchMethod puts the payment method an update gives in the vault,
// until the payment's client secret expires.
func (s *Service) vaultPatchMethod(ctx context.Context, merchantID, paymentID string, m *customer.PaymentMethodInput) error {
	cur, err := s.db.Client.PaymentIntent.Query().Where(paymentintent.PaymentID(paymentID)).Only(ctx)
	if ent.IsNotFound(err) {
		return errPaymentNotFound()
	}
	if err != nil {
		return errs.Internal(err)
	}
	return s.customers.VaultPut(ctx, merchantID, cur.ID, m, time.Until(cur.ExpiresOn))
}

// applyPatch checks p against the payment (locked in tx) and writes it.
func (s *Service) applyPatch(ctx context.Context, tx *ent.Tx, merchantID, paymentID string, p *PaymentPatch) (*ent.PaymentIntent, error) {
	cur, err := s.lockPayment(ctx, tx, paymentID)
	if err != nil {
		return nil, err
	}
	if err := checkUpdatable(cur.Status); err != nil {
		return nil, err
	}
	if _, err := s.lockPayer(ctx, tx, cur, p.Customer); err != nil {
		return nil, err
	}
	if err := p.check(cur); err != nil {
		return nil, err
	}
	upd := cur.Update()
	if p.Amount != nil {
		upd.SetAmount(*p.Amount)
	}
	if p.Currency != nil {
		upd.SetCurrency(schematype.Currency(*p.Currency))
	}
	if cur, err = upd.Save(ctx); err != nil {
		return nil, txn.Error(err, "payment")
	}
	pi, err := s.applyFields(ctx, tx, cur, &p.PaymentFields)
	if err != nil {
		return nil, err
	}
	s.events.PaymentChanged(tx, merchantID, pi.ID)
	return pi, nil
}

// checkUpdatable refuses an update of a payment in a status that takes none:
// only one not confirmed yet can be changed.
func checkUpdatable(status paymentintent.Status) error {
	if !statusIn(status, updatableStates...) {
		return ErrUnexpectedState("updated", status, updatableStates)
	}
	return nil
}

// check runs the refusals of p that depend on the payment as it stands
// (cur): the amount and payment type it will have, the stored order lines
// and amount_to_capture against a new amount, and every member given. It
// decides what a top-level customer_acceptance asks (resolveAcceptance).
func (p *PaymentPatch) check(cur *ent.PaymentIntent) error {
	amount := cur.Amount
	if p.Amount != nil {
		amount = *p.Amount
	}
	ptype := p.PaymentType
	if ptype == nil {
		t := string(cur.PaymentType)
		ptype = &t
	}
	if err := validateAmount(amount, ptype); err != nil {
		return err
	}
	if p.OrderDetails == nil && p.Amount != nil && len(cur.OrderDetails) > 0 {
		// The stored lines must still sum to the new amount.
		if err := validateOrderDetails(cur.OrderDetails, amount); err != nil {
			return err
		}
	}
	if err := p.validate(amount, ptype); err != nil {
		return err
	}
	if err := p.PaymentFields.resolveAcceptance(cur); err != nil {
		return err
	}
	if p.AmountToCapture == nil && cur.AmountToCapture != nil && *cur.AmountToCapture > amount {
		return errs.InvalidValue("amount_to_capture", "the payment's amount_to_capture (%d) exceeds the new amount (%d): send a new amount_to_capture with it", *cur.AmountToCapture, amount)
	}
	return nil
}
