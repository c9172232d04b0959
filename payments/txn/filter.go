package txn

// A list's filter members are optional: a nil value or an empty list does
// not narrow the list. These add the conditions of the given ones.

// WhereIf appends by(*v) to where unless v is nil.
func WhereIf[T, P any](where []P, v *T, by func(T) P) []P {
	if v == nil {
		return where
	}
	return append(where, by(*v))
}

// WhereIn appends by(vs...) to where unless vs is empty.
func WhereIn[T, P any](where []P, vs []T, by func(...T) P) []P {
	if len(vs) == 0 {
		return where
	}
	return append(where, by(vs...))
}

// Enums are the strings of in as values of the enum type T, for a
// condition on an enum column.
func Enums[T ~string](in []string) []T {
	out := make([]T, len(in))
	for i, v := range in {
		out[i] = T(v)
	}
	return out
}
