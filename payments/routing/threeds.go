package routing

// Hyperswitch's three_ds_decision_rule: a program in the advanced
// algorithm's rule language whose rules decide whether and how to run 3-D
// Secure (a ThreeDSDecision) instead of choosing connectors. It is stored
// like any routing configuration (transaction_type three_ds_authentication)
// and never routes a payment: it cannot be activated, and
// payments/threedsdecision executes it by its id.

import (
	"encoding/json"

	"switchyard/ent/schema/schematype"
	"switchyard/payments/errs"
	"switchyard/payments/validate"
)

// KindThreeDSDecisionRule is Hyperswitch's RoutingAlgorithmKind for a 3-D
// Secure decision rule.
const KindThreeDSDecisionRule = "three_ds_decision_rule"

// threeDSDecisions are Hyperswitch's ThreeDSDecision values.
var threeDSDecisions = validate.NewEnum("ThreeDSDecision", "no_three_ds", "challenge_requested",
	"challenge_preferred", "three_ds_exemption_requested_tra", "three_ds_exemption_requested_low_value",
	"issuer_three_ds_exemption_requested")

var (
	devicePlatforms = validate.NewEnum("CustomerDevicePlatform", "web", "android", "ios")
	deviceTypes     = validate.NewEnum("CustomerDeviceType", "mobile", "tablet", "desktop", "gaming_console")
	displaySizes    = validate.NewEnum("CustomerDeviceDisplaySize", "size320x568", "size375x667", "size390x844",
		"size414x896", "size428x926", "size768x1024", "size834x1112", "size834x1194", "size1024x1366",
		"size1280x720", "size1366x768", "size1440x900", "size1920x1080", "size2560x1440", "size3840x2160",
		"size500x600", "size600x400", "size360x640", "size412x915", "size800x1280")
)

// threeDSKeys are the keys a three_ds_decision_rule's statements test:
// Hyperswitch's EuclidDirFilter for ThreeDSDecisionRule allows these ten.
var threeDSKeys = ruleKeys{what: "a key a three_ds_decision_rule tests (amount, currency, card_network, issuer_name, " +
	"issuer_country, customer_device_platform, customer_device_type, customer_device_display_size, acquirer_country, " +
	"acquirer_fraud_rate)", keys: map[string]lhs{
	"amount":                       {kind: kindNumber},
	"currency":                     enumKey(validate.Currencies, func(p *Payment) string { return p.Currency }),
	"card_network":                 enumKey(validate.CardNetworks, func(p *Payment) string { return p.CardNetwork }),
	"issuer_name":                  {kind: kindString, read: anyString, fact: func(p *Payment) string { return p.IssuerName }},
	"issuer_country":               countryKey(func(p *Payment) string { return p.IssuerCountry }),
	"customer_device_platform":     enumKey(devicePlatforms, func(p *Payment) string { return p.DevicePlatform }),
	"customer_device_type":         enumKey(deviceTypes, func(p *Payment) string { return p.DeviceType }),
	"customer_device_display_size": enumKey(displaySizes, func(p *Payment) string { return p.DisplaySize }),
	"acquirer_country":             countryKey(func(p *Payment) string { return p.AcquirerCountry }),
	"acquirer_fraud_rate": {kind: kindNumber, rate: func(p *Payment) (float64, bool) {
		if p.AcquirerFraudRate == nil {
			return 0, false
		}
		return *p.AcquirerFraudRate, true
	}},
}}

// ThreeDSRule is a three_ds_decision_rule read once: its rules in order,
// the first whose statements hold deciding, else its default decision.
type ThreeDSRule struct {
	rules           []threeDSRule
	defaultDecision string
}

type threeDSRule struct {
	name, decision string
	statements     []statement
}

// Wire forms of Hyperswitch's ProgramThreeDsDecisionRule. A rule's
// connectorSelection is what Hyperswitch's engine reads, a
// ThreeDSDecisionRule {decision}, or the bare ThreeDSDecision its OpenAPI
// document shows.
type (
	threeDSProgramWire struct {
		DefaultSelection *threeDSDecisionWire `json:"defaultSelection"`
		Rules            []threeDSRuleWire    `json:"rules"`
		Metadata         map[string]any       `json:"metadata"`
	}
	threeDSDecisionWire struct {
		Decision *string `json:"decision"`
	}
	threeDSRuleWire struct {
		Name               *string         `json:"name"`
		ConnectorSelection json.RawMessage `json:"connectorSelection"`
		Statements         []statementWire `json:"statements"`
	}
)

