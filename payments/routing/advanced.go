package routing

import (
	"encoding/json"
	"slices"
	"strings"

	"switchyard/ent/schema/schematype"
	"switchyard/payments/validate"
)

// Payment is what routing knows of a payment when it decides: the facts an
// advanced configuration's rules test. An empty string is a fact not known
// (no billing address, not a card, …): no comparison on it holds.
type Payment struct {
	Amount             int64
	Currency           string
	PaymentMethod      string
	PaymentMethodType  string
	CardNetwork        string
	CardBin            string
	BillingCountry     string // ISO 3166-1 alpha-2
	BusinessCountry    string // ISO 3166-1 alpha-2
	BusinessLabel      string
	CaptureMethod      string
	AuthenticationType string
	SetupFutureUsage   string
	PaymentType        string
	// Metadata are the payment's metadata; values that are not strings
	// are their JSON text.
	Metadata map[string]string
	// The facts only a three_ds_decision_rule tests (threeds.go): the
	// card's issuer, the acquirer and the customer's device.
	IssuerName        string
	IssuerCountry     string // ISO 3166-1 alpha-2
	AcquirerCountry   string // ISO 3166-1 alpha-2
	AcquirerFraudRate *float64
	DevicePlatform    string
	DeviceType        string
	DisplaySize       string
}

// MetadataStrings are metadata as a rule compares them: strings as they
// are, any other value as its JSON text.
func MetadataStrings(m map[string]any) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		if s, ok := v.(string); ok {
			out[k] = s
			continue
		}
		if b, err := json.Marshal(v); err == nil {
			out[k] = string(b)
		}
	}
	return out
}

// Hyperswitch's value types (ValueType) and comparisons (ComparisonType).
const (
	valueNumber           = "number"
	valueEnumVariant      = "enum_variant"
	valueMetadataVariant  = "metadata_variant"
	valueStr              = "str_value"
	valueNumberArray      = "number_array"
	valueEnumVariantArray = "enum_variant_array"
	valueNumberComparison = "number_comparison_array"
	valueGlobalRef        = "global_ref"

	cmpEqual            = "equal"
	cmpNotEqual         = "not_equal"
	cmpLessThan         = "less_than"
	cmpLessThanEqual    = "less_than_equal"
	cmpGreaterThan      = "greater_than"
	cmpGreaterThanEqual = "greater_than_equal"
)

var comparisons = validate.NewEnum("ComparisonType", cmpEqual, cmpNotEqual, cmpLessThan, cmpLessThanEqual,
	cmpGreaterThan, cmpGreaterThanEqual)

// lhsKind is what a rule's left-hand side holds, which fixes the
// comparisons and value types it takes.
type lhsKind int

const (
	kindNumber   lhsKind = iota // amount: every comparison; number, number_array, number_comparison_array
	kindEnum                    // equal, not_equal; enum_variant, enum_variant_array
	kindString                  // equal, not_equal; str_value
	kindMetadata                // equal, not_equal; metadata_variant
)

// lhs is a left-hand side Switchyard evaluates: its kind, how a value
// named in a rule reads (false when it is not one of the key's values),
// and the payment's fact.
type lhs struct {
	kind lhsKind
	read func(v string) (string, bool)
	fact func(p *Payment) string
	// values are an enum key's values, as a rule names them (what an
	// editor offers; read takes other spellings too).
	values []string
	// rate is a number key's fact when it is not the amount: a fraction
	// (acquirer_fraud_rate), false when the payment does not say.
	rate func(p *Payment) (float64, bool)
}

// enumKey is a key whose values are e's.
func enumKey(e *validate.Enum, fact func(p *Payment) string) lhs {
	return lhs{kind: kindEnum, read: enumOf(e), fact: fact, values: e.Values()}
}

// countryKey is a key whose values are countries: Hyperswitch's names
// (Netherlands) as rules name them, or alpha-2 codes (NL).
func countryKey(fact func(p *Payment) string) lhs {
	names := make([]string, 0, len(countryCodes))
	for name := range countryCodes {
		names = append(names, name)
	}
	slices.Sort(names)
	return lhs{kind: kindEnum, read: country, fact: fact, values: names}
}

