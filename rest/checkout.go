package rest

import (
	"crypto/rand"
	"html/template"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"switchyard/payments"
	"switchyard/payments/connector"
)

// The routes Hyperswitch's web checkout SDK calls from the shopper's
// browser with the publishable key and the payment's client secret
// (docs/checkout.md): what it may offer, how the profile wants it shown,
// the wallet sessions, and the 3-D Secure steps after a confirm.

// confirmNext is Hyperswitch's SdkNextAction for a session the checkout
// pays through a confirm.
var confirmNext = map[string]string{"next_action": "confirm"}

func sessionTokensOf(w *payments.WalletSessions) sessionTokensBody {
	pi := w.Payment
	out := sessionTokensBody{PaymentID: pi.PaymentID, ClientSecret: pi.ClientSecret, SessionToken: []any{}}
	currency, amount := string(pi.Currency), w.Total
	for _, s := range w.Sessions {
		switch s.Wallet {
		case "google_pay":
			out.SessionToken = append(out.SessionToken, map[string]any{
				"wallet_name": "google_pay", "connector": s.Connector, "delayed_session_token": false,
				"sdk_next_action": confirmNext, "shipping_address_required": false, "email_required": false,
				"merchant_info":               map[string]any{"merchant_name": w.MerchantName},
				"shipping_address_parameters": map[string]any{"phone_number_required": false},
				"allowed_payment_methods": []any{map[string]any{
					"type": "CARD",
					"parameters": map[string]any{"allowed_auth_methods": []string{"PAN_ONLY", "CRYPTOGRAM_3DS"},
						"allowed_card_networks": []string{"AMEX", "DISCOVER", "MASTERCARD", "VISA"}},
					"tokenization_specification": map[string]any{"type": "PAYMENT_GATEWAY",
						"parameters": map[string]any{"gateway": "example", "gateway_merchant_id": pi.MerchantID}},
				}},
				"transaction_info": map[string]any{"country_code": "US", "currency_code": currency,
					"total_price_status": "Final", "total_price": amount},
			})
		case "apple_pay":
			out.SessionToken = append(out.SessionToken, map[string]any{
				"wallet_name": "apple_pay", "connector": s.Connector, "delayed_session_token": false,
				"sdk_next_action": confirmNext, "session_token_data": nil,
				"payment_request_data": map[string]any{"country_code": "US", "currency_code": currency,
					"total":                           map[string]any{"label": w.MerchantName, "type": "final", "amount": amount},
					"merchant_capabilities":           []string{"supports3DS"},
					"supported_networks":              []string{"visa", "masterCard", "amex", "discover"},
					"merchant_identifier":             "merchant.switchyard.sandbox",
					"required_billing_contact_fields": nil, "required_shipping_contact_fields": nil},
			})
		case "paypal":
			out.SessionToken = append(out.SessionToken, map[string]any{
				"wallet_name": "paypal", "connector": s.Connector, "session_token": "sandbox_" + pi.PaymentID,
				"sdk_next_action": confirmNext,
			})
		}
	}
	return out
}

// clientCheckoutBody is GET /payments/{payment_id}/client: the payment's
// methods as a flat list, the customer's saved methods, the intent as
// the checkout shows it, and what the checkout does next.
type clientCheckoutBody struct {
	PaymentMethodsEnabled  []enabledMethodOut      `json:"payment_methods_enabled"`
	CustomerPaymentMethods []clientSavedMethodBody `json:"customer_payment_methods"`
	IntentData             intentDataOut           `json:"intent_data"`
	SDKNextAction          sdkNextAction           `json:"sdk_next_action"`
}

type enabledMethodOut struct {
	PaymentMethod     string   `json:"payment_method"`
	PaymentMethodType string   `json:"payment_method_type"`
	CardNetworks      []string `json:"card_networks"`
	PaymentExperience []string `json:"payment_experience"`
	SurchargeDetails  any      `json:"surcharge_details"`
	PmAuthConnector   *string  `json:"pm_auth_connector"`
	// RequiredFields are the billing fields the checkout asks for.
	RequiredFields []requiredFieldInfo `json:"required_fields"`
}

// clientSavedMethodBody is a saved method as the v1 customer list shows
// it, with its card also under payment_method_data, where the checkout
// reads it.
type clientSavedMethodBody struct {
	customerPaymentMethodBody
	PaymentMethodData map[string]any `json:"payment_method_data"`
}

