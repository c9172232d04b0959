package txn

import (
	"reflect"

	"switchyard/payments/errs"
)

// A patch's members are nil when not given: a nil member leaves the stored
// value as it is. These set the given ones onto a create or an update.

// SetIf calls set with *v unless v is nil.
func SetIf[T any](v *T, set func(T)) {
	if v != nil {
		set(*v)
	}
}

// SetAs is SetIf for a closed set's member given as a string: set with the
// column's enum value of *v, unless v is nil.
func SetAs[E ~string](v *string, set func(E)) {
	if v != nil {
		set(E(*v))
	}
}

// SetGiven calls set with v unless v is nil: for a member given whole (a
// map, a slice, a pointer to a document) that is stored as it is.
func SetGiven[T any](v T, set func(T)) {
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Invalid:
		return
	case reflect.Map, reflect.Slice, reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return
		}
	}
	set(v) // a value of another kind is always given
}

// LoadRefs reads in one query the rows that rows refer to (ref: the id a
// row names, nil for none) and returns them by id (id): load reads the
// rows of ids. It does not query when no row refers to any.
func LoadRefs[R, T any](rows []R, ref func(R) *string, load func(ids []string) ([]T, error),
	id func(T) string) (map[string]T, error) {
	var ids []string
	for _, r := range rows {
		if p := ref(r); p != nil {
			ids = append(ids, *p)
		}
	}
	byID := make(map[string]T, len(ids))
	if len(ids) == 0 {
		return byID, nil
	}
	found, err := load(ids)
	if err != nil {
		return nil, errs.Internal(err)
	}
	for _, t := range found {
		byID[id(t)] = t
	}
	return byID, nil
}
