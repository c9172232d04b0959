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
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"entgo.io/ent/schema/mixin"

	"switchyard/ent/intercept"
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

// TenantMixin adds merchant_id, its keyset index and tenant scoping.
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

// customerRowID annotates a customer_id foreign key, which holds the
// customer row's id (cus_…): GraphQL shows it neither as a field nor as a
// filter, since there customerID means the merchant's customer_id, as in
// REST (graph/schema.graphql adds that field and filter; the row's id is
// customer { id }).
func customerRowID() entgql.Annotation { return entgql.Skip(entgql.SkipType, entgql.SkipWhereInput) }
