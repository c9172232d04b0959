package schema

import (
	"context"

	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"github.com/vektah/gqlparser/v2/ast"

	"switchyard/ent/intercept"
	"switchyard/internal/ids"
	"switchyard/internal/tenancy"
)

// User is a person who signs in to the dashboard. A user belongs to no
// merchant by itself: its memberships say which merchants it may act for,
// and with which role.
type User struct{ ent.Schema }

func (User) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

func (User) Fields() []ent.Field {
	return []ent.Field{
		idField(ids.User),
		// email is as the user typed it; email_key, lower-cased, is what
		// makes two spellings of one address the same user.
		field.String("email").MaxRuneLen(254).NotEmpty(),
		field.String("email_key").MaxRuneLen(254).NotEmpty().Unique(),
		// password_hash is an argon2id PHC string; the password is never kept.
		field.String("password_hash").MaxRuneLen(256).Sensitive(),
		// company_name is the merchant name given at sign-up, kept so that a
		// sign-up cut short can be finished (users.ensureMerchant).
		field.String("company_name").MaxRuneLen(64).Optional(),
		optTime("last_signed_in_at"),
	}
}

// Interceptors: users span merchants, so only the process itself (the
// users context, reading as the system) may read them; a merchant-scoped
// query fails closed instead of seeing every merchant's users.
func (User) Interceptors() []ent.Interceptor {
	return []ent.Interceptor{unscopedOnly()}
}

func (User) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// unscopedOnly refuses a query from any principal that is scoped to one
// merchant (or from none).
func unscopedOnly() ent.Interceptor {
	return intercept.TraverseFunc(func(ctx context.Context, q intercept.Query) error {
		p, ok := tenancy.FromContext(ctx)
		if !ok {
			return tenancy.ErrNoPrincipal
		}
		if !p.Unscoped() {
			return tenancy.ErrForeignMerchant
		}
		return nil
	})
}

// Membership is a user's place in a merchant: its role there. A user has
// at most one membership a merchant.
type Membership struct{ ent.Schema }

func (Membership) Mixin() []ent.Mixin { return []ent.Mixin{Owned{Prefix: ids.Membership}} }

func (Membership) Fields() []ent.Field {
	return []ent.Field{
		fixedID("user_id"),
		field.Enum("role").Values("admin", "developer", "operator", "viewer"),
		// generation counts the role changes: a session keeps the
		// membership's id and generation it began with, and is refused once
		// either differs (users.Authenticate), so a role change or a
		// removal followed by a new invitation never revives an old token.
		field.Int64("generation").Default(0).NonNegative(),
	}
}

func (Membership) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("merchant_id", "user_id").Unique(),
		index.Fields("user_id"),
	}
}

func (Membership) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// Invitation asks someone, by email, to join a merchant with a role. Only
// the keyed hash of its one-time token is kept; the token itself is shown
// once, to the admin who invites.
type Invitation struct{ ent.Schema }

func (Invitation) Mixin() []ent.Mixin { return []ent.Mixin{Owned{Prefix: ids.Invitation}} }

func (Invitation) Fields() []ent.Field {
	return []ent.Field{
		field.String("email").MaxRuneLen(254).NotEmpty().Immutable(),
		field.String("email_key").MaxRuneLen(254).NotEmpty().Immutable(),
		field.Enum("role").Values("admin", "developer", "operator", "viewer").Immutable(),
		field.String("token_hash").MaxRuneLen(128).Unique().Immutable().Sensitive(),
		field.String("invited_by").MaxRuneLen(64).NotEmpty().Immutable(),
		field.Time("expires_at").SchemaType(timeType).Immutable(),
		optTime("accepted_at"),
	}
}

func (Invitation) Indexes() []ent.Index {
	return []ent.Index{index.Fields("merchant_id", "email_key")}
}

func (Invitation) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// AuditEntry records one change a dashboard user (or the admin key) made: who, for which
// merchant, which operation on which object, when, and the request's id.
// It is written in the same transaction as the change, so a change that
// did not commit leaves none.
type AuditEntry struct{ ent.Schema }

func (AuditEntry) Mixin() []ent.Mixin { return []ent.Mixin{TenantMixin{}, Listed{Query: Unqueried}} }

func (AuditEntry) Fields() []ent.Field {
	return []ent.Field{
		idField(ids.AuditEntry),
		field.Time("created_at").Default(nowUTC).Immutable().SchemaType(timeType).
			Annotations(entgql.OrderField("CREATED_AT")),
		// actor is who made the change: a user's session, or the platform
		// admin key (bootstrapping a merchant's first admin, managing its
		// API keys), whose entries have no user.
		field.Enum("actor").Values("user", "admin_key").Default("user").Immutable(),
		field.String("user_id").MaxRuneLen(64).Immutable(),
		field.String("user_email").MaxRuneLen(254).Immutable(),
		// operation is the GraphQL mutation's name, e.g. capturePayment.
		field.String("operation").MaxRuneLen(64).NotEmpty().Immutable(),
		// object_id is the id the operation acted on, or the first object it
		// created; empty when it has neither.
		field.String("object_id").MaxRuneLen(64).Optional().Immutable(),
		field.String("request_id").MaxRuneLen(128).Optional().Immutable(),
	}
}

// Annotations: the audit log query is for admins only, in one order.
func (AuditEntry) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.QueryField("auditLog").Directives(adminOnly())}
}

// adminOnly is @hasRole(roles: [], keys: ADMIN_KEY): only a merchant's
// admins and the admin key, never a merchant's secret key.
func adminOnly() entgql.Directive {
	return entgql.NewDirective("hasRole",
		&ast.Argument{Name: "roles", Value: &ast.Value{Kind: ast.ListValue, Children: ast.ChildValueList{}}},
		&ast.Argument{Name: "keys", Value: &ast.Value{Kind: ast.EnumValue, Raw: "ADMIN_KEY"}})
}
