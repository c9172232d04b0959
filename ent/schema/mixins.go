// Package schema is the data model: the single source of truth for the
// tables, their indexes and the GraphQL types entgql derives from them.
//
// Conventions: ids are prefixed random strings (internal/ids); every
// tenant-owned table carries merchant_id and installs the tenancy
// interceptor and hook; money is int64 minor units; times are UTC; lists are
// keyset-paged on (merchant_id, created_at, id). There are no database
// foreign keys (see internal/store): integrity is kept by the domain
// transactions, which keeps the schema portable to Vitess-style engines.
package schema

import (
	"context"
	"time"

	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"entgo.io/ent/schema/mixin"

	"switchyard/ent/intercept"
	"switchyard/ent/schema/schematype"
	"switchyard/internal/ids"
	"switchyard/internal/tenancy"
)

// idField is a prefixed random string id generated on create. It is an
// order field so that a connection's default order can name it: newest
// first is (created_at DESC, id DESC), one direction, which the keyset
// index (merchant_id, created_at, id) serves without sorting.
func idField(prefix string) ent.Field {
	return field.String("id").
		MaxRuneLen(64).
		NotEmpty().
		Immutable().
		DefaultFunc(func() string { return ids.New(prefix) }).
		Annotations(entgql.OrderField("ID"))
}

// Owned is what every row a merchant owns starts with: its prefixed id,
// merchant_id with tenant scoping, and created_at and modified_at.
type Owned struct {
	mixin.Schema
	Prefix string // the id's prefix (internal/ids)
	// MerchantEdge, when set, names the edge back to the merchant
	// (merchant { … } in GraphQL) and the merchant's edge to these rows.
	MerchantEdge string
}

func (o Owned) Fields() []ent.Field {
	return append(append([]ent.Field{idField(o.Prefix)}, TenantMixin{}.Fields()...), TimeMixin{}.Fields()...)
}

func (o Owned) Edges() []ent.Edge {
	if o.MerchantEdge == "" {
		return nil
	}
	return []ent.Edge{edge.From("merchant", MerchantAccount.Type).Ref(o.MerchantEdge).Field("merchant_id").
		Unique().Required().Immutable()}
}

func (Owned) Interceptors() []ent.Interceptor { return TenantMixin{}.Interceptors() }

func (Owned) Hooks() []ent.Hook { return TenantMixin{}.Hooks() }

// Listed is a type GraphQL pages through as a Relay connection, on the
// keyset index. Query, when set, also makes it a top-level query of that
// name ("" for the type's plural, "-" for none), orderable by any of its
// order fields at once.
type Listed struct {
	mixin.Schema
	Query string
}

// Unqueried: a connection reached only through another type's edge.
const Unqueried = "-"

func (Listed) Indexes() []ent.Index { return []ent.Index{keyset()} }

func (l Listed) Annotations() []schema.Annotation {
	if l.Query == Unqueried {
		return []schema.Annotation{entgql.RelayConnection()}
	}
	return []schema.Annotation{entgql.QueryField(l.Query), entgql.RelayConnection(), entgql.MultiOrder()}
}

// OfPayment is a row that belongs to one payment (an attempt, a capture, a
// refund, …): payment_intent_id, the payment edge (Ref names the
// payment's edge to these rows) and, unless the row orders itself
// (OwnOrder), the (payment_intent_id, created_at) index a payment's rows
// are read by.
type OfPayment struct {
	mixin.Schema
	Ref      string
	OwnOrder bool
}

func (OfPayment) Fields() []ent.Field { return []ent.Field{fixedID("payment_intent_id")} }

func (p OfPayment) Edges() []ent.Edge {
	return []ent.Edge{edge.From("payment", PaymentIntent.Type).Ref(p.Ref).Field("payment_intent_id").
		Unique().Required().Immutable()}
}

func (p OfPayment) Indexes() []ent.Index {
	if p.OwnOrder {
		return nil
	}
	return []ent.Index{index.Fields("payment_intent_id", "created_at")}
}

// ConnectorError is the error a connector answered with: its code and
// message, with its reason when Reason is set and, when Unified is set,
// Hyperswitch's unified code and message and the issuer's.
type ConnectorError struct {
	mixin.Schema
	Reason, Unified bool
}

func (e ConnectorError) Fields() []ent.Field {
	fields := []ent.Field{optString("error_code", 255), optText("error_message")}
	if e.Reason {
		fields = append(fields, optText("error_reason"))
	}
	if e.Unified {
		fields = append(fields, unifiedError()...)
		fields = append(fields, optString("issuer_error_code", 255), optString("issuer_error_message", 1024))
	}
	return fields
}

