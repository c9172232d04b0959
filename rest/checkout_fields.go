package rest

import (
	"maps"
	"slices"
	"strings"

	"switchyard/payments/connector"
)

// The billing fields a checkout asks for (connector.RequiredFields), in the
// shapes Hyperswitch serves them: the raw_configs of the SDK configuration
// (a Superposition configuration, which its web SDK evaluates for each
// connector that may take the payment method the shopper picks), and
// RequiredFieldInfo in the payment method lists.

// superpositionConfig is a Superposition configuration: default values of
// its keys, and contexts whose condition, when the evaluation context holds
// it, applies their overrides. The SDK's keys are "<field>._<property>".
type superpositionConfig struct {
	Contexts       []superpositionContext    `json:"contexts"`
	Overrides      map[string]map[string]any `json:"overrides"`
	DefaultConfigs map[string]any            `json:"default_configs"`
}

type superpositionContext struct {
	ID               string            `json:"id"`
	Condition        map[string]string `json:"condition"`
	Priority         int               `json:"priority"`
	Weight           int               `json:"weight"`
	OverrideWithKeys []string          `json:"override_with_keys"`
}

// fieldProperties are a field's SDK properties as Superposition keys: its
// presentation, and whether it is required (defaults say not).
func fieldProperties(f connector.Field, order int, required bool) map[string]any {
	p := map[string]any{"_is_required": required, "_confirm_request_write_path": f.Path,
		"_field_render_type": f.Render, "_default_label_text": f.Label, "_field_display_order": order + 1}
	for k, v := range map[string]string{"_label_localization_key": f.LabelKey, "_html_autocomplete_attribute": f.Autocomplete,
		"_validation_rule_type": f.Validation, "_layout_row_id": f.Row} {
		if v != "" {
			p[k] = v
		}
	}
	if f.Options != nil {
		p["_dropdown_options"] = f.Options
	}
	out := make(map[string]any, len(p))
	for k, v := range p {
		out[f.Path+"."+k] = v
	}
	return out
}

// requiredFieldsConfig is the raw_configs of the SDK configuration: for each
// connector and payment method that asks for billing fields, a context on
// the connector and the method (as the SDK names it: card is Card) that
// makes them required, with the presentation the method gives them.
func requiredFieldsConfig(methods []*connector.EligibleMethod) superpositionConfig {
	out := superpositionConfig{Contexts: []superpositionContext{}, Overrides: map[string]map[string]any{}, DefaultConfigs: map[string]any{}}
	byContext := map[[2]string][]string{}
	for _, m := range methods {
		for c, paths := range m.RequiredFields {
			key := [2]string{c, m.PaymentMethod}
			byContext[key] = connector.MergeFields(byContext[key], paths)
		}
	}
	for _, key := range slices.SortedFunc(maps.Keys(byContext), func(a, b [2]string) int {
		return strings.Compare(a[0]+"."+a[1], b[0]+"."+b[1])
	}) {
		id := key[0] + "." + key[1]
		override := map[string]any{}
		for _, path := range byContext[key] {
			plain, order, _ := connector.FieldOf(path, "")
			maps.Copy(out.DefaultConfigs, fieldProperties(plain, order, false))
			shown, _, _ := connector.FieldOf(path, key[1])
			maps.Copy(override, fieldProperties(shown, order, true))
		}
		out.Overrides[id] = override
		out.Contexts = append(out.Contexts, superpositionContext{ID: id, OverrideWithKeys: []string{id},
			Condition: map[string]string{"connector": key[0], "payment_method": pascalCase(key[1])}})
	}
	return out
}

// pascalCase is the SDK's name of a payment method in its configuration's
// conditions: pay_later is PayLater.
func pascalCase(s string) string {
	var b strings.Builder
	for w := range strings.SplitSeq(s, "_") {
		if w != "" {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
	}
	return b.String()
}

// methodRequiredFields are the fields a payment method asks for through any
// of its connectors, in the checkout's order.
func methodRequiredFields(m *connector.EligibleMethod) []requiredFieldInfo {
	var paths []string
	for _, c := range slices.Sorted(maps.Keys(m.RequiredFields)) {
		paths = connector.MergeFields(paths, m.RequiredFields[c])
	}
	out := make([]requiredFieldInfo, 0, len(paths))
	for _, p := range paths {
		f, _, _ := connector.FieldOf(p, m.PaymentMethod)
		out = append(out, requiredFieldInfo{RequiredField: f.Path, DisplayName: f.DisplayName, FieldType: f.FieldType})
	}
	return out
}

// requiredFieldsByKey is methodRequiredFields as the v1 payment method list
// shows them: keyed by the field's name in the payment.
func requiredFieldsByKey(m *connector.EligibleMethod) map[string]any {
	out := map[string]any{}
	for _, info := range methodRequiredFields(m) {
		f, _, _ := connector.FieldOf(info.RequiredField, "")
		out[f.Key] = info
	}
	return out
}
