package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"switchyard/internal/ids"
)

// PayoutStatuses are Hyperswitch's PayoutStatus values.
var PayoutStatuses = []string{
	"requires_creation", "requires_confirmation", "requires_payout_method_data", "requires_fulfillment",
	"initiated", "pending", "success", "failed", "cancelled", "ineligible",
	"requires_vendor_account_creation", "reversed", "expired",
}

// Payout sends money from the merchant to a card, bank account or wallet.
// Its id is the merchant-facing payout_id (payout_…). The payout method is
// kept masked (last4, bank last4, a masked e-mail): card numbers live only
// in the vault, between create and confirm, and at the connector.
type Payout struct{ ent.Schema }

func (Payout) Mixin() []ent.Mixin {
	return []ent.Mixin{Owned{Prefix: ids.Payout}, Listed{}, ConnectorError{Unified: true}}
}

func (Payout) Fields() []ent.Field {
	return []ent.Field{
		fixedID("profile_id"),
		// customer_id is the merchant's customer id (as on the wire).
		optString("customer_id", 64),
		optString("merchant_order_reference_id", 255),
		field.Int64("amount").Annotations(entgql.OrderField("AMOUNT")),
		currency(),
		field.Enum("status").Values(PayoutStatuses...).Default("requires_payout_method_data").
			Annotations(entgql.OrderField("STATUS")),
		field.Enum("payout_type").Values("card", "bank", "wallet", "bank_redirect").Optional().Nillable(),
		optString("payout_method_type", 64),
		// payout_method_data is the masked payout method, as the response shows it.
		jsonMap("payout_method_data"),
		optString("payout_token", 64),
		jsonMap("billing"),
		jsonMap("customer_details"),
		field.Bool("auto_fulfill").Default(false),
		field.Bool("recurring").Default(false),
		field.String("entity_type").MaxRuneLen(32).Default("Individual"),
		optString("priority", 32),
		optString("description", 1024),
		optString("return_url", 2048),
		optString("business_country", 2),
		optString("business_label", 64),
		jsonMap("metadata"),
		optString("connector", 64),
		optString("merchant_connector_id", 64),
		optString("connector_transaction_id", 255),
		optString("active_attempt_id", 64),
		field.Int("attempt_count").Default(0),
		field.String("client_secret").MaxRuneLen(128).Sensitive().Annotations(entgql.Skip()),
		optTime("client_secret_expires_at"),
		field.String("idempotency_key").MaxRuneLen(255).Optional().Nillable().Immutable().Annotations(entgql.Skip()),
		field.String("idempotency_fingerprint").MaxRuneLen(64).Optional().Nillable().Immutable().Annotations(entgql.Skip()),
	}
}

func (Payout) Edges() []ent.Edge {
	return []ent.Edge{edge.To("attempts", PayoutAttempt.Type).Annotations(entgql.RelayConnection())}
}

func (Payout) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("merchant_id", "idempotency_key").Unique(),
		index.Fields("merchant_id", "profile_id", "created_at", "id"),
		index.Fields("merchant_id", "customer_id", "created_at", "id"),
		// The expiry sweep's: waiting payouts past their session.
		index.Fields("status", "client_secret_expires_at"),
	}
}

// PayoutAttempt is one try of a payout at one connector account. It is
// initiated (reserved) before the money-moving call, so a crash leaves it
// for the recovery pass to settle through the connector's sync.
type PayoutAttempt struct{ ent.Schema }

func (PayoutAttempt) Mixin() []ent.Mixin {
	return []ent.Mixin{Owned{Prefix: ids.PayoutAttempt}, Listed{Query: Unqueried}, ConnectorError{Unified: true}}
}

func (PayoutAttempt) Fields() []ent.Field {
	return []ent.Field{
		fixedID("payout_id"),
		fixedID("profile_id"),
		field.Enum("status").Values(PayoutStatuses...).Default("requires_creation").
			Annotations(entgql.OrderField("STATUS")),
		field.Int64("amount"),
		currency(),
		field.String("connector").MaxRuneLen(64),
		field.String("merchant_connector_id").MaxRuneLen(64),
		optString("connector_transaction_id", 255),
		field.Enum("payout_type").Values("card", "bank", "wallet", "bank_redirect").Optional().Nillable(),
		optString("payout_method_type", 64),
		optString("cancellation_reason", 255),
	}
}

func (PayoutAttempt) Edges() []ent.Edge {
	return []ent.Edge{edge.From("payout", Payout.Type).Ref("attempts").Field("payout_id").
		Unique().Required().Immutable()}
}

func (PayoutAttempt) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("payout_id", "created_at"),
		// The recovery pass looks for attempts left initiated or pending.
		index.Fields("status", "modified_at"),
		// A connector's webhook names its payout by the connector
		// transaction id (payouts.SyncOfConnector).
		index.Fields("merchant_id", "connector_transaction_id"),
	}
}
