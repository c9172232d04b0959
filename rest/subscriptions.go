package rest

import (
	"encoding/json"
	"net/http"
	"time"

	"switchyard/ent"
	"switchyard/payments"
	"switchyard/payments/errs"
	"switchyard/payments/subscriptions"
)

// registerSubscriptions adds Hyperswitch's v1 subscription routes, the
// catalogue's admin routes and the sandbox's test clocks
// (docs/subscriptions.md). The subscription routes take X-Profile-Id, as
// the document requires; ServeMux prefers the literal paths
// (/subscriptions/items, /subscriptions/estimate, /subscriptions/create).
func registerSubscriptions(a *api, svc *subscriptions.Service) {
	if svc == nil {
		return
	}
	a.handle("POST /subscriptions/create", MerchantOrAdmin, v2Route(withBody(func(r *http.Request, req *subscriptionCreateBody) (any, error) {
		in, err := req.input(r, false)
		if err != nil {
			return nil, err
		}
		return respond(subscriptionBodyOf)(svc.Create(r.Context(), in))
	})))
	a.handle("POST /subscriptions", MerchantOrAdmin, v2Route(withBody(func(r *http.Request, req *subscriptionCreateConfirmBody) (any, error) {
		in, err := req.input(r)
		if err != nil {
			return nil, err
		}
		return respond(subscriptionBodyOf)(svc.Create(r.Context(), in))
	})))
	a.handle("POST /subscriptions/{subscription_id}/confirm", MerchantOrAdmin, v2Route(withBody(func(r *http.Request, req *subscriptionConfirmRequest) (any, error) {
		if req.PaymentDetails == nil {
			return nil, errs.MissingField("payment_details")
		}
		f, err := req.PaymentDetails.fields(r)
		if err != nil {
			return nil, v1Error(err)
		}
		return respond(subscriptionBodyOf)(svc.Confirm(r.Context(), r.PathValue("subscription_id"),
			subscriptions.ConfirmInput{ClientSecret: req.ClientSecret, Payment: f}))
	})))
	a.handle("GET /subscriptions/{subscription_id}", MerchantOrAdmin, v2Route(func(r *http.Request) (any, error) {
		if _, _, err := subscriptionGetQuery.read(r.URL.RawQuery); err != nil {
			return nil, err
		}
		return respond(subscriptionBodyOf)(svc.Get(r.Context(), r.PathValue("subscription_id"), nil))
	}))
	a.handle("PUT /subscriptions/{subscription_id}/update", MerchantOrAdmin, v2Route(withBody(func(r *http.Request, req *subscriptionUpdateRequest) (any, error) {
		return respond(subscriptionBodyOf)(svc.Update(r.Context(), r.PathValue("subscription_id"),
			subscriptions.UpdateInput{PlanID: deref(req.PlanID), ItemPriceID: deref(req.ItemPriceID)}))
	})))
	a.handle("POST /subscriptions/{subscription_id}/pause", MerchantOrAdmin, v2Route(withOptionalBody(func(r *http.Request, req *subscriptionPauseRequest) (any, error) {
		return respond(subscriptionPauseBodyOf)(svc.Pause(r.Context(), r.PathValue("subscription_id"),
			subscriptions.PauseInput{Option: deref(req.PauseOption), PauseAt: req.PauseAt.asTime()}))
	})))
	a.handle("POST /subscriptions/{subscription_id}/resume", MerchantOrAdmin, v2Route(withOptionalBody(func(r *http.Request, req *subscriptionResumeRequest) (any, error) {
		return respond(subscriptionResumeBodyOf)(svc.Resume(r.Context(), r.PathValue("subscription_id"),
			subscriptions.ResumeInput{Option: deref(req.ResumeOption), ResumeDate: req.ResumeDate.asTime(),
				ChargesHandling: req.ChargesHandling, UnpaidInvoicesHandling: req.UnpaidInvoicesHandling}))
	})))
	a.handle("POST /subscriptions/{subscription_id}/cancel", MerchantOrAdmin, v2Route(withOptionalBody(func(r *http.Request, req *subscriptionCancelRequest) (any, error) {
		return respond(subscriptionCancelBodyOf)(svc.Cancel(r.Context(), r.PathValue("subscription_id"),
			subscriptions.CancelInput{Option: deref(req.CancelOption), CancelAt: req.CancelAt.asTime(), ReasonCode: req.CancelReasonCode}))
	})))
	a.handle("GET /subscriptions/items", MerchantOrAdmin, v2Route(withQuery(subscriptionItemsFilter, func(r *http.Request, f subscriptions.ItemFilter) (any, error) {
		return respond(each(subscriptionItemBodyOf))(svc.ListItems(r.Context(), f))
	})))
	a.handle("GET /subscriptions/estimate", MerchantOrAdmin, v2Route(withQuery(subscriptionEstimateQuery, func(r *http.Request, in subscriptions.EstimateInput) (any, error) {
		return respond(subscriptionEstimateBodyOf)(svc.Estimate(r.Context(), in))
	})))
	registerCatalogue(a, svc)
	registerTestClocks(a, svc)
}

