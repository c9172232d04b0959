package rest

import (
	"reflect"

	"switchyard/ent/schema/schematype"
	"switchyard/payments"
)

// openObjects are the request objects whose unknown members are ignored;
// every other struct decode reads is closed (an unknown member is a 400
// IR_06 naming it). Hyperswitch refuses unknown members only where its
// serde type says deny_unknown_fields, and clients written against it send
// extra members elsewhere, so the split follows its types one by one
// (each type read in Hyperswitch's api_models). The members an open
// object does define are still checked.
//
// It is a table of types, not a mark on each struct, because some of the
// types (the addresses, order lines) live in schematype beside the data
// model, which knows nothing of the wire.
var openObjects = typeSet(
	// Whole request bodies.
	paymentsCaptureRequest{},           // PaymentsCaptureRequest
	paymentsCancelRequest{},            // PaymentsCancelRequest
	paymentsSessionRequest{},           // PaymentsSessionRequest
	paymentsIncrementRequest{},         // PaymentsIncrementalAuthorizationRequest
	paymentsCancelPostCaptureRequest{}, // PaymentsCancelPostCaptureRequest
	paymentsEligibilityRequest{},       // PaymentsEligibilityRequest, PaymentsEligibilityCheckRequest
	paymentsPostSessionTokensRequest{}, // PaymentsPostSessionTokensRequest
	clientSecretOnly{},                 // PaymentsCompleteAuthorizeRequest, PaymentsExternalAuthenticationRequest
	customerRequest{},                  // v1 CustomerRequest (v2's refuses)
	customerUpdateRequest{},            // v1 CustomerUpdateRequest
	ephemeralKeyRequest{},              // EphemeralKeyCreateRequest
	routingConfigRequest{},             // RoutingConfigRequest

	// Objects nested in refusing and ignoring bodies alike.
	schematype.AddressWrapper{}, // Address: billing, shipping, payment_method_data.billing
	schematype.Address{},        // AddressDetails
	schematype.Phone{},          // PhoneDetails
	schematype.OrderDetail{},    // OrderDetailsWithAmount: order_details[]
	paymentCustomerIn{},         // CustomerDetails: customer
	cardIn{},                    // Card: payment_method_data.card
	v2Card{},                    // Card, in v2's payment_method_data
	payments.BrowserInfo{},      // BrowserInformation, v1 and v2
	surchargeIn{},               // RequestSurchargeDetails
	externalThreeDSDataIn{},     // ExternalThreeDsData: three_ds_data
	mandateAmountIn{},           // MandateAmountData: mandate_type.single_use / multi_use
)

func typeSet(values ...any) map[reflect.Type]bool {
	out := make(map[reflect.Type]bool, len(values))
	for _, v := range values {
		out[reflect.TypeOf(v)] = true
	}
	return out
}