// enumOf reads a value of e, in any case (the decision engine's own
// examples write card networks as visa), as e spells it.
func enumOf(e *validate.Enum) func(string) (string, bool) {
	return func(v string) (string, bool) {
		if e.Has(v) {
			return v, true
		}
		for _, known := range e.Values() {
			if strings.EqualFold(known, v) {
				return known, true
			}
		}
		return v, false
	}
}

// country reads Hyperswitch's Country names (Netherlands) and, as well,
// alpha-2 codes (NL).
func country(v string) (string, bool) {
	if code, ok := countryCodes[v]; ok {
		return code, true
	}
	return enumOf(validate.Countries)(v)
}

func anyString(v string) (string, bool) { return v, true }

var (
	paymentMethods = validate.NewEnum("PaymentMethod", "card", "card_redirect", "pay_later", "wallet",
		"bank_redirect", "bank_transfer", "crypto", "bank_debit", "reward", "real_time_payment", "upi", "voucher",
		"gift_card", "open_banking", "mobile_payment", "network_token")
	authenticationTypes = validate.NewEnum("AuthenticationType", "three_ds", "no_three_ds")
	captureMethods      = validate.NewEnum("CaptureMethod", "automatic", "manual", "manual_multiple", "scheduled",
		"sequential_automatic")
	futureUsages = validate.NewEnum("FutureUsage", "off_session", "on_session")
	paymentTypes = validate.NewEnum("PaymentType", "normal", "new_mandate", "setup_mandate", "recurring_mandate",
		"installment")
)

// lhsKeys are the left-hand sides Switchyard evaluates: Hyperswitch's
// routing keys for what a payment carries here.
var lhsKeys = map[string]lhs{
	"amount":              {kind: kindNumber},
	"currency":            enumKey(validate.Currencies, func(p *Payment) string { return p.Currency }),
	"payment_method":      enumKey(paymentMethods, func(p *Payment) string { return p.PaymentMethod }),
	"payment_method_type": enumKey(validate.PaymentMethodTypes, func(p *Payment) string { return p.PaymentMethodType }),
	"card_network":        enumKey(validate.CardNetworks, func(p *Payment) string { return p.CardNetwork }),
	"billing_country":     countryKey(func(p *Payment) string { return p.BillingCountry }),
	"business_country":    countryKey(func(p *Payment) string { return p.BusinessCountry }),
	"capture_method":      enumKey(captureMethods, func(p *Payment) string { return p.CaptureMethod }),
	"authentication_type": enumKey(authenticationTypes, func(p *Payment) string { return p.AuthenticationType }),
	"setup_future_usage":  enumKey(futureUsages, func(p *Payment) string { return p.SetupFutureUsage }),
	"payment_type":        enumKey(paymentTypes, func(p *Payment) string { return p.PaymentType }),
	"card_bin":            {kind: kindString, read: anyString, fact: func(p *Payment) string { return p.CardBin }},
	"business_label":      {kind: kindString, read: anyString, fact: func(p *Payment) string { return p.BusinessLabel }},
	"metadata":            {kind: kindMetadata},
}

// familyKeys are Hyperswitch's per-family keys (wallet = apple_pay): the
// payment method type, known only when the payment method is that family.
var familyKeys = []string{"card_redirect", "pay_later", "wallet", "bank_redirect", "bank_transfer", "crypto",
	"bank_debit", "reward", "real_time_payment", "upi", "voucher", "gift_card", "open_banking", "mobile_payment"}

func init() {
	for _, f := range append(familyKeys, "card") {
		key := f
		name := f
		if f == "card" {
			name = "card_type" // credit or debit
		}
		lhsKeys[name] = enumKey(validate.PaymentMethodTypes, func(p *Payment) string {
			if p.PaymentMethod != key {
				return ""
			}
			return p.PaymentMethodType
		})
	}
}

// program is an advanced algorithm read once into what a decision
// evaluates: rules in order, the first that holds choosing.
type program struct {
	rules      []rule
	defaultSel selection
}

type rule struct {
	name       string
	sel        selection
	statements []statement
}

// selection is a rule's choice: connectors in priority order, or shares.
type selection struct {
	kind     string // KindPriority or KindVolumeSplit
	priority []schematype.RoutableConnector
	split    []VolumeSplit
}

// statement holds when all its conditions hold and, when it nests
// statements, one of them holds too.
type statement struct {
	conditions []condition
	nested     []statement
}

