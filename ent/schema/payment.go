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

// IntentStatuses is the spec's payment intent status set (all 16).
var IntentStatuses = []string{
	"succeeded", "failed", "cancelled", "cancelled_post_capture", "processing",
	"requires_customer_action", "requires_merchant_action", "requires_payment_method",
	"requires_confirmation", "requires_capture", "partially_captured",
	"partially_captured_and_capturable", "partially_authorized_and_requires_capture",
	"partially_captured_and_processing", "conflicted", "expired",
}

// CaptureMethods are the spec's capture methods.
var CaptureMethods = []string{"automatic", "manual", "manual_multiple", "scheduled", "sequential_automatic"}

// PaymentIntent is a payment: what the merchant asked to be paid, its status
// and the running money totals. payment_id is the merchant-facing id (given
// by the merchant in v1, or equal to id) and is unique per merchant.
type PaymentIntent struct{ ent.Schema }

func (PaymentIntent) Mixin() []ent.Mixin {
	return []ent.Mixin{Owned{Prefix: ids.Payment}, Listed{Query: "paymentIntents"}}
}

func (PaymentIntent) Fields() []ent.Field {
	return []ent.Field{
		fixedID("payment_id"),
		field.String("profile_id").MaxRuneLen(64).NotEmpty(),
		field.Enum("status").Values(IntentStatuses...).Default("requires_payment_method").
			Annotations(entgql.OrderField("STATUS")),
		// Amounts, all in minor units of currency.
		field.Int64("amount").Annotations(entgql.OrderField("AMOUNT")),
		currency(),
		field.Int64("amount_captured").Default(0),
		// amount_capturable is kept in step with the active attempt and its captures.
		field.Int64("amount_capturable").Default(0),
		// amount_to_capture is what an automatic capture takes (all of the
		// amount when unset); manual captures name their own amount.
		field.Int64("amount_to_capture").Optional().Nillable(),
		field.Int64("shipping_cost").Optional().Nillable(),
		field.Int64("order_tax_amount").Optional().Nillable(),
		field.Int64("surcharge_amount").Optional().Nillable(),
		field.Int64("tax_on_surcharge").Optional().Nillable(),
		field.Enum("external_tax_calculation").Values("skip", "calculate").Default("skip"),
		field.Enum("surcharge_calculation").Values("skip", "calculate").Default("skip"),
		field.Enum("capture_method").Values(CaptureMethods...).Default("automatic"),
		optTime("capture_on"),
		field.Enum("authentication_type").Values("three_ds", "no_three_ds").Optional().Nillable(),
		// customer_id holds the internal id of the customer row (cus_…).
		field.String("customer_id").MaxRuneLen(64).Optional().Nillable().Annotations(customerRowID()),
		// customer_details are the name, email and phone the payment was
		// given, with or without a customer (Hyperswitch's intent keeps
		// them too); the customer's own row wins where it has a value.
		hiddenJSON("customer_details", &schematype.CustomerDetails{}),
		field.Enum("customer_present").Values("present", "absent").Optional().Nillable(),
		field.Enum("setup_future_usage").Values("off_session", "on_session").Optional().Nillable(),
		field.Bool("off_session").Optional().Nillable(),
		field.Enum("apply_mit_exemption").Values("Apply", "Skip").Default("Skip"),
		field.Enum("payment_link_enabled").Values("Enable", "Skip").Default("Skip"),
		field.Enum("request_incremental_authorization").Values("true", "false", "default").Default("default").
			Annotations(entgql.Skip()), // "true" and "false" are not valid GraphQL enum values
		field.Enum("split_txns_enabled").Values("enable", "skip").Default("skip"),
		field.Enum("request_external_three_ds_authentication").Values("Enable", "Skip").Default("Skip"),
		// three_ds_data_sealed is the merchant's three_ds_data (the result of
		// a standalone authentication, its cryptogram among it), sealed with
		// the master key until the confirm carries it to the connector.
		field.Bytes("three_ds_data_sealed").Optional().Nillable().Sensitive().Annotations(entgql.Skip()),
		field.Enum("payment_type").Values("normal", "new_mandate", "setup_mandate", "recurring_mandate").Default("normal"),
		field.String("client_secret").MaxRuneLen(128).Sensitive().Annotations(entgql.Skip()),
		// The Idempotency-Key the payment was created under (unique per
		// merchant), and the keyed fingerprint of that request: a retry of
		// the key after a crash finds this payment instead of making another.
		field.String("idempotency_key").MaxRuneLen(255).Optional().Nillable().Immutable().Annotations(entgql.Skip()),
		field.String("idempotency_fingerprint").MaxRuneLen(64).Optional().Nillable().Immutable().Annotations(entgql.Skip()),
		// session_expiry is the client secret's lifetime in seconds; expires_on follows it.
		field.Int64("session_expiry").Default(900).NonNegative(),
		field.Time("expires_on").SchemaType(timeType),
		optString("merchant_reference_id", 30),
		optString("merchant_order_reference_id", 255),
		optString("routing_algorithm_id", 64),
		hiddenJSON("billing", &schematype.AddressWrapper{}),
		hiddenJSON("shipping", &schematype.AddressWrapper{}),
		optString("description", 255),
		optString("return_url", 2048),
		// v1's statement_descriptor_name and _suffix take 255 characters
		// (Hyperswitch's v1 document); v2's statement_descriptor, kept here
		// too, 22.
		optString("statement_descriptor", 255),
		optString("statement_descriptor_suffix", 255),
		hiddenJSON("order_details", []schematype.OrderDetail{}),
		field.JSON("allowed_payment_method_types", []string{}).Optional(),
		jsonMap("metadata"),
		jsonMap("connector_metadata"),
		jsonMap("feature_metadata"),
		jsonMap("payment_link_config"),
		// payment_link_id and payment_link are the payment's hosted checkout
		// link, made with the payment when it asked for one (payment_link:
		// true); GET /payment_link/{id} finds the payment by the id.
		field.String("payment_link_id").MaxRuneLen(64).Optional().Nillable().Annotations(entgql.Skip()),
		hiddenJSON("payment_link", &schematype.PaymentLink{}),
		jsonMap("frm_metadata"),
		field.Bool("enable_partial_authorization").Optional().Nillable(),
		field.Bool("request_extended_authorization").Optional().Nillable(),
		field.Bool("enable_overcapture").Optional().Nillable(),
		field.Bool("force_3ds_challenge").Optional().Nillable(),
		field.Bool("is_iframe_redirection_enabled").Optional().Nillable(),
		optString("business_country", 2),
		optString("business_label", 64),
		optString("business_sub_label", 64),
		// The attempt whose outcome the intent shows; null before the first confirm.
		optString("active_attempt_id", 64),
		field.Int("attempt_count").Default(0),
		optString("mandate_id", 64),
		jsonMap("mandate_data"),
		// customer_acceptance is a top-level consent that sets up no mandate
		// (the payment is not off_session): the customer's consent to keep
		// the card they pay with for their next checkout, as Hyperswitch
		// reads it. A consent to a mandate is kept in mandate_data.
		hiddenJSON("customer_acceptance", map[string]any{}),
		optString("cancellation_reason", 255),
		field.Int("authorization_count").Optional().Nillable(),
		// Denormalised from the active attempt, for the list filters.
		optString("connector", 64),
		optString("merchant_connector_id", 64),
		optString("payment_method", 32),
		optString("payment_method_type", 64),
		optString("card_network", 32),
		// version is bumped by every state change (optimistic locking).
		field.Int64("version").Default(0).Annotations(entgql.Skip()),
	}
}

