package testenv

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	entfield "entgo.io/ent/schema/field"

	"switchyard/ent/migrate"
)

// The string-limit walks (REST's and GraphQL's) share these: the limits
// the ent schema gives, the values they send and how they read a refusal.

// ColumnSizes are the distinct sizes of the ent schema's string columns
// (which count characters), smallest first. Text columns (ent's
// field.Text, sized 2³¹−1) bound nothing a request can hold.
func ColumnSizes() []int {
	var out []int
	for _, table := range migrate.Tables {
		for _, col := range table.Columns {
			if col.Type == entfield.TypeString && col.Size > 0 && col.Size < 1<<16 && !slices.Contains(out, int(col.Size)) {
				out = append(out, int(col.Size))
			}
		}
	}
	slices.Sort(out)
	return out
}

// TextOf is a value of n characters for the member named leaf: a URL or
// an e-mail address where the member holds one; of letters and emoji
// (multi-byte: more bytes than characters) or of ASCII letters.
func TextOf(leaf string, n int, multibyte bool) string {
	prefix, suffix := "", ""
	switch leaf = strings.ToLower(leaf); {
	case strings.Contains(leaf, "url"):
		prefix = "https://example.com/"
	case strings.Contains(leaf, "email"):
		suffix = "@example.com"
	}
	fill := n - len(prefix) - len(suffix)
	if fill < 1 {
		return strings.Repeat("a", n)
	}
	unit := []rune("ab")
	if multibyte {
		unit = []rune("é😀")
	}
	out := make([]rune, fill)
	for i := range out {
		out[i] = unit[i%len(unit)]
	}
	return prefix + string(out) + suffix
}

var atMost = regexp.MustCompile(`(?:at most|1 to) (\d+) (?:[A-Za-z ]*?)(?:characters|letters)`)

// StatedLimit is the limit a refusal's message states ("must be at most
// 64 characters"), if it states one.
func StatedLimit(message string) (int, bool) {
	m := atMost.FindStringSubmatch(message)
	if m == nil {
		return 0, false
	}
	n, _ := strconv.Atoi(m[1])
	return n, true
}

// ownAlphabet: a refusal that says the member takes letters and digits
// only (ids, codes), not any character.
var ownAlphabet = regexp.MustCompile(`A-Z|letters, digits|ASCII|must be a number|a plus sign`)

// OwnAlphabet reports whether a refusal says the member takes ASCII
// letters and digits only, so that a multi-byte value cannot probe it.
func OwnAlphabet(message string) bool { return ownAlphabet.MatchString(message) }

// LimitWalk tallies a walk of string limits and judges what both walks
// judge alike.
type LimitWalk struct {
	// Sizes are the ent schema's column sizes (ColumnSizes).
	Sizes                       []int
	walked, accepted, unbounded int
	otherwise                   []string
}

// NewLimitWalk starts a walk over the ent schema's column sizes.
func NewLimitWalk() *LimitWalk { return &LimitWalk{Sizes: ColumnSizes()} }

// Over is one past the largest column size: a value no column holds.
func (w *LimitWalk) Over() int { return w.Sizes[len(w.Sizes)-1] + 1 }

// Unbounded counts a member accepted past every column size: it lands in
// no bounded column.
func (w *LimitWalk) Unbounded() { w.unbounded++ }

// Otherwise counts a member refused for another reason than its length,
// and tries it one past every column size (try fails a server error).
func (w *LimitWalk) Otherwise(name, message string, try func(n int)) {
	w.otherwise = append(w.otherwise, name+": "+message)
	for _, size := range w.Sizes {
		try(size + 1)
	}
}

// Walked counts a member with a limit.
func (w *LimitWalk) Walked() { w.walked++ }

// AtLimit judges the answer to a value of limit characters: refused as too
// long, it fails the test; accepted, it counts; refused for another reason
// (a key no row has) it passed the length check, which is logged. Then the
// member is tried one past each smaller column size.
func (w *LimitWalk) AtLimit(t testing.TB, name string, limit int, tooLong, ok bool, answer string, try func(n int)) {
	t.Helper()
	switch {
	case tooLong:
		t.Errorf("%s: %d characters (the limit) answered %s", name, limit, answer)
	case ok:
		w.accepted++
	default:
		t.Logf("%s: %d characters (the limit) pass the length check, then: %s", name, limit, answer)
	}
	for _, size := range w.Sizes {
		if size < limit {
			try(size + 1)
		}
	}
}

// Report logs the tally and fails a walk of fewer than least limits.
func (w *LimitWalk) Report(t testing.TB, least int) {
	t.Helper()
	for _, o := range w.otherwise {
		t.Logf("not walked (refused for another reason): %s", o)
	}
	t.Logf("%d string limits walked (%d accepted at the limit), %d members land in no bounded column, %d not walked; column sizes %v",
		w.walked, w.accepted, w.unbounded, len(w.otherwise), w.Sizes)
	if w.walked < least {
		t.Fatalf("only %d limits were walked", w.walked)
	}
}
