package txn

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"

	"entgo.io/ent"

	"switchyard/payments/errs"
)

// rowUpdate is a generated bulk update (tx.X.Update().Where(x.ID(id))…).
type rowUpdate[M ent.Mutation] interface {
	Save(context.Context) (int, error)
	Mutation() M
}

// UpdateRow runs upd, an update of exactly row's row, and returns row as
// the database now holds it, without reading it back: a generated
// UpdateOne's Save costs a SELECT after its UPDATE. It is for a row the
// transaction has locked or written itself, so that row's other columns
// and the base of an increment (AddVersion) are what the database has.
func UpdateRow[T any, M ent.Mutation](ctx context.Context, db *DB, row *T, upd rowUpdate[M]) (*T, error) {
	n, err := upd.Save(ctx)
	if err != nil {
		return nil, err
	}
	if n != 1 {
		return nil, errs.Internal(fmt.Errorf("update of one %T changed %d rows", row, n))
	}
	return updated(row, upd.Mutation(), db.timePrecision), nil
}

// UpdateRowIf is UpdateRow for an update whose conditions may match no
// row (a version that moved): ok says whether it changed row's row.
func UpdateRowIf[T any, M ent.Mutation](ctx context.Context, db *DB, row *T, upd rowUpdate[M]) (_ *T, ok bool, _ error) {
	n, err := upd.Save(ctx)
	switch {
	case err != nil:
		return nil, false, err
	case n == 0:
		return nil, false, nil
	case n != 1:
		return nil, false, errs.Internal(fmt.Errorf("update of one %T changed %d rows", row, n))
	}
	return updated(row, upd.Mutation(), db.timePrecision), true, nil
}

// updated is a copy of row with what m sets, adds and clears applied as the
// database applies them (times truncated to precision when it is not 0, an
// increment to NULL from 0). Fields are matched on the entity's JSON names,
// which ent gives as the schema's field names.
func updated[T any](row *T, m ent.Mutation, precision time.Duration) *T {
	out := *row
	v := reflect.ValueOf(&out).Elem()
	fields := fieldIndex(v.Type())
	for _, name := range m.ClearedFields() {
		if i, ok := fields[name]; ok {
			f := v.Field(i)
			f.Set(reflect.Zero(f.Type()))
		}
	}
	for _, name := range m.Fields() {
		i, ok := fields[name]
		if !ok {
			continue
		}
		val, _ := m.Field(name)
		if t, ok := val.(time.Time); ok && precision > 0 {
			val = t.Truncate(precision)
		}
		setField(v.Field(i), val)
	}
	for _, name := range m.AddedFields() {
		i, ok := fields[name]
		if !ok {
			continue
		}
		delta, _ := m.AddedField(name)
		addField(v.Field(i), delta)
	}
	return &out
}

var fieldIndexes sync.Map // reflect.Type → map[string]int

// fieldIndex maps an entity's JSON field names to struct field indexes.
func fieldIndex(t reflect.Type) map[string]int {
	if m, ok := fieldIndexes.Load(t); ok {
		return m.(map[string]int)
	}
	m := map[string]int{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.IsExported() && name != "" && name != "-" && name != "edges" {
			m[name] = i
		}
	}
	fieldIndexes.Store(t, m)
	return m
}

// setField stores val in f, allocating for a nillable (pointer) field.
func setField(f reflect.Value, val any) {
	rv := reflect.ValueOf(val)
	if !rv.IsValid() {
		f.Set(reflect.Zero(f.Type()))
		return
	}
	if f.Kind() == reflect.Pointer && rv.Type() != f.Type() {
		p := reflect.New(f.Type().Elem())
		p.Elem().Set(rv.Convert(f.Type().Elem()))
		f.Set(p)
		return
	}
	f.Set(rv.Convert(f.Type()))
}

// addField adds an integer delta to f (a nil pointer counts as 0, as
// COALESCE(x, 0) + ? does).
func addField(f reflect.Value, delta any) {
	d := reflect.ValueOf(delta)
	target := f
	if f.Kind() == reflect.Pointer {
		p := reflect.New(f.Type().Elem())
		if !f.IsNil() {
			p.Elem().Set(f.Elem())
		}
		f.Set(p)
		target = p.Elem()
	}
	switch target.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		target.SetInt(target.Int() + d.Convert(reflect.TypeFor[int64]()).Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		target.SetUint(target.Uint() + d.Convert(reflect.TypeFor[uint64]()).Uint())
	case reflect.Float32, reflect.Float64:
		target.SetFloat(target.Float() + d.Convert(reflect.TypeFor[float64]()).Float())
	}
}