func (PaymentIntent) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("customer", Customer.Type).Ref("payments").Field("customer_id").Unique(),
		edge.To("attempts", PaymentAttempt.Type),
		edge.To("captures", Capture.Type),
		edge.To("refunds", Refund.Type).Annotations(entgql.RelayConnection()),
		edge.To("disputes", Dispute.Type),
		edge.To("incremental_authorizations", IncrementalAuthorization.Type),
		edge.To("events", Event.Type).Annotations(entgql.RelayConnection()),
	}
}

func (PaymentIntent) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("merchant_id", "payment_id").Unique(),
		index.Fields("merchant_id", "merchant_reference_id").Unique(),
		index.Fields("merchant_id", "idempotency_key").Unique(),
		index.Fields("merchant_id", "payment_link_id").Unique(),
		index.Fields("merchant_id", "customer_id", "created_at", "id"),
		index.Fields("merchant_id", "profile_id", "created_at", "id"),
		// The dashboard's payment analytics (payments/analytics) count and
		// sum a window by status, connector, method or currency from this
		// index alone: a range on (merchant_id, created_at), the profile
		// filtered in the index, no row read.
		index.Fields("merchant_id", "created_at", "profile_id", "status", "connector", "payment_method",
			"currency", "amount").StorageKey("paymentintent_analytics"),
	}
}

