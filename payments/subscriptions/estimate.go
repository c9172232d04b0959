package subscriptions

import (
	"context"

	"switchyard/ent"
	"switchyard/ent/itemprice"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

// EstimateInput asks what a subscription would be charged
// (GET /subscriptions/estimate).
type EstimateInput struct {
	PlanID string
	// ItemPriceID picks the plan's price (Switchyard's extension); its
	// first active price when nil.
	ItemPriceID *string
	CouponCode  *string
	CustomerID  *string
	// TrialDays overrides the price's trial (0: none).
	TrialDays *int
	// SubscriptionID (Switchyard's extension) estimates a change of that
	// subscription to the plan: the next invoice with the proration.
	SubscriptionID *string
}

// Estimate is what an estimate answers: the amount charged now (the first
// invoice, or with SubscriptionID the next one) and its lines.
type Estimate struct {
	Amount      int64
	Currency    string
	PlanID      string
	ItemPriceID string
	CouponCode  *string
	CustomerID  *string
	Lines       []LineItem
}

// Estimate prices a subscription to a plan: the price less the coupon, or
// nothing during a trial; with SubscriptionID, the next invoice of that
// subscription were it changed to the plan now, proration included.
func (s *Service) Estimate(ctx context.Context, in EstimateInput) (*Estimate, error) {
	if in.PlanID == "" {
		return nil, errs.MissingField("plan_id")
	}
	if in.TrialDays != nil && (*in.TrialDays < 0 || *in.TrialDays > maxIntervalCount) {
		return nil, errs.InvalidValue("trial_days", "must be between 0 and %d", maxIntervalCount)
	}
	priceID := ""
	if in.ItemPriceID != nil {
		priceID = *in.ItemPriceID
	} else {
		p, err := s.db.Client.ItemPrice.Query().Where(itemprice.ItemID(in.PlanID), itemprice.StatusEQ(itemprice.StatusActive)).
			Order(ent.Asc(itemprice.FieldCreatedAt), ent.Asc(itemprice.FieldID)).First(ctx)
		if err != nil {
			return nil, txn.ReadError(err, errItemNotFound)
		}
		priceID = p.ID
	}
	p, err := s.planOf(ctx, priceID, &in.PlanID, in.CouponCode)
	if err != nil {
		return nil, err
	}
	out := &Estimate{Currency: string(p.price.Currency), PlanID: p.item.ID, ItemPriceID: p.price.ID,
		CouponCode: in.CouponCode, CustomerID: in.CustomerID}
	if in.SubscriptionID == nil {
		now := s.realNow()
		c, _ := p.first(now, trialEnd(p.price, now, in.TrialDays))
		out.Amount, out.Lines = c.Amount, c.Lines
		return out, nil
	}
	return s.estimateChange(ctx, *in.SubscriptionID, p, out)
}

// estimateChange fills out with the next invoice of subscription subID
// were it changed to p now: the new price with the proration of the
// change, less the subscription's coupon when the estimate names none.
func (s *Service) estimateChange(ctx context.Context, subID string, p *plan, out *Estimate) (*Estimate, error) {
	sub, err := s.load(ctx, s.db.Client, subID)
	if err != nil {
		return nil, err
	}
	now, err := s.timeOf(ctx, sub.TestClockID)
	if err != nil {
		return nil, err
	}
	old, err := s.db.Client.ItemPrice.Get(ctx, sub.ItemPriceID)
	if err != nil {
		return nil, errs.Internal(err)
	}
	var extra []LineItem
	if sub.CurrentPeriodStart != nil && sub.CurrentPeriodEnd != nil {
		if l, ok := proration(old.Amount, p.price.Amount, *sub.CurrentPeriodStart, *sub.CurrentPeriodEnd, now, p.price.ID, out.Currency); ok {
			extra = append(extra, l)
		}
	}
	if out.CouponCode == nil && sub.CouponCode != nil {
		if p.coupon, err = s.couponOf(ctx, *sub.CouponCode, out.Currency); err != nil {
			p.coupon = nil
		}
		out.CouponCode = sub.CouponCode
	}
	c := chargeFor(p.item, p.price, p.coupon, sub.CouponPeriodsUsed, extra)
	out.Amount, out.Lines = c.Amount, c.Lines
	if out.CustomerID == nil {
		out.CustomerID = &sub.CustomerID
	}
	return out, nil
}
