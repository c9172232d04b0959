package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"switchyard/ent/schema/schematype"
	"switchyard/internal/ids"
)

// EventTypes is the spec's event type set.
var EventTypes = []string{
	"payment_succeeded", "payment_failed", "payment_processing", "payment_cancelled",
	"payment_cancelled_post_capture", "payment_authorized", "payment_partially_authorized",
	"payment_captured", "payment_expired", "action_required", "refund_succeeded", "refund_failed",
	"dispute_opened", "dispute_expired", "dispute_accepted", "dispute_cancelled", "dispute_challenged",
	"dispute_won", "dispute_lost", "mandate_active", "mandate_revoked", "payout_success",
	"payout_failed", "payout_initiated", "payout_processing", "payout_cancelled", "payout_expired",
	"payout_reversed", "invoice_paid",
	// Switchyard's subscription events (docs/subscriptions.md); Hyperswitch
	// names only invoice_paid.
	"invoice_payment_failed", "subscription_created", "subscription_active", "subscription_paused",
	"subscription_resumed", "subscription_cancelled", "subscription_unpaid",
}

// Event is an outgoing webhook event, written in the same transaction as the
// status change it reports (transactional outbox).
type Event struct{ ent.Schema }

func (Event) Mixin() []ent.Mixin {
	return []ent.Mixin{Owned{Prefix: ids.Event, MerchantEdge: "events"}, Listed{}}
}

func (Event) Fields() []ent.Field {
	return []ent.Field{
		fixedID("profile_id"),
		// object_id is the wire id of the object (payment_id, refund_id, …).
		fixedID("object_id"),
		// payment_intent_id links payment-related events to their payment.
		field.String("payment_intent_id").MaxRuneLen(64).Optional().Nillable().Immutable(),
		field.Enum("event_type").Values(EventTypes...).Immutable(),
		field.Enum("event_class").Values("payments", "refunds", "disputes", "mandates", "payouts", "subscriptions").Immutable(),
		// idempotent_event_id makes at most one initial event per object and type.
		field.String("idempotent_event_id").MaxRuneLen(255).Immutable().Annotations(entgql.Skip()),
		// content is the exact JSON body sent to the merchant.
		field.Text("content").Immutable().Annotations(entgql.Skip()),
		field.Bool("is_delivered").Default(false),
		optTime("primary_object_created_at"),
	}
}

func (Event) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("payment", PaymentIntent.Type).Ref("events").Field("payment_intent_id").
			Unique().Immutable(),
		edge.To("delivery_attempts", EventDeliveryAttempt.Type).Annotations(entgql.RelayConnection()),
		edge.To("delivery_task", WebhookDeliveryTask.Type).Unique(),
	}
}

func (Event) Indexes() []ent.Index {
	return []ent.Index{
		// The event log of one profile, newest first, and its count.
		index.Fields("merchant_id", "profile_id", "created_at", "id"),
		index.Fields("merchant_id", "idempotent_event_id").Unique(),
		index.Fields("merchant_id", "object_id", "created_at"),
		index.Fields("payment_intent_id", "created_at"),
	}
}

// EventDeliveryAttempt records one POST of an event to the merchant.
type EventDeliveryAttempt struct{ ent.Schema }

func (EventDeliveryAttempt) Mixin() []ent.Mixin {
	return []ent.Mixin{Owned{Prefix: ids.DeliveryAttempt}, Listed{Query: Unqueried}}
}

func (EventDeliveryAttempt) Fields() []ent.Field {
	return []ent.Field{
		fixedID("event_id"),
		field.Enum("delivery_attempt").Values("initial_attempt", "automatic_retry", "manual_retry").Immutable(),
		// initial_attempt_id equals event_id for the initial attempt.
		fixedID("initial_attempt_id"),
		field.JSON("request", &schematype.DeliveryRequest{}).Annotations(entgql.Skip()),
		hiddenJSON("response", &schematype.DeliveryResponse{}),
		field.Int("response_status_code").Optional().Nillable(),
		field.Bool("is_delivery_successful").Default(false),
	}
}

func (EventDeliveryAttempt) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("event", Event.Type).Ref("delivery_attempts").Field("event_id").
			Unique().Required().Immutable(),
	}
}

func (EventDeliveryAttempt) Indexes() []ent.Index {
	return []ent.Index{index.Fields("event_id", "created_at", "id")}
}

// WebhookDeliveryTask is the outbox entry a delivery worker claims
// (SELECT … FOR UPDATE SKIP LOCKED on status and next_attempt_at).
type WebhookDeliveryTask struct{ ent.Schema }

func (WebhookDeliveryTask) Mixin() []ent.Mixin { return []ent.Mixin{Owned{Prefix: ids.WebhookTask}} }

func (WebhookDeliveryTask) Fields() []ent.Field {
	return []ent.Field{
		fixedID("event_id"),
		field.Enum("status").Values("pending", "delivered", "exhausted", "disabled").Default("pending"),
		field.Int("retry_count").Default(0),
		field.Time("next_attempt_at").SchemaType(timeType),
		optTime("locked_until"),
		optText("last_error"),
	}
}

func (WebhookDeliveryTask) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("event", Event.Type).Ref("delivery_task").Field("event_id").
			Unique().Required().Immutable(),
	}
}

func (WebhookDeliveryTask) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("event_id").Unique(),
		index.Fields("status", "next_attempt_at"),
	}
}

func (WebhookDeliveryTask) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
