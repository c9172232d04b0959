package rest

import (
	"encoding/json"
	"net/http"

	"switchyard/ent"
	"switchyard/ent/schema/schematype"
	"switchyard/payments"
	"switchyard/payments/authentication"
	"switchyard/payments/connector"
)

// registerAuthentications adds Hyperswitch's /authentication routes
// (external 3-D Secure as a service) with the keys Hyperswitch takes for
// each: create and the eligibility check's read take the secret key; the
// steps the checkout SDK runs take the publishable key too, held to the
// authentication's client_secret; the eligibility check takes the
// publishable key only; the redirect takes none. The challenge page is
// registerAuthenticationPages'.
func registerAuthentications(a *api, svc *authentication.Service) {
	if svc == nil {
		return
	}
	a.handle("POST /authentication", MerchantOrAdmin, withBody(func(r *http.Request, req *authenticationCreateRequest) (any, error) {
		return respond(authenticationResponseOf)(svc.Create(r.Context(), req.input()))
	}))
	a.handle("POST /authentication/{authentication_id}/eligibility", ClientOrMerchant,
		withBody(func(r *http.Request, req *authenticationEligibilityRequest) (any, error) {
			return respond(func(au *ent.Authentication) authenticationEligibilityResponse {
				return eligibilityResponseOf(au, svc.AuthenticateURL(au.ID))
			})(svc.Eligibility(r.Context(), r.PathValue("authentication_id"), req.input()))
		}))
	a.handle("POST /authentication/{authentication_id}/authenticate", ClientOrMerchant,
		withBody(func(r *http.Request, req *authenticationAuthenticateRequest) (any, error) {
			return respond(authenticateResponseOf)(svc.Authenticate(r.Context(), r.PathValue("authentication_id"),
				authentication.AuthenticateInput{ClientSecret: req.ClientSecret, DeviceChannel: req.DeviceChannel,
					ThreeDSMethodCompInd: req.ThreedsMethodCompInd}))
		}))
	a.handle("POST /authentication/{authentication_id}/sync", ClientOrMerchant,
		withBody(func(r *http.Request, req *authenticationSyncRequest) (any, error) {
			return respond(syncResponseOf)(svc.Sync(r.Context(), r.PathValue("authentication_id"), req.ClientSecret))
		}))
	a.handle("POST /authentication/{authentication_id}/enabled_authn_methods_token", ClientOrMerchant,
		withBody(func(r *http.Request, req *authenticationSessionTokenRequest) (any, error) {
			return respond(sessionResponseOf)(svc.SessionTokens(r.Context(), r.PathValue("authentication_id"), req.ClientSecret))
		}))
	a.handle("POST /authentication/{authentication_id}/eligibility-check", ClientOnly,
		withBody(func(r *http.Request, req *authenticationEligibilityCheckRequest) (any, error) {
			return respond(func(au *ent.Authentication) authenticationEligibilityCheckResponse {
				return authenticationEligibilityCheckResponse{AuthenticationID: au.ID, SDKNextAction: "proceed"}
			})(svc.EligibilityCheck(r.Context(), r.PathValue("authentication_id"), req.ClientSecret, req.EligibilityCheckData))
		}))
	a.handle("GET /authentication/{authentication_id}/eligibility-check", MerchantOrAdmin, func(r *http.Request) (any, error) {
		return respond(enrollmentOf)(svc.RetrieveEligibilityCheck(r.Context(), r.PathValue("authentication_id")))
	})
	// The 3-D Secure server's notification, from the customer's browser:
	// no key, as Hyperswitch's; it sends the browser on to the return_url.
	a.mux.HandleFunc("POST /authentication/{authentication_id}/redirect", func(w http.ResponseWriter, r *http.Request) {
		c, err := svc.Redirect(r.Context(), r.PathValue("authentication_id"))
		if err != nil {
			WriteError(w, r, err)
			return
		}
		if c.Return == "" {
			writeBody(w, http.StatusOK, encodeJSON(syncResponseOf(&authentication.Result{Authentication: c.Authentication})))
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		http.Redirect(w, r, c.Return, http.StatusSeeOther)
	})
	registerAuthenticationPages(a.mux, svc)
}

func (req *authenticationCreateRequest) input() authentication.CreateInput {
	return authentication.CreateInput{ProfileID: req.ProfileID, Amount: req.Amount, Currency: req.Currency,
		Connector: req.AuthenticationConnector, ReturnURL: req.ReturnURL, Force3DSChallenge: req.Force3DSChallenge,
		ExemptionType: req.Psd2ScaExemptionType, ProfileAcquirerID: req.ProfileAcquirerID,
		AcquirerDetails: req.AcquirerDetails, CustomerDetails: req.CustomerDetails}
}

func (req *authenticationEligibilityRequest) input() authentication.EligibilityInput {
	in := authentication.EligibilityInput{ClientSecret: req.ClientSecret, PaymentMethodType: req.PaymentMethodType,
		Billing: req.Billing, Shipping: req.Shipping, Email: req.Email}
	if req.PaymentMethod != nil {
		in.PaymentMethod = *req.PaymentMethod
	}
	if req.PaymentMethodData != nil {
		in.Card = req.PaymentMethodData.Card.domain()
	}
	if req.BrowserInformation != nil {
		in.BrowserInformation = asMap(req.BrowserInformation)
	}
	return in
}

func authenticationResponseOf(au *ent.Authentication) authenticationResponse {
	return authenticationResponse{AuthenticationID: au.ID, MerchantID: au.MerchantID, Status: string(au.Status),
		ClientSecret: &au.ClientSecret, Amount: au.Amount, Currency: string(au.Currency),
		AuthenticationConnector: au.AuthenticationConnector, Force3DSChallenge: &au.Force3dsChallenge,
		ReturnURL: au.ReturnURL, CreatedAt: ts(&au.CreatedAt), ErrorCode: au.ErrorCode, ErrorMessage: au.ErrorMessage,
		ProfileID: &au.ProfileID, Psd2ScaExemptionType: au.Psd2ScaExemptionType, AcquirerDetails: au.AcquirerDetails,
		ProfileAcquirerID: au.ProfileAcquirerID, CustomerDetails: au.CustomerDetails}
}

// threeDSData is the eligibility's ThreeDsData: the 3-D Secure server's
// version and transaction id.
func threeDSData(au *ent.Authentication) map[string]any {
	return map[string]any{"ThreeDsData": map[string]any{
		"three_ds_server_transaction_id": deref(au.ThreedsServerTransactionID),
		"maximum_supported_3ds_version":  connector.ThreeDSMessageVersion,
		"connector_authentication_id":    deref(au.ThreedsServerTransactionID),
		"three_ds_method_data":           "",
		"three_ds_method_url":            "",
		"message_version":                deref(au.MessageVersion),
		"directory_server_id":            directoryServer(au),
	}}
}

// directoryServer is the EMV registered application id of the card
// network's directory server.
func directoryServer(au *ent.Authentication) string {
	return map[string]string{"Visa": "A000000003", "Mastercard": "A000000004", "AmericanExpress": "A000000025",
		"Discover": "A000000152", "JCB": "A000000065"}[deref(au.CardNetwork)]
}

func eligibilityResponseOf(au *ent.Authentication, authenticateURL string) authenticationEligibilityResponse {
	return authenticationEligibilityResponse{AuthenticationID: au.ID,
		NextAction: authenticationNextAction{URL: authenticateURL, HTTPMethod: http.MethodPost},
		Status:     string(au.Status), EligibilityResponseParams: threeDSData(au), ProfileID: au.ProfileID,
		// Required and not nullable: the sandbox server sends no metadata.
		ConnectorMetadata: map[string]any{},
		ErrorMessage:      au.ErrorMessage, ErrorCode: au.ErrorCode, AuthenticationConnector: au.AuthenticationConnector,
		Billing: addressOf(au.Billing), Shipping: addressOf(au.Shipping), BrowserInformation: browserOf(au.BrowserInformation),
		Email: au.Email, AcquirerDetails: au.AcquirerDetails}
}

func authenticateResponseOf(res *authentication.Result) authenticationAuthenticateResponse {
	au := res.Authentication
	return authenticationAuthenticateResponse{TransStatus: au.TransStatus, AcsURL: deref(au.AcsURL),
		ChallengeRequest: au.ChallengeRequest, AcsTransID: au.AcsTransID,
		ThreeDSServerTransactionID: au.ThreedsServerTransactionID, ThreeDSRequestorURL: deref(au.ReturnURL),
		ErrorMessage: deref(au.ErrorMessage), ErrorCode: deref(au.ErrorCode),
		AuthenticationValue: res.AuthenticationValue, Status: string(au.Status),
		AuthenticationConnector: au.AuthenticationConnector, AuthenticationID: au.ID, Eci: res.ECI,
		AcquirerDetails: au.AcquirerDetails}
}

func syncResponseOf(res *authentication.Result) authenticationSyncResponse {
	au := res.Authentication
	out := authenticationSyncResponse{AuthenticationID: au.ID, MerchantID: au.MerchantID, Status: string(au.Status),
		ClientSecret: &au.ClientSecret, Amount: au.Amount, Currency: string(au.Currency),
		AuthenticationConnector: au.AuthenticationConnector, Force3DSChallenge: &au.Force3dsChallenge,
		ReturnURL: au.ReturnURL, CreatedAt: Timestamp(au.CreatedAt), ProfileID: au.ProfileID,
		Psd2ScaExemptionType: au.Psd2ScaExemptionType, AcquirerDetails: au.AcquirerDetails,
		ThreedsServerTransactionID: au.ThreedsServerTransactionID, ConnectorAuthenticationID: au.ThreedsServerTransactionID,
		MessageVersion: au.MessageVersion, Billing: addressOf(au.Billing), Shipping: addressOf(au.Shipping),
		BrowserInformation: browserOf(au.BrowserInformation), Email: au.Email, TransStatus: au.TransStatus,
		AcsURL: au.AcsURL, ChallengeRequest: au.ChallengeRequest, AcsTransID: au.AcsTransID,
		ErrorMessage: au.ErrorMessage, ErrorCode: au.ErrorCode, ProfileAcquirerID: au.ProfileAcquirerID}
	if au.MessageVersion != nil {
		v := connector.ThreeDSMessageVersion
		out.MaximumSupported3DSVersion = &v
	}
	if au.CardExpMonth != nil {
		out.PaymentMethodData = map[string]any{"type": "card_data", "card_expiry_month": au.CardExpMonth,
			"card_expiry_year": au.CardExpYear}
	}
	if res.Revealed {
		eci := res.ECI
		out.Eci = &eci
		data := map[string]any{"transaction_status": deref(au.TransStatus), "ds_trans_id": au.DsTransID,
			"version": au.MessageVersion, "eci": eci}
		if res.AuthenticationValue != "" {
			data["authentication_cryptogram"] = map[string]any{"cavv": map[string]any{
				"authentication_cryptogram": res.AuthenticationValue}}
		}
		out.AuthenticationDetails = map[string]any{"three_ds_data": data}
	}
	return out
}

func sessionResponseOf(au *ent.Authentication) authenticationSessionResponse {
	return authenticationSessionResponse{AuthenticationID: au.ID,
		SessionToken: []map[string]any{{"wallet_name": "no_session_token_received"}}}
}

func enrollmentOf(e *authentication.Enrollment) authenticationRetrieveEligibilityCheckResponse {
	return authenticationRetrieveEligibilityCheckResponse{EligibilityCheckData: map[string]any{
		"click_to_pay_enrollment_status": map[string]any{"visa": e.Visa, "mastercard": e.Mastercard}}}
}

// addressOf is a stored address (a JSON column) as the wire shows it.
func addressOf(m map[string]any) *schematype.AddressWrapper {
	return fromMap[schematype.AddressWrapper](m)
}

// browserOf is stored browser information as the wire shows it.
func browserOf(m map[string]any) *payments.BrowserInfo {
	return fromMap[payments.BrowserInfo](m)
}

// fromMap is a stored JSON object read back into T; nil when there is none.
func fromMap[T any](m map[string]any) *T {
	if m == nil {
		return nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil
	}
	var v T
	if json.Unmarshal(b, &v) != nil {
		return nil
	}
	return &v
}