// AuthorizedAttemptStatuses are the attempt statuses a connector reached
// by authorizing (whatever happened after); DeclinedAttemptStatuses those
// it reached by refusing, or that failed authentication. The routing
// success rates and the dashboard's analytics count alike.
var (
	AuthorizedAttemptStatuses = []string{"authorized", "charged", "partial_charged", "partially_authorized",
		"partial_charged_and_chargeable", "capture_initiated", "capture_failed", "voided",
		"voided_post_charge", "void_initiated", "void_failed", "auto_refunded"}
	DeclinedAttemptStatuses = []string{"authentication_failed", "router_declined", "authorization_failed", "failure"}
)

// AttemptStatuses are Hyperswitch's attempt statuses.
var AttemptStatuses = []string{
	"started", "authentication_failed", "router_declined", "authentication_pending",
	"authentication_successful", "authorized", "authorization_failed", "charged", "authorizing",
	"cod_initiated", "voided", "voided_post_charge", "void_initiated", "capture_initiated",
	"capture_failed", "void_failed", "auto_refunded", "partial_charged", "partially_authorized",
	"partial_charged_and_chargeable", "unresolved", "pending", "failure", "payment_method_awaited",
	"confirmation_awaited", "device_data_collection_pending", "integrity_failure", "expired",
}

// PaymentAttempt is one try at authorizing a payment through a connector.
type PaymentAttempt struct{ ent.Schema }

func (PaymentAttempt) Mixin() []ent.Mixin {
	return []ent.Mixin{Owned{Prefix: ids.Attempt}, OfPayment{Ref: "attempts"}, Listed{Query: Unqueried},
		ConnectorError{Reason: true, Unified: true}}
}

func (PaymentAttempt) Fields() []ent.Field {
	return []ent.Field{
		field.Enum("status").Values(AttemptStatuses...).Default("started"),
		field.Int64("amount"),
		field.Int64("net_amount"),
		field.Int64("amount_to_capture").Optional().Nillable(),
		field.Int64("amount_capturable").Default(0),
		field.Int64("order_tax_amount").Optional().Nillable(),
		field.Int64("surcharge_amount").Optional().Nillable(),
		currency(),
		optString("connector", 64),
		optString("merchant_connector_id", 64),
		// routing_approach says what chose the connector (Hyperswitch's
		// values): straight_through_routing (the request named it),
		// rule_based_routing, volume_based_routing or default_fallback;
		// routing_algorithm_id is the configuration, when one did, and
		// routing_kind its kind; routing_rule is the advanced
		// configuration's rule that held (none for its default selection).
		optString("routing_approach", 32),
		optString("routing_algorithm_id", 64),
		optString("routing_kind", 16),
		optString("routing_rule", 255),
		// routing_candidates are the connector accounts the decision
		// ordered, the chosen one first.
		hiddenJSON("routing_candidates", []string{}),
		optString("connector_transaction_id", 255),
		field.Enum("capture_method").Values(CaptureMethods...).Optional().Nillable(),
		field.Enum("authentication_type").Values("three_ds", "no_three_ds").Optional().Nillable(),
		optString("payment_method", 32),
		optString("payment_method_type", 64),
		optString("payment_method_id", 64),
		hiddenJSON("card", &schematype.CardDetails{}),
		hiddenJSON("payment_method_billing", &schematype.AddressWrapper{}),
		optString("payment_experience", 32),
		optString("payment_token", 128),
		optString("mandate_id", 64),
		optString("network_advice_code", 64),
		optString("network_decline_code", 64),
		optString("network_transaction_id", 255),
		optString("cancellation_reason", 255),
		jsonMap("browser_info"),
		jsonMap("connector_metadata"),
		// next_action is the pending customer step (3-D Secure redirect), if any.
		jsonMap("next_action"),
		jsonMap("authentication_data"),
		optString("reference_id", 255),
		optString("client_source", 64),
		optString("client_version", 64),
		optString("encoded_data", 2048),
		field.Int("multiple_capture_count").Optional().Nillable(),
		// The attempt's external 3-D Secure authentication (the profile's
		// authentication connector, or three_ds_data the merchant gave):
		// Hyperswitch's external_authentication_details. The CAVV is not
		// kept: it goes to the payment connector in the authorization only.
		field.Enum("external_three_ds_status").Values("started", "pending", "success", "failed").
			Optional().Nillable().Annotations(entgql.Skip()),
		field.Enum("external_three_ds_flow").Values("frictionless", "challenge").
			Optional().Nillable().Annotations(entgql.Skip()),
		// external_three_ds_trans_status is EMV 3-D Secure's transStatus (Y,
		// N, U, A, R, C).
		field.String("external_three_ds_trans_status").MaxRuneLen(1).Optional().Nillable().Annotations(entgql.Skip()),
		field.String("external_three_ds_eci").MaxRuneLen(8).Optional().Nillable().Annotations(entgql.Skip()),
		field.String("external_three_ds_ds_trans_id").MaxRuneLen(64).Optional().Nillable().Annotations(entgql.Skip()),
		field.String("external_three_ds_version").MaxRuneLen(16).Optional().Nillable().Annotations(entgql.Skip()),
		field.String("external_three_ds_error_code").MaxRuneLen(64).Optional().Nillable().Annotations(entgql.Skip()),
		field.String("external_three_ds_error_message").MaxRuneLen(255).Optional().Nillable().Annotations(entgql.Skip()),
		// Whether the connector extended the authorization's validity
		// (POST /payments/{id}/extend_authorization), and when it last did.
		field.Bool("extended_authorization_applied").Optional().Nillable(),
		optTime("extended_authorization_last_applied_at"),
	}
}

