package rest

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"switchyard/internal/strictjson"
	"switchyard/payments/errs"
)

// The spec's nested connector_metadata, feature_metadata and
// payment_link_config are open objects: they are stored as given, but the
// members the spec documents must have their documented JSON types (and
// enumerations), checked here with the member's full path in the error.

type docKind int

const (
	docAny docKind = iota
	docString
	docBool
	docInt
	docTime
	docEnum
	docObject
	docArray
)

// docShape is a documented member's shape. Objects list the members whose
// types are checked; other members pass as given.
type docShape struct {
	kind    docKind
	members map[string]docShape
	elem    *docShape
	values  []string
}

var (
	dString = docShape{kind: docString}
	dBool   = docShape{kind: docBool}
	dInt    = docShape{kind: docInt}
	dTime   = docShape{kind: docTime}
	dAny    = docShape{kind: docAny}
)

func dEnum(values ...string) docShape { return docShape{kind: docEnum, values: values} }

func dObject(members map[string]docShape) docShape {
	return docShape{kind: docObject, members: members}
}

func dArray(elem docShape) docShape { return docShape{kind: docArray, elem: &elem} }

// connectorMetadataShape is the spec's connector_metadata: one object per
// connector that needs extras.
var connectorMetadataShape = dObject(map[string]docShape{
	"apple_pay": dObject(map[string]docShape{
		"session_token_data": dObject(map[string]docShape{
			"payment_processing_certificate":     dString,
			"payment_processing_certificate_key": dString,
			"payment_processing_details_at":      dEnum("Hyperswitch", "Connector"),
			"certificate":                        dString,
			"certificate_keys":                   dString,
			"merchant_identifier":                dString,
			"display_name":                       dString,
			"initiative":                         dEnum("web", "ios"),
			"initiative_context":                 dString,
			"merchant_business_country":          dString,
		}),
	}),
	"airwallex": dObject(map[string]docShape{"payload": dString}),
	"noon":      dObject(map[string]docShape{"order_category": dString}),
	"braintree": dObject(map[string]docShape{
		"merchant_account_id":      dString,
		"merchant_config_currency": dString,
	}),
	"adyen": dObject(map[string]docShape{
		"testing": dObject(map[string]docShape{"holder_name": dString}),
	}),
	"peachpayments": dObject(nil),
	"santander":     dObject(nil),
})

// featureMetadataShape is the spec's feature_metadata.
var featureMetadataShape = dObject(map[string]docShape{
	"redirect_response": dObject(map[string]docShape{
		"param":        dString,
		"json_payload": dObject(nil),
	}),
	"search_tags": dArray(dString),
	"apple_pay_recurring_details": dObject(map[string]docShape{
		"payment_description": dString,
		"regular_billing": dObject(map[string]docShape{
			"label":                            dString,
			"recurring_payment_start_date":     dTime,
			"recurring_payment_end_date":       dTime,
			"recurring_payment_interval_unit":  dEnum("year", "month", "day", "hour", "minute"),
			"recurring_payment_interval_count": dInt,
		}),
		"management_url":    dString,
		"billing_agreement": dString,
	}),
	"revenue_recovery": dObject(map[string]docShape{
		"total_retry_count":                   dInt,
		"billing_connector_id":                dString,
		"active_attempt_payment_connector_id": dString,
		"billing_connector_payment_details": dObject(map[string]docShape{
			"payment_processor_token": dString,
			"connector_customer_id":   dString,
		}),
		"payment_method_type":    dString,
		"payment_method_subtype": dString,
		"connector":              dString,
		"billing_connector_payment_method_details": dObject(map[string]docShape{
			"type": dEnum("card"),
			"value": dObject(map[string]docShape{
				"card_network": dString,
				"card_issuer":  dString,
			}),
		}),
		"payment_connector_transmission":             dEnum("ConnectorCallUnsuccessful", "ConnectorCallSucceeded"),
		"invoice_next_billing_time":                  dTime,
		"invoice_billing_started_at_time":            dTime,
		"first_payment_attempt_pg_error_code":        dString,
		"first_payment_attempt_network_decline_code": dString,
		"first_payment_attempt_network_advice_code":  dString,
	}),
	"pix_additional_details":            dObject(nil),
	"boleto_additional_details":         dObject(nil),
	"pix_automatico_additional_details": dObject(nil),
	"finix_additional_details":          dObject(nil),
})