type intentDataOut struct {
	Currency                string  `json:"currency"`
	Amount                  int64   `json:"amount"`
	PaymentType             string  `json:"payment_type"`
	MerchantName            string  `json:"merchant_name"`
	CustomerID              *string `json:"customer_id"`
	IsGuestCustomer         bool    `json:"is_guest_customer"`
	IsTaxCalculationEnabled bool    `json:"is_tax_calculation_enabled"`
	MandatePayment          any     `json:"mandate_payment"`
	InstallmentOptions      any     `json:"installment_options"`
	RedirectURL             *string `json:"redirect_url"`
}

func clientCheckoutOf(c *payments.Checkout) clientCheckoutBody {
	pi := c.Payment
	out := clientCheckoutBody{PaymentMethodsEnabled: []enabledMethodOut{}, CustomerPaymentMethods: []clientSavedMethodBody{},
		SDKNextAction: sdkNextAction{NextAction: "confirm"},
		IntentData: intentDataOut{Currency: string(pi.Currency), Amount: c.Amount, PaymentType: string(pi.PaymentType),
			MerchantName: c.MerchantName, IsGuestCustomer: c.Customer == nil, IsTaxCalculationEnabled: c.Profile.IsTaxConnectorEnabled,
			RedirectURL: pi.ReturnURL}}
	if pi.MandateData != nil {
		out.IntentData.MandatePayment = pi.MandateData["mandate_type"]
	}
	for _, m := range c.Methods {
		e := enabledMethodOut{PaymentMethod: m.PaymentMethod, PaymentMethodType: m.PaymentMethodType,
			CardNetworks: slices.Sorted(maps.Keys(m.CardNetworks)), PaymentExperience: m.PaymentExperience,
			RequiredFields: methodRequiredFields(m)}
		if e.PaymentExperience == nil {
			e.PaymentExperience = []string{}
		}
		if e.CardNetworks == nil {
			e.CardNetworks = []string{}
		}
		out.PaymentMethodsEnabled = append(out.PaymentMethodsEnabled, e)
	}
	if c.Customer != nil {
		out.IntentData.CustomerID = &c.Customer.CustomerID
		for _, m := range customerPaymentMethodsOf(c.Customer, c.SavedMethods).CustomerPaymentMethods {
			s := clientSavedMethodBody{customerPaymentMethodBody: m}
			if m.Card != nil {
				s.PaymentMethodData = map[string]any{"card": m.Card}
			}
			out.CustomerPaymentMethods = append(out.CustomerPaymentMethods, s)
		}
	}
	return out
}

// sdkConfigBody is GET /v1/sdk/configs/web/sdk_config.json: the payment
// methods the profile's connectors enable, grouped by method, and the
// profile's checkout settings.
type sdkConfigBody struct {
	PaymentMethods []sdkConfigMethod `json:"payment_methods"`
	AccountConfig  struct {
		Profile sdkConfigProfile `json:"profile"`
	} `json:"account_config"`
	ContextUsed struct {
		ProfileID           string  `json:"profile_id"`
		ProcessorMerchantID string  `json:"processor_merchant_id"`
		OrganizationID      *string `json:"organization_id"`
	} `json:"context_used"`
	// RawConfigs are the billing fields the checkout asks for
	// (requiredFieldsConfig).
	RawConfigs superpositionConfig `json:"raw_configs"`
}

// sdkConfigTypeRule says which connectors may take a payment method type:
// "all" of the eligible ones, listed in criteria_rules.
type sdkConfigTypeRule struct {
	PaymentMethodType     string `json:"payment_method_type"`
	PaymentMethodCriteria string `json:"payment_method_criteria"`
	CriteriaRules         []struct {
		CriteriaValue      string   `json:"criteria_value"`
		EligibleConnectors []string `json:"eligible_connectors"`
	} `json:"criteria_rules"`
}

type sdkConfigProfile struct {
	// VaultingAction is "skip": saved cards live in Switchyard's own
	// vault, so the checkout need not tokenize with an external one.
	VaultingAction                                  string `json:"vaulting_action"`
	CollectBillingDetailsFromWalletConnector        bool   `json:"collect_billing_details_from_wallet_connector"`
	CollectShippingDetailsFromWalletConnector       bool   `json:"collect_shipping_details_from_wallet_connector"`
	AlwaysCollectBillingDetailsFromWalletConnector  bool   `json:"always_collect_billing_details_from_wallet_connector"`
	AlwaysCollectShippingDetailsFromWalletConnector bool   `json:"always_collect_shipping_details_from_wallet_connector"`
}

