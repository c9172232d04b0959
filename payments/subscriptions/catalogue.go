package subscriptions

// The merchant's catalogue: plan and addon items, their prices, coupons.

import (
	"context"
	"time"

	"switchyard/ent"
	"switchyard/ent/coupon"
	"switchyard/ent/itemprice"
	"switchyard/ent/migrate"
	"switchyard/ent/schema"
	"switchyard/ent/schema/schematype"
	"switchyard/ent/subscriptionitem"
	"switchyard/internal/ids"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// ItemInput creates a catalogue item.
type ItemInput struct {
	ItemType    string // plan|addon
	Name        string
	Description *string
	ProductID   *string
	Metadata    map[string]any
}

// PriceInput creates a price of an item.
type PriceInput struct {
	Amount          int64
	Currency        string
	Interval        string // Day|Week|Month|Year
	IntervalCount   int
	TrialPeriod     *int
	TrialPeriodUnit *string
}

// CouponInput creates a coupon.
type CouponInput struct {
	Code            string
	Name            *string
	DiscountType    string // percentage|fixed_amount
	PercentOffBps   *int
	AmountOff       *int64
	Currency        *string
	Duration        string // once|limited_period|forever
	DurationPeriods *int
	ValidTill       *time.Time
}

var (
	itemTypes     = validate.NewEnum("item type", "plan", "addon")
	periodUnits   = validate.NewEnum("period unit", schema.PeriodUnits...)
	discountTypes = validate.NewEnum("discount type", "percentage", "fixed_amount")
	durations     = validate.NewEnum("coupon duration", "once", "limited_period", "forever")

	itemColumns   = validate.ColumnsOf(migrate.SubscriptionItemsTable, subscriptionitem.FieldName, subscriptionitem.FieldDescription, subscriptionitem.FieldProductID)
	couponColumns = validate.ColumnsOf(migrate.CouponsTable, coupon.FieldCode, coupon.FieldName)
)

// maxIntervalCount bounds interval_count: a hundred years of days.
const maxIntervalCount = 36500

func (in *ItemInput) check() error {
	if in.Name == "" {
		return errs.MissingField("name")
	}
	return validate.First(
		itemTypes.Required("item_type", in.ItemType),
		validate.Lengths(itemColumns.Length("name", &in.Name), itemColumns.Length("description", in.Description),
			itemColumns.Length("product_id", in.ProductID)),
	)
}

// CreateItem adds a plan or an addon to the merchant's catalogue.
func (s *Service) CreateItem(ctx context.Context, in ItemInput) (*ent.SubscriptionItem, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	if err := s.db.RequireMerchant(ctx); err != nil {
		return nil, err
	}
	it, err := s.db.Client.SubscriptionItem.Create().SetID(ids.New(ids.SubscriptionItem)).
		SetItemType(subscriptionitem.ItemType(in.ItemType)).SetName(in.Name).
		SetNillableDescription(in.Description).SetNillableProductID(in.ProductID).
		SetMetadata(in.Metadata).Save(ctx)
	return it, txn.ErrorOrNil(err, "subscription item")
}

func (in *PriceInput) check() error {
	return validate.First(
		checkAmount("amount", in.Amount),
		checkCurrency("currency", in.Currency),
		periodUnits.Required("interval", in.Interval),
		checkRange("interval_count", in.IntervalCount, 1, maxIntervalCount),
		checkOptRange("trial_period", in.TrialPeriod, 0, maxIntervalCount),
		periodUnits.Optional("trial_period_unit", in.TrialPeriodUnit),
	)
}

// CreatePrice adds a price to the item itemID.
func (s *Service) CreatePrice(ctx context.Context, itemID string, in PriceInput) (*ent.ItemPrice, error) {
	if in.IntervalCount == 0 {
		in.IntervalCount = 1
	}
	if in.Interval == "" {
		in.Interval = "Month"
	}
	if err := in.check(); err != nil {
		return nil, err
	}
	it, err := s.db.Client.SubscriptionItem.Get(ctx, itemID)
	if err != nil {
		return nil, txn.ReadError(err, errItemNotFound)
	}
	create := s.db.Client.ItemPrice.Create().SetID(ids.New(ids.ItemPrice)).SetItemID(it.ID).
		SetAmount(in.Amount).SetCurrency(schematype.Currency(in.Currency)).
		SetInterval(itemprice.Interval(in.Interval)).SetIntervalCount(in.IntervalCount).
		SetNillableTrialPeriod(in.TrialPeriod)
	if in.TrialPeriodUnit != nil {
		create.SetTrialPeriodUnit(itemprice.TrialPeriodUnit(*in.TrialPeriodUnit))
	}
	p, err := create.Save(ctx)
	return p, txn.ErrorOrNil(err, "item price")
}

func (in *CouponInput) check() error {
	if in.Code == "" {
		return errs.MissingField("code")
	}
	if err := validate.First(
		validate.Lengths(couponColumns.Length("code", &in.Code), couponColumns.Length("name", in.Name)),
		discountTypes.Required("discount_type", in.DiscountType),
		durations.Required("duration", in.Duration),
		checkOptRange("percent_off_bps", in.PercentOffBps, 1, 10000),
		checkOptRange("duration_periods", in.DurationPeriods, 1, maxIntervalCount),
	); err != nil {
		return err
	}
	switch {
	case in.DiscountType == "percentage" && in.PercentOffBps == nil:
		return errs.MissingField("percent_off_bps")
	case in.DiscountType == "fixed_amount" && in.AmountOff == nil:
		return errs.MissingField("amount_off")
	case in.DiscountType == "fixed_amount" && in.Currency == nil:
		return errs.MissingField("currency")
	case in.Duration == "limited_period" && in.DurationPeriods == nil:
		return errs.MissingField("duration_periods")
	}
	if in.AmountOff != nil {
		if err := checkAmount("amount_off", *in.AmountOff); err != nil {
			return err
		}
	}
	if in.Currency != nil {
		return checkCurrency("currency", *in.Currency)
	}
	return nil
}

// CreateCoupon adds a coupon; its code is unique to the merchant.
func (s *Service) CreateCoupon(ctx context.Context, in CouponInput) (*ent.Coupon, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	if err := s.db.RequireMerchant(ctx); err != nil {
		return nil, err
	}
	create := s.db.Client.Coupon.Create().SetID(ids.New(ids.Coupon)).SetCode(in.Code).SetNillableName(in.Name).
		SetDiscountType(coupon.DiscountType(in.DiscountType)).SetNillablePercentOffBps(in.PercentOffBps).
		SetNillableAmountOff(in.AmountOff).SetDuration(coupon.Duration(in.Duration)).
		SetNillableDurationPeriods(in.DurationPeriods).SetNillableValidTill(in.ValidTill)
	if in.Currency != nil {
		create.SetCurrency(schematype.Currency(*in.Currency))
	}
	c, err := create.Save(ctx)
	if ent.IsConstraintError(err) {
		return nil, errs.Duplicate("A coupon with the code %q already exists", in.Code).WithField("code")
	}
	return c, txn.ErrorOrNil(err, "coupon")
}

// Item is a catalogue item with its prices, oldest first.
type Item struct {
	Item   *ent.SubscriptionItem
	Prices []*ent.ItemPrice
}

// GetItem is the item itemID with its prices.
func (s *Service) GetItem(ctx context.Context, itemID string) (*Item, error) {
	it, err := s.db.Client.SubscriptionItem.Query().Where(subscriptionitem.ID(itemID)).
		WithPrices(func(q *ent.ItemPriceQuery) { q.Order(ent.Asc(itemprice.FieldCreatedAt), ent.Asc(itemprice.FieldID)) }).
		Only(ctx)
	if err != nil {
		return nil, txn.ReadError(err, errItemNotFound)
	}
	return &Item{Item: it, Prices: it.Edges.Prices}, nil
}

// ItemFilter selects GET /subscriptions/items' page.
type ItemFilter struct {
	ItemType  string
	ProductID *string
	Limit     *int
	Offset    int
}

// ListItems is a page of the active items of a type, oldest first, each
// with its active prices.
func (s *Service) ListItems(ctx context.Context, f ItemFilter) ([]*Item, error) {
	limit := 0
	if f.Limit != nil {
		limit = *f.Limit
	}
	if err := validate.First(itemTypes.Required("item_type", f.ItemType), validate.PageLimit(&limit),
		validate.Offset(f.Offset)); err != nil {
		return nil, err
	}
	q := s.db.Client.SubscriptionItem.Query().Where(subscriptionitem.ItemTypeEQ(subscriptionitem.ItemType(f.ItemType)),
		subscriptionitem.StatusEQ(subscriptionitem.StatusActive))
	if f.ProductID != nil {
		q.Where(subscriptionitem.ProductID(*f.ProductID))
	}
	items, err := q.WithPrices(func(q *ent.ItemPriceQuery) {
		q.Where(itemprice.StatusEQ(itemprice.StatusActive)).Order(ent.Asc(itemprice.FieldCreatedAt), ent.Asc(itemprice.FieldID))
	}).Order(ent.Asc(subscriptionitem.FieldCreatedAt), ent.Asc(subscriptionitem.FieldID)).
		Offset(f.Offset).Limit(limit).All(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	out := make([]*Item, len(items))
	for i, it := range items {
		out[i] = &Item{Item: it, Prices: it.Edges.Prices}
	}
	return out, nil
}

func errItemNotFound() *errs.Error { return errs.NotFound("Subscription item") }

func checkAmount(field string, v int64) error {
	if v < 0 || v > validate.MaxAmount {
		return errs.InvalidValue(field, "must be between 0 and %d minor units", validate.MaxAmount)
	}
	return nil
}

func checkCurrency(field, c string) error {
	if c == "" {
		return errs.MissingField(field)
	}
	if !schematype.Currency(c).Valid() {
		return errs.InvalidValue(field, "%q is not a supported ISO 4217 currency", c)
	}
	return nil
}

func checkRange(field string, v, lo, hi int) error {
	if v < lo || v > hi {
		return errs.InvalidValue(field, "must be between %d and %d", lo, hi)
	}
	return nil
}

func checkOptRange(field string, v *int, lo, hi int) error {
	if v == nil {
		return nil
	}
	return checkRange(field, *v, lo, hi)
}
