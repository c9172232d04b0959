package txn

import (
	"context"
	"errors"
	"fmt"
	"reflect"

	"entgo.io/ent"
)

// draftKey marks a Save that must stop before the database (Draft).
type draftKey struct{}

// draftStop carries a drafted create's mutation out of its Save.
type draftStop struct{ m ent.Mutation }

func (draftStop) Error() string { return "txn: a draft is never saved" }

// stopDrafts ends a Save made under Draft's context. Installed with Use
// before any other hook, it is the outermost: Save has applied the
// create's defaults, and no other hook has run.
func stopDrafts(next ent.Mutator) ent.Mutator {
	return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
		if ctx.Value(draftKey{}) != nil {
			return nil, draftStop{m}
		}
		return next.Mutate(ctx, m)
	})
}

// Draft is the row create's Save would insert and return, without
// inserting it: its defaults applied, its fields and id as set. It lets a
// create whose row the same transaction would update at once (a payment
// confirmed at its creation) run the checks that need the row first, then
// insert the row as they leave it, in one INSERT instead of an INSERT and
// an UPDATE. create stays unsaved, to be saved as usual. Only payment
// intents can be drafted (New installs the hook), and the tenancy hook has
// not run on a draft: the caller sets merchant_id.
func Draft[T any](ctx context.Context, db *DB, create interface {
	Save(context.Context) (*T, error)
}) (*T, error) {
	_, err := create.Save(context.WithValue(ctx, draftKey{}, true))
	var stop draftStop
	if !errors.As(err, &stop) {
		if err == nil {
			return nil, fmt.Errorf("txn: %T has no draft hook: it was saved", create)
		}
		return nil, err
	}
	row := updated(new(T), stop.m, db.timePrecision)
	if withID, ok := stop.m.(interface{ ID() (string, bool) }); ok {
		if id, set := withID.ID(); set {
			reflect.ValueOf(row).Elem().FieldByName("ID").SetString(id)
		}
	}
	return row, nil
}
