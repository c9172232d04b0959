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
	if err := validateCurrency(in.Currency); err != nil {
		return nil, err
	}
	if err := validateAmount(in.Amount, in.PaymentType); err != nil {
		return nil, err
	}
	if err := in.validate(in.Amount, in.PaymentType); err != nil {
		return nil, err
	}
	if err := in.PaymentFields.resolveAcceptance(nil); err != nil {
		return nil, err
	}
	if err := in.PaymentFields.checkMandateMembers(true, in.Confirm); err != nil {
		return nil, err
	}
	paymentID := ""
	if in.PaymentID != nil {
		paymentID = *in.PaymentID
		if paymentID == "" || len(paymentID) > maxPaymentID || !idPattern.MatchString(paymentID) {
			return nil, errs.InvalidValue("payment_id", "must be 1 to %d characters of letters, digits, '_' and '-'", maxPaymentID)
		}
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
		expiry := time.Duration(defaultSessionExpiry) * time.Second
		if in.SessionExpiry != nil {
			expiry = time.Duration(*in.SessionExpiry) * time.Second
		}
		if err := s.customers.VaultPut(ctx, merchantID, id, in.PaymentMethod, expiry); err != nil {
			return nil, err
		}
	}
	var (
		pi      *ent.PaymentIntent
		confirm *confirmation
	)
	err = s.db.InTx(ctx, func(tx *ent.Tx) error {
		pc, err := s.db.ProfileAndAccounts(ctx, tx.Client(), in.ProfileID)
		if err != nil {
			return err
		}
		prof := pc.Profile
		if paymentID == "" {
			paymentID = id
		}
		expiry := int64(prof.SessionExpiry)
		if in.SessionExpiry != nil {
			expiry = *in.SessionExpiry
		}
		// expires_on is created_at + session_expiry, here and on update,
		// so both are taken from the same clock reading.
		now := s.db.Now().Truncate(time.Microsecond)
		create := tx.PaymentIntent.Create().
			SetID(id).
			SetMerchantID(merchantID). // the tenancy hook would; a draft needs it before
			SetCreatedAt(now).
			SetModifiedAt(now).
			SetPaymentID(paymentID).
			SetProfileID(prof.ID).
			SetAmount(in.Amount).
			SetCurrency(schematype.Currency(in.Currency)).
			SetClientSecret(ids.ClientSecret(paymentID)).
			SetSessionExpiry(expiry).
			SetExpiresOn(now.Add(time.Duration(expiry) * time.Second)).
			SetStatus(paymentintent.StatusRequiresPaymentMethod)
		if in.ReturnURL == nil && prof.ReturnURL != nil {
			create.SetReturnURL(*prof.ReturnURL)
		}
		if ref := in.Idempotency; ref != nil {
			create.SetIdempotencyKey(ref.Key).SetIdempotencyFingerprint(ref.Fingerprint)
		}
		if err := s.setFields(ctx, tx, create.Mutation(), paymentRef{id: id, createdAt: now, status: paymentintent.StatusRequiresPaymentMethod}, &in.PaymentFields); err != nil {
			return err
		}
		if !in.Confirm {
			if pi, err = create.Save(ctx); err != nil {
				return txn.Error(err, "payment")
			}
			// No event says so: open dashboards are told here.
			s.events.PaymentChanged(tx, merchantID, pi.ID)
			return nil
		}
		// Confirmed at once: everything that can refuse the confirm runs
		// in this transaction too, so a refused one leaves no payment
		// behind, and the payment is inserted once, already processing,
		// from its draft. What only the authorization uses goes to it
		// directly: the card, the routing preference and the browser
		// details (the intent keeps none).
		draft, err := txn.Draft(ctx, s.db, create)
		if err != nil {
			return txn.Error(err, "payment")
		}
		confirm, err = s.prepareConfirm(ctx, tx, merchantID, draft, ConfirmInput{PaymentFields: PaymentFields{
			PaymentMethod: in.PaymentMethod, Connectors: in.Connectors,
			MerchantConnectorID: in.MerchantConnectorID, BrowserInfo: in.BrowserInfo,
		}}, create)
		return err
	})
	if err != nil {
		if e, ok := errs.As(err); ok && errors.Is(err, errs.ErrUniqueKey) && e.Field == "" {
			// The key's payment exists (made before a crash, or by another
			// request after this one's lease ended): answer with it.
			// Otherwise the payment_id is taken.
			if v, kerr := s.paymentOfKey(ctx, in.Idempotency); v != nil || kerr != nil {
				return v, kerr
			}
			return nil, errDuplicatePayment()
		}
		return nil, err
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
// created or updated (one statement either way).
func (s *Service) setFields(ctx context.Context, tx *ent.Tx, upd *ent.PaymentIntentMutation, pi paymentRef, f *PaymentFields) error {
	if f.Customer != nil {
		if err := s.setCustomer(ctx, tx, upd, pi, f.Customer); err != nil {
			return err
		}
	}
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
	if f.AmountToCapture != nil {
		upd.SetAmountToCapture(*f.AmountToCapture)
	}
	if f.MerchantReferenceID != nil {
		taken, err := tx.PaymentIntent.Query().Where(
			paymentintent.MerchantReferenceID(*f.MerchantReferenceID), paymentintent.IDNEQ(pi.id)).Exist(ctx)
		if err != nil {
			return errs.Internal(err)
		}
		if taken {
			e := errs.Duplicate("The merchant_reference_id %q is already used by another payment", *f.MerchantReferenceID)
			e.Field = "merchant_reference_id"
			return e
		}
		upd.SetMerchantReferenceID(*f.MerchantReferenceID)
	}
	if f.SessionExpiry != nil {
		upd.SetSessionExpiry(*f.SessionExpiry)
		upd.SetExpiresOn(pi.createdAt.Add(time.Duration(*f.SessionExpiry) * time.Second))
	}
	if f.ActiveAttempt != nil {
		if f.ActiveAttempt.Unset {
			upd.ClearActiveAttemptID()
		} else {
			ok, err := tx.PaymentAttempt.Query().Where(
				paymentAttemptOf(pi.id, f.ActiveAttempt.ID)...).Exist(ctx)
			if err != nil {
				return errs.Internal(err)
			}
			if !ok {
				// The body names an attempt this payment does not have: a bad
				// value in the request, not a missing path resource.
				return errs.InvalidValue("set_active_attempt_id", "the payment has no attempt %q", f.ActiveAttempt.ID)
			}
			upd.SetActiveAttemptID(f.ActiveAttempt.ID)
		}
	}
	if f.Metadata != nil {
		upd.SetMetadata(f.Metadata) // replaces the old value, as the spec says
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
	if f.PaymentMethod != nil {
		upd.SetPaymentMethod(f.PaymentMethod.Type)
		if f.PaymentMethod.Subtype != "" {
			upd.SetPaymentMethodType(f.PaymentMethod.Subtype)
		}
		if pi.status == paymentintent.StatusRequiresPaymentMethod {
			upd.SetStatus(paymentintent.StatusRequiresConfirmation)
		}
	}
	return nil
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
		cur, err := s.db.Client.PaymentIntent.Query().Where(paymentintent.PaymentID(paymentID)).Only(ctx)
		if ent.IsNotFound(err) {
			return nil, errPaymentNotFound()
		}
		if err != nil {
			return nil, errs.Internal(err)
		}
		if err := s.customers.VaultPut(ctx, merchantID, cur.ID, p.PaymentMethod, time.Until(cur.ExpiresOn)); err != nil {
			return nil, err
		}
	}
	var pi *ent.PaymentIntent
	err = s.db.InTx(ctx, func(tx *ent.Tx) error {
		cur, err := s.lockPayment(ctx, tx, paymentID)
		if err != nil {
			return err
		}
		if !statusIn(cur.Status, updatableStates...) {
			return ErrUnexpectedState("updated", cur.Status, updatableStates)
		}
		if _, err := s.lockPayer(ctx, tx, cur, p.Customer); err != nil {
			return err
		}
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
		upd := cur.Update()
		if p.Amount != nil {
			upd.SetAmount(*p.Amount)
		}
		if p.Currency != nil {
			upd.SetCurrency(schematype.Currency(*p.Currency))
		}
		if cur, err = upd.Save(ctx); err != nil {
			return txn.Error(err, "payment")
		}
		if pi, err = s.applyFields(ctx, tx, cur, &p.PaymentFields); err != nil {
			return err
		}
		s.events.PaymentChanged(tx, merchantID, pi.ID)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.GetPayment(ctx, pi.PaymentID)
}
