package graph

import (
	"context"
	"net"
	"net/http"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"switchyard/graph/generated"
	"switchyard/graph/model"
	"switchyard/internal/auth"
	"switchyard/internal/requestid"
	"switchyard/internal/tenancy"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/users"
)

// authenticateCaller is who calls /graphql: a dashboard session
// (Authorization: Bearer), an API key, or nobody (KindAnonymous, which
// may run only the public operations).
func authenticateCaller(ctx context.Context, d Deps, r *http.Request) (tenancy.Principal, error) {
	authz := strings.TrimSpace(r.Header.Get(auth.HeaderAuthorization))
	if token, ok := strings.CutPrefix(authz, "Bearer "); ok && d.Users != nil {
		return d.Users.Authenticate(ctx, strings.TrimSpace(token))
	}
	if auth.KeyFromRequest(r) == "" && authz == "" {
		return tenancy.Principal{Kind: tenancy.KindAnonymous}, nil
	}
	return d.Auth.Authenticate(ctx, r)
}

type clientAddrKey struct{}

// withClientAddr keeps the caller's address for sign-in throttling: the
// connection's peer (a proxy's forwarding headers are not trusted: any
// client could write them).
func withClientAddr(ctx context.Context, r *http.Request) context.Context {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	return context.WithValue(ctx, clientAddrKey{}, host)
}

func clientAddr(ctx context.Context) string {
	a, _ := ctx.Value(clientAddrKey{}).(string)
	return a
}

// publicOnly reports whether every root field of the operation is marked
// @public (what a caller without credentials may run). Introspection's
// fields are public where introspection is on.
func publicOnly(ctx context.Context) bool {
	oc := graphql.GetOperationContext(ctx)
	if oc == nil || oc.Operation == nil {
		return false
	}
	for _, sel := range oc.Operation.SelectionSet {
		f, ok := sel.(*ast.Field)
		if !ok || f.Definition == nil {
			return false // a fragment at the root: not worth reading for an anonymous caller
		}
		if strings.HasPrefix(f.Name, "__") {
			continue
		}
		if f.Definition.Directives.ForName("public") == nil {
			return false
		}
	}
	return true
}

// directives are the schema's access rules, checked here and nowhere else.
func directives() generated.DirectiveRoot {
	return generated.DirectiveRoot{HasRole: hasRole, Public: public}
}

// hasRole lets a root field run for users whose role is listed (admins
// always) and for the API keys that keys lets through: a merchant's secret
// key only where keys is ANY, so a leaked server key is no way into the
// dashboard's people, sessions, audit log or keys. A user's mutation, and
// the admin key's where keys names it, records an audit entry in the
// transaction of its change.
func hasRole(ctx context.Context, _ any, next graphql.Resolver, roles []model.Role, keys model.KeyAccess) (any, error) {
	p, _ := tenancy.FromContext(ctx)
	fc := graphql.GetFieldContext(ctx)
	switch {
	case p.Kind == tenancy.KindAnonymous:
		return nil, errs.Unauthorized()
	case p.UserID != "":
		allowed := make([]users.Role, len(roles))
		for i, r := range roles {
			allowed[i] = roleOf(r)
		}
		if !users.Allows(users.Role(p.Role), allowed) {
			return nil, users.ErrNotAllowed(users.Role(p.Role), fc.Field.Name)
		}
		return next(audited(ctx, fc, &txn.Audit{UserID: p.UserID, UserEmail: p.UserEmail}))
	case keys == model.KeyAccessAny:
		return next(ctx) // an API key where every key may: not limited by roles, nor audited
	case p.Kind == tenancy.KindAdmin && keys != model.KeyAccessNone:
		if p.MerchantID == "" {
			return nil, errs.MissingField(auth.HeaderMerchantID)
		}
		return next(audited(ctx, fc, &txn.Audit{AdminKey: true}))
	}
	return nil, users.ErrKeyNotAllowed(fc.Field.Name, keys != model.KeyAccessNone)
}