// paymentLinkConfigShape is the spec's payment_link_config.
var paymentLinkConfigShape = dObject(map[string]docShape{
	"theme":                        dString,
	"logo":                         dString,
	"seller_name":                  dString,
	"sdk_layout":                   dString,
	"display_sdk_only":             dBool,
	"enabled_saved_payment_method": dBool,
	"hide_card_nickname_field":     dBool,
	"show_card_form_by_default":    dBool,
	"transaction_details": dArray(dObject(map[string]docShape{
		"key":   dString,
		"value": dString,
		"ui_configuration": dObject(map[string]docShape{
			"position":      dInt,
			"is_key_bold":   dBool,
			"is_value_bold": dBool,
		}),
	})),
	"background_image": dObject(map[string]docShape{
		"url":      dString,
		"position": dString,
		"size":     dAny,
	}),
	"details_layout":                dEnum("layout1", "layout2"),
	"payment_button_text":           dString,
	"custom_message_for_card_terms": dString,
	"custom_message_for_payment_method_types": dArray(dObject(map[string]docShape{
		"payment_method": dString,
		"payment_method_types": dArray(dObject(map[string]docShape{
			"payment_method_type": dString,
			"message": dObject(map[string]docShape{
				"display_mode": dString,
				"value":        dString,
			}),
		})),
	})),
	"payment_button_colour":            dString,
	"skip_status_screen":               dBool,
	"payment_button_text_colour":       dString,
	"background_colour":                dString,
	"sdk_ui_rules":                     dObject(nil),
	"payment_link_ui_rules":            dObject(nil),
	"enable_button_only_on_form_ready": dBool,
	"payment_form_header_text":         dString,
	"payment_form_label_type":          dEnum("above", "floating", "never"),
	"show_card_terms":                  dEnum("always", "auto", "never"),
	"is_setup_mandate_flow":            dBool,
	"color_icon_card_cvc_error":        dString,
	"show_merchant_name":               dBool,
})

// checkDoc checks v (as encoding/json decodes into any) against s. null is
// accepted wherever a member is documented as optional, which all are here.
func checkDoc(path string, v any, s docShape) error {
	if v == nil {
		return nil
	}
	switch s.kind {
	case docString:
		if _, ok := v.(string); !ok {
			return docWrongType(path, "a string", v)
		}
	case docBool:
		if _, ok := v.(bool); !ok {
			return docWrongType(path, "a boolean", v)
		}
	case docInt:
		f, ok := v.(float64)
		if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
			return docWrongType(path, "an integer", v)
		}
	case docTime:
		str, ok := v.(string)
		if !ok {
			return docWrongType(path, "an ISO 8601 date-time string", v)
		}
		if _, err := time.Parse(time.RFC3339, str); err != nil {
			if _, err := time.Parse("2006-01-02T15:04:05", str); err != nil {
				return errs.InvalidValue(path, "%q is not an ISO 8601 date-time (YYYY-MM-DDThh:mm:ssZ)", str)
			}
		}
	case docEnum:
		str, ok := v.(string)
		if !ok {
			return docWrongType(path, "a string", v)
		}
		if !slices.Contains(s.values, str) {
			return errs.InvalidValue(path, "must be one of %s, got %q", strings.Join(s.values, ", "), str)
		}
	case docObject:
		obj, ok := v.(map[string]any)
		if !ok {
			return docWrongType(path, "an object", v)
		}
		for _, k := range slices.Sorted(maps.Keys(s.members)) {
			if err := checkDoc(strictjson.JoinPath(path, k), obj[k], s.members[k]); err != nil {
				return err
			}
		}
	case docArray:
		arr, ok := v.([]any)
		if !ok {
			return docWrongType(path, "an array", v)
		}
		for i, e := range arr {
			if err := checkDoc(fmt.Sprintf("%s[%d]", path, i), e, *s.elem); err != nil {
				return err
			}
		}
	}
	return nil
}

func docWrongType(path, want string, got any) error {
	kind := "null"
	switch got.(type) {
	case string:
		kind = "string"
	case bool:
		kind = "boolean"
	case float64:
		kind = "number"
	case []any:
		kind = "array"
	case map[string]any:
		kind = "object"
	}
	e := errs.InvalidRequest("%s: expected %s, got %s", path, want, kind)
	e.Field = path
	return e
}
