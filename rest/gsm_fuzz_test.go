package rest_test

import "testing"

// gsmFuzzKey and gsmFuzzRule are seeds for the /gsm fuzz targets: a key,
// and a rule with every member GsmCreateRequest defines.
func gsmFuzzKey(code, message string) map[string]any {
	return map[string]any{"connector": "stripe_test", "flow": "Authorize", "sub_flow": "sub_flow", "code": code, "message": message}
}

func gsmFuzzRule() map[string]any {
	r := gsmFuzzKey("processing_error", "Processing error.")
	for k, v := range map[string]any{"status": "failure", "decision": "retry", "step_up_possible": false,
		"clear_pan_possible": false, "router_error": "e", "unified_code": "UE_1", "unified_message": "m",
		"error_category": "soft_decline", "standardised_code": "do_not_honor", "description": "d",
		"user_guidance_message": "u", "feature": "retry", "feature_data": map[string]any{"retry": map[string]any{
			"step_up_possible": true, "clear_pan_possible": false, "alternate_network_possible": false, "decision": "do_default"}}} {
		r[k] = v
	}
	return r
}

func FuzzGSMCreate(f *testing.F) {
	fuzzRoute(f, "POST", secret, func(fx) string { return "/gsm" }, gsmFuzzRule(), gsmFuzzKey("", ""))
}

func FuzzGSMUpdate(f *testing.F) {
	fuzzRoute(f, "POST", secret, func(fx) string { return "/gsm/update" }, gsmFuzzRule(), gsmFuzzKey("c", "m"))
}

func FuzzGSMGet(f *testing.F) {
	fuzzRoute(f, "POST", secret, func(fx) string { return "/gsm/get" }, gsmFuzzKey("processing_error", "m"))
}