// registerCatalogue adds the catalogue's admin routes (Switchyard's own:
// Hyperswitch keeps the catalogue at its billing processor).
func registerCatalogue(a *api, svc *subscriptions.Service) {
	a.handle("POST /subscriptions/catalogue/items", MerchantOrAdmin, withBody(func(r *http.Request, req *catalogueItemRequest) (any, error) {
		return respond(catalogueItemOf)(svc.CreateItem(r.Context(), subscriptions.ItemInput{ItemType: deref(req.ItemType),
			Name: deref(req.Name), Description: req.Description, ProductID: req.ProductID, Metadata: req.Metadata}))
	}))
	a.handle("GET /subscriptions/catalogue/items/{item_id}", MerchantOrAdmin, func(r *http.Request) (any, error) {
		return respond(catalogueItemWithPrices)(svc.GetItem(r.Context(), r.PathValue("item_id")))
	})
	a.handle("POST /subscriptions/catalogue/items/{item_id}/prices", MerchantOrAdmin, withBody(func(r *http.Request, req *cataloguePriceRequest) (any, error) {
		if req.Amount == nil {
			return nil, errs.MissingField("amount")
		}
		in := subscriptions.PriceInput{Amount: *req.Amount, Currency: deref(req.Currency), Interval: deref(req.Interval),
			TrialPeriod: req.TrialPeriod, TrialPeriodUnit: req.TrialPeriodUnit}
		if req.IntervalCount != nil {
			in.IntervalCount = *req.IntervalCount
		}
		return respond(itemPriceBodyOf)(svc.CreatePrice(r.Context(), r.PathValue("item_id"), in))
	}))
	a.handle("POST /subscriptions/catalogue/coupons", MerchantOrAdmin, withBody(func(r *http.Request, req *couponRequest) (any, error) {
		return respond(couponBodyOf)(svc.CreateCoupon(r.Context(), subscriptions.CouponInput{Code: deref(req.Code), Name: req.Name,
			DiscountType: deref(req.DiscountType), PercentOffBps: req.PercentOffBps, AmountOff: req.AmountOff, Currency: req.Currency,
			Duration: deref(req.Duration), DurationPeriods: req.DurationPeriods, ValidTill: req.ValidTill.asTime()}))
	}))
}

