package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"switchyard/internal/ids"
)

// The built-in billing engine's tables (docs/subscriptions.md): the
// merchant's catalogue (items with their prices, coupons), its
// subscriptions and their invoices, and the sandbox's test clocks.

// SubscriptionStatuses are Hyperswitch's SubscriptionStatus values.
var SubscriptionStatuses = []string{
	"active", "created", "in_active", "pending", "trial", "paused", "unpaid", "onetime", "cancelled", "failed",
}

// InvoiceStatuses are Hyperswitch's InvoiceStatus values.
var InvoiceStatuses = []string{
	"invoice_created", "payment_pending", "payment_pending_timeout", "payment_succeeded", "payment_failed",
	"payment_canceled", "invoice_paid", "manual_review", "voided",
}

// PeriodUnits are Hyperswitch's PeriodUnit values (capitalised, as on the wire).
var PeriodUnits = []string{"Day", "Week", "Month", "Year"}

// SubscriptionItem is a plan or an addon of the merchant's catalogue
// (Hyperswitch's subscription item); a subscription's plan_id is an item id.
type SubscriptionItem struct{ ent.Schema }

func (SubscriptionItem) Mixin() []ent.Mixin {
	return []ent.Mixin{Owned{Prefix: ids.SubscriptionItem}, Listed{Query: "subscriptionItems"}}
}

func (SubscriptionItem) Fields() []ent.Field {
	return []ent.Field{
		field.Enum("item_type").Values("plan", "addon").Default("plan"),
		field.String("name").MaxRuneLen(255).NotEmpty().Annotations(entgql.OrderField("NAME")),
		optString("description", 1024),
		optString("product_id", 64),
		field.Enum("status").Values("active", "archived").Default("active"),
		jsonMap("metadata"),
	}
}

func (SubscriptionItem) Edges() []ent.Edge {
	return []ent.Edge{edge.To("prices", ItemPrice.Type).Annotations(entgql.RelayConnection())}
}

func (SubscriptionItem) Indexes() []ent.Index {
	return []ent.Index{index.Fields("merchant_id", "item_type", "created_at", "id")}
}

// ItemPrice is one price of an item: an amount charged every
// interval_count intervals, with an optional trial.
type ItemPrice struct{ ent.Schema }

func (ItemPrice) Mixin() []ent.Mixin {
	return []ent.Mixin{Owned{Prefix: ids.ItemPrice}, Listed{Query: Unqueried}}
}

func (ItemPrice) Fields() []ent.Field {
	return []ent.Field{
		fixedID("item_id"),
		field.Int64("amount").NonNegative().Annotations(entgql.OrderField("AMOUNT")),
		currency(),
		field.Enum("interval").Values(PeriodUnits...).Default("Month"),
		field.Int("interval_count").Positive().Default(1),
		field.Int("trial_period").NonNegative().Optional().Nillable(),
		field.Enum("trial_period_unit").Values(PeriodUnits...).Optional().Nillable(),
		field.Enum("status").Values("active", "archived").Default("active"),
	}
}

func (ItemPrice) Edges() []ent.Edge {
	return []ent.Edge{edge.From("item", SubscriptionItem.Type).Ref("prices").Field("item_id").
		Unique().Required().Immutable()}
}

func (ItemPrice) Indexes() []ent.Index {
	return []ent.Index{index.Fields("item_id", "created_at")}
}

// Coupon is a discount a subscription may carry by its code: a percentage
// (in basis points) or a fixed amount, for one invoice, a number of
// invoices or all of them.
type Coupon struct{ ent.Schema }

func (Coupon) Mixin() []ent.Mixin {
	return []ent.Mixin{Owned{Prefix: ids.Coupon}, Listed{Query: "coupons"}}
}

func (Coupon) Fields() []ent.Field {
	return []ent.Field{
		field.String("code").MaxRuneLen(64).NotEmpty().Immutable().Annotations(entgql.OrderField("CODE")),
		optString("name", 255),
		field.Enum("discount_type").Values("percentage", "fixed_amount"),
		// percent_off_bps: 2500 is 25%.
		field.Int("percent_off_bps").Range(0, 10000).Optional().Nillable(),
		field.Int64("amount_off").NonNegative().Optional().Nillable(),
		optCurrency(),
		field.Enum("duration").Values("once", "limited_period", "forever").Default("once"),
		// duration_periods: how many invoices a limited_period coupon discounts.
		field.Int("duration_periods").Positive().Optional().Nillable(),
		optTime("valid_till"),
		field.Enum("status").Values("active", "archived").Default("active"),
	}
}

func (Coupon) Indexes() []ent.Index {
	return []ent.Index{index.Fields("merchant_id", "code").Unique()}
}

// TestClock is the sandbox's simulated time (Stripe's test clocks): a
// subscription attached to one renews by frozen_time, which the merchant
// moves forward, instead of by the wall clock.
type TestClock struct{ ent.Schema }

func (TestClock) Mixin() []ent.Mixin {
	return []ent.Mixin{Owned{Prefix: ids.TestClock}, Listed{Query: "testClocks"}}
}

func (TestClock) Fields() []ent.Field {
	return []ent.Field{
		optString("name", 255),
		field.Time("frozen_time").SchemaType(timeType).Annotations(entgql.OrderField("FROZEN_TIME")),
		// status is advancing while the invoices an advance made due are
		// being charged, ready once none is left.
		field.Enum("status").Values("ready", "advancing").Default("ready"),
	}
}

