package graph

import (
	"context"
	"errors"
	"log/slog"
	"reflect"
	"slices"

	"entgo.io/contrib/entgql"
	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"switchyard/ent"
	"switchyard/graph/cursors"
	"switchyard/payments/errs"
)

// Cursor is a connection cursor (an opaque token on the wire).
type Cursor = cursors.Cursor

// paginate runs one connection page through the cursor store: the client's
// tokens are opened (checked against the merchant and this query's binding),
// the query runs on the real positions, and the positions of the page are
// sealed behind fresh tokens.
func paginate[C any](ctx context.Context, r *Resolver, b binding, after, before *Cursor, first, last *int,
	run func(after, before *Cursor) (C, error)) (C, error) {
	var zero C
	if err := checkPage(first, last); err != nil {
		return zero, err
	}
	key := ""
	keyOf := func() string {
		if key == "" {
			key = b.key(ctx)
		}
		return key
	}
	if after != nil || before != nil {
		var err error
		if after, before, err = r.cursors.Open(ctx, keyOf(), after, before); err != nil {
			return zero, cursorError(err)
		}
	}
	conn, err := run(after, before)
	if err != nil {
		return zero, err
	}
	if !wantsCursors(ctx) {
		return conn, nil // no cursor is shown: none is stored
	}
	if err := r.sealLater(ctx, keyOf(), positionsOf(conn)); err != nil {
		return zero, cursorError(err)
	}
	return conn, nil
}

// wantsCursors reports whether the connection being resolved shows a
// cursor: an edge's, or pageInfo's start or end.
func wantsCursors(ctx context.Context) bool {
	fc, oc := graphql.GetFieldContext(ctx), graphql.GetOperationContext(ctx)
	if fc == nil || oc == nil {
		return true
	}
	for _, f := range graphql.CollectFields(oc, fc.Field.Selections, nil) {
		var want []string
		switch f.Name {
		case "edges":
			want = []string{"cursor"}
		case "pageInfo":
			want = []string{"startCursor", "endCursor"}
		default:
			continue
		}
		for _, sub := range graphql.CollectFields(oc, f.Selections, nil) {
			for _, w := range want {
				if sub.Name == w {
					return true
				}
			}
		}
	}
	return false
}

// cursorError keeps a refused cursor's message (the client's mistake) and
// turns a cursor store that cannot be reached into a clear 503-like error.
func cursorError(err error) error {
	var ge *gqlerror.Error
	if errors.As(err, &ge) {
		return err
	}
	slog.Warn("cursor store unavailable", "err", err)
	return errs.Unavailable("The cursor store (Redis)")
}