// registerTestClocks adds the sandbox's test clocks (Stripe's test_helpers).
func registerTestClocks(a *api, svc *subscriptions.Service) {
	a.handle("POST /test_helpers/test_clocks", MerchantOrAdmin, withBody(func(r *http.Request, req *testClockRequest) (any, error) {
		in := subscriptions.TestClockInput{Name: req.Name}
		if t := req.FrozenTime.asTime(); t != nil {
			in.FrozenTime = *t
		}
		return respond(testClockBodyOf)(svc.CreateTestClock(r.Context(), in))
	}))
	a.handle("GET /test_helpers/test_clocks/{clock_id}", MerchantOrAdmin, func(r *http.Request) (any, error) {
		return respond(testClockBodyOf)(svc.GetTestClock(r.Context(), r.PathValue("clock_id")))
	})
	a.handle("POST /test_helpers/test_clocks/{clock_id}/advance", MerchantOrAdmin, withBody(func(r *http.Request, req *testClockAdvanceRequest) (any, error) {
		t := req.FrozenTime.asTime()
		if t == nil {
			return nil, errs.MissingField("frozen_time")
		}
		return respond(testClockBodyOf)(svc.AdvanceTestClock(r.Context(), r.PathValue("clock_id"), *t))
	}))
}

// subscriptionPaymentDetails is payment_details, read by the payment's own
// decoder (paymentsRequest.fields): Hyperswitch's PaymentDetails,
// CreateSubscriptionPaymentDetails and ConfirmSubscriptionPaymentDetails
// are subsets of a payment's members, plus payment_method_id, a saved
// payment method (what payment_token names).
type subscriptionPaymentDetails struct {
	paymentsRequest
	PaymentMethodID *string `json:"payment_method_id"`
}

// fields maps payment_details onto the payment's members.
func (d *subscriptionPaymentDetails) fields(r *http.Request) (payments.PaymentFields, error) {
	if d.PaymentMethodID != nil && !given(d.PaymentToken) {
		raw, err := json.Marshal(*d.PaymentMethodID)
		if err != nil {
			return payments.PaymentFields{}, errs.Internal(err)
		}
		d.PaymentToken = raw
	}
	return d.paymentsRequest.fields(r)
}

// subscriptionCreateBody is CreateSubscriptionRequest with Switchyard's
// test_clock_id.
type subscriptionCreateBody struct {
	subscriptionCreateRequest
	TestClockID *string `json:"test_clock_id"`
}

// subscriptionCreateConfirmBody is CreateAndConfirmSubscriptionRequest with
// Switchyard's test_clock_id.
type subscriptionCreateConfirmBody struct {
	subscriptionCreateConfirmRequest
	TestClockID *string `json:"test_clock_id"`
}

func (req *subscriptionCreateBody) input(r *http.Request, confirm bool) (subscriptions.CreateInput, error) {
	in := subscriptions.CreateInput{MerchantReferenceID: req.MerchantReferenceID, ItemPriceID: deref(req.ItemPriceID),
		PlanID: req.PlanID, CouponCode: req.CouponCode, CustomerID: deref(req.CustomerID), Billing: req.Billing,
		Shipping: req.Shipping, TestClockID: req.TestClockID, Confirm: confirm, Idempotency: idempotencyRef(r)}
	if p := principal(r); p.ProfileID != "" {
		in.ProfileID = &p.ProfileID
	}
	if req.PaymentDetails == nil {
		return in, errs.MissingField("payment_details")
	}
	if !confirm && req.PaymentDetails.ReturnURL == nil {
		return in, errs.MissingField("payment_details.return_url")
	}
	f, err := req.PaymentDetails.fields(r)
	if err != nil {
		return in, v1Error(err)
	}
	in.Payment = f
	return in, nil
}

func (req *subscriptionCreateConfirmBody) input(r *http.Request) (subscriptions.CreateInput, error) {
	c := req.subscriptionCreateConfirmRequest
	return (&subscriptionCreateBody{subscriptionCreateRequest: subscriptionCreateRequest{
		MerchantReferenceID: c.MerchantReferenceID, ItemPriceID: c.ItemPriceID, PlanID: c.PlanID, CouponCode: c.CouponCode,
		CustomerID: c.CustomerID, PaymentDetails: c.PaymentDetails, Billing: c.Billing, Shipping: c.Shipping,
	}, TestClockID: req.TestClockID}).input(r, true)
}