// ReadThreeDSRule reads a stored three_ds_decision_rule configuration.
func ReadThreeDSRule(a *schematype.RoutingAlgorithm) (*ThreeDSRule, error) {
	if a.Type != KindThreeDSDecisionRule {
		return nil, errs.InvalidValue("algorithm.type", "is %q, not %s", a.Type, KindThreeDSDecisionRule)
	}
	return parseThreeDSRule(a.Data)
}

// parseThreeDSRule reads a three_ds_decision_rule's data, refusing what
// it cannot evaluate with the member at fault.
func parseThreeDSRule(data json.RawMessage) (*ThreeDSRule, error) {
	root := validate.Path("algorithm.data")
	var w threeDSProgramWire
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, errs.InvalidValue(root.String(), "a three_ds_decision_rule's data is {defaultSelection: {decision}, rules, metadata}: %s", jsonReason(err))
	}
	if w.DefaultSelection == nil {
		return nil, errs.MissingField(root.Key("defaultSelection").String())
	}
	def, err := readDecision(root.Key("defaultSelection").Key("decision"), w.DefaultSelection.Decision)
	if err != nil {
		return nil, err
	}
	out := &ThreeDSRule{defaultDecision: def}
	for i, rw := range w.Rules {
		at := root.Key("rules").At(i)
		name, err := ruleName(at, rw.Name)
		if err != nil {
			return nil, err
		}
		decision, err := ruleDecision(at.Key("connectorSelection"), rw.ConnectorSelection)
		if err != nil {
			return nil, err
		}
		stmts, err := ruleStatements(at, rw.Statements, threeDSKeys)
		if err != nil {
			return nil, err
		}
		out.rules = append(out.rules, threeDSRule{name: name, decision: decision, statements: stmts})
	}
	return out, nil
}

// ruleDecision reads a rule's connectorSelection: {decision} or a bare
// decision.
func ruleDecision(at validate.Path, raw json.RawMessage) (string, error) {
	if isNull(raw) {
		return "", errs.MissingField(at.String())
	}
	var bare string
	if json.Unmarshal(raw, &bare) == nil {
		return readDecision(at, &bare)
	}
	var w threeDSDecisionWire
	if err := json.Unmarshal(raw, &w); err != nil {
		return "", errs.InvalidValue(at.String(), "a rule's decision is {decision: a ThreeDSDecision}")
	}
	return readDecision(at.Key("decision"), w.Decision)
}

func readDecision(at validate.Path, v *string) (string, error) {
	if v == nil || *v == "" {
		return "", errs.MissingField(at.String())
	}
	return *v, threeDSDecisions.Check(at, *v)
}

// Decide is the decision of the first rule whose statements hold for p
// (and its name), else the default decision (and "").
func (r *ThreeDSRule) Decide(p *Payment) (decision, rule string) {
	for _, rl := range r.rules {
		if anyHolds(rl.statements, p) {
			return rl.decision, rl.name
		}
	}
	return r.defaultDecision, ""
}

// threeDSFactKeys are the enum keys a three_ds_decision_rule's facts hold.
var threeDSFactKeys = []string{"currency", "card_network", "issuer_country", "acquirer_country",
	"customer_device_platform", "customer_device_type", "customer_device_display_size"}

// threeDSFact is p's fact of a key in threeDSFactKeys.
func (p *Payment) threeDSFact(key string) *string {
	switch key {
	case "currency":
		return &p.Currency
	case "card_network":
		return &p.CardNetwork
	case "issuer_country":
		return &p.IssuerCountry
	case "acquirer_country":
		return &p.AcquirerCountry
	case "customer_device_platform":
		return &p.DevicePlatform
	case "customer_device_type":
		return &p.DeviceType
	case "customer_device_display_size":
		return &p.DisplaySize
	}
	return nil
}

// NormalizeThreeDS checks the facts a three_ds_decision_rule tests against
// their keys' values, as a rule's values are (a country by Hyperswitch's
// name becomes its code); field names a key's member in the request.
func (p *Payment) NormalizeThreeDS(field func(key string) string) error {
	for _, key := range threeDSFactKeys {
		if err := normalizeFact(p.threeDSFact(key), threeDSKeys.keys[key], key, field(key)); err != nil {
			return err
		}
	}
	if p.Amount < 0 {
		return errs.InvalidValue(field("amount"), "must not be negative")
	}
	if p.AcquirerFraudRate != nil && *p.AcquirerFraudRate < 0 {
		return errs.InvalidValue(field("acquirer_fraud_rate"), "must not be negative")
	}
	return nil
}
