package subscriptions

import (
	"context"
	"strconv"
	"time"

	"switchyard/ent"
	"switchyard/ent/billingsubscription"
	"switchyard/ent/coupon"
	"switchyard/ent/invoice"
	"switchyard/ent/itemprice"
	"switchyard/ent/predicate"
	"switchyard/ent/testclock"
	"switchyard/payments"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

func itoa(n int) string { return strconv.Itoa(n) }

func itemPriceID(id string) predicate.ItemPrice { return itemprice.ID(id) }

// Get is the subscription id with its latest charged invoice and that
// invoice's payment. With clientSecret (a client-side call) the secret must
// be the subscription's. A subscription waiting for its first payment is
// brought up to date with it first.
func (s *Service) Get(ctx context.Context, id string, clientSecret *string) (*View, error) {
	sub, err := s.load(ctx, s.db.Client, id)
	if err != nil {
		return nil, err
	}
	if clientSecret != nil && *clientSecret != sub.ClientSecret {
		return nil, errs.ErrClientSecretMismatch.New()
	}
	if sub.Status == billingsubscription.StatusCreated || sub.Status == billingsubscription.StatusPending {
		if err := s.reconcileFirst(ctx, sub); err != nil {
			return nil, err
		}
	}
	return s.view(ctx, s.db.Client, id, true)
}

// load is the caller's subscription id (another profile's when the caller
// names one is not found, like a foreign one).
func (s *Service) load(ctx context.Context, c *ent.Client, id string) (*ent.BillingSubscription, error) {
	sub, err := c.BillingSubscription.Query().
		Where(txn.InProfile(ctx, billingsubscription.ProfileID, billingsubscription.ID(id))...).Only(ctx)
	if err != nil {
		return nil, txn.ReadError(err, errSubscriptionNotFound)
	}
	return sub, nil
}

// lock is load under the row's lock, in tx.
func (s *Service) lock(ctx context.Context, tx *ent.Tx, id string) (*ent.BillingSubscription, error) {
	sub, err := txn.ForUpdate(s.db, tx.BillingSubscription.Query().
		Where(txn.InProfile(ctx, billingsubscription.ProfileID, billingsubscription.ID(id))...)).Only(ctx)
	if err != nil {
		return nil, txn.ReadError(err, errSubscriptionNotFound)
	}
	return sub, nil
}

// view reads a subscription's answer: the latest invoice with a payment
// (the latest one when none has), with its payment when withPayment.
func (s *Service) view(ctx context.Context, c *ent.Client, id string, withPayment bool) (*View, error) {
	sub, err := s.load(ctx, c, id)
	if err != nil {
		return nil, err
	}
	invs, err := c.Invoice.Query().Where(invoice.SubscriptionID(id)).
		Order(ent.Desc(invoice.FieldPeriodStart), ent.Desc(invoice.FieldCreatedAt), ent.Desc(invoice.FieldID)).Limit(2).All(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	v := &View{Subscription: sub}
	for _, inv := range invs {
		if inv.PaymentIntentID != nil || inv.Status != invoice.StatusInvoiceCreated {
			v.Invoice = inv
			break
		}
	}
	if v.Invoice == nil && len(invs) > 0 {
		v.Invoice = invs[0]
	}
	if withPayment && v.Invoice != nil && v.Invoice.PaymentIntentID != nil {
		pv, err := s.payments.GetPayment(ctx, *v.Invoice.PaymentIntentID)
		if err != nil {
			return nil, err
		}
		v.Payment = pv
	}
	return v, nil
}

// firstInvoice is the subscription's first invoice.
func (s *Service) firstInvoice(ctx context.Context, c *ent.Client, subID string) (*ent.Invoice, error) {
	inv, err := c.Invoice.Query().Where(invoice.SubscriptionID(subID)).
		Order(ent.Asc(invoice.FieldPeriodStart), ent.Asc(invoice.FieldCreatedAt), ent.Asc(invoice.FieldID)).First(ctx)
	if err != nil {
		return nil, txn.ReadError(err, errSubscriptionNotFound)
	}
	return inv, nil
}

// reconcileFirst applies the first invoice's payment as it now stands.
func (s *Service) reconcileFirst(ctx context.Context, sub *ent.BillingSubscription) error {
	inv, err := s.firstInvoice(ctx, s.db.Client, sub.ID)
	if err != nil || inv.PaymentIntentID == nil {
		return err
	}
	pv, err := s.payments.GetPayment(ctx, *inv.PaymentIntentID)
	if err != nil {
		return err
	}
	return s.settleFirst(ctx, sub.ID, pv)
}

// timeOf is "now" for a subscription on the clock clockID (its frozen
// time), or the real time without one.
func (s *Service) timeOf(ctx context.Context, clockID *string) (time.Time, error) {
	if clockID == nil {
		return s.realNow(), nil
	}
	c, err := s.db.Client.TestClock.Query().Where(testclock.ID(*clockID)).Only(ctx)
	if err != nil {
		return time.Time{}, txn.ReadError(err, errs.ErrTestClockNotFound.New)
	}
	return c.FrozenTime.UTC(), nil
}

// timeIn is timeOf read in tx.
func (s *Service) timeIn(ctx context.Context, tx *ent.Tx, sub *ent.BillingSubscription) (time.Time, error) {
	if sub.TestClockID == nil {
		return s.realNow(), nil
	}
	c, err := tx.TestClock.Get(ctx, *sub.TestClockID)
	if err != nil {
		return time.Time{}, txn.ReadError(err, errs.ErrTestClockNotFound.New)
	}
	return c.FrozenTime.UTC(), nil
}

// settleFirst applies the outcome of the first invoice's payment pv
// (decideFirst), with its events, in one transaction under the
// subscription's lock; a second call for the same outcome changes nothing.
func (s *Service) settleFirst(ctx context.Context, subID string, pv *payments.PaymentView) error {
	return s.db.InTx(ctx, func(tx *ent.Tx) error {
		sub, err := s.lock(ctx, tx, subID)
		if err != nil {
			return err
		}
		ch := decideFirst(sub.Status, outcomeOf(pv.Intent.Status), sub.TrialEnd != nil)
		if !ch.Changed {
			return nil
		}
		inv, err := s.firstInvoice(ctx, tx.Client(), sub.ID)
		if err != nil {
			return err
		}
		now, err := s.timeIn(ctx, tx, sub)
		if err != nil {
			return err
		}
		invUpd := tx.Invoice.UpdateOneID(inv.ID).SetStatus(ch.Invoice).SetPaymentIntentID(pv.Intent.PaymentID)
		upd := tx.BillingSubscription.UpdateOneID(sub.ID).SetStatus(ch.Sub)
		if ch.Activate {
			invUpd.SetPaidAt(now)
			if pv.Active != nil {
				invUpd.SetNillablePaymentMethodID(pv.Active.PaymentMethodID).SetNillableMerchantConnectorID(pv.Active.MerchantConnectorID)
				upd.SetNillablePaymentMethodID(pv.Active.PaymentMethodID).SetNillableMerchantConnectorID(pv.Active.MerchantConnectorID)
			}
			upd.SetNillableMandateID(pv.Intent.MandateID).SetCurrentPeriodStart(inv.PeriodStart).
				SetCurrentPeriodEnd(inv.PeriodEnd).SetNextBillingAt(inv.PeriodEnd)
			if discounted(inv) {
				upd.AddCouponPeriodsUsed(1)
			}
		}
		if inv, err = invUpd.Save(ctx); err != nil {
			return txn.Error(err, "invoice")
		}
		if sub, err = upd.Save(ctx); err != nil {
			return txn.Error(err, "subscription")
		}
		if ch.Activate {
			if _, err := s.openNext(ctx, tx, sub, inv.PeriodEnd, nil); err != nil {
				return err
			}
		}
		return s.emitChange(ctx, tx, sub, inv, ch.Invoice, true)
	})
}

// emitChange writes the events of a change that left sub and inv as they
// are: the invoice's outcome, and the subscription's status event when its
// status changed.
func (s *Service) emitChange(ctx context.Context, tx *ent.Tx, sub *ent.BillingSubscription, inv *ent.Invoice, invStatus invoice.Status, statusChanged bool) error {
	switch invStatus {
	case invoice.StatusInvoicePaid:
		if err := s.emitInvoice(ctx, tx, inv, invoicePaid); err != nil {
			return err
		}
	case invoice.StatusPaymentFailed:
		if err := s.emitInvoice(ctx, tx, inv, invoicePaymentFailed); err != nil {
			return err
		}
	}
	if et, ok := statusEvent(string(sub.Status)); ok && statusChanged {
		return s.emit(ctx, tx, sub, et)
	}
	return nil
}

// openNext writes the invoice of sub's period starting at start: the
// current price less the coupon while it applies, with extra lines.
func (s *Service) openNext(ctx context.Context, tx *ent.Tx, sub *ent.BillingSubscription, start time.Time, extra []LineItem) (*ent.Invoice, error) {
	price, err := tx.ItemPrice.Query().Where(itemprice.ID(sub.ItemPriceID)).WithItem().Only(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	var c *ent.Coupon
	if sub.CouponCode != nil {
		c, err = tx.Coupon.Query().Where(coupon.Code(*sub.CouponCode)).Only(ctx)
		if err != nil && !ent.IsNotFound(err) {
			return nil, errs.Internal(err)
		}
	}
	return s.insertInvoice(ctx, tx, sub, chargeFor(price.Edges.Item, price, c, sub.CouponPeriodsUsed, extra),
		price.Currency, start, periodEnd(price, start))
}

// ConfirmInput confirms a created subscription's first payment.
type ConfirmInput struct {
	// ClientSecret, when given, must be the subscription's.
	ClientSecret *string
	// Payment is payment_details, as a payment's confirm reads it.
	Payment payments.PaymentFields
}

// Confirm confirms the first invoice's payment with the payment details
// given and applies its outcome (settleFirst). Only a created subscription
// may be confirmed.
func (s *Service) Confirm(ctx context.Context, id string, in ConfirmInput) (*View, error) {
	sub, err := s.load(ctx, s.db.Client, id)
	if err != nil {
		return nil, err
	}
	if in.ClientSecret != nil && *in.ClientSecret != sub.ClientSecret {
		return nil, errs.ErrClientSecretMismatch.New()
	}
	if msg := transitionErr("confirm", sub.Status, false); msg != "" {
		return nil, errStatus(msg)
	}
	inv, err := s.firstInvoice(ctx, s.db.Client, sub.ID)
	if err != nil {
		return nil, err
	}
	if inv.PaymentIntentID == nil {
		return s.finishCreate(ctx, sub, &CreateInput{Payment: in.Payment, Confirm: true})
	}
	pv, err := s.payments.ConfirmPayment(ctx, *inv.PaymentIntentID, payments.ConfirmInput{PaymentFields: in.Payment})
	if err != nil {
		return nil, err
	}
	if err := s.settleFirst(ctx, sub.ID, pv); err != nil {
		return nil, err
	}
	return s.view(ctx, s.db.Client, id, true)
}
