package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"switchyard/ent/schema/schematype"
	"switchyard/internal/ids"
)

// Customer is a merchant's customer. customer_id is the merchant-facing id
// (supplied by the merchant or equal to id) and unique per merchant.
type Customer struct{ ent.Schema }

func (Customer) Mixin() []ent.Mixin { return []ent.Mixin{Owned{Prefix: ids.Customer}, Listed{}} }

func (Customer) Fields() []ent.Field {
	return []ent.Field{
		fixedID("customer_id"),
		optString("name", 255),
		optString("email", 255),
		optString("phone", 255),
		optString("phone_country_code", 255),
		optString("description", 255),
		hiddenJSON("address", &schematype.Address{}),
		// shipping_address is v2's default_shipping_address (address is the
		// billing one).
		hiddenJSON("shipping_address", &schematype.Address{}),
		jsonMap("metadata"),
		optString("default_payment_method_id", 64),
		optString("tax_registration_id", 255),
		hiddenJSON("document_details", &schematype.CustomerDocument{}),
		// redacted_at is when DELETE /customers/{id} redacted the customer's
		// personal data; its payments stay.
		field.Time("redacted_at").Optional().Nillable(),
	}
}

func (Customer) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("payments", PaymentIntent.Type).Annotations(entgql.RelayConnection()),
		edge.To("payment_methods", PaymentMethod.Type),
		edge.To("mandates", Mandate.Type),
	}
}

func (Customer) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("merchant_id", "customer_id").Unique(),
		// The dashboard's filter by e-mail (payments and customers) reads
		// the merchant's addresses from here, not from the rows.
		index.Fields("merchant_id", "email"),
	}
}

// PaymentMethod is a customer's stored method. For cards it keeps the masked
// details and a keyed fingerprint: never the PAN, never the CVC.
type PaymentMethod struct{ ent.Schema }

func (PaymentMethod) Mixin() []ent.Mixin {
	return []ent.Mixin{Owned{Prefix: ids.PaymentMethod}, Listed{Query: Unqueried}}
}

func (PaymentMethod) Fields() []ent.Field {
	return []ent.Field{
		field.String("customer_id").MaxRuneLen(64).Optional().Nillable().Annotations(customerRowID()),
		field.String("payment_method").MaxRuneLen(32),
		optString("payment_method_type", 64),
		hiddenJSON("card", &schematype.CardDetails{}),
		optString("fingerprint", 128),
		field.Enum("status").Values("active", "inactive", "processing", "awaiting_data").Default("active"),
		optString("network_transaction_id", 255),
		field.Bool("recurring_enabled").Default(false),
		jsonMap("metadata"),
		optString("locker_id", 64),
		optTime("last_used_at"),
		// connector_token is the connector's token for the saved card (no
		// number is kept here or anywhere): a later payment with the
		// method's payment_token is charged with it, through
		// merchant_connector_id, the account that issued it.
		field.String("connector_token").MaxRuneLen(255).Optional().Nillable().Sensitive().Annotations(entgql.Skip()),
		optString("merchant_connector_id", 64),
	}
}

func (PaymentMethod) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("customer", Customer.Type).Ref("payment_methods").Field("customer_id").Unique(),
	}
}

func (PaymentMethod) Indexes() []ent.Index {
	return []ent.Index{index.Fields("merchant_id", "customer_id", "created_at", "id")}
}