func sdkConfigOf(c *payments.Checkout) sdkConfigBody {
	var out sdkConfigBody
	out.RawConfigs = requiredFieldsConfig(c.Methods)
	out.PaymentMethods = groupByPaymentMethod(c.Methods, func(pm string, types []sdkConfigTypeRule) sdkConfigMethod {
		return sdkConfigMethod{PaymentMethod: pm, PaymentMethodTypes: types}
	}, func(m *connector.EligibleMethod) sdkConfigTypeRule {
		rule := sdkConfigTypeRule{PaymentMethodType: m.PaymentMethodType, PaymentMethodCriteria: "all"}
		rule.CriteriaRules = append(rule.CriteriaRules, struct {
			CriteriaValue      string   `json:"criteria_value"`
			EligibleConnectors []string `json:"eligible_connectors"`
		}{CriteriaValue: "all", EligibleConnectors: m.Connectors})
		return rule
	})
	p := c.Profile
	out.AccountConfig.Profile = sdkConfigProfile{VaultingAction: "skip",
		CollectBillingDetailsFromWalletConnector:        p.CollectBillingDetailsFromWalletConnector,
		CollectShippingDetailsFromWalletConnector:       p.CollectShippingDetailsFromWalletConnector,
		AlwaysCollectBillingDetailsFromWalletConnector:  p.AlwaysCollectBillingDetailsFromWalletConnector,
		AlwaysCollectShippingDetailsFromWalletConnector: p.AlwaysCollectShippingDetailsFromWalletConnector}
	out.ContextUsed.ProfileID, out.ContextUsed.ProcessorMerchantID = p.ID, c.Payment.MerchantID
	return out
}

// externalAuthenticationBody is Hyperswitch's PaymentsExternalAuthenticationResponse:
// the challenge is the sandbox's authentication page, where the checkout
// posts challenge_request as challenge_request_key.
type externalAuthenticationBody struct {
	TransStatus          string  `json:"trans_status"`
	AcsURL               *string `json:"acs_url"`
	ChallengeRequest     *string `json:"challenge_request"`
	ChallengeRequestKey  *string `json:"challenge_request_key"`
	AcsTransID           *string `json:"acs_trans_id"`
	ThreeDSServerTransID *string `json:"three_dsserver_trans_id"`
	ThreeDSRequestorURL  string  `json:"three_ds_requestor_url"`
	ErrorMessage         *string `json:"error_message"`
}

func externalAuthenticationOf(c *payments.ThreeDSChallenge) externalAuthenticationBody {
	acs := c.ACSURL
	out := externalAuthenticationBody{TransStatus: c.TransStatus, AcsURL: &acs}
	if creq := c.ChallengeRequest(); creq != "" {
		key := "creq"
		out.ChallengeRequest, out.ChallengeRequestKey = &creq, &key
		out.AcsTransID, out.ThreeDSServerTransID = &c.ACSTransID, &c.ServerTransID
	}
	if u, err := url.Parse(acs); err == nil {
		out.ThreeDSRequestorURL = u.Scheme + "://" + u.Host
	}
	return out
}

// clientSecretOnly is the body of the client routes that need nothing but
// the secret (Hyperswitch's PaymentsCompleteAuthorizeRequest and
// PaymentsExternalAuthenticationRequest): their other members describe the
// browser's 3-D Secure method run, which the sandbox's page does not need.
type clientSecretOnly struct {
	ClientSecret         *string `json:"client_secret"`
	Shipping             any     `json:"shipping"`
	ThreeDSMethodCompInd *string `json:"threeds_method_comp_ind"`
	SdkInformation       any     `json:"sdk_information"`
	DeviceChannel        *string `json:"device_channel"`
}

// clientSecretQuery is the query of the SDK's GET routes.
var clientSecretQuery = queryParams{route: "checkout", names: []string{"client_secret"}}

func queryClientSecret(r *http.Request) (string, error) {
	values, _, err := clientSecretQuery.read(r.URL.RawQuery)
	return values["client_secret"], err
}