var (
	subscriptionGetQuery      = queryParams{route: "GET /subscriptions/{subscription_id}"}
	subscriptionItemsQuery    = queryParams{route: "GET /subscriptions/items", names: []string{"limit", "offset", "product_id", "item_type"}}
	subscriptionEstimateQuery = func(raw string) (subscriptions.EstimateInput, error) {
		values, _, err := estimateQuery.read(raw)
		if err != nil {
			return subscriptions.EstimateInput{}, err
		}
		in := subscriptions.EstimateInput{PlanID: values["plan_id"], ItemPriceID: values.str("item_price_id"),
			CouponCode: values.str("coupon_id"), CustomerID: values.str("customer_id"), SubscriptionID: values.str("subscription_id")}
		if _, ok := values["trial_days"]; ok {
			days, err := values.integer("trial_days", 0)
			if err != nil {
				return in, err
			}
			in.TrialDays = &days
		}
		return in, nil
	}
	// estimateQuery: the document's parameters, and Switchyard's
	// item_price_id and subscription_id (docs/subscriptions.md).
	estimateQuery = queryParams{route: "GET /subscriptions/estimate",
		names: []string{"plan_id", "customer_id", "coupon_id", "trial_days", "item_price_id", "subscription_id"}}
)

func subscriptionItemsFilter(raw string) (subscriptions.ItemFilter, error) {
	values, _, err := subscriptionItemsQuery.read(raw)
	if err != nil {
		return subscriptions.ItemFilter{}, err
	}
	f := subscriptions.ItemFilter{ItemType: values["item_type"], ProductID: values.str("product_id")}
	if _, ok := values["limit"]; ok {
		n, err := values.integer("limit", 0)
		if err != nil {
			return f, err
		}
		f.Limit = &n
	}
	f.Offset, err = values.integer("offset", 0)
	return f, err
}

// subscriptionBodyOf is the one mapping of a subscription onto
// SubscriptionResponse.
func subscriptionBodyOf(v *subscriptions.View) subscriptionBody {
	sub := v.Subscription
	b := subscriptionBody{ID: sub.ID, MerchantReferenceID: sub.MerchantReferenceID, Status: string(sub.Status),
		PlanID: &sub.PlanID, ItemPriceID: &sub.ItemPriceID, ProfileID: sub.ProfileID, ClientSecret: &sub.ClientSecret,
		MerchantID: sub.MerchantID, CouponCode: sub.CouponCode, CustomerID: sub.CustomerID}
	if v.Invoice != nil {
		inv := invoiceBodyOf(v.Invoice)
		b.Invoice = &inv
	}
	if v.Payment != nil {
		rec := paymentRecordOf(v.Payment)
		b.Payment = &subscriptionPaymentBody{PaymentID: rec.PaymentID, Status: rec.Status, Amount: rec.Amount,
			Currency: rec.Currency, ProfileID: &rec.ProfileID, Connector: rec.Connector, PaymentMethodID: rec.PaymentMethodID,
			ReturnURL: rec.ReturnURL, NextAction: rec.NextAction, PaymentExperience: rec.PaymentExperience,
			ErrorCode: rec.ErrorCode, ErrorMessage: rec.ErrorMessage, PaymentMethodType: rec.PaymentMethodType,
			ClientSecret: &rec.ClientSecret, Billing: rec.Billing, Shipping: rec.Shipping, PaymentToken: rec.PaymentToken}
		if pt := string(v.Payment.Intent.PaymentType); pt != "" {
			b.Payment.PaymentType = &pt
		}
	}
	return b
}

func invoiceBodyOf(inv *ent.Invoice) invoiceBody {
	return invoiceBody{ID: inv.ID, SubscriptionID: inv.SubscriptionID, MerchantID: inv.MerchantID, ProfileID: inv.ProfileID,
		MerchantConnectorID: deref(inv.MerchantConnectorID), PaymentIntentID: inv.PaymentIntentID,
		PaymentMethodID: inv.PaymentMethodID, CustomerID: inv.CustomerID, Amount: inv.Amount, Currency: string(inv.Currency),
		Status: string(inv.Status), BillingProcessorInvoiceID: inv.BillingProcessorInvoiceID}
}

