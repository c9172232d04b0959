package customer

import (
	"context"

	"switchyard/ent"
	"switchyard/ent/customer"
	"switchyard/ent/paymentmethod"
	"switchyard/ent/schema/schematype"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

// Saved payout methods: a payout created at its processor for a customer
// saves its recipient as one of the customer's payment methods, as
// Hyperswitch does, keeping what it keeps of a saved card: the masked
// method and the processor's recipient token, never a number. A later
// payout names it (payout_token or payout_method_id) and is paid to the
// token, through the connector account that issued it.

// PayoutMethodToKeep is a payout's recipient to save.
type PayoutMethodToKeep struct {
	// Type is the payout_type (card, bank, wallet, bank_redirect) and
	// Subtype its payout_method_type.
	Type, Subtype string
	Card          *schematype.CardDetails
	// Masked is the payout's payout_method_data.
	Masked map[string]any
	// Identity is what tells the same recipient again (a card or account
	// number, an e-mail): only its keyed fingerprint is kept.
	Identity            string
	RecipientToken      string
	MerchantConnectorID string
}

// payoutMethodMeta marks a saved method as a payout's, with its masked data.
const payoutMethodMeta = "payout_method_data"

// KeepPayoutMethod saves m for the customer whose customer_id is
// customerID inside tx, once per recipient (the same fingerprint updates
// the token), and returns its id; "" when there is no such customer.
func (s *Service) KeepPayoutMethod(ctx context.Context, tx *ent.Tx, customerID string, m PayoutMethodToKeep) (string, error) {
	c, err := tx.Customer.Query().Where(customer.CustomerID(customerID), customer.RedactedAtIsNil()).Only(ctx)
	if ent.IsNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", errs.Internal(err)
	}
	fp := s.box.Fingerprint("payout-method", m.Type, m.Identity)
	pm, err := tx.PaymentMethod.Query().Where(paymentmethod.CustomerID(c.ID), paymentmethod.Fingerprint(fp)).First(ctx)
	if err == nil {
		return pm.ID, txn.ErrorOrNil(pm.Update().SetConnectorToken(m.RecipientToken).
			SetMerchantConnectorID(m.MerchantConnectorID).SetLastUsedAt(s.db.Now()).Exec(ctx), "payment method")
	}
	if !ent.IsNotFound(err) {
		return "", errs.Internal(err)
	}
	create := tx.PaymentMethod.Create().SetCustomerID(c.ID).SetPaymentMethod(m.Type).SetPaymentMethodType(m.Subtype).
		SetFingerprint(fp).SetStatus(paymentmethod.StatusActive).SetConnectorToken(m.RecipientToken).
		SetMerchantConnectorID(m.MerchantConnectorID).SetMetadata(map[string]any{payoutMethodMeta: m.Masked})
	if m.Card != nil {
		create.SetCard(m.Card)
	}
	pm, err = create.Save(ctx)
	if err != nil {
		return "", txn.Error(err, "payment method")
	}
	return pm.ID, nil
}

// SavedPayoutMethod is the payout method id saved for the customer whose
// customer_id is customerID; another customer's, or one that is not a
// payout's, is IR_16 (payout_token invalid).
func (s *Service) SavedPayoutMethod(ctx context.Context, customerID, id string) (*ent.PaymentMethod, map[string]any, error) {
	pm, err := s.db.Client.PaymentMethod.Query().Where(paymentmethod.ID(id), paymentmethod.StatusEQ(paymentmethod.StatusActive),
		paymentmethod.HasCustomerWith(customer.CustomerID(customerID))).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil, errInvalidPayoutToken()
	}
	if err != nil {
		return nil, nil, errs.Internal(err)
	}
	masked, ok := pm.Metadata[payoutMethodMeta].(map[string]any)
	if !ok || pm.ConnectorToken == nil || pm.MerchantConnectorID == nil {
		return nil, nil, errInvalidPayoutToken()
	}
	return pm, masked, nil
}

func errInvalidPayoutToken() *errs.Error {
	return errs.ErrPaymentTokenInvalid.Newf("payout_token is invalid: it names no saved payout method of the payout's customer")
}