// unifiedError is Hyperswitch's unified code and message for an error.
func unifiedError() []ent.Field {
	return []ent.Field{optString("unified_code", 255), optString("unified_message", 1024)}
}

// TenantMixin adds merchant_id and tenant scoping.
type TenantMixin struct{ mixin.Schema }

func (TenantMixin) Fields() []ent.Field {
	return []ent.Field{
		field.String("merchant_id").MaxRuneLen(64).NotEmpty().Immutable().
			Annotations(entgql.OrderField("MERCHANT_ID")),
	}
}

func (TenantMixin) Interceptors() []ent.Interceptor {
	return []ent.Interceptor{scopeQueries("merchant_id")}
}

// scopeQueries limits every query to the principal's merchant, matched on
// column (merchant_id, or id for the merchant table itself).
func scopeQueries(column string) ent.Interceptor {
	return intercept.TraverseFunc(func(ctx context.Context, q intercept.Query) error {
		merchantID, err := tenancy.Scope(ctx)
		if err != nil || merchantID == "" {
			return err
		}
		q.WhereP(sql.FieldEQ(column, merchantID))
		return nil
	})
}

func (TenantMixin) Hooks() []ent.Hook {
	return []ent.Hook{tenancy.Hook("merchant_id")}
}

// TimeMixin adds created_at and modified_at in UTC.
type TimeMixin struct{ mixin.Schema }

func nowUTC() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

func (TimeMixin) Fields() []ent.Field {
	return []ent.Field{
		field.Time("created_at").Default(nowUTC).Immutable().
			SchemaType(timeType).
			Annotations(entgql.OrderField("CREATED_AT")),
		field.Time("modified_at").Default(nowUTC).UpdateDefault(nowUTC).
			SchemaType(timeType).
			Annotations(entgql.OrderField("MODIFIED_AT")),
	}
}

// timeType keeps microseconds on MySQL, so keyset cursors on created_at are exact.
var timeType = map[string]string{"mysql": "datetime(6)"}

// keyset is the (merchant_id, created_at, id) index every list pages on.
func keyset() ent.Index { return index.Fields("merchant_id", "created_at", "id") }

// jsonMap is a free-form JSON object, exposed to GraphQL as Map.
func jsonMap(name string) ent.Field {
	return field.JSON(name, map[string]any{}).Optional().
		Annotations(entgql.Type("Map"))
}

// optString is a nullable string column of at most maxLen characters.
//
// Every string column is bounded with MaxRuneLen, never MaxLen: one
// number sets the column's size and a validator that counts characters,
// as MariaDB's utf8mb4 VARCHAR(n) and JSON Schema's maxLength do (MaxLen
// counts bytes, so 17 emoji failed a 64-character column at insert while
// the API had accepted them). The API checks the same numbers at the
// edge (payments/validate.Column), so a value it accepts is never refused
// here; TestEveryStringColumnCountsCharacters holds every field to it.
func optString(name string, maxLen int) ent.Field {
	return field.String(name).MaxRuneLen(maxLen).Optional().Nillable()
}

// fixedID is a required id the row keeps for life (a merchant-facing id
// or a reference to another row).
func fixedID(name string) ent.Field { return field.String(name).MaxRuneLen(64).NotEmpty().Immutable() }

// optText is a nullable text column.
func optText(name string) ent.Field { return field.Text(name).Optional().Nillable() }

// optTime is a nullable time column, in microseconds on MySQL.
func optTime(name string) ent.Field {
	return field.Time(name).Optional().Nillable().SchemaType(timeType)
}

// hiddenJSON is a JSON column of the Go type of v that GraphQL does not show.
func hiddenJSON(name string, v any) ent.Field {
	return field.JSON(name, v).Optional().Annotations(entgql.Skip())
}

// currency is the currency of a row's amounts, from the spec's closed set.
func currency() ent.Field { return field.Enum("currency").GoType(schematype.Currency("")) }

// optCurrency is a currency that may be absent, with the amount it is of.
func optCurrency() ent.Field {
	return field.Enum("currency").GoType(schematype.Currency("")).Optional().Nillable()
}

// customerRowID annotates a customer_id foreign key, which holds the
// customer row's id (cus_…): GraphQL shows it neither as a field nor as a
// filter, since there customerID means the merchant's customer_id, as in
// REST (graph/schema.graphql adds that field and filter; the row's id is
// customer { id }).
func customerRowID() entgql.Annotation { return entgql.Skip(entgql.SkipType, entgql.SkipWhereInput) }