func subscriptionPauseBodyOf(v *subscriptions.View) subscriptionPauseBody {
	sub := v.Subscription
	return subscriptionPauseBody{ID: sub.ID, Status: string(sub.Status), MerchantReferenceID: sub.MerchantReferenceID,
		ProfileID: sub.ProfileID, MerchantID: sub.MerchantID, CustomerID: sub.CustomerID, PausedAt: timestampOf(sub.PausedAt)}
}

func subscriptionResumeBodyOf(v *subscriptions.View) subscriptionResumeBody {
	sub := v.Subscription
	return subscriptionResumeBody{ID: sub.ID, Status: string(sub.Status), MerchantReferenceID: sub.MerchantReferenceID,
		ProfileID: sub.ProfileID, MerchantID: sub.MerchantID, CustomerID: sub.CustomerID, NextBillingAt: timestampOf(sub.NextBillingAt)}
}

func subscriptionCancelBodyOf(v *subscriptions.View) subscriptionCancelBody {
	sub := v.Subscription
	return subscriptionCancelBody{ID: sub.ID, Status: string(sub.Status), MerchantReferenceID: sub.MerchantReferenceID,
		ProfileID: sub.ProfileID, MerchantID: sub.MerchantID, CustomerID: sub.CustomerID, CancelledAt: timestampOf(sub.CancelledAt)}
}

func timestampOf(t *time.Time) *Timestamp {
	if t == nil {
		return nil
	}
	ts := Timestamp(*t)
	return &ts
}

func subscriptionItemBodyOf(it *subscriptions.Item) subscriptionItemBody {
	prices := make([]subscriptionItemPriceBody, len(it.Prices))
	for i, p := range it.Prices {
		prices[i] = itemPriceBodyOf(p)
	}
	return subscriptionItemBody{ItemID: it.Item.ID, Name: it.Item.Name, Description: it.Item.Description, PriceID: prices}
}

func itemPriceBodyOf(p *ent.ItemPrice) subscriptionItemPriceBody {
	b := subscriptionItemPriceBody{PriceID: p.ID, ItemID: &p.ItemID, Amount: p.Amount, Currency: string(p.Currency),
		Interval: string(p.Interval), IntervalCount: int64(p.IntervalCount)}
	if p.TrialPeriod != nil {
		n := int64(*p.TrialPeriod)
		b.TrialPeriod = &n
	}
	if p.TrialPeriodUnit != nil {
		u := string(*p.TrialPeriodUnit)
		b.TrialPeriodUnit = &u
	}
	return b
}

func subscriptionEstimateBodyOf(e *subscriptions.Estimate) subscriptionEstimateBody {
	lines := make([]subscriptionLineItemBody, len(e.Lines))
	for i, l := range e.Lines {
		lines[i] = subscriptionLineItemBody{ItemID: l.ItemID, ItemType: l.ItemType, Description: l.Description,
			Amount: l.Amount, Currency: l.Currency, Quantity: l.Quantity}
	}
	return subscriptionEstimateBody{Amount: e.Amount, Currency: e.Currency, PlanID: &e.PlanID, ItemPriceID: &e.ItemPriceID,
		CouponCode: e.CouponCode, CustomerID: e.CustomerID, LineItems: lines}
}

// The catalogue's and the test clocks' wire types: Switchyard's own routes,
// which Hyperswitch's documents do not describe.

// catalogueItemRequest creates a plan or an addon.
type catalogueItemRequest struct {
	ItemType    *string        `json:"item_type"`
	Name        *string        `json:"name"`
	Description *string        `json:"description"`
	ProductID   *string        `json:"product_id"`
	Metadata    map[string]any `json:"metadata"`
}

// catalogueItemBody is an item, with its prices where the route shows them.
type catalogueItemBody struct {
	ItemID      string                      `json:"item_id"`
	ItemType    string                      `json:"item_type"`
	Name        string                      `json:"name"`
	Description *string                     `json:"description"`
	ProductID   *string                     `json:"product_id"`
	Status      string                      `json:"status"`
	Metadata    map[string]any              `json:"metadata"`
	Created     Timestamp                   `json:"created"`
	Prices      []subscriptionItemPriceBody `json:"prices"`
}

