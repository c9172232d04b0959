package routing

import (
	"context"
	"strings"

	"switchyard/ent"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/ent/paymentintent"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

// Feedback is Hyperswitch's UpdateScorePayload: a payment's outcome on a
// connector account, fed back to the profile's dynamic routing by the
// merchant (POST /routing/feedback).
type Feedback struct {
	// ProfileID is the profile whose routing learns it (the payload's
	// merchantId, which Hyperswitch documents as the profile id).
	ProfileID string
	// Gateway is "<connector>:<merchant_connector_id>", or the account id alone.
	Gateway   string
	Status    string // TxnStatus
	PaymentID string
}

// feedbackOutcome is what a TxnStatus says of the connector, as
// AttemptOutcome reads an attempt's status: success for an authorization
// or charge, failure for a decline or a failed authentication, neither for
// the states in between (which are not recorded).
func feedbackOutcome(status string) (success, failure bool, err error) {
	switch status {
	case "AUTHORIZED", "CHARGED", "PARTIAL_CHARGED", "V_B_V_SUCCESSFUL", "AUTO_REFUNDED", "VOIDED_POST_CHARGE":
		return true, false, nil
	case "AUTHENTICATION_FAILED", "JUSPAY_DECLINED", "AUTHORIZATION_FAILED", "FAILURE", "DECLINED":
		return false, true, nil
	case "STARTED", "PENDING_VBV", "AUTHORIZING", "C_O_D_INITIATED", "VOIDED", "VOID_INITIATED", "NOP",
		"CAPTURE_INITIATED", "CAPTURE_FAILED", "VOID_FAILED", "TO_BE_CHARGED", "PENDING":
		return false, false, nil
	}
	return false, false, errs.InvalidValue("status", "is not a TxnStatus: %q", status)
}

// RecordFeedback records f's outcome in the profile's dynamic routing
// windows, as an attempt's own outcome is recorded: the profile must be
// the caller's, the gateway one of its connector accounts and the payment
// one of the merchant's. A status that is no verdict records nothing.
func (s *Service) RecordFeedback(ctx context.Context, f Feedback) error {
	if f.Status == "" {
		return errs.MissingField("status")
	}
	success, failure, err := feedbackOutcome(f.Status)
	if err != nil {
		return err
	}
	for _, m := range []struct{ name, value string }{{"merchantId", f.ProfileID}, {"gateway", f.Gateway}, {"paymentId", f.PaymentID}} {
		if m.value == "" {
			return errs.MissingField(m.name)
		}
	}
	prof, err := txn.Profile(ctx, s.db.Client, &f.ProfileID)
	if err != nil {
		return err
	}
	accountID := f.Gateway
	if _, id, ok := strings.Cut(f.Gateway, ":"); ok {
		accountID = id
	}
	found, err := s.db.Client.MerchantConnectorAccount.Query().Where(merchantconnectoraccount.ID(accountID),
		merchantconnectoraccount.ProfileID(prof.ID)).Exist(ctx)
	if err != nil {
		return errs.Internal(err)
	}
	if !found {
		return errs.NotFound("Merchant connector account").WithField("gateway")
	}
	if err := paymentExists(ctx, s.db.Client, f.PaymentID); err != nil {
		return err
	}
	s.RecordOutcome(ctx, prof.ID, accountID, success, failure)
	return nil
}

func paymentExists(ctx context.Context, db *ent.Client, paymentID string) error {
	found, err := db.PaymentIntent.Query().Where(paymentintent.ID(paymentID)).Exist(ctx)
	if err != nil {
		return errs.Internal(err)
	}
	if !found {
		return errs.NotFound("Payment").WithField("paymentId")
	}
	return nil
}
