package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"switchyard/internal/ids"
)

// GsmRule is one of a merchant's Global Status Mapping rules (Hyperswitch's
// GSM): what a connector's error (connector, flow, sub-flow, code,
// message) means, above all whether a payment it failed is retried on the
// next connector of its route.
type GsmRule struct{ ent.Schema }

func (GsmRule) Mixin() []ent.Mixin {
	return []ent.Mixin{Owned{Prefix: ids.GsmRule}, Listed{Query: "gsmRules"}}
}

func (GsmRule) Fields() []ent.Field {
	return []ent.Field{
		field.String("connector").MaxRuneLen(64).NotEmpty().Immutable(),
		field.String("flow").MaxRuneLen(64).Immutable(),
		field.String("sub_flow").MaxRuneLen(64).Immutable(),
		field.String("code").MaxRuneLen(255).Immutable(),
		field.Text("message").Immutable(),
		// lookup_key is a hash of the five fields above: the unique key a
		// failure is looked up by (the message is too long to index whole).
		field.String("lookup_key").MaxRuneLen(64).NotEmpty().Immutable().Annotations(entgql.Skip()),
		field.String("status").MaxRuneLen(64),
		optString("router_error", 255),
		field.Enum("decision").Values("retry", "do_default"),
		field.Bool("step_up_possible").Default(false),
		field.Bool("clear_pan_possible").Default(false),
		field.Bool("alternate_network_possible").Default(false),
		optString("unified_code", 255),
		optString("unified_message", 1024),
		field.Enum("error_category").Values("frm_decline", "processor_downtime", "processor_decline_unauthorized",
			"issue_with_payment_method", "processor_decline_incorrect_data", "hard_decline", "soft_decline").
			Optional().Nillable(),
		optString("standardised_code", 64),
		optText("description"),
		optText("user_guidance_message"),
	}
}

func (GsmRule) Indexes() []ent.Index {
	return []ent.Index{index.Fields("merchant_id", "lookup_key").Unique()}
}
