package payments

// A payment's fields as a create, an update or a confirm sets them: the
// database checks first (customer, reference, attempt), then the pure
// writeFields.

import (
	"context"
	"time"

	"switchyard/ent"
	"switchyard/ent/paymentintent"
	"switchyard/ent/schema/schematype"
	"switchyard/payments/customer"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

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
