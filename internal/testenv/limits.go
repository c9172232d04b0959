package testenv

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

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