type condition struct {
	key       lhs
	op        string
	valueType string
	num       int64
	nums      []int64
	numCmps   []numberComparison
	str       string
	strs      []string
	metaKey   string
}

type numberComparison struct {
	op  string
	num int64
}

// Wire forms of Hyperswitch's ProgramConnectorSelection and its parts.
type (
	programWire struct {
		DefaultSelection *selectionWire `json:"defaultSelection"`
		Rules            []ruleWire     `json:"rules"`
		Metadata         map[string]any `json:"metadata"`
	}
	ruleWire struct {
		Name               *string         `json:"name"`
		ConnectorSelection *selectionWire  `json:"connectorSelection"`
		Statements         []statementWire `json:"statements"`
	}
	selectionWire struct {
		Type string          `json:"type"`
		Data json.RawMessage `json:"data"`
	}
	statementWire struct {
		Condition []comparisonWire `json:"condition"`
		Nested    []statementWire  `json:"nested"`
	}
	comparisonWire struct {
		Lhs        *string        `json:"lhs"`
		Comparison *string        `json:"comparison"`
		Value      *valueWire     `json:"value"`
		Metadata   map[string]any `json:"metadata"`
	}
	valueWire struct {
		Type  string          `json:"type"`
		Value json.RawMessage `json:"value"`
	}
	metadataValueWire struct {
		Key   *string `json:"key"`
		Value *string `json:"value"`
	}
	numberComparisonWire struct {
		ComparisonType string `json:"comparisonType"`
		Number         *int64 `json:"number"`
	}
)

// choiceAt is a connector an algorithm names, with where it names it.
type choiceAt struct {
	path   validate.Path
	choice schematype.RoutableConnector
}

// evaluate is the selection of the first rule that holds for p (and its
// name), else the default selection.
func (p *program) evaluate(pay *Payment) (selection, string) {
	for _, r := range p.rules {
		if anyHolds(r.statements, pay) {
			return r.sel, r.name
		}
	}
	return p.defaultSel, ""
}

// anyHolds: a rule's statements, as a statement's nested ones, are
// alternatives.
func anyHolds(stmts []statement, pay *Payment) bool {
	for _, s := range stmts {
		if s.holds(pay) {
			return true
		}
	}
	return false
}

func (s statement) holds(pay *Payment) bool {
	for _, c := range s.conditions {
		if !c.holds(pay) {
			return false
		}
	}
	return s.nested == nil || anyHolds(s.nested, pay)
}

// holds compares the payment's fact; a fact the payment lacks makes no
// comparison hold, not even not_equal (as Hyperswitch's interpreter).
func (c condition) holds(pay *Payment) bool {
	switch c.key.kind {
	case kindNumber:
		if c.key.rate != nil {
			r, ok := c.key.rate(pay)
			return ok && holdsNumber(c, r)
		}
		return holdsNumber(c, pay.Amount)
	case kindMetadata:
		v, ok := pay.Metadata[c.metaKey]
		return ok && (v == c.str) == (c.op == cmpEqual)
	}
	fact := c.key.fact(pay)
	if fact == "" {
		return false
	}
	eq := fact == c.str
	if c.valueType == valueEnumVariantArray {
		eq = slices.Contains(c.strs, fact)
	}
	return eq == (c.op == cmpEqual)
}

// holdsNumber compares n, the amount or a rate, with the rule's whole
// numbers.
func holdsNumber[N int64 | float64](c condition, n N) bool {
	switch c.valueType {
	case valueNumberArray:
		in := false
		for _, v := range c.nums {
			in = in || N(v) == n
		}
		return in == (c.op == cmpEqual)
	case valueNumberComparison:
		any := false
		for _, nc := range c.numCmps {
			any = any || compare(n, nc.op, N(nc.num))
		}
		return any == (c.op == cmpEqual)
	}
	return compare(n, c.op, N(c.num))
}

func compare[N int64 | float64](n N, op string, v N) bool {
	switch op {
	case cmpEqual:
		return n == v
	case cmpNotEqual:
		return n != v
	case cmpLessThan:
		return n < v
	case cmpLessThanEqual:
		return n <= v
	case cmpGreaterThan:
		return n > v
	case cmpGreaterThanEqual:
		return n >= v
	}
	return false
}
