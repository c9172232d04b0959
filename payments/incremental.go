package payments

import (
	"context"
	"time"

	"switchyard/ent"
	"switchyard/ent/incrementalauthorization"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentintent"
	"switchyard/internal/ids"
	"switchyard/payments/connector"
	"switchyard/payments/connectorcall"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// maxIncrementReason bounds an increment's reason, which travels to the
// connector only (the row has no column for it).
const maxIncrementReason = 255

// IncrementInput raises an authorized payment's amount: Amount is the new
// total (Hyperswitch's PaymentsIncrementalAuthorizationRequest).
type IncrementInput struct {
	Amount int64
	Reason *string
}

// incrementableStates are the states an increment takes (Hyperswitch:
// requires_capture only).
var incrementableStates = []paymentintent.Status{paymentintent.StatusRequiresCapture}

// IncrementAuthorization raises the authorization of a payment in
// requires_capture to a new total. The increment is recorded processing
// before the connector is called (a connectorcall.Call); approved, the
// payment's amount and amount_capturable grow by the difference, declined
// the payment stays as it was and the increment records why. Either way
// the answer is the payment, its incremental_authorizations listing each.
func (s *Service) IncrementAuthorization(ctx context.Context, paymentID string, in IncrementInput) (*PaymentView, error) {
	if err := validate.MaxLen("reason", in.Reason, maxIncrementReason); err != nil {
		return nil, err
	}
	c := incrementCall{paymentID: paymentID, reason: deref(in.Reason)}
	call := s.incrementCall(&c)
	call.Reserve = func(ctx context.Context, tx *ent.Tx) (bool, error) {
		return true, s.reserveIncrement(ctx, tx, paymentID, in, &c)
	}
	if _, err := call.Run(ctx, s.db); err != nil {
		return nil, err
	}
	return s.GetPayment(ctx, paymentID)
}

// incrementCall is one increment's connector call: the payment, its
// attempt and account, and the processing increment.
type incrementCall struct {
	callTarget
	paymentID string
	reason    string
	inc       *ent.IncrementalAuthorization
}

func (s *Service) incrementCall(c *incrementCall) connectorcall.Call[*connector.IncrementResult] {
	return connectorcall.Call[*connector.IncrementResult]{
		Connect: func() (connector.Connector, connector.Account, error) { return s.connectorFor(c.pi, c.att, c.mca) },
		Call: func(ctx context.Context, conn connector.Connector, acct connector.Account) (*connector.IncrementResult, error) {
			a, ok := connector.SupportsAuthorizationChanges(conn)
			if !ok { // checked at reserve; a connector that lost it answers so
				return &connector.IncrementResult{Status: connector.StatusFailure, Decline: &connector.Decline{
					Code: "not_supported", Message: "The connector does not take incremental authorizations."}}, nil
			}
			return a.IncrementAuthorization(ctx, &connector.IncrementRequest{Account: acct,
				ConnectorTransactionID: deref(c.att.ConnectorTransactionID), IncrementID: c.inc.ID,
				Amount: c.inc.Amount, Currency: string(c.att.Currency), Reason: c.reason,
				ConnectorMetadata: c.att.ConnectorMetadata})
		},
		Sync: func(ctx context.Context, conn connector.Connector, acct connector.Account) (*connector.IncrementResult, error) {
			a, ok := connector.SupportsAuthorizationChanges(conn)
			if !ok {
				return nil, connector.ErrTransactionNotFound
			}
			return a.SyncIncrement(ctx, &connector.IncrementSyncRequest{Account: acct,
				ConnectorTransactionID: deref(c.att.ConnectorTransactionID), IncrementID: c.inc.ID})
		},
		Synced: syncedIncrement,
		Settle: func(ctx context.Context, tx *ent.Tx, res *connector.IncrementResult, callErr error) error {
			return s.settleIncrement(ctx, tx, c.paymentID, c.inc.ID, res, callErr)
		},
	}
}

// syncedIncrement is what recovery records for a sync of a processing
// increment: one the connector never saw was declined, moving nothing.
func syncedIncrement(res *connector.IncrementResult, err error) (*connector.IncrementResult, bool) {
	return connectorcall.SyncedAnswer(res, err, func(r *connector.IncrementResult) bool { return r.Status == connector.StatusPending },
		func() *connector.IncrementResult {
			d := neverSentDecline
			return &connector.IncrementResult{Status: connector.StatusFailure, Decline: &d}
		})
}

// decideIncrement says why an increment of pi (its active attempt att) to
// in.Amount is refused, or nil. supported: the attempt's connector takes
// increments; inFlight: an increment of the payment is still processing.
func decideIncrement(pi *ent.PaymentIntent, att *ent.PaymentAttempt, in IncrementInput, supported, inFlight bool) error {
	if !statusIn(pi.Status, incrementableStates...) || att == nil {
		return ErrUnexpectedState("incrementally authorized", pi.Status, incrementableStates)
	}
	if pi.RequestIncrementalAuthorization != paymentintent.RequestIncrementalAuthorizationTrue || !supported {
		return errs.PreconditionFailed("You cannot increment authorization this payment because it is not allowed for incremental_authorization")
	}
	if in.Amount <= pi.Amount {
		return errs.PreconditionFailed("Amount should be greater than original authorized amount")
	}
	// A capture holds a reservation and a cancel marks the attempt; an
	// increment in flight has not settled what the total is.
	if inFlight || att.Status == paymentattempt.StatusVoidInitiated || pi.AmountCaptured+pi.AmountCapturable < att.NetAmount {
		return errs.ErrUnexpectedState.Newf("This Payment could not be incrementally authorized: a capture, a cancel or another increment is in progress")
	}
	return nil
}

// incrementSupported reports whether att's connector account takes
// increments, and only for cards (the payment method Hyperswitch offers it
// for).
func (s *Service) incrementSupported(pi *ent.PaymentIntent, att *ent.PaymentAttempt, mca *ent.MerchantConnectorAccount) bool {
	if deref(att.PaymentMethod) != string(connector.MethodCard) {
		return false
	}
	conn, _, err := s.connectorFor(pi, att, mca)
	if err != nil {
		return false
	}
	_, ok := connector.SupportsAuthorizationChanges(conn)
	return ok
}

// reserveIncrement is an increment's reserve step, inside tx: it locks the
// payment, checks the increment may be made (decideIncrement) and records
// it processing.
func (s *Service) reserveIncrement(ctx context.Context, tx *ent.Tx, paymentID string, in IncrementInput, c *incrementCall) (err error) {
	if c.pi, err = s.lockPayment(ctx, tx, paymentID); err != nil {
		return err
	}
	if !statusIn(c.pi.Status, incrementableStates...) || c.pi.ActiveAttemptID == nil {
		return ErrUnexpectedState("incrementally authorized", c.pi.Status, incrementableStates)
	}
	if c.att, err = tx.PaymentAttempt.Get(ctx, *c.pi.ActiveAttemptID); err != nil {
		return errs.Internal(err)
	}
	if c.att.MerchantConnectorID == nil {
		return errs.Internal(nil)
	}
	if c.mca, err = tx.MerchantConnectorAccount.Query().
		Where(merchantconnectoraccount.ID(*c.att.MerchantConnectorID)).Only(ctx); err != nil {
		return errs.Internal(err)
	}
	inFlight, err := tx.IncrementalAuthorization.Query().Where(incrementalauthorization.PaymentIntentID(c.pi.ID),
		incrementalauthorization.StatusEQ(incrementalauthorization.StatusProcessing)).Exist(ctx)
	if err != nil {
		return errs.Internal(err)
	}
	if err := decideIncrement(c.pi, c.att, in, s.incrementSupported(c.pi, c.att, c.mca), inFlight); err != nil {
		return err
	}
	c.inc, err = tx.IncrementalAuthorization.Create().
		SetID(ids.New(ids.IncrementalAuthorization)).
		SetPaymentIntentID(c.pi.ID).
		SetAttemptID(c.att.ID).
		SetAmount(in.Amount).
		SetPreviouslyAuthorizedAmount(c.pi.Amount).
		SetStatus(incrementalauthorization.StatusProcessing).
		Save(ctx)
	return txn.ErrorOrNil(err, "incremental authorization")
}

const noIncrementAnswerMessage = "the connector did not answer; the increment will be synced"

// settleIncrement is an increment's settle step, inside tx: approved, the
// payment and its attempt grow by the difference (amount, net amount and
// amount_capturable) and the authorization count goes up; declined, the
// increment records the decline; unanswered, it stays processing for a
// sync. An increment no longer processing was settled already.
func (s *Service) settleIncrement(ctx context.Context, tx *ent.Tx, paymentID, incID string,
	res *connector.IncrementResult, callErr error) error {
	pi, inc, late, err := lockPending(ctx, s, tx, paymentID, "incremental authorization", incID, callErr,
		tx.IncrementalAuthorization.Get, func(i *ent.IncrementalAuthorization) bool {
			return i.Status == incrementalauthorization.StatusProcessing
		})
	if late || err != nil {
		return err
	}
	upd := inc.Update()
	switch {
	case callErr != nil:
		_, err := upd.SetErrorMessage(noIncrementAnswerMessage).Save(ctx)
		return txn.ErrorOrNil(err, "incremental authorization")
	case res.Status == connector.StatusPending:
		return nil
	case res.Status != connector.StatusCharged:
		upd.SetStatus(incrementalauthorization.StatusFailure)
		if d := res.Decline; d != nil {
			upd.SetErrorCode(d.Code).SetErrorMessage(d.Message)
		}
		_, err := upd.Save(ctx)
		return txn.ErrorOrNil(err, "incremental authorization")
	}
	if _, err := upd.SetStatus(incrementalauthorization.StatusSuccess).ClearErrorMessage().
		SetNillableConnectorAuthorizationID(validate.NonEmpty(res.ConnectorAuthorizationID)).Save(ctx); err != nil {
		return txn.Error(err, "incremental authorization")
	}
	added := inc.Amount - inc.PreviouslyAuthorizedAmount
	count := 1
	if pi.AuthorizationCount != nil {
		count = *pi.AuthorizationCount
	}
	pi, err = pi.Update().SetAmount(inc.Amount).AddAmountCapturable(added).
		SetAuthorizationCount(count + 1).AddVersion(1).Save(ctx)
	if err != nil {
		return txn.Error(err, "payment")
	}
	attUpd := tx.PaymentAttempt.UpdateOneID(inc.AttemptID).AddAmount(added).AddNetAmount(added).
		SetAmountCapturable(pi.AmountCapturable)
	if res.ConnectorMetadata != nil {
		attUpd.SetConnectorMetadata(res.ConnectorMetadata)
	}
	_, err = attUpd.Save(ctx)
	return txn.ErrorOrNil(err, "payment attempt")
}

// recoverIncrements settles the increments left processing before cutoff
// (RecoverStranded's sweep).
func (s *Service) recoverIncrements(ctx context.Context, cutoff time.Time, limit int) (int, error) {
	incs, err := s.db.Client.IncrementalAuthorization.Query().
		Where(incrementalauthorization.StatusEQ(incrementalauthorization.StatusProcessing),
			incrementalauthorization.ModifiedAtLT(cutoff)).
		Order(ent.Asc(incrementalauthorization.FieldModifiedAt)).Limit(limit).All(ctx)
	return connectorcall.RecoverEach(ctx, incs, err, func(i *ent.IncrementalAuthorization) (string, string) { return i.MerchantID, i.ID },
		recoverOn(s, func(i *ent.IncrementalAuthorization) string { return i.AttemptID },
			func(t callTarget, i *ent.IncrementalAuthorization) connectorcall.Call[*connector.IncrementResult] {
				return s.incrementCall(&incrementCall{callTarget: t, paymentID: t.pi.PaymentID, inc: i})
			}))
}

// IncrementalAuthorizationAllowed is the payment's
// incremental_authorization_allowed: once an attempt exists, whether its
// authorization can be incremented (asked for, and a card: the payment
// method the sandbox's connectors increment); nil before.
func (v *PaymentView) IncrementalAuthorizationAllowed() *bool {
	if v.Active == nil {
		return nil
	}
	allowed := v.Intent.RequestIncrementalAuthorization == paymentintent.RequestIncrementalAuthorizationTrue &&
		deref(v.Active.PaymentMethod) == string(connector.MethodCard)
	return &allowed
}
