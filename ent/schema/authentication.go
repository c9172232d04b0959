package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"switchyard/internal/ids"
)

// AuthenticationStatuses are Hyperswitch's AuthenticationStatus values.
var AuthenticationStatuses = []string{"started", "pending", "success", "failed"}

// Authentication is an external 3-D Secure authentication run as a service
// (Hyperswitch's /authentication resource), apart from any payment. Its id
// is the merchant-facing authentication_id (authn_…). The card is kept
// masked (last4, BIN, network, expiry): its number waits sealed in the vault
// between eligibility and authenticate, and the CAVV the 3-D Secure server
// answers is kept sealed (cavv_sealed), never in a plain column.
type Authentication struct{ ent.Schema }

func (Authentication) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Annotation{Table: "authentications"}}
}

func (Authentication) Mixin() []ent.Mixin {
	return []ent.Mixin{Owned{Prefix: ids.Authentication}, Listed{Query: Unqueried}, ConnectorError{}}
}

func (Authentication) Fields() []ent.Field {
	return []ent.Field{
		fixedID("profile_id"),
		field.Enum("status").Values(AuthenticationStatuses...).Default("started"),
		field.Int64("amount"),
		currency(),
		// authentication_connector is the AuthenticationConnectors name of
		// the account that runs it, merchant_connector_id that account.
		optString("authentication_connector", 64),
		optString("merchant_connector_id", 64),
		optString("return_url", 2048),
		field.Bool("force_3ds_challenge").Default(false),
		optString("psd2_sca_exemption_type", 32),
		optString("profile_acquirer_id", 64),
		jsonMap("acquirer_details"),
		jsonMap("customer_details"),
		jsonMap("billing"),
		jsonMap("shipping"),
		jsonMap("browser_information"),
		optString("email", 255),
		field.String("client_secret").MaxRuneLen(128).Sensitive().Annotations(entgql.Skip()),
		// The card, masked.
		optString("card_last4", 4),
		optString("card_bin", 8),
		optString("card_network", 32),
		optString("card_exp_month", 2),
		optString("card_exp_year", 4),
		// trans_status is EMV 3-D Secure's transStatus (Y, N, A, U, C, R).
		optString("trans_status", 1),
		optString("eci", 2),
		// cavv_sealed is the CAVV (authentication_value), sealed with the
		// secrets box: card data, never stored in plain.
		field.Bytes("cavv_sealed").Optional().Sensitive().Annotations(entgql.Skip()),
		optString("ds_trans_id", 64),
		optString("acs_trans_id", 64),
		optString("threeds_server_transaction_id", 64),
		optString("message_version", 16),
		optString("acs_url", 2048),
		optText("challenge_request"),
		// eligibility_check_data is what POST …/eligibility-check recorded.
		jsonMap("eligibility_check_data"),
		optTime("authenticated_at"),
	}
}

func (Authentication) Indexes() []ent.Index {
	return []ent.Index{index.Fields("merchant_id", "profile_id", "created_at", "id")}
}
