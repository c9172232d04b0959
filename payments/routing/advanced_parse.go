package routing

// Reading an advanced program from its JSON: every refusal names the member
// at fault (validate.Path), as Hyperswitch's euclid does.

import (
	"encoding/json"
	"slices"

	"switchyard/payments/errs"
	"switchyard/payments/validate"
)

// parseProgram reads an advanced algorithm's data, refusing what it cannot
// evaluate with the member at fault; it answers the program and every
// connector it names.
func parseProgram(data json.RawMessage) (*program, []choiceAt, error) {
	root := validate.Path("algorithm.data")
	var w programWire
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, nil, errs.InvalidValue(root.String(), "an advanced algorithm's data is {defaultSelection, rules, metadata}: %s", jsonReason(err))
	}
	var choices []choiceAt
	if w.DefaultSelection == nil {
		return nil, nil, errs.MissingField(root.Key("defaultSelection").String())
	}
	def, err := parseSelection(root.Key("defaultSelection"), w.DefaultSelection, &choices)
	if err != nil {
		return nil, nil, err
	}
	p := &program{defaultSel: def}
	for i, rw := range w.Rules {
		at := root.Key("rules").At(i)
		name, err := ruleName(at, rw.Name)
		if err != nil {
			return nil, nil, err
		}
		if rw.ConnectorSelection == nil {
			return nil, nil, errs.MissingField(at.Key("connectorSelection").String())
		}
		sel, err := parseSelection(at.Key("connectorSelection"), rw.ConnectorSelection, &choices)
		if err != nil {
			return nil, nil, err
		}
		stmts, err := ruleStatements(at, rw.Statements, paymentKeys)
		if err != nil {
			return nil, nil, err
		}
		p.rules = append(p.rules, rule{name: name, sel: sel, statements: stmts})
	}
	return p, choices, nil
}

// ruleName is the name of the rule at: required, at most 255 characters.
func ruleName(at validate.Path, name *string) (string, error) {
	if name == nil || *name == "" {
		return "", errs.MissingField(at.Key("name").String())
	}
	if validate.Chars(*name) > 255 {
		return "", errs.InvalidValue(at.Key("name").String(), "must be at most 255 characters")
	}
	return *name, nil
}

// ruleStatements are the statements of the rule at (required), over keys.
func ruleStatements(at validate.Path, ws []statementWire, keys ruleKeys) ([]statement, error) {
	if ws == nil {
		return nil, errs.MissingField(at.Key("statements").String())
	}
	return parseStatements(at.Key("statements"), ws, keys)
}

// ruleKeys are the left-hand sides one kind of program tests, and what a
// refusal of another calls them.
type ruleKeys struct {
	keys map[string]lhs
	what string
}

// paymentKeys are an advanced program's: the payment routing keys.
var paymentKeys = ruleKeys{keys: lhsKeys, what: "a routing key Switchyard evaluates"}

// jsonReason is a decoding error without Go's type names.
func jsonReason(err error) string {
	if te, ok := err.(*json.UnmarshalTypeError); ok && te.Field != "" {
		return te.Field + " has the wrong type"
	}
	return "not in that shape"
}

func parseSelection(at validate.Path, w *selectionWire, choices *[]choiceAt) (selection, error) {
	sel := selection{kind: w.Type}
	data := at.Key("data")
	switch w.Type {
	case KindPriority:
		if err := json.Unmarshal(w.Data, &sel.priority); err != nil || len(sel.priority) == 0 {
			return sel, errs.InvalidValue(data.String(), "a priority choice is a non-empty list of connector choices")
		}
		for i, c := range sel.priority {
			*choices = append(*choices, choiceAt{data.At(i), c})
		}
	case KindVolumeSplit:
		if err := json.Unmarshal(w.Data, &sel.split); err != nil || len(sel.split) == 0 {
			return sel, errs.InvalidValue(data.String(), "a volume_split choice is a non-empty list of {connector, split}")
		}
		total := 0
		for i, v := range sel.split {
			if v.Split < 0 || v.Split > 100 {
				return sel, errs.InvalidValue(data.At(i).Key("split").String(), "must be between 0 and 100, got %d", v.Split)
			}
			total += v.Split
			*choices = append(*choices, choiceAt{data.At(i).Key("connector"), v.Connector})
		}
		if total != 100 {
			return sel, errs.InvalidValue(data.String(), "the splits of a volume_split must add up to 100, got %d", total)
		}
	case "":
		return sel, errs.MissingField(at.Key("type").String())
	default:
		return sel, errs.InvalidValue(at.Key("type").String(), "must be priority or volume_split, got %q", w.Type)
	}
	return sel, nil
}

func parseStatements(at validate.Path, ws []statementWire, keys ruleKeys) ([]statement, error) {
	out := make([]statement, 0, len(ws))
	for i, w := range ws {
		sat := at.At(i)
		if w.Condition == nil {
			return nil, errs.MissingField(sat.Key("condition").String())
		}
		st := statement{}
		for j, cw := range w.Condition {
			c, err := parseCondition(sat.Key("condition").At(j), cw, keys)
			if err != nil {
				return nil, err
			}
			st.conditions = append(st.conditions, c)
		}
		if w.Nested != nil {
			nested, err := parseStatements(sat.Key("nested"), w.Nested, keys)
			if err != nil {
				return nil, err
			}
			st.nested = nested
		}
		out = append(out, st)
	}
	return out, nil
}

// valueTypes are the value types each kind of left-hand side compares with.
var valueTypes = map[lhsKind][]string{
	kindNumber:   {valueNumber, valueNumberArray, valueNumberComparison},
	kindEnum:     {valueEnumVariant, valueEnumVariantArray},
	kindString:   {valueStr},
	kindMetadata: {valueMetadataVariant},
}