func (PaymentAttempt) Indexes() []ent.Index {
	return []ent.Index{
		// The recovery pass looks for attempts left pending across merchants.
		index.Fields("status", "modified_at"),
		// Success rates per connector over a time window are counted from
		// this index alone (routing.SuccessRates).
		index.Fields("merchant_id", "created_at", "merchant_connector_id", "status"),
		// A connector's webhook names its payment by the connector
		// transaction id (payments.SyncPaymentOfConnector).
		index.Fields("merchant_id", "connector_transaction_id"),
	}
}

// Capture is one capture of an authorized attempt (several for manual_multiple).
type Capture struct{ ent.Schema }

func (Capture) Mixin() []ent.Mixin {
	return []ent.Mixin{Owned{Prefix: ids.Capture}, OfPayment{Ref: "captures", OwnOrder: true}, ConnectorError{Reason: true}}
}

func (Capture) Fields() []ent.Field {
	return []ent.Field{
		fixedID("authorized_attempt_id"),
		field.Enum("status").Values("started", "charged", "pending", "failed").Default("started"),
		field.Int64("amount"),
		currency(),
		optString("connector", 64),
		field.Int("capture_sequence"),
		optString("connector_capture_id", 255),
		optString("reference_id", 255),
	}
}

func (Capture) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("payment_intent_id", "capture_sequence").Unique(),
		keyset(),
		// The recovery pass looks for captures left pending across merchants.
		index.Fields("status", "modified_at"),
	}
}

// IncrementalAuthorization raises the authorized amount of an attempt.
type IncrementalAuthorization struct{ ent.Schema }

func (IncrementalAuthorization) Mixin() []ent.Mixin {
	return []ent.Mixin{Owned{Prefix: ids.IncrementalAuthorization},
		OfPayment{Ref: "incremental_authorizations"}, ConnectorError{}}
}

func (IncrementalAuthorization) Fields() []ent.Field {
	return []ent.Field{
		fixedID("attempt_id"),
		field.Int64("amount"),
		field.Int64("previously_authorized_amount"),
		field.Enum("status").Values("success", "failure", "processing"),
		optString("connector_authorization_id", 255),
	}
}

func (IncrementalAuthorization) Indexes() []ent.Index { return []ent.Index{keyset()} }
