package rest

import (
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"switchyard/payments/errs"
	"switchyard/payments/validate"
)

// queryParams describes the query string of a list route: the parameters by
// their spec names, and other spellings of some of them (Hyperswitch's
// created_lt for created.lt), in the order the error message lists them.
type queryParams struct {
	route   string
	names   []string
	aliases [][2]string // spelling, spec name
}

// read parses rawQuery strictly: an unknown parameter, one given twice (in
// either spelling), an empty or non-UTF-8 value is a 400 naming the
// parameter, so a typo never silently widens a list. It returns the values
// by spec name, and the spelling the caller used for each, for messages.
func (qp queryParams) read(rawQuery string) (values queryValues, given map[string]string, err error) {
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return nil, nil, errs.InvalidRequest("the query string is malformed: %v", err)
	}
	values = make(queryValues, len(q))
	given = make(map[string]string, len(q)) // spec name → spelling used
	for _, name := range slices.Sorted(maps.Keys(q)) {
		canonical := name
		for _, a := range qp.aliases {
			if a[0] == name {
				canonical = a[1]
			}
		}
		if !slices.Contains(qp.names, canonical) {
			accepts := strings.Join(qp.names, ", ")
			if len(qp.aliases) > 0 {
				spellings := make([]string, len(qp.aliases))
				for i, a := range qp.aliases {
					spellings[i] = a[0]
				}
				accepts += " (and " + strings.Join(spellings, ", ") + ")"
			}
			e := errs.InvalidRequest("unknown query parameter %q; %s accepts %s", name, qp.route, accepts)
			e.Field = name
			return nil, nil, e
		}
		if prev, ok := given[canonical]; ok {
			return nil, nil, errs.InvalidValue(name, "is the same parameter as %s; give it once", prev)
		}
		if len(q[name]) > 1 {
			return nil, nil, errs.InvalidValue(name, "is given %d times; give it once", len(q[name]))
		}
		if q[name][0] == "" {
			return nil, nil, errs.InvalidValue(name, "must not be empty")
		}
		if !utf8.ValidString(q[name][0]) {
			return nil, nil, errs.InvalidValue(name, "must be UTF-8 text")
		}
		given[canonical] = name
		values[canonical] = q[name][0]
	}
	return values, given, nil
}

// queryValues are a query's values by their spec names.
type queryValues map[string]string

// str is the value of name, nil when the query does not give it.
func (v queryValues) str(name string) *string {
	if s, ok := v[name]; ok {
		return &s
	}
	return nil
}

// integer is the integer value of name, def when the query does not give
// it.
func (v queryValues) integer(name string, def int) (int, error) {
	s, ok := v[name]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, errs.InvalidValue(name, "must be an integer, got %q", s)
	}
	return n, nil
}

// listLimit reads a list's limit, 1 to validate.MaxListLimit, into dst when
// the query gives one.
func listLimit(values map[string]string, dst *int) error {
	v, ok := values["limit"]
	if !ok {
		return nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > validate.MaxListLimit {
		return errs.InvalidValue("limit", "must be an integer between 1 and %d, got %q", validate.MaxListLimit, v)
	}
	*dst = n
	return nil
}

// timeBounds reads a time filter and its bounds (name, name.lt, .gt, .lte,
// .gte); an error names the parameter as the caller spelled it (given).
func timeBounds(values, given map[string]string, name string, eq, lt, gt, lte, gte **time.Time) error {
	for _, b := range []struct {
		suffix string
		dst    **time.Time
	}{{"", eq}, {".lt", lt}, {".gt", gt}, {".lte", lte}, {".gte", gte}} {
		v, ok := values[name+b.suffix]
		if !ok {
			continue
		}
		t, ok := parseQueryTime(v)
		if !ok {
			return errs.InvalidValue(given[name+b.suffix], "%q is not an ISO 8601 date-time (YYYY-MM-DDThh:mm:ssZ)", v)
		}
		*b.dst = &t
	}
	return nil
}

// withTimeBounds adds a time filter and its bounds (name, name.lt, .gt,
// .lte, .gte) to a list's parameters, with Hyperswitch's underscore
// spellings (name_lt …) of the bounds.
func (qp queryParams) withTimeBounds(name string) queryParams {
	qp.names = append(slices.Clip(qp.names), name)
	for _, op := range []string{"lt", "gt", "lte", "gte"} {
		qp.names = append(qp.names, name+"."+op)
		qp.aliases = append(slices.Clip(qp.aliases), [2]string{name + "_" + op, name + "." + op})
	}
	return qp
}