// registerCheckout adds the checkout SDK's routes. The two it reads on
// mount take only the publishable key: a server holding the secret key
// has the payment and account routes.
func registerCheckout(a *api, svc *payments.Service) {
	a.handle("POST /payments/session_tokens", ClientOrMerchant, withBody(func(r *http.Request, req *paymentsSessionRequest) (any, error) {
		return respond(sessionTokensOf)(svc.SessionTokens(r.Context(), deref(req.PaymentID),
			payments.SessionTokensInput{ClientSecret: req.ClientSecret, Wallets: req.Wallets}))
	}))
	a.handle("GET /payments/{payment_id}/client", ClientOnly, func(r *http.Request) (any, error) {
		secret, err := queryClientSecret(r)
		if err != nil {
			return nil, err
		}
		return respond(clientCheckoutOf)(svc.Checkout(r.Context(), r.PathValue("payment_id"), secret))
	})
	a.handle("GET /v1/sdk/configs/web/sdk_config.json", ClientOnly, func(r *http.Request) (any, error) {
		secret, err := queryClientSecret(r)
		if err != nil {
			return nil, err
		}
		return respond(sdkConfigOf)(svc.Checkout(r.Context(), "", secret))
	})
	a.handle("POST /payments/{payment_id}/complete_authorize", ClientOrMerchant, withOptionalBody(func(r *http.Request, req *clientSecretOnly) (any, error) {
		return respond(paymentResponse)(svc.CompleteAuthorize(r.Context(), r.PathValue("payment_id"), req.ClientSecret))
	}))
	a.handle("POST /payments/{payment_id}/3ds/authentication", ClientOrMerchant, withOptionalBody(func(r *http.Request, req *clientSecretOnly) (any, error) {
		return respond(externalAuthenticationOf)(svc.AuthenticationChallenge(r.Context(), r.PathValue("payment_id"), req.ClientSecret))
	}))
	a.handle("GET /poll/status/{poll_id}", ClientOrMerchant, func(r *http.Request) (any, error) {
		id := r.PathValue("poll_id")
		status, err := svc.PollStatus(r.Context(), id)
		if err != nil {
			return nil, err
		}
		return pollBody{PollID: id, Status: status}, nil
	})
}

// threeDSAuthorizePage ends the checkout's 3-D Secure step, as the page
// Hyperswitch serves at three_ds_authorize_url does: inside the checkout's
// frame it posts poll_status to the checkout (which polls GET
// /poll/status/{poll_id}, then reads the payment); opened on its own it
// goes back to the shop's return_url.
var threeDSAuthorizePage = template.Must(template.New("authorize").Parse(pageHead + `<title>Payment · Switchyard sandbox</title>
</head>
<body>
<p>{{.Text}}</p>
{{with .Back}}<p><a href="{{.}}">Return to the merchant</a></p>{{end}}
<script nonce="{{.Nonce}}">
const pollStatus = {{.PollStatus}};
if (window.parent !== window) {
  window.parent.postMessage({poll_status: pollStatus}, "*");
} else if (pollStatus.return_url_with_query_params) {
  window.location.replace(pollStatus.return_url_with_query_params);
}
</script>
</body>
</html>
`))

type threeDSAuthorizeView struct {
	Text, Back, Nonce string
	// PollStatus is the message the checkout reads: its delay and
	// frequency are strings, as Hyperswitch sends them.
	PollStatus map[string]string
}

// registerThreeDSAuthorizePage serves three_ds_authorize_url (Hyperswitch's
// /payments/{payment_id}/{merchant_id}/authorize/{connector}) to the
// customer's browser, which the token in its query authenticates.
func registerThreeDSAuthorizePage(mux *http.ServeMux, svc *payments.Service) {
	page := func(w http.ResponseWriter, r *http.Request) {
		t, err := svc.AuthorizePage(r.Context(), r.PathValue("merchant_id"), r.PathValue("payment_id"), r.URL.Query().Get("token"))
		if err != nil {
			sandboxError(w, r, err)
			return
		}
		v := threeDSAuthorizeView{Text: "Payment " + string(t.Status) + ".", Nonce: rand.Text(), PollStatus: map[string]string{
			"poll_id": t.PollID, "delay_in_secs": strconv.Itoa(t.PollDelaySecs), "frequency": strconv.Itoa(t.PollTimes)}}
		if t.Return != nil {
			v.Back = t.Return.URL
			v.PollStatus["return_url_with_query_params"] = t.Return.URL
		}
		writePage(w, threeDSAuthorizePage, v, http.StatusOK, map[string]string{"Referrer-Policy": "no-referrer",
			"Content-Security-Policy": "default-src 'none'; base-uri 'none'; script-src 'nonce-" + v.Nonce + "'"})
	}
	const path = "/payments/{payment_id}/{merchant_id}/authorize/{connector}"
	mux.HandleFunc("GET "+path, page)
	mux.HandleFunc("POST "+path, page)
}