// parseCondition reads one comparison of a statement (at names it),
// refusing what the rules cannot evaluate with the member at fault.
func parseCondition(at validate.Path, w comparisonWire, keys ruleKeys) (condition, error) {
	c, err := conditionHead(at, w, keys)
	if err != nil {
		return c, err
	}
	return c, c.readValue(at.Key("value"), *w.Lhs, w.Value.Value)
}

// conditionHead reads a condition's left-hand side, comparison and value
// type, refusing a pairing the left-hand side does not take.
func conditionHead(at validate.Path, w comparisonWire, keys ruleKeys) (condition, error) {
	var c condition
	if w.Lhs == nil {
		return c, errs.MissingField(at.Key("lhs").String())
	}
	key, ok := keys.keys[*w.Lhs]
	if !ok && w.Value != nil && w.Value.Type == valueMetadataVariant {
		// A metadata comparison names its key in its value; its lhs is
		// "metadata", but any other is taken too (where metadata is a key).
		key, ok = keys.keys["metadata"]
	}
	if !ok {
		return c, errs.InvalidValue(at.Key("lhs").String(), "%q is not %s", *w.Lhs, keys.what)
	}
	c.key = key
	if w.Comparison == nil {
		return c, errs.MissingField(at.Key("comparison").String())
	}
	if err := comparisons.Check(at.Key("comparison"), *w.Comparison); err != nil {
		return c, err
	}
	c.op = *w.Comparison
	if w.Value == nil {
		return c, errs.MissingField(at.Key("value").String())
	}
	c.valueType = w.Value.Type
	vat := at.Key("value")
	allowed := valueTypes[key.kind]
	if !slices.Contains(allowed, c.valueType) {
		if c.valueType == "" {
			return c, errs.MissingField(vat.Key("type").String())
		}
		return c, errs.InvalidValue(vat.Key("type").String(), "%s compares with %s, got %q", *w.Lhs, validate.JoinOr(allowed), c.valueType)
	}
	// Only a single number is ordered; every other value is equal or not.
	if c.op != cmpEqual && c.op != cmpNotEqual && c.valueType != valueNumber {
		return c, errs.InvalidValue(at.Key("comparison").String(), "%s with a %s value is equal or not_equal, got %q", *w.Lhs, c.valueType, c.op)
	}
	return c, nil
}

// readValue reads the condition's value (vat.value, raw) as its value type
// says; an enum's values are read as lhsName's, in its spelling.
func (c *condition) readValue(vat validate.Path, lhsName string, raw json.RawMessage) error {
	bad := func(what string) error {
		return errs.InvalidValue(vat.Key("value").String(), "a %s value is %s", c.valueType, what)
	}
	switch c.valueType {
	case valueNumber:
		if err := json.Unmarshal(raw, &c.num); err != nil || c.num < 0 || isNull(raw) {
			return bad("a whole number, at least 0")
		}
	case valueNumberArray:
		if err := json.Unmarshal(raw, &c.nums); err != nil || isNull(raw) {
			return bad("a list of whole numbers")
		}
	case valueNumberComparison:
		return c.readNumberComparisons(vat, raw, bad)
	case valueEnumVariant, valueStr:
		if err := json.Unmarshal(raw, &c.str); err != nil || isNull(raw) {
			return bad("a string")
		}
		v, ok := c.key.read(c.str)
		if !ok {
			return errs.InvalidValue(vat.Key("value").String(), "%q is not a value of %s", c.str, lhsName)
		}
		c.str = v
	case valueEnumVariantArray:
		if err := json.Unmarshal(raw, &c.strs); err != nil || isNull(raw) {
			return bad("a list of strings")
		}
		for i, s := range c.strs {
			v, ok := c.key.read(s)
			if !ok {
				return errs.InvalidValue(vat.Key("value").At(i).String(), "%q is not a value of %s", s, lhsName)
			}
			c.strs[i] = v
		}
	case valueMetadataVariant:
		return c.readMetadata(vat, raw, bad)
	}
	return nil
}

// readNumberComparisons reads a number_comparison_array value.
func (c *condition) readNumberComparisons(vat validate.Path, raw json.RawMessage, bad func(string) error) error {
	var cmps []numberComparisonWire
	if err := json.Unmarshal(raw, &cmps); err != nil || isNull(raw) {
		return bad("a list of {comparisonType, number}")
	}
	for i, nc := range cmps {
		if err := comparisons.Check(vat.Key("value").At(i).Key("comparisonType"), nc.ComparisonType); err != nil {
			return err
		}
		if nc.Number == nil {
			return errs.MissingField(vat.Key("value").At(i).Key("number").String())
		}
		c.numCmps = append(c.numCmps, numberComparison{nc.ComparisonType, *nc.Number})
	}
	return nil
}

// readMetadata reads a metadata_variant value: the key and the value it
// must (or must not) have.
func (c *condition) readMetadata(vat validate.Path, raw json.RawMessage, bad func(string) error) error {
	var m metadataValueWire
	if err := json.Unmarshal(raw, &m); err != nil || isNull(raw) {
		return bad("{key, value}")
	}
	if m.Key == nil {
		return errs.MissingField(vat.Key("value").Key("key").String())
	}
	if m.Value == nil {
		return errs.MissingField(vat.Key("value").Key("value").String())
	}
	c.metaKey, c.str = *m.Key, *m.Value
	return nil
}

func isNull(raw json.RawMessage) bool { return len(raw) == 0 || string(raw) == "null" }
