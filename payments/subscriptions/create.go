package subscriptions

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"switchyard/ent"
	"switchyard/ent/billingsubscription"
	"switchyard/ent/coupon"
	"switchyard/ent/migrate"
	"switchyard/ent/schema/schematype"
	"switchyard/internal/ids"
	"switchyard/payments"
	"switchyard/payments/customer"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// CreateInput creates a subscription: POST /subscriptions/create, and with
// Confirm POST /subscriptions (create and confirm).
type CreateInput struct {
	// ProfileID is the profile the subscription belongs to (X-Profile-Id);
	// the caller's, then the merchant's default, when nil.
	ProfileID           *string
	MerchantReferenceID *string
	ItemPriceID         string
	PlanID              *string
	CouponCode          *string
	CustomerID          string
	Billing, Shipping   *schematype.AddressWrapper
	// Payment is payment_details, as a payment's create or confirm reads it
	// (its return_url among them).
	Payment payments.PaymentFields
	// TestClockID attaches the subscription to a test clock (Switchyard's
	// extension): its time is then the clock's.
	TestClockID *string
	Metadata    map[string]any
	// Confirm pays the first invoice at once with Payment's method.
	Confirm bool
	// Idempotency is the request's Idempotency-Key: the subscription is
	// bound to it, so a retry after a crash finds it instead of making
	// another.
	Idempotency *payments.IdempotencyRef
}

// plan is a price with its item and the coupon a subscription carries.
type plan struct {
	item   *ent.SubscriptionItem
	price  *ent.ItemPrice
	coupon *ent.Coupon
}

// subscriptionColumns are the sizes of the members a subscription keeps.
var subscriptionColumns = validate.ColumnsOf(migrate.SubscriptionsTable, billingsubscription.FieldMerchantReferenceID,
	billingsubscription.FieldItemPriceID, billingsubscription.FieldPlanID, billingsubscription.FieldCouponCode,
	billingsubscription.FieldCustomerID, billingsubscription.FieldTestClockID, billingsubscription.FieldReturnURL)

func (in *CreateInput) check() error {
	switch {
	case in.ItemPriceID == "":
		return errs.MissingField("item_price_id")
	case in.CustomerID == "":
		return errs.MissingField("customer_id")
	}
	c := subscriptionColumns
	return validate.Lengths(c.Length("merchant_reference_id", in.MerchantReferenceID),
		c.Length("item_price_id", &in.ItemPriceID), c.Length("plan_id", in.PlanID), c.Length("coupon_code", in.CouponCode),
		c.Length("customer_id", &in.CustomerID), c.Length("test_clock_id", in.TestClockID),
		validate.Length{Field: "payment_details.return_url", Value: in.Payment.ReturnURL, Max: c["return_url"]})
}

// Create makes a subscription (created), its first invoice (its amount the
// price less the coupon's discount; nothing while a trial lasts) and the
// payment that pays it, set up to keep the payment method for renewals
// (setup_future_usage off_session, a mandate). With Confirm the payment is
// confirmed too and its outcome applied (activeOf).
func (s *Service) Create(ctx context.Context, in CreateInput) (*View, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	if _, err := txn.Merchant(ctx); err != nil {
		return nil, err
	}
	if sub, err := s.subscriptionOfKey(ctx, in.Idempotency); sub != nil || err != nil {
		if err != nil {
			return nil, err
		}
		return s.finishCreate(ctx, sub, &in)
	}
	p, err := s.planOf(ctx, in.ItemPriceID, in.PlanID, in.CouponCode)
	if err != nil {
		return nil, err
	}
	if _, err := s.customers.GetCustomer(ctx, in.CustomerID); err != nil {
		return nil, err
	}
	now, err := s.timeOf(ctx, in.TestClockID)
	if err != nil {
		return nil, err
	}
	prof, err := txn.Profile(ctx, s.db.Client, in.ProfileID)
	if err != nil {
		return nil, err
	}
	var sub *ent.BillingSubscription
	err = s.db.InTx(ctx, func(tx *ent.Tx) error {
		sub, err = s.insertSubscription(ctx, tx, prof.ID, p, &in, now)
		return err
	})
	if err != nil {
		if errors.Is(err, errs.ErrUniqueKey) && in.Idempotency != nil {
			// Another request with the key made it first.
			if sub, kerr := s.subscriptionOfKey(ctx, in.Idempotency); sub != nil || kerr != nil {
				if kerr != nil {
					return nil, kerr
				}
				return s.finishCreate(ctx, sub, &in)
			}
		}
		return nil, err
	}
	return s.finishCreate(ctx, sub, &in)
}

