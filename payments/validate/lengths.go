package validate

import (
	"fmt"
	"unicode/utf8"

	"entgo.io/ent/dialect/sql/schema"

	"switchyard/payments/errs"
)

// Lengths count characters (Unicode code points), as JSON Schema's
// maxLength, MariaDB's utf8mb4 VARCHAR(n) and the ent schema's MaxRuneLen
// do: a limit in bytes would refuse what Hyperswitch accepts and, against
// a column counting characters, disagree with the store.

// MaxLen accepts a value of at most max characters.
func MaxLen(field string, v *string, max int) error {
	if v != nil && utf8.RuneCountInString(*v) > max {
		return errs.InvalidValue(field, "must be at most %d characters", max)
	}
	return nil
}

// Length is one string member of a request, and the most characters it
// may hold.
type Length struct {
	Field string
	Value *string
	Max   int
}

// Lengths checks each member in order: the first too long is IR_07
// naming it.
func Lengths(ls ...Length) error {
	for _, l := range ls {
		if err := MaxLen(l.Field, l.Value, l.Max); err != nil {
			return err
		}
	}
	return nil
}

// Column is the most characters the string column holds, read from the
// generated ent schema (ent/migrate), so that a check at the edge and the
// column agree by construction: a value the API accepts is never refused
// by ent at insert. It panics, when its package is loaded, on a column the
// table lacks or one without a size.
func Column(t *schema.Table, column string) int {
	for _, c := range t.Columns {
		if c.Name == column && c.Size > 0 {
			return int(c.Size)
		}
	}
	panic(fmt.Sprintf("validate: %s.%s is not a sized string column", t.Name, column))
}

// Columns are the sizes of some string columns of a table, read when the
// package that declares them loads (Column): for members named as their
// columns.
type Columns map[string]int

// ColumnsOf reads the sizes of t's named string columns.
func ColumnsOf(t *schema.Table, names ...string) Columns {
	c := make(Columns, len(names))
	for _, n := range names {
		c[n] = Column(t, n)
	}
	return c
}

// Length is the member named as column, of value v, held to the column's
// size.
func (c Columns) Length(column string, v *string) Length {
	return Length{Field: column, Value: v, Max: c[column]}
}

// Chars is how many characters v holds.
func Chars(v string) int { return utf8.RuneCountInString(v) }
