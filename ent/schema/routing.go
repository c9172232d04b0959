package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"switchyard/ent/schema/schematype"
	"switchyard/internal/ids"
)

// RoutingAlgorithm is a routing configuration of a profile (Hyperswitch's
// MerchantRoutingAlgorithm): which connector accounts its payments go to.
// At most one per profile is active, named by the profile's
// routing_algorithm_id. A dynamic one (success-rate or elimination
// routing) is named by the profile's dynamic_routing instead.
type RoutingAlgorithm struct{ ent.Schema }

func (RoutingAlgorithm) Mixin() []ent.Mixin {
	return []ent.Mixin{Owned{Prefix: ids.RoutingAlgorithm}, Listed{Query: "routingAlgorithms"}}
}

func (RoutingAlgorithm) Fields() []ent.Field {
	return []ent.Field{
		fixedID("profile_id"),
		field.String("name").MaxRuneLen(64).NotEmpty().Annotations(entgql.OrderField("NAME")),
		field.String("description").MaxRuneLen(255).Default(""),
		field.Enum("kind").Values("single", "priority", "volume_split", "advanced", "dynamic", "three_ds_decision_rule").Immutable(),
		field.JSON("algorithm", &schematype.RoutingAlgorithm{}).Immutable().Annotations(entgql.Skip()),
		field.Enum("transaction_type").Values("payment", "payout", "three_ds_authentication").Default("payment").Immutable(),
	}
}

func (RoutingAlgorithm) Indexes() []ent.Index {
	return []ent.Index{index.Fields("merchant_id", "profile_id", "created_at")}
}
