package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"switchyard/internal/ids"
)

// Refund returns captured money. refund_id is the merchant-facing id (given
// by the merchant or equal to id) and unique per merchant.
type Refund struct{ ent.Schema }

func (Refund) Mixin() []ent.Mixin {
	return []ent.Mixin{Owned{Prefix: ids.Refund}, OfPayment{Ref: "refunds"}, Listed{},
		ConnectorError{Unified: true}}
}

func (Refund) Fields() []ent.Field {
	return []ent.Field{
		fixedID("refund_id"),
		fixedID("attempt_id"),
		fixedID("profile_id"),
		optString("merchant_connector_id", 64),
		field.String("connector").MaxRuneLen(64),
		optString("connector_refund_id", 255),
		field.Int64("amount").Annotations(entgql.OrderField("AMOUNT")),
		currency(),
		field.Enum("refund_type").Values("scheduled", "instant").Default("instant"),
		field.Enum("status").Values("succeeded", "failed", "pending", "review").Default("pending").
			Annotations(entgql.OrderField("STATUS")),
		optString("reason", 255),
		jsonMap("metadata"),
		jsonMap("split_refunds"),
		optText("raw_connector_response"),
	}
}

func (Refund) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("merchant_id", "refund_id").Unique(),
		// The recovery pass looks for refunds left pending across merchants.
		index.Fields("status", "modified_at"),
		// Refund analytics (payments/analytics) read this index alone.
		index.Fields("merchant_id", "created_at", "profile_id", "status", "currency", "amount").
			StorageKey("refund_analytics"),
		// A connector's webhook names its refund by the connector refund id
		// (payments.SyncRefundOfConnector).
		index.Fields("merchant_id", "connector_refund_id"),
	}
}

// Dispute is a chargeback (or its earlier or later stages) on a payment.
type Dispute struct{ ent.Schema }

func (Dispute) Mixin() []ent.Mixin {
	return []ent.Mixin{Owned{Prefix: ids.Dispute}, OfPayment{Ref: "disputes"}, Listed{}}
}

func (Dispute) Fields() []ent.Field {
	return []ent.Field{
		fixedID("attempt_id"),
		fixedID("profile_id"),
		optString("merchant_connector_id", 64),
		field.Int64("amount"),
		currency(),
		field.Enum("dispute_stage").Values("pre_dispute", "dispute", "pre_arbitration", "arbitration", "dispute_reversal").
			Default("dispute"),
		field.Enum("dispute_status").Values("dispute_opened", "dispute_expired", "dispute_accepted",
			"dispute_cancelled", "dispute_challenged", "dispute_won", "dispute_lost").Default("dispute_opened"),
		field.String("connector").MaxRuneLen(64),
		field.String("connector_status").MaxRuneLen(255),
		field.String("connector_dispute_id").MaxRuneLen(255),
		optString("connector_reason", 255),
		optString("connector_reason_code", 255),
		optTime("challenge_required_by"),
		optTime("connector_created_at"),
		optTime("connector_updated_at"),
		jsonMap("evidence"),
		// evidence_pending_since is set while a submission of the evidence
		// is on its way to the connector (reserved, not yet settled; see
		// payments/disputes_evidence.go), so a crash leaves a row to find.
		// It is internal: the wire has no such status.
		field.Time("evidence_pending_since").Optional().Nillable().SchemaType(timeType).Annotations(entgql.Skip()),
	}
}

func (Dispute) Indexes() []ent.Index {
	return []ent.Index{
		// Dispute analytics (payments/analytics) read this index alone.
		index.Fields("merchant_id", "created_at", "profile_id", "dispute_status").StorageKey("dispute_analytics"),
		// The decision pass looks for challenged disputes across merchants,
		// the oldest first; the recovery pass for submissions left pending.
		index.Fields("dispute_status", "connector_updated_at"),
		index.Fields("evidence_pending_since"),
		// A connector's dispute webhook names the dispute by its own id.
		index.Fields("merchant_id", "connector_dispute_id"),
	}
}

// Mandate is a customer's standing permission for merchant-initiated payments.
type Mandate struct{ ent.Schema }

func (Mandate) Mixin() []ent.Mixin { return []ent.Mixin{Owned{Prefix: ids.Mandate}, Listed{}} }

func (Mandate) Fields() []ent.Field {
	return []ent.Field{
		// customer_id holds the internal id of the customer row (cus_…).
		field.String("customer_id").MaxRuneLen(64).Annotations(customerRowID()),
		optString("payment_method_id", 64),
		optString("original_payment_id", 64),
		field.Enum("status").Values("active", "inactive", "pending", "revoked").Default("pending"),
		field.Enum("mandate_type").Values("single_use", "multi_use"),
		field.Int64("amount").Optional().Nillable(),
		optCurrency(),
		optTime("start_date"),
		optTime("end_date"),
		jsonMap("customer_acceptance"),
		optString("connector", 64),
		optString("merchant_connector_id", 64),
		optString("connector_mandate_id", 255),
		optString("network_transaction_id", 255),
		jsonMap("metadata"),
	}
}

func (Mandate) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("customer", Customer.Type).Ref("mandates").Field("customer_id").Unique().Required(),
	}
}

func (Mandate) Indexes() []ent.Index {
	return []ent.Index{index.Fields("merchant_id", "customer_id", "created_at", "id")}
}
