package routing

import "slices"

// Fact is a left-hand side an advanced configuration's rules may test, as
// a rule editor offers it: what kind of fact it is, which value types it
// compares with and by which comparisons, and an enum's values. It is read
// from the same table the rules are checked and evaluated by, so an editor
// built on it offers exactly what a configuration may say.
type Fact struct {
	// Name is the rule's lhs: amount, currency, card_network, …
	Name string
	// Kind is number (amount, minor units), enum, string or metadata (a
	// {key, value} pair of the payment's metadata).
	Kind string
	// ValueTypes are the value types it compares with, each with its
	// comparisons.
	ValueTypes []ValueType
	// Values are an enum's values as rules name them (empty for the other
	// kinds).
	Values []string
}

// ValueType is one of Hyperswitch's value types and the comparisons a
// rule may make with it.
type ValueType struct {
	Type        string
	Comparisons []string
}

// factOrder is the order an editor lists the facts in: the common ones
// first, then each payment method family's type.
var factOrder = []string{"amount", "currency", "payment_method", "payment_method_type", "card_network", "card_type",
	"billing_country", "business_country", "capture_method", "authentication_type", "setup_future_usage",
	"payment_type", "card_bin", "business_label", "metadata"}

var kindNames = map[lhsKind]string{kindNumber: "number", kindEnum: "enum", kindString: "string", kindMetadata: "metadata"}

// Facts are the facts rules may test, in an editor's order.
func Facts() []Fact {
	names := slices.Clone(factOrder)
	for _, f := range familyKeys {
		if !slices.Contains(names, f) {
			names = append(names, f)
		}
	}
	out := make([]Fact, 0, len(names))
	for _, name := range names {
		key := lhsKeys[name]
		f := Fact{Name: name, Kind: kindNames[key.kind], Values: slices.Clone(key.values)}
		for _, vt := range valueTypes[key.kind] {
			cmps := []string{cmpEqual, cmpNotEqual}
			if vt == valueNumber { // only a single number is ordered
				cmps = comparisons.Values()
			}
			f.ValueTypes = append(f.ValueTypes, ValueType{Type: vt, Comparisons: cmps})
		}
		out = append(out, f)
	}
	return out
}
