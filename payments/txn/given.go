package txn

import "reflect"

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
	if rv := reflect.ValueOf(v); rv.IsValid() && !rv.IsNil() {
		set(v)
	}
}