// positionsOf lists a page's cursors once each: every edge's, then
// PageInfo's start and end, which point into the edges. conn is an entgql
// connection: a pointer to a struct whose Edges each hold their Cursor,
// beside its PageInfo (entgql generates no interface for them).
func positionsOf(conn any) []*Cursor {
	v := reflect.ValueOf(conn).Elem()
	edges := v.FieldByName("Edges")
	pi := v.FieldByName("PageInfo").Interface().(entgql.PageInfo[string])
	out := make([]*Cursor, 0, edges.Len()+2)
	seen := make(map[*Cursor]bool, edges.Len()+2)
	add := func(c *Cursor) {
		if c != nil && !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	for i := range edges.Len() {
		add(edges.Index(i).Elem().FieldByName("Cursor").Addr().Interface().(*Cursor))
	}
	add(pi.StartCursor)
	add(pi.EndCursor)
	return out
}

// newestFirst is the direction of every connection's default order:
// created_at then id, both descending. The connections that take several
// orders would otherwise break ties by id ascending, a mixed direction the
// keyset index (merchant_id, created_at, id) cannot serve without sorting
// every row of the merchant.
func newestFirst() entgql.OrderDirection { return entgql.OrderDirectionDesc }

// keysetOrder is the order a connection that takes several orders pages
// by: without the client's, created_at then id, newest first; with it, the
// client's, then the id in the direction of its last field. entgql would
// otherwise break ties by id ascending: a mixed direction that no index on
// (…, created_at, id) can serve, so the database would sort every row of
// the merchant. of reads an order, make writes one.
func keysetOrder[O any](orders []O, of func(O) fieldOrder, make func(field string, d entgql.OrderDirection) O) []O {
	if len(orders) == 0 {
		return []O{make("CREATED_AT", newestFirst()), make("ID", newestFirst())}
	}
	last := entgql.OrderDirectionAsc
	for _, o := range orders {
		fo := of(o)
		if fo.field == "ID" {
			return orders
		}
		last = fo.direction
	}
	return append(slices.Clip(orders), make("ID", last))
}

// The connections' orders, as keysetOrder and their defaults read and
// write them. These take several orders, completed by keysetOrder.
var (
	paymentOrders          orderKind[ent.PaymentIntentOrder, ent.PaymentIntentOrderField]
	refundOrders           orderKind[ent.RefundOrder, ent.RefundOrderField]
	payoutOrders           orderKind[ent.PayoutOrder, ent.PayoutOrderField]
	eventOrders            orderKind[ent.EventOrder, ent.EventOrderField]
	connectorAccountOrders orderKind[ent.MerchantConnectorAccountOrder, ent.MerchantConnectorAccountOrderField]
	gsmRuleOrders          orderKind[ent.GsmRuleOrder, ent.GsmRuleOrderField]
	blocklistEntryOrders   orderKind[ent.BlocklistEntryOrder, ent.BlocklistEntryOrderField]
	routingAlgorithmOrders orderKind[ent.RoutingAlgorithmOrder, ent.RoutingAlgorithmOrderField]
	subscriptionOrders     orderKind[ent.BillingSubscriptionOrder, ent.BillingSubscriptionOrderField]
	invoiceOrders          orderKind[ent.InvoiceOrder, ent.InvoiceOrderField]
	subscriptionItemOrders orderKind[ent.SubscriptionItemOrder, ent.SubscriptionItemOrderField]
	couponOrders           orderKind[ent.CouponOrder, ent.CouponOrderField]
	testClockOrders        orderKind[ent.TestClockOrder, ent.TestClockOrderField]
	// These take several orders but keep the client's as given (orNewest).
	customerOrders orderKind[ent.CustomerOrder, ent.CustomerOrderField]
	disputeOrders  orderKind[ent.DisputeOrder, ent.DisputeOrderField]
	mandateOrders  orderKind[ent.MandateOrder, ent.MandateOrderField]
	// These take one order (newest).
	deliveryAttemptOrders orderKind[ent.EventDeliveryAttemptOrder, ent.EventDeliveryAttemptOrderField]
	profileOrders         orderKind[ent.ProfileOrder, ent.ProfileOrderField]
	apiKeyOrders          orderKind[ent.APIKeyOrder, ent.APIKeyOrderField]
	payoutAttemptOrders   orderKind[ent.PayoutAttemptOrder, ent.PayoutAttemptOrderField]
	merchantAccountOrders orderKind[ent.MerchantAccountOrder, ent.MerchantAccountOrderField]
	auditEntryOrders      orderKind[ent.AuditEntryOrder, ent.AuditEntryOrderField]
	itemPriceOrders       orderKind[ent.ItemPriceOrder, ent.ItemPriceOrderField]
)

// orderField is an entgql order field enum.
type orderField interface {
	String() string
	UnmarshalGQL(any) error
}

// orderKind reads and writes one connection's orders for keysetOrder. O is
// the order entgql generates for a type, which always holds its field enum
// F as Field and its direction as Direction.
type orderKind[O any, F any] struct{}

// members points into an order's Field and Direction.
func (orderKind[O, F]) members(o *O) (**F, *entgql.OrderDirection) {
	v := reflect.ValueOf(o).Elem()
	return v.FieldByName("Field").Addr().Interface().(**F),
		v.FieldByName("Direction").Addr().Interface().(*entgql.OrderDirection)
}

// complete is keysetOrder for this kind of order.
func (k orderKind[O, F]) complete(orders []*O) []*O {
	return keysetOrder(orders,
		func(o *O) fieldOrder {
			field, direction := k.members(o)
			return fieldOrder{any(*field).(orderField).String(), *direction}
		},
		k.make)
}

// make is the order by the field of that enum name in direction d.
func (k orderKind[O, F]) make(name string, d entgql.OrderDirection) *O {
	o, f := new(O), new(F)
	_ = any(f).(orderField).UnmarshalGQL(name) // CREATED_AT and ID: every such connection has them
	field, direction := k.members(o)
	*field, *direction = f, d
	return o
}

// newest is the order of a connection that takes one order: the client's,
// else created_at newest first.
func (k orderKind[O, F]) newest(o *O) *O {
	if o != nil {
		return o
	}
	return k.make("CREATED_AT", newestFirst())
}

// orNewest is the client's orders as given, else keysetOrder's default
// (created_at then id, newest first): these connections do not add the id
// to the client's orders.
func (k orderKind[O, F]) orNewest(orders []*O) []*O {
	if len(orders) > 0 {
		return orders
	}
	return k.complete(nil)
}

// pager loads one page of an ent connection: the edge method entgql
// generates for a nested connection, or a query's Paginate (tablePager).
type pager[O, W, C any] func(ctx context.Context, after *Cursor, first *int, before *Cursor, last *int, orderBy O, where W) (C, error)

// page is a connection's resolver: paginate over p, bound to the
// connection's name (with its parent's id for a nested one), its filters
// and its order, which the caller has completed with its default.
func page[O, W, C any](ctx context.Context, r *Resolver, connection string, p pager[O, W, C],
	after *Cursor, first *int, before *Cursor, last *int, orderBy O, where W) (C, error) {
	return paginate(ctx, r, bind(connection, where, orderBy), after, before, first, last,
		func(after, before *Cursor) (C, error) {
			return p(collecting(ctx), after, first, before, last, orderBy, where)
		})
}

// tablePager pages a query (a whole table, or the rows a Where keeps) as
// entgql pages an edge: paginate is the query's Paginate, withOrder and
// withFilter its options, filter the where-input's Filter.
func tablePager[O, W, C, P, Q any](paginate func(context.Context, *Cursor, *int, *Cursor, *int, ...P) (C, error),
	withOrder func(O) P, withFilter func(func(Q) (Q, error)) P, filter func(W, Q) (Q, error)) pager[O, W, C] {
	return func(ctx context.Context, after *Cursor, first *int, before *Cursor, last *int, orderBy O, where W) (C, error) {
		return paginate(ctx, after, first, before, last, withOrder(orderBy),
			withFilter(func(q Q) (Q, error) { return filter(where, q) }))
	}
}

// primed is p announcing each page it loads to prime, so that the fields
// its nodes share load in one query each (see loaders).
func primed[O, W, C any](p pager[O, W, C], prime func(context.Context, C)) pager[O, W, C] {
	return func(ctx context.Context, after *Cursor, first *int, before *Cursor, last *int, orderBy O, where W) (C, error) {
		c, err := p(ctx, after, first, before, last, orderBy, where)
		if err == nil {
			prime(ctx, c)
		}
		return c, err
	}
}

// binding names the query a cursor belongs to: the connection (with its
// parent for nested ones), its filters and its order. Its key is a hash of
// their content, worked out only when a cursor is opened or sealed: a
// nested connection whose cursors nobody asks for costs nothing.
type binding struct {
	connection     string
	where, orderBy any
}

func bind(connection string, where, orderBy any) binding {
	return binding{connection: connection, where: where, orderBy: orderBy}
}

// key hashes the binding. The filters of a where-input that resolve to
// predicates (customerID: see customer_refs.go) are not among its fields, so
// the argument as the client wrote it, variables filled in, is hashed too.
func (b binding) key(ctx context.Context) string {
	where := b.where
	if fc, oc := graphql.GetFieldContext(ctx), graphql.GetOperationContext(ctx); fc != nil && oc != nil && fc.Field.Field != nil {
		if raw, ok := fc.Field.ArgumentMap(oc.Variables)["where"]; ok {
			where = []any{b.where, raw}
		}
	}
	return cursors.Binding(b.connection, where, b.orderBy)
}

// primePayments announces the connector accounts and customers of a page of
// payments, so that their connectorAccount and customerID fields load in one
// query each (see loaders).
func primePayments(ctx context.Context, c *ent.PaymentIntentConnection) {
	if c == nil {
		return
	}
	pis := make([]*ent.PaymentIntent, len(c.Edges))
	customers := make([]*string, len(c.Edges))
	for i, e := range c.Edges {
		pis[i], customers[i] = e.Node, e.Node.CustomerID
	}
	wantConnectorAccounts(ctx, pis...)
	wantCustomers(ctx, customers...)
}

// primeMandates announces the customers of a page of mandates, so that their
// customerID fields load in one query.
func primeMandates(ctx context.Context, c *ent.MandateConnection) {
	if c == nil {
		return
	}
	for _, e := range c.Edges {
		wantCustomers(ctx, &e.Node.CustomerID)
	}
}