// audited puts a mutation's audit entry, by its actor a, in its context.
func audited(ctx context.Context, fc *graphql.FieldContext, a *txn.Audit) context.Context {
	if fc.Object != "Mutation" {
		return ctx
	}
	p, _ := tenancy.FromContext(ctx)
	a.MerchantID, a.Operation, a.ObjectID, a.RequestID = p.MerchantID, fc.Field.Name, objectArgument(fc.Args), requestid.From(ctx)
	return txn.WithAudit(ctx, a)
}

// public runs a field for anyone.
func public(ctx context.Context, _ any, next graphql.Resolver) (any, error) { return next(ctx) }

// objectArguments name the object a mutation acts on, in the order they
// are looked for.
var objectArguments = []string{"id", "userID", "paymentMethodID", "customerID", "eventID", "merchantID", "profileID"}

func objectArgument(args map[string]any) string {
	for _, name := range objectArguments {
		switch v := args[name].(type) {
		case string:
			return v
		case *string:
			if v != nil {
				return *v
			}
		}
	}
	return ""
}

func roleOf(r model.Role) users.Role { return users.Role(strings.ToLower(string(r))) }

func modelRole(r users.Role) model.Role { return model.Role(strings.ToUpper(string(r))) }

// signedIn is the answer of a mutation that opened a session (signUp,
// signIn, acceptInvitation, switchMerchant): the rest of the request runs
// as its user (tenancy.Become), so every field nested in the answer
// resolves for them, not for the caller who had no session (or another).
func signedIn(ctx context.Context, s *users.Session) *model.Session {
	tenancy.Become(ctx, s.Principal())
	return sessionOf(s)
}

func sessionOf(s *users.Session) *model.Session {
	return &model.Session{Token: s.Token, ExpiresAt: s.ExpiresAt, User: s.User, MerchantID: s.MerchantID, Role: modelRole(s.Role)}
}

func memberOf(m users.Member) *model.Member {
	return &model.Member{User: m.User, Role: modelRole(m.Role), JoinedAt: m.JoinedAt}
}

func (r *Resolver) signUp(ctx context.Context, in users.SignUpInput) (*model.SignUpPayload, error) {
	made, err := r.users.SignUp(ctx, in)
	if err != nil {
		return nil, err
	}
	sess := signedIn(ctx, made.Session)
	m, err := r.client.MerchantAccount.Get(ctx, made.Session.MerchantID)
	if err != nil {
		return nil, err
	}
	return &model.SignUpPayload{Session: sess, MerchantAccount: m, APIKey: made.Provisioned.SecretKey,
		PublishableKey: made.Provisioned.PublishableKey}, nil
}

func (r *Resolver) me(ctx context.Context) (*model.Me, error) {
	me, err := r.users.Me(ctx)
	if err != nil || me == nil {
		return nil, err
	}
	out := &model.Me{User: me.User, MerchantID: me.MerchantID, MerchantTimeZone: me.MerchantTimeZone, Role: modelRole(me.Role)}
	for _, m := range me.Memberships {
		out.Memberships = append(out.Memberships, &model.MerchantMembership{MerchantID: m.MerchantID,
			MerchantName: m.MerchantName, Role: modelRole(m.Role), CreatedAt: m.CreatedAt})
		if m.MerchantID == me.MerchantID {
			out.MerchantName = m.MerchantName
		}
	}
	return out, nil
}

// pendingInvitation is the invitation a link's token names, for its
// accept page.
func (r *Resolver) pendingInvitation(ctx context.Context, token string) (*model.PendingInvitation, error) {
	inv, merchantName, existing, err := r.users.PendingInvitation(ctx, token)
	if err != nil {
		return nil, err
	}
	out := &model.PendingInvitation{Email: inv.Email, Role: modelRole(users.Role(inv.Role)), MerchantID: inv.MerchantID,
		ExpiresAt: inv.ExpiresAt, ExistingUser: existing}
	if merchantName != "" {
		out.MerchantName = &merchantName
	}
	return out, nil
}

func (r *Resolver) members(ctx context.Context) ([]*model.Member, error) {
	ms, err := r.users.Members(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]*model.Member, len(ms))
	for i, m := range ms {
		out[i] = memberOf(m)
	}
	return out, nil
}
