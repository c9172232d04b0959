package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
)

// Organization is what merchant accounts belong to (Hyperswitch's
// organization; a merchant's organization_id names one). It spans
// merchants, so only the platform (the admin key, or the system) reads or
// writes it.
type Organization struct{ ent.Schema }

func (Organization) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

func (Organization) Fields() []ent.Field {
	return []ent.Field{
		// id is organization_id: org_ and 20 characters, as Hyperswitch's,
		// or one a merchant account named before organizations were kept
		// (1 to 64 characters).
		field.String("id").MaxRuneLen(64).NotEmpty().Immutable(),
		optString("organization_name", 255),
		jsonMap("organization_details"),
		jsonMap("metadata"),
	}
}

// Interceptors: see User.
func (Organization) Interceptors() []ent.Interceptor {
	return []ent.Interceptor{unscopedOnly()}
}

func (Organization) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
