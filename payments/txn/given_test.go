package txn

import "testing"

func TestSetGivenSetsOnlyWhatWasGiven(t *testing.T) {
	var nilMap map[string]any
	var nilSlice []string
	var nilPtr *int
	one := 1
	for _, tc := range []struct {
		name string
		give func(set func()) // calls SetGiven with its value
		want bool
	}{
		{"nil map", func(set func()) { SetGiven(nilMap, func(map[string]any) { set() }) }, false},
		{"empty map", func(set func()) { SetGiven(map[string]any{}, func(map[string]any) { set() }) }, true},
		{"nil slice", func(set func()) { SetGiven(nilSlice, func([]string) { set() }) }, false},
		{"nil pointer", func(set func()) { SetGiven(nilPtr, func(*int) { set() }) }, false},
		{"pointer", func(set func()) { SetGiven(&one, func(*int) { set() }) }, true},
		{"nil interface", func(set func()) { SetGiven[any](nil, func(any) { set() }) }, false},
		{"struct value", func(set func()) { SetGiven(struct{ A int }{}, func(struct{ A int }) { set() }) }, true},
		{"zero int", func(set func()) { SetGiven(0, func(int) { set() }) }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			called := false
			tc.give(func() { called = true })
			if called != tc.want {
				t.Fatalf("set called = %v, want %v", called, tc.want)
			}
		})
	}
}
