package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"switchyard/ent/schema/schematype"
	"switchyard/internal/ids"
)

// IncomingWebhook is one webhook a connector sent about one of the
// merchant's objects (payments/inbound). It names the object and what
// became of the webhook, never card data; the unique index on the
// connector's event id per connector account is what makes a replay change
// nothing.
type IncomingWebhook struct{ ent.Schema }

func (IncomingWebhook) Mixin() []ent.Mixin { return []ent.Mixin{Owned{Prefix: ids.IncomingWebhook}} }

func (IncomingWebhook) Fields() []ent.Field {
	return []ent.Field{
		fixedID("connector_account_id"),
		field.String("connector_event_id").MaxRuneLen(255).NotEmpty().Immutable(),
		field.String("event_type").MaxRuneLen(64).Immutable(),
		field.Enum("object_type").Values("payment", "refund", "dispute", "payout").Immutable(),
		field.String("object_reference").MaxRuneLen(255).Immutable(),
		// outcome: synced (the object was asked about and settled as its
		// sync says) or not_found (no object of the merchant has that
		// reference: acknowledged, nothing changed).
		field.Enum("outcome").Values("synced", "not_found"),
		optString("object_id", 64),
	}
}

func (IncomingWebhook) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("connector_account_id", "connector_event_id").Unique(),
		keyset(),
	}
}

func (IncomingWebhook) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// Relay is a refund sent straight to a connector account for a payment
// made outside Switchyard, named by the connector's transaction id
// (Hyperswitch's relay; payments/relay). Pending is recorded before the
// connector is called, so a crash leaves a row recovery can settle.
type Relay struct{ ent.Schema }

func (Relay) Mixin() []ent.Mixin { return []ent.Mixin{Owned{Prefix: ids.Relay}} }

func (Relay) Fields() []ent.Field {
	return []ent.Field{
		fixedID("profile_id"),
		fixedID("connector_account_id"),
		field.String("connector_resource_id").MaxRuneLen(255).NotEmpty().Immutable(),
		field.Enum("type").Values("refund").Immutable(),
		field.Int64("amount").Immutable(),
		field.Enum("currency").GoType(schematype.Currency("")).Immutable(),
		optString("reason", 255),
		field.Enum("status").Values("created", "pending", "success", "failure").Default("created"),
		optString("error_code", 255),
		optText("error_message"),
		optString("connector_reference_id", 255),
		field.String("idempotency_key").MaxRuneLen(255).NotEmpty().Immutable(),
	}
}

func (Relay) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("merchant_id", "profile_id", "idempotency_key").Unique(),
		keyset(),
		// The recovery pass looks for relays left pending across merchants.
		index.Fields("status", "modified_at"),
	}
}

func (Relay) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