func catalogueItemOf(it *ent.SubscriptionItem) catalogueItemBody {
	return catalogueItemBody{ItemID: it.ID, ItemType: string(it.ItemType), Name: it.Name, Description: it.Description,
		ProductID: it.ProductID, Status: string(it.Status), Metadata: it.Metadata, Created: Timestamp(it.CreatedAt),
		Prices: []subscriptionItemPriceBody{}}
}

func catalogueItemWithPrices(it *subscriptions.Item) catalogueItemBody {
	b := catalogueItemOf(it.Item)
	b.Prices = subscriptionItemBodyOf(it).PriceID
	return b
}

// cataloguePriceRequest adds a price to an item.
type cataloguePriceRequest struct {
	Amount          *int64  `json:"amount"`
	Currency        *string `json:"currency"`
	Interval        *string `json:"interval"`
	IntervalCount   *int    `json:"interval_count"`
	TrialPeriod     *int    `json:"trial_period"`
	TrialPeriodUnit *string `json:"trial_period_unit"`
}

// couponRequest creates a coupon.
type couponRequest struct {
	Code            *string   `json:"code"`
	Name            *string   `json:"name"`
	DiscountType    *string   `json:"discount_type"`
	PercentOffBps   *int      `json:"percent_off_bps"`
	AmountOff       *int64    `json:"amount_off"`
	Currency        *string   `json:"currency"`
	Duration        *string   `json:"duration"`
	DurationPeriods *int      `json:"duration_periods"`
	ValidTill       *wireTime `json:"valid_till"`
}

// couponBody is a coupon.
type couponBody struct {
	ID              string     `json:"id"`
	Code            string     `json:"code"`
	Name            *string    `json:"name"`
	DiscountType    string     `json:"discount_type"`
	PercentOffBps   *int       `json:"percent_off_bps"`
	AmountOff       *int64     `json:"amount_off"`
	Currency        *string    `json:"currency"`
	Duration        string     `json:"duration"`
	DurationPeriods *int       `json:"duration_periods"`
	ValidTill       *Timestamp `json:"valid_till"`
	Status          string     `json:"status"`
	Created         Timestamp  `json:"created"`
}

func couponBodyOf(c *ent.Coupon) couponBody {
	b := couponBody{ID: c.ID, Code: c.Code, Name: c.Name, DiscountType: string(c.DiscountType), PercentOffBps: c.PercentOffBps,
		AmountOff: c.AmountOff, Duration: string(c.Duration), DurationPeriods: c.DurationPeriods,
		ValidTill: timestampOf(c.ValidTill), Status: string(c.Status), Created: Timestamp(c.CreatedAt)}
	if c.Currency != nil {
		cur := string(*c.Currency)
		b.Currency = &cur
	}
	return b
}

// testClockRequest creates a test clock.
type testClockRequest struct {
	Name       *string   `json:"name"`
	FrozenTime *wireTime `json:"frozen_time"`
}

// testClockAdvanceRequest moves a test clock forward.
type testClockAdvanceRequest struct {
	FrozenTime *wireTime `json:"frozen_time"`
}

// testClockBody is a test clock.
type testClockBody struct {
	ID         string    `json:"id"`
	Name       *string   `json:"name"`
	FrozenTime Timestamp `json:"frozen_time"`
	// FrozenTimeUnix is frozen_time in seconds, as Stripe shows it.
	FrozenTimeUnix int64     `json:"frozen_time_unix"`
	Status         string    `json:"status"`
	Created        Timestamp `json:"created"`
}

func testClockBodyOf(c *ent.TestClock) testClockBody {
	return testClockBody{ID: c.ID, Name: c.Name, FrozenTime: Timestamp(c.FrozenTime), FrozenTimeUnix: c.FrozenTime.Unix(),
		Status: string(c.Status), Created: Timestamp(c.CreatedAt)}
}
