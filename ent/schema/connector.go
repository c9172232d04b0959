package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"switchyard/internal/ids"
)

// MerchantConnectorAccount links a profile to a processor (or another kind of
// provider). Credentials, webhook secrets and wallet details are sealed with
// the master key; the API shows them masked.
type MerchantConnectorAccount struct{ ent.Schema }

func (MerchantConnectorAccount) Mixin() []ent.Mixin {
	return []ent.Mixin{Owned{Prefix: ids.ConnectorAccount, MerchantEdge: "connector_accounts"},
		Listed{Query: "connectorAccounts"}}
}

func (MerchantConnectorAccount) Fields() []ent.Field {
	return []ent.Field{
		fixedID("profile_id"),
		field.Enum("connector_type").Values(
			"payment_processor", "payment_vas", "fin_operations", "fiz_operations", "networks",
			"banking_entities", "non_banking_finance", "payout_processor", "payment_method_auth",
			"authentication_processor", "tax_processor", "billing_processor", "vault_processor"),
		// connector_name is checked against the closed connector list by the domain.
		field.String("connector_name").MaxRuneLen(64).NotEmpty().
			Annotations(entgql.OrderField("CONNECTOR_NAME")),
		field.String("connector_label").MaxRuneLen(255).NotEmpty(),
		field.Bytes("connector_account_details_sealed").Optional().Sensitive(),
		field.Bytes("connector_webhook_details_sealed").Optional().Sensitive(),
		field.Bytes("connector_wallets_details_sealed").Optional().Sensitive(),
		hiddenJSON("payment_methods_enabled", []map[string]any{}),
		jsonMap("metadata"),
		field.Bool("test_mode").Default(false),
		field.Bool("disabled").Default(false),
		hiddenJSON("frm_configs", []map[string]any{}),
		optString("business_country", 2),
		optString("business_label", 64),
		optString("business_sub_label", 64),
		jsonMap("pm_auth_config"),
		field.Enum("status").Values("inactive", "active").Default("active"),
		jsonMap("additional_merchant_data"),
		field.JSON("applepay_verified_domains", []string{}).Optional(),
	}
}

func (MerchantConnectorAccount) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("profile", Profile.Type).Ref("connector_accounts").Field("profile_id").
			Unique().Required().Immutable(),
	}
}

func (MerchantConnectorAccount) Indexes() []ent.Index {
	return []ent.Index{
		// connector_label is unique per profile (HE_01 on a clash).
		index.Fields("profile_id", "connector_label").Unique(),
	}
}