// BillingSubscription is a customer's subscription to a plan's item price. Its
// first invoice is paid by a customer-present payment that sets up a
// mandate; each renewal is charged off-session against that mandate.
// It is not named Subscription because GraphQL's subscription root type
// has that name.
type BillingSubscription struct{ ent.Schema }

func (BillingSubscription) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Annotation{Table: "subscriptions"}}
}

func (BillingSubscription) Mixin() []ent.Mixin {
	return []ent.Mixin{Owned{Prefix: ids.Subscription}, Listed{Query: "subscriptions"}}
}

func (BillingSubscription) Fields() []ent.Field {
	return []ent.Field{
		fixedID("profile_id"),
		// customer_id is the merchant's customer id (as on the wire).
		field.String("customer_id").MaxRuneLen(64).NotEmpty(),
		optString("merchant_reference_id", 64),
		field.Enum("status").Values(SubscriptionStatuses...).Default("created").
			Annotations(entgql.OrderField("STATUS")),
		field.String("plan_id").MaxRuneLen(64),
		field.String("item_price_id").MaxRuneLen(64),
		optString("coupon_code", 64),
		// coupon_periods_used counts the invoices the coupon has discounted.
		field.Int("coupon_periods_used").Default(0),
		jsonMap("billing"),
		jsonMap("shipping"),
		optString("return_url", 2048),
		// payment_method_id and mandate_id are what renewals are charged
		// with, recorded when the first invoice is paid.
		optString("payment_method_id", 64),
		optString("mandate_id", 64),
		optString("merchant_connector_id", 64),
		optString("test_clock_id", 64),
		optTime("trial_end"),
		optTime("current_period_start"),
		optTime("current_period_end"),
		// next_billing_at is when the next invoice falls due; nil when none will.
		optTime("next_billing_at"),
		field.Bool("cancel_at_period_end").Default(false),
		optTime("cancel_at"),
		optTime("cancelled_at"),
		optString("cancel_reason_code", 255),
		optTime("pause_at"),
		optTime("paused_at"),
		optTime("resume_at"),
		jsonMap("metadata"),
		field.String("client_secret").MaxRuneLen(128).Sensitive().Annotations(entgql.Skip()),
		field.String("idempotency_key").MaxRuneLen(255).Optional().Nillable().Immutable().Annotations(entgql.Skip()),
		field.String("idempotency_fingerprint").MaxRuneLen(64).Optional().Nillable().Immutable().Annotations(entgql.Skip()),
	}
}

func (BillingSubscription) Edges() []ent.Edge {
	return []ent.Edge{edge.To("invoices", Invoice.Type).Annotations(entgql.RelayConnection())}
}

func (BillingSubscription) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("merchant_id", "idempotency_key").Unique(),
		index.Fields("merchant_id", "profile_id", "created_at", "id"),
		index.Fields("merchant_id", "customer_id", "created_at", "id"),
		index.Fields("test_clock_id"),
	}
}

// Invoice is one billing period of a subscription and what charging it
// came to. due_at is when the renewal worker may next charge it (moved
// forward by each failed try, as dunning schedules); attempt_count counts
// its tries, each paid under an Idempotency-Key derived from the invoice
// and the try, so a crash repeats a try at most as itself. resend_count
// counts the tries' payments that never reached the connector (a crash
// between recording and sending them): each is sent again at once under a
// key of its own, and none counts as a decline for dunning.
type Invoice struct{ ent.Schema }

func (Invoice) Mixin() []ent.Mixin {
	return []ent.Mixin{Owned{Prefix: ids.Invoice}, Listed{Query: "invoices"}, ConnectorError{}}
}

func (Invoice) Fields() []ent.Field {
	return []ent.Field{
		fixedID("subscription_id"),
		fixedID("profile_id"),
		field.String("customer_id").MaxRuneLen(64).NotEmpty(),
		field.Int64("amount").NonNegative().Annotations(entgql.OrderField("AMOUNT")),
		currency(),
		field.Enum("status").Values(InvoiceStatuses...).Default("invoice_created").
			Annotations(entgql.OrderField("STATUS")),
		field.Time("period_start").SchemaType(timeType),
		field.Time("period_end").SchemaType(timeType),
		field.Time("due_at").SchemaType(timeType).Annotations(entgql.OrderField("DUE_AT")),
		optString("test_clock_id", 64),
		field.Int("attempt_count").Default(0),
		field.Int("resend_count").Default(0).Annotations(entgql.Skip()),
		// claimed_until: a worker that claimed the invoice owns its try until
		// then; a crash leaves the claim to lapse and the try to be resumed.
		optTime("claimed_until"),
		optString("payment_intent_id", 64),
		optString("payment_method_id", 64),
		optString("merchant_connector_id", 64),
		optString("billing_processor_invoice_id", 64),
		hiddenJSON("line_items", []map[string]any{}),
		optTime("paid_at"),
	}
}

func (Invoice) Edges() []ent.Edge {
	return []ent.Edge{edge.From("subscription", BillingSubscription.Type).Ref("invoices").Field("subscription_id").
		Unique().Required().Immutable()}
}

func (Invoice) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("subscription_id", "created_at"),
		// The renewal worker's claim: due invoices, oldest due first.
		index.Fields("status", "due_at"),
		index.Fields("test_clock_id", "status", "due_at"),
	}
}
