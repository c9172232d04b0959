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
	if f.ThreeDSData != nil {
		sealed, err := s.sealThreeDSData(f.ThreeDSData, pi.id)
		if err != nil {
			return err
		}
		upd.SetThreeDsDataSealed(sealed)
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
	writeGiven(upd, f)
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

// writeGiven sets the members given as they are: first those that are one
// of a closed set, then the values, then the JSON documents (each replaces
// the old value, as the spec says).
func writeGiven(upd *ent.PaymentIntentMutation, f *PaymentFields) {
	txn.SetAs(f.CaptureMethod, upd.SetCaptureMethod)
	txn.SetAs(f.AuthenticationType, upd.SetAuthenticationType)
	txn.SetAs(f.SetupFutureUsage, upd.SetSetupFutureUsage)
	txn.SetAs(f.PaymentType, upd.SetPaymentType)
	txn.SetAs(f.CustomerPresent, upd.SetCustomerPresent)
	txn.SetAs(f.ApplyMitExemption, upd.SetApplyMitExemption)
	txn.SetAs(f.PaymentLinkEnabled, upd.SetPaymentLinkEnabled)
	txn.SetAs(f.SplitTxnsEnabled, upd.SetSplitTxnsEnabled)
	txn.SetAs(f.RequestIncrementalAuthorization, upd.SetRequestIncrementalAuthorization)
	txn.SetAs(f.RequestExternalThreeDSAuthentication, upd.SetRequestExternalThreeDsAuthentication)
	txn.SetAs(f.ExternalTaxCalculation, upd.SetExternalTaxCalculation)
	txn.SetAs(f.SurchargeCalculation, upd.SetSurchargeCalculation)

	txn.SetIf(f.AmountToCapture, upd.SetAmountToCapture)
	txn.SetIf(f.MerchantReferenceID, upd.SetMerchantReferenceID)
	txn.SetIf(f.MandateID, upd.SetMandateID)
	txn.SetIf(f.CaptureOn, upd.SetCaptureOn)
	txn.SetIf(f.Description, upd.SetDescription)
	txn.SetIf(f.ReturnURL, upd.SetReturnURL)
	txn.SetIf(f.StatementDescriptor, upd.SetStatementDescriptor)
	txn.SetIf(f.IntentStatementDescriptor, upd.SetStatementDescriptor)
	txn.SetIf(f.StatementDescriptorSuffix, upd.SetStatementDescriptorSuffix)
	txn.SetIf(f.MerchantOrderReferenceID, upd.SetMerchantOrderReferenceID)
	txn.SetIf(f.OffSession, upd.SetOffSession)
	txn.SetIf(f.ShippingCost, upd.SetShippingCost)
	txn.SetIf(f.OrderTaxAmount, upd.SetOrderTaxAmount)
	txn.SetIf(f.SurchargeAmount, upd.SetSurchargeAmount)
	txn.SetIf(f.TaxOnSurcharge, upd.SetTaxOnSurcharge)
	txn.SetIf(f.BusinessCountry, upd.SetBusinessCountry)
	txn.SetIf(f.BusinessLabel, upd.SetBusinessLabel)
	txn.SetIf(f.BusinessSubLabel, upd.SetBusinessSubLabel)
	txn.SetIf(f.EnablePartialAuthorization, upd.SetEnablePartialAuthorization)
	txn.SetIf(f.RequestExtendedAuthorization, upd.SetRequestExtendedAuthorization)
	txn.SetIf(f.EnableOvercapture, upd.SetEnableOvercapture)
	txn.SetIf(f.Force3DSChallenge, upd.SetForce3dsChallenge)
	txn.SetIf(f.IsIframeRedirectionEnabled, upd.SetIsIframeRedirectionEnabled)
	txn.SetIf(f.RoutingAlgorithmID, upd.SetRoutingAlgorithmID)

	txn.SetGiven(f.Metadata, upd.SetMetadata)
	txn.SetGiven(f.ConnectorMetadata, upd.SetConnectorMetadata)
	txn.SetGiven(f.FeatureMetadata, upd.SetFeatureMetadata)
	txn.SetGiven(f.FrmMetadata, upd.SetFrmMetadata)
	txn.SetGiven(f.PaymentLinkConfig, upd.SetPaymentLinkConfig)
	txn.SetGiven(f.Billing, upd.SetBilling)
	txn.SetGiven(f.Shipping, upd.SetShipping)
	txn.SetGiven(f.OrderDetails, upd.SetOrderDetails)
	txn.SetGiven(f.AllowedPaymentMethodTypes, upd.SetAllowedPaymentMethodTypes)
	if f.Mandate != nil {
		upd.SetMandateData(f.Mandate.AsMap())
	}
	if f.CustomerAcceptance != nil {
		upd.SetCustomerAcceptance(f.CustomerAcceptance.AsMap())
	}
}