// insertSubscription writes the subscription, its first invoice and the
// subscription_created event in tx.
func (s *Service) insertSubscription(ctx context.Context, tx *ent.Tx, profileID string, p *plan, in *CreateInput, now time.Time) (*ent.BillingSubscription, error) {
	id := ids.New(ids.Subscription)
	create := tx.BillingSubscription.Create().SetID(id).SetProfileID(profileID).SetCustomerID(in.CustomerID).
		SetNillableMerchantReferenceID(in.MerchantReferenceID).SetPlanID(p.item.ID).SetItemPriceID(p.price.ID).
		SetNillableCouponCode(in.CouponCode).SetBilling(addressMap(in.Billing)).SetShipping(addressMap(in.Shipping)).
		SetNillableReturnURL(in.Payment.ReturnURL).SetNillableTestClockID(in.TestClockID).SetMetadata(in.Metadata).
		SetClientSecret(ids.ClientSecret(id)).SetStatus(billingsubscription.StatusCreated)
	if ref := in.Idempotency; ref != nil {
		create.SetIdempotencyKey(ref.Key).SetIdempotencyFingerprint(ref.Fingerprint)
	}
	end := trialEnd(p.price, now, nil)
	create.SetNillableTrialEnd(end)
	sub, err := create.Save(ctx)
	if err != nil {
		return nil, txn.Error(err, "subscription")
	}
	c, until := p.first(now, end)
	if _, err := s.insertInvoice(ctx, tx, sub, c, p.price.Currency, now, until); err != nil {
		return nil, err
	}
	return sub, s.emit(ctx, tx, sub, subscriptionCreated)
}

// first is the first invoice of a subscription to p starting at now, and
// when its period ends: the trial's (nothing to charge: its payment sets
// up the mandate renewals are charged with) until trial, when there is one.
func (p *plan) first(now time.Time, trial *time.Time) (charge, time.Time) {
	if trial == nil {
		return chargeFor(p.item, p.price, p.coupon, 0, nil), periodEnd(p.price, now)
	}
	lines := []LineItem{{ItemID: p.price.ID, ItemType: "trial", Description: p.item.Name + " (trial)",
		Currency: string(p.price.Currency), Quantity: 1}}
	return charge{Lines: lines}, *trial
}

// insertInvoice writes an invoice of sub for the period [start, end), due
// at start.
func (s *Service) insertInvoice(ctx context.Context, tx *ent.Tx, sub *ent.BillingSubscription, c charge,
	currency schematype.Currency, start, end time.Time) (*ent.Invoice, error) {
	inv, err := tx.Invoice.Create().SetID(ids.New(ids.Invoice)).SetSubscriptionID(sub.ID).SetProfileID(sub.ProfileID).
		SetCustomerID(sub.CustomerID).SetAmount(c.Amount).SetCurrency(currency).SetPeriodStart(start).
		SetPeriodEnd(end).SetDueAt(start).SetNillableTestClockID(sub.TestClockID).SetLineItems(lineMaps(c.Lines)).
		Save(ctx)
	return inv, txn.ErrorOrNil(err, "invoice")
}

// finishCreate makes the first invoice's payment if it has none yet (a
// crash may have come between), confirms it when asked, and answers with
// the subscription.
func (s *Service) finishCreate(ctx context.Context, sub *ent.BillingSubscription, in *CreateInput) (*View, error) {
	inv, err := s.firstInvoice(ctx, s.db.Client, sub.ID)
	if err != nil {
		return nil, err
	}
	if inv.PaymentIntentID == nil {
		pv, err := s.payments.CreatePayment(ctx, s.firstPayment(sub, inv, in))
		if err != nil {
			return nil, err
		}
		if err := s.recordPayment(ctx, inv.ID, pv.Intent.PaymentID); err != nil {
			return nil, err
		}
		if err := s.settleFirst(ctx, sub.ID, pv); err != nil {
			return nil, err
		}
	}
	return s.Get(ctx, sub.ID, nil)
}

// firstPayment is the payment of the first invoice: customer-present, for
// the customer, keeping its method for renewals (setup_future_usage
// off_session with the customer's acceptance, offline when none is given:
// subscribing is the consent), a zero-amount mandate set-up during a trial.
func (s *Service) firstPayment(sub *ent.BillingSubscription, inv *ent.Invoice, in *CreateInput) payments.PaymentInput {
	f := in.Payment
	f.Customer = &customer.CustomerInput{ID: sub.CustomerID, Named: true}
	offSession := "off_session"
	f.SetupFutureUsage = &offSession
	if f.Mandate == nil && f.CustomerAcceptance == nil {
		f.CustomerAcceptance = &customer.CustomerAcceptance{AcceptanceType: "offline"}
	}
	if inv.Amount == 0 {
		setup := "setup_mandate"
		f.PaymentType = &setup
	}
	if f.Billing == nil {
		f.Billing = in.Billing
	}
	if f.Shipping == nil {
		f.Shipping = in.Shipping
	}
	return payments.PaymentInput{ProfileID: &sub.ProfileID, Amount: inv.Amount, Currency: string(inv.Currency),
		Confirm: in.Confirm, PaymentFields: f, Idempotency: paymentKey(inv.ID, 1)}
}

