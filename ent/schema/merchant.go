package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"

	"switchyard/ent/schema/schematype"
	"switchyard/internal/ids"
	"switchyard/internal/tenancy"
)

// MerchantAccount is a merchant: the tenant every other row belongs to. Its
// id is the merchant_id of the wire API.
type MerchantAccount struct{ ent.Schema }

func (MerchantAccount) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

func (MerchantAccount) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").MaxRuneLen(64).NotEmpty().Immutable(),
		optString("merchant_name", 255),
		field.JSON("merchant_details", map[string]any{}).Optional().Annotations(entgql.Type("Map")),
		optString("return_url", 2048),
		hiddenJSON("webhook_details", &schematype.WebhookDetails{}),
		field.Bool("enable_payment_response_hash").Default(true),
		field.Bool("redirect_to_merchant_with_http_post").Default(false),
		field.String("publishable_key").MaxRuneLen(128).Unique().Immutable(),
		optString("default_profile_id", 64),
		optString("organization_id", 64),
		jsonMap("metadata"),
		hiddenJSON("primary_business_details", []map[string]any{}),
		optString("locker_id", 64),
		field.Enum("merchant_account_type").Values("standard", "platform", "connected").Default("standard"),
		field.Bool("is_recon_enabled").Default(false),
		field.Bool("is_platform_account").Default(false),
		// time_zone is the merchant's IANA time zone: the dashboard's days,
		// its home page's ranges and the times it shows are local to it.
		// Not a Hyperswitch member; the REST merchant account neither takes
		// nor shows it.
		field.String("time_zone").MaxRuneLen(64).NotEmpty().Default("UTC"),
		// blocklist_guard_enabled: a confirm refuses a card the merchant's
		// blocklist holds (POST /blocklist/toggle; Hyperswitch keeps it as
		// the config guard_blocklist_for_<merchant_id>).
		field.Bool("blocklist_guard_enabled").Default(false),
	}
}

func (MerchantAccount) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("profiles", Profile.Type).Annotations(entgql.RelayConnection()),
		edge.To("api_keys", APIKey.Type).Annotations(entgql.RelayConnection()),
		edge.To("connector_accounts", MerchantConnectorAccount.Type).Annotations(entgql.RelayConnection()),
		edge.To("events", Event.Type).Annotations(entgql.RelayConnection()),
	}
}

func (MerchantAccount) Interceptors() []ent.Interceptor {
	return []ent.Interceptor{scopeQueries("id")}
}

func (MerchantAccount) Hooks() []ent.Hook { return []ent.Hook{tenancy.Hook("id")} }

func (MerchantAccount) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.QueryField("merchantAccounts"), entgql.RelayConnection()}
}

// Profile is a business profile of a merchant (Hyperswitch's ProfileCreate):
// webhook settings, the response-hash key, return URL and session expiry.
type Profile struct{ ent.Schema }

func (Profile) Mixin() []ent.Mixin {
	return []ent.Mixin{Owned{Prefix: ids.Profile, MerchantEdge: "profiles"}, Listed{Query: Unqueried}}
}

func (Profile) Fields() []ent.Field {
	return []ent.Field{
		field.String("profile_name").MaxRuneLen(64).NotEmpty().Annotations(entgql.OrderField("PROFILE_NAME")),
		field.Bool("is_default").Default(false),
		optString("return_url", 2048),
		field.Bool("enable_payment_response_hash").Default(true),
		// payment_response_hash_key is sealed with the master key: it signs webhooks.
		field.Bytes("payment_response_hash_key_sealed").Sensitive(),
		field.Bool("redirect_to_merchant_with_http_post").Default(false),
		hiddenJSON("webhook_details", &schematype.WebhookDetails{}),
		jsonMap("metadata"),
		field.Int64("session_expiry").Default(900).NonNegative(),
		hiddenJSON("authentication_connector_details", map[string]any{}),
		// payment_link_config is Hyperswitch's BusinessPaymentLinkConfig, kept
		// as given: the defaults of the profile's payment links.
		hiddenJSON("payment_link_config", map[string]any{}),
		field.Bool("is_connector_agnostic_mit_enabled").Default(false),
		field.Bool("use_billing_as_payment_method_billing").Default(true),
		field.Bool("collect_shipping_details_from_wallet_connector").Default(false),
		field.Bool("collect_billing_details_from_wallet_connector").Default(false),
		field.Bool("always_collect_shipping_details_from_wallet_connector").Default(false),
		field.Bool("always_collect_billing_details_from_wallet_connector").Default(false),
		field.Bool("is_tax_connector_enabled").Default(false),
		field.Bool("is_network_tokenization_enabled").Default(false),
		field.Bool("is_auto_retries_enabled").Default(false),
		field.Int("max_auto_retries_enabled").Optional().Nillable(),
		// is_manual_retry_enabled lets a failed payment be confirmed again
		// with another payment method (Hyperswitch's manual retry); unset
		// is off, and is shown as null.
		field.Bool("is_manual_retry_enabled").Optional().Nillable(),
		field.Bool("is_click_to_pay_enabled").Default(false),
		field.Bool("force_3ds_challenge").Default(false),
		field.String("intent_fulfillment_time").MaxRuneLen(255).Optional().Annotations(entgql.Skip()),
		field.Bool("is_iframe_redirection_enabled").Default(false),
		// routing_algorithm_id is the active routing configuration; none
		// routes by the default fallback.
		field.String("routing_algorithm_id").MaxRuneLen(64).Optional().Nillable().Annotations(entgql.Skip()),
		// payout_routing_algorithm_id is the active payout routing
		// configuration (transaction_type payout); none routes payouts to
		// the profile's payout processors that take the method, oldest first.
		field.String("payout_routing_algorithm_id").MaxRuneLen(64).Optional().Nillable().Annotations(entgql.Skip()),
		// default_fallback orders the profile's connector accounts when no
		// configuration is active, and after the active one's choices.
		hiddenJSON("default_fallback", []schematype.RoutableConnector{}),
		// dynamic_routing names the profile's success-rate and elimination
		// configurations and the feature each is enabled with
		// (Hyperswitch's dynamic_routing_algorithm); none when never toggled.
		hiddenJSON("dynamic_routing", &schematype.DynamicRouting{}),
	}
}

func (Profile) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("connector_accounts", MerchantConnectorAccount.Type).Annotations(entgql.RelayConnection()),
	}
}

// Annotations: a top-level query too, in one order only.
func (Profile) Annotations() []schema.Annotation { return []schema.Annotation{entgql.QueryField()} }

// APIKey is a merchant secret key. Only a keyed hash and a short prefix are
// kept; the key itself is shown once, when it is created.
type APIKey struct{ ent.Schema }

func (APIKey) Mixin() []ent.Mixin {
	return []ent.Mixin{Owned{Prefix: ids.APIKey, MerchantEdge: "api_keys"}, Listed{Query: Unqueried}}
}

func (APIKey) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").MaxRuneLen(64).NotEmpty(),
		optString("description", 256),
		// prefix is the first characters of the key, for recognising it.
		field.String("prefix").MaxRuneLen(16).Immutable(),
		// hash is the keyed HMAC of the whole key; lookups go through it.
		field.String("hash").MaxRuneLen(128).Unique().Immutable().Sensitive(),
		optTime("expires_at"),
		optTime("revoked_at"),
		field.Time("last_used_at").Optional().Nillable().SchemaType(timeType).Annotations(entgql.Skip()),
	}
}
