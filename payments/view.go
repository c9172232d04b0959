package payments

import (
	"context"
	"encoding/json"
	"strings"

	"switchyard/ent"
	"switchyard/ent/capture"
	"switchyard/ent/customer"
	"switchyard/ent/dispute"
	"switchyard/ent/incrementalauthorization"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentintent"
	"switchyard/ent/predicate"
	"switchyard/ent/refund"
	"switchyard/internal/tenancy"
	"switchyard/payments/connector"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

// PaymentView is a payment with everything its wire record shows. REST and
// GraphQL map it onto their shapes; one mapping per surface.
type PaymentView struct {
	Intent   *ent.PaymentIntent
	Customer *ent.Customer
	// Attempts, Captures, Refunds, Disputes and IncrementalAuthorizations
	// are oldest first.
	Attempts                  []*ent.PaymentAttempt
	Captures                  []*ent.Capture
	Refunds                   []*ent.Refund
	Disputes                  []*ent.Dispute
	IncrementalAuthorizations []*ent.IncrementalAuthorization
	// Active is the attempt the intent's outcome comes from, if any.
	Active *ent.PaymentAttempt
	// readInTx marks a view read through a transaction (see viewOr).
	readInTx bool
	// rendered is what the events renderer made of the view for the event
	// its transaction wrote (see Rendered).
	rendered json.RawMessage
}

// Rendered is the JSON the events renderer made of v for the event the
// request's own transaction wrote, or nil: the response to that request is
// the same object, and need not be rendered twice.
func (v *PaymentView) Rendered() json.RawMessage { return v.rendered }

// AmountReceived is what has been captured (Hyperswitch's amount_received).
func (v *PaymentView) AmountReceived() int64 { return v.Intent.AmountCaptured }

// Received is amount_received as Hyperswitch shows it: nil until a capture
// has succeeded (its amount_captured is unset until then), the captured
// amount after.
func (v *PaymentView) Received() *int64 {
	for _, c := range v.Captures {
		if c.Status == capture.StatusCharged {
			n := v.Intent.AmountCaptured
			return &n
		}
	}
	return nil
}

// NextAction is what the customer must do, when the payment waits for
// them: Hyperswitch's NextActionData (redirect_to_url,
// display_bank_transfer_information or display_voucher_information).
func (v *PaymentView) NextAction() map[string]any {
	if v.Active == nil || v.Intent.Status != paymentintent.StatusRequiresCustomerAction || len(v.Active.NextAction) == 0 {
		return nil
	}
	return v.Active.NextAction
}

// ManualRetryAllowed is manual_retry_allowed: whether the customer may try
// the payment again (manualRetryAllowed), nil while it still waits.
func (v *PaymentView) ManualRetryAllowed() *bool {
	return manualRetryAllowed(v.Intent.Status, v.Active)
}

// NextActionURL is the page the customer must visit, when one is pending.
func (v *PaymentView) NextActionURL() string {
	u, _ := v.NextAction()["redirect_to_url"].(string)
	return u
}

// GetPayment returns one payment of the merchant in ctx by its payment_id.
func (s *Service) GetPayment(ctx context.Context, paymentID string) (*PaymentView, error) {
	pi, err := s.db.Client.PaymentIntent.Query().Where(paymentWhere(ctx, paymentID)...).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, errPaymentNotFound()
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	views, err := s.LoadViews(ctx, []*ent.PaymentIntent{pi})
	if err != nil {
		return nil, err
	}
	return views[0], nil
}

// viewOr answers a state change: with v, the view its event was rendered
// from inside its (now committed) transaction, or, when it wrote no event,
// the payment read again.
func (s *Service) viewOr(ctx context.Context, v *PaymentView, paymentID string) (*PaymentView, error) {
	if v == nil {
		return s.GetPayment(ctx, paymentID)
	}
	if !v.readInTx {
		return v, nil
	}
	// The rows were read through the transaction: later reads of their
	// edges (GraphQL's nested fields) go through the client instead.
	v.readInTx = false
	v.Intent = v.Intent.Unwrap()
	if v.Customer != nil {
		v.Customer = v.Customer.Unwrap()
	}
	unwrapAll(v.Attempts)
	unwrapAll(v.Captures)
	unwrapAll(v.Refunds)
	unwrapAll(v.Disputes)
	unwrapAll(v.IncrementalAuthorizations)
	return v, nil
}

// unwrapAll unwraps entities read in a transaction that has ended.
func unwrapAll[E interface{ Unwrap() E }](rows []E) {
	for i := range rows {
		rows[i] = rows[i].Unwrap()
	}
}

// RetrieveInput is what GET /payments/{id} may add to the read.
type RetrieveInput struct {
	// ClientSecret is required when the caller holds only the publishable key.
	ClientSecret *string
	// ForceSync asks the connector first, for a payment whose attempt is
	// still pending (Hyperswitch's force_sync): its answer is recorded before
	// the payment is shown.
	ForceSync bool
}

// RetrievePayment is GET /payments/{id}: GetPayment, with the client
// secret checked for a publishable key, after a sync when asked.
func (s *Service) RetrievePayment(ctx context.Context, paymentID string, in RetrieveInput) (*PaymentView, error) {
	v, err := s.GetPayment(ctx, paymentID)
	if err != nil {
		return nil, err
	}
	if err := s.checkClientSecret(ctx, v.Intent, in.ClientSecret); err != nil {
		return nil, err
	}
	if !in.ForceSync || v.Intent.Status != paymentintent.StatusProcessing {
		return v, nil
	}
	if err := s.syncPayment(ctx, v.Intent, s.recoveryAfter); err != nil {
		return nil, err
	}
	return s.GetPayment(ctx, paymentID)
}

// NetAmount is the order amount plus shipping, order tax and surcharge.
func (v *PaymentView) NetAmount() int64 { return netAmount(v.Intent) }

// paymentWhere selects a payment of the merchant in ctx by its payment_id,
// and only in the caller's profile when the principal names one
// (X-Profile-Id): another profile's payment is not found, like a foreign id.
func paymentWhere(ctx context.Context, paymentID string) []predicate.PaymentIntent {
	return txn.InProfile(ctx, paymentintent.ProfileID, paymentintent.PaymentID(paymentID))
}

func errPaymentNotFound() *errs.Error {
	return errs.NotFound("Payment")
}

// LoadViews loads the nested records of many payments with one query per
// kind, whatever their number (no N+1); the kinds are read concurrently
// where the database allows (runReads).
func (s *Service) LoadViews(ctx context.Context, intents []*ent.PaymentIntent) ([]*PaymentView, error) {
	return s.loadViews(ctx, s.db.Client, intents)
}

// loadViews reads through db, which may be a transaction's client.
func (s *Service) loadViews(ctx context.Context, db *ent.Client, intents []*ent.PaymentIntent) ([]*PaymentView, error) {
	views := make([]*PaymentView, len(intents))
	byID := make(map[string]*PaymentView, len(intents))
	ids := make([]string, len(intents))
	var customerIDs []string
	for i, pi := range intents {
		views[i] = &PaymentView{Intent: pi}
		byID[pi.ID] = views[i]
		ids[i] = pi.ID
		if pi.CustomerID != nil {
			customerIDs = append(customerIDs, *pi.CustomerID)
		}
	}
	if len(intents) == 0 {
		return views, nil
	}
	var n nestedRecords
	if err := s.db.RunReads(db, n.reads(ctx, db, ids, customerIDs)); err != nil {
		return nil, errs.Internal(err)
	}
	n.attach(views, byID)
	return views, nil
}

// nestedRecords are the records shown inside the payments of a page, each
// kind read with one query.
type nestedRecords struct {
	attempts []*ent.PaymentAttempt
	captures []*ent.Capture
	refunds  []*ent.Refund
	disputes []*ent.Dispute
	incs     []*ent.IncrementalAuthorization
	custs    []*ent.Customer
}

// reads are the queries that fill n for the payments with row ids ids and
// the customers with row ids customerIDs, oldest first.
func (n *nestedRecords) reads(ctx context.Context, db *ent.Client, ids, customerIDs []string) []func() error {
	loads := []func() error{
		txn.ReadInto(ctx, &n.attempts, db.PaymentAttempt.Query().Where(paymentattempt.PaymentIntentIDIn(ids...)).
			Order(ent.Asc(paymentattempt.FieldCreatedAt), ent.Asc(paymentattempt.FieldID)).All),
		txn.ReadInto(ctx, &n.captures, db.Capture.Query().Where(capture.PaymentIntentIDIn(ids...)).
			Order(ent.Asc(capture.FieldCaptureSequence)).All),
		txn.ReadInto(ctx, &n.refunds, db.Refund.Query().Where(refund.PaymentIntentIDIn(ids...)).
			Order(ent.Asc(refund.FieldCreatedAt), ent.Asc(refund.FieldID)).All),
		txn.ReadInto(ctx, &n.disputes, db.Dispute.Query().Where(dispute.PaymentIntentIDIn(ids...)).
			Order(ent.Asc(dispute.FieldCreatedAt), ent.Asc(dispute.FieldID)).All),
		txn.ReadInto(ctx, &n.incs, db.IncrementalAuthorization.Query().
			Where(incrementalauthorization.PaymentIntentIDIn(ids...)).
			Order(ent.Asc(incrementalauthorization.FieldCreatedAt)).All),
	}
	if len(customerIDs) > 0 {
		loads = append(loads, txn.ReadInto(ctx, &n.custs, db.Customer.Query().Where(customer.IDIn(customerIDs...)).All))
	}
	return loads
}

// attach puts each record into the view of its payment (byID, by row id),
// in the order read, and marks each view's active attempt.
func (n *nestedRecords) attach(views []*PaymentView, byID map[string]*PaymentView) {
	for _, a := range n.attempts {
		v := byID[a.PaymentIntentID]
		v.Attempts = append(v.Attempts, a)
		if v.Intent.ActiveAttemptID != nil && *v.Intent.ActiveAttemptID == a.ID {
			v.Active = a
		}
	}
	for _, c := range n.captures {
		byID[c.PaymentIntentID].Captures = append(byID[c.PaymentIntentID].Captures, c)
	}
	for _, r := range n.refunds {
		byID[r.PaymentIntentID].Refunds = append(byID[r.PaymentIntentID].Refunds, r)
	}
	for _, d := range n.disputes {
		byID[d.PaymentIntentID].Disputes = append(byID[d.PaymentIntentID].Disputes, d)
	}
	for _, inc := range n.incs {
		byID[inc.PaymentIntentID].IncrementalAuthorizations = append(byID[inc.PaymentIntentID].IncrementalAuthorizations, inc)
	}
	byCustomer := make(map[string]*ent.Customer, len(n.custs))
	for _, c := range n.custs {
		byCustomer[c.ID] = c
	}
	for _, v := range views {
		if v.Intent.CustomerID != nil {
			v.Customer = byCustomer[*v.Intent.CustomerID]
		}
	}
}

// CheckoutSavedMethods are the saved methods of the customer of the payment
// a client secret belongs to (GET /customers/payment_methods with the
// publishable key): the checkout shows them to its shopper.
func (s *Service) CheckoutSavedMethods(ctx context.Context, clientSecret string) (*ent.Customer, []*ent.PaymentMethod, error) {
	pi, err := s.paymentOfClientSecret(ctx, clientSecret)
	if err != nil {
		return nil, nil, err
	}
	return s.customers.PaymentCustomerMethods(ctx, pi)
}

// paymentOfClientSecret is the payment a client secret belongs to (its
// id is the secret's prefix), held to the secret as a confirm is. An
// unknown payment answers as a wrong secret does: it tells nothing.
func (s *Service) paymentOfClientSecret(ctx context.Context, secret string) (*ent.PaymentIntent, error) {
	if secret == "" {
		return nil, errs.ErrClientSecretMissing.New()
	}
	paymentID, _, _ := strings.Cut(secret, "_secret_")
	pi, err := s.db.Client.PaymentIntent.Query().Where(paymentWhere(ctx, paymentID)...).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, errWrongClientSecret()
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	return pi, s.checkClientSecret(ctx, pi, &secret)
}

// CheckoutMethods are the payment methods a checkout may offer: for a
// payment (Payment set) those its profile's connector accounts enable for
// its amount, currency and billing country; without one, those the
// merchant's accounts enable for the filter given.
type CheckoutMethods struct {
	Payment *ent.PaymentIntent
	Methods []*connector.EligibleMethod
}

// ListCheckoutMethods answers GET /account/payment_methods. With a client
// secret (required with the publishable key) the payment sets the filter;
// the query's filter narrows further.
func (s *Service) ListCheckoutMethods(ctx context.Context, clientSecret *string, f connector.MethodFilter) (*CheckoutMethods, error) {
	p, _ := tenancy.FromContext(ctx)
	if clientSecret == nil && p.ClientOnly {
		return nil, errs.ErrClientSecretMissing.New()
	}
	var out CheckoutMethods
	if clientSecret != nil {
		pi, err := s.paymentOfClientSecret(ctx, *clientSecret)
		if err != nil {
			return nil, err
		}
		out.Payment, f = pi, paymentMethodFilter(pi, f)
	}
	methods, err := s.connectors.EligibleMethods(ctx, f)
	if err != nil {
		return nil, err
	}
	out.Methods = methods
	return &out, nil
}