// paymentKey is the Idempotency-Key of try attempt of invoice invoiceID: a
// repeat of the try (after a crash) finds the payment it made.
func paymentKey(invoiceID string, attempt int) *payments.IdempotencyRef {
	return &payments.IdempotencyRef{Key: "invoice:" + invoiceID + ":" + itoa(attempt), Fingerprint: "billing"}
}

// recordPayment binds the invoice to its payment.
func (s *Service) recordPayment(ctx context.Context, invoiceID, paymentID string) error {
	return txn.ErrorOrNil(s.db.Client.Invoice.UpdateOneID(invoiceID).SetPaymentIntentID(paymentID).
		SetAttemptCount(1).Exec(ctx), "invoice")
}

// subscriptionOfKey is the subscription an Idempotency-Key already made.
func (s *Service) subscriptionOfKey(ctx context.Context, ref *payments.IdempotencyRef) (*ent.BillingSubscription, error) {
	return txn.KeyedRow(ctx, ref, func(key string) (*ent.BillingSubscription, error) {
		return s.db.Client.BillingSubscription.Query().Where(billingsubscription.IdempotencyKey(key)).Only(ctx)
	}, func(sub *ent.BillingSubscription) (*string, string) { return sub.IdempotencyFingerprint, sub.ProfileID })
}

// planOf loads and checks what a subscription subscribes to: an active
// price of an active plan (planID, when given, must be its item) and the
// coupon, active, unexpired and in the price's currency.
func (s *Service) planOf(ctx context.Context, priceID string, planID, couponCode *string) (*plan, error) {
	price, err := s.db.Client.ItemPrice.Query().Where(itemPriceID(priceID)).WithItem().Only(ctx)
	if err != nil {
		return nil, txn.ReadError(err, func() *errs.Error { return errs.NotFound("Item price") })
	}
	item := price.Edges.Item
	if !activePrice(price) || item == nil || item.ItemType != "plan" || item.Status != "active" {
		return nil, errs.InvalidValue("item_price_id", "must name an active price of an active plan")
	}
	if planID != nil && *planID != item.ID {
		return nil, errs.InvalidValue("plan_id", "must be the plan of item_price_id (%s)", item.ID)
	}
	p := &plan{item: item, price: price}
	if couponCode == nil {
		return p, nil
	}
	p.coupon, err = s.couponOf(ctx, *couponCode, string(price.Currency))
	return p, err
}

// couponOf is the usable coupon of code for a price in currency.
func (s *Service) couponOf(ctx context.Context, code, currency string) (*ent.Coupon, error) {
	c, err := s.db.Client.Coupon.Query().Where(coupon.Code(code)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, errs.InvalidValue("coupon_code", "names no coupon")
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	switch {
	case c.Status != coupon.StatusActive:
		return nil, errs.InvalidValue("coupon_code", "names an archived coupon")
	case c.ValidTill != nil && !c.ValidTill.After(s.realNow()):
		return nil, errs.InvalidValue("coupon_code", "names a coupon that has expired")
	case c.DiscountType == coupon.DiscountTypeFixedAmount && c.Currency != nil && string(*c.Currency) != currency:
		return nil, errs.InvalidValue("coupon_code", "names a coupon in %s, not the price's %s", *c.Currency, currency)
	}
	return c, nil
}

func addressMap(a *schematype.AddressWrapper) map[string]any {
	if a == nil {
		return nil
	}
	var m map[string]any
	b, err := json.Marshal(a)
	if err != nil || json.Unmarshal(b, &m) != nil {
		return nil
	}
	return m
}

func lineMaps(lines []LineItem) []map[string]any {
	out := make([]map[string]any, len(lines))
	for i, l := range lines {
		out[i] = map[string]any{"item_id": l.ItemID, "item_type": l.ItemType, "description": l.Description,
			"amount": l.Amount, "currency": l.Currency, "quantity": l.Quantity}
	}
	return out
}

// LinesOf reads an invoice's line items back.
func LinesOf(inv *ent.Invoice) []LineItem {
	out := make([]LineItem, 0, len(inv.LineItems))
	for _, m := range inv.LineItems {
		l := LineItem{Quantity: 1}
		l.ItemID, _ = m["item_id"].(string)
		l.ItemType, _ = m["item_type"].(string)
		l.Description, _ = m["description"].(string)
		l.Currency, _ = m["currency"].(string)
		l.Amount = int64Of(m["amount"])
		if q := int64Of(m["quantity"]); q > 0 {
			l.Quantity = q
		}
		out = append(out, l)
	}
	return out
}

func int64Of(v any) int64 {
	switch n := v.(type) {
	case float64:
		return int64(n)
	case int64:
		return n
	case int:
		return int64(n)
	case json.Number:
		i, _ := n.Int64()
		return i
	}
	return 0
}

// discounted reports whether the invoice carries a coupon's discount.
func discounted(inv *ent.Invoice) bool {
	for _, l := range LinesOf(inv) {
		if l.ItemType == "discount" {
			return true
		}
	}
	return false
}
