package rest

import (
	"net/http"

	"switchyard/ent"
	"switchyard/payments/errs"
	"switchyard/payments/merchant"
)

func apiKeyOf(k *ent.APIKey) apiKeyResponse {
	return apiKeyResponse{
		KeyID: k.ID, MerchantID: k.MerchantID, Name: k.Name, Description: k.Description,
		Prefix: k.Prefix, Created: Timestamp(k.CreatedAt), Expiration: expirationOf(k.ExpiresAt),
	}
}

// registerAPIKeys adds Hyperswitch's /api_keys routes (admin key).
func registerAPIKeys(a *api, svc *merchant.Service) {
	a.handle("POST /api_keys/{merchant_id}", AdminOnly, withBody(readingBody((*apiKeyRequest).input, func(r *http.Request, in merchant.APIKeyInput) (any, error) {
		k, plain, err := svc.CreateAPIKey(r.Context(), in)
		if err != nil {
			return nil, err
		}
		return createAPIKeyResponse{
			KeyID: k.ID, MerchantID: k.MerchantID, Name: k.Name, Description: k.Description,
			APIKey: plain, Created: Timestamp(k.CreatedAt), Expiration: expirationOf(k.ExpiresAt),
		}, nil
	})))
	a.handle("GET /api_keys/{merchant_id}/list", AdminOnly, func(r *http.Request) (any, error) {
		limit, err := intParam(r, "limit", 100)
		if err != nil {
			return nil, err
		}
		skip, err := intParam(r, "skip", 0)
		if err != nil {
			return nil, err
		}
		return respond(each(apiKeyOf))(svc.ListAPIKeys(r.Context(), limit, skip))
	})
	a.handle("GET /api_keys/{merchant_id}/{key_id}", AdminOnly, func(r *http.Request) (any, error) {
		return respond(apiKeyOf)(svc.GetAPIKey(r.Context(), r.PathValue("key_id")))
	})
	a.handle("POST /api_keys/{merchant_id}/{key_id}", AdminOnly, withBody(func(r *http.Request, req *apiKeyRequest) (any, error) {
		return respond(apiKeyOf)(svc.UpdateAPIKey(r.Context(), r.PathValue("key_id"), merchant.APIKeyPatch{
			Name: req.Name, Description: req.Description,
			Expiration: req.Expiration != nil, ExpiresAt: req.Expiration.expiresAt(),
		}))
	}))
	a.handle("DELETE /api_keys/{merchant_id}/{key_id}", AdminOnly, func(r *http.Request) (any, error) {
		return respond(revokedAPIKeyOf)(svc.RevokeAPIKey(r.Context(), r.PathValue("key_id")))
	})
}

// input is the domain's APIKeyInput: name and expiration are required.
func (req *apiKeyRequest) input() (merchant.APIKeyInput, error) {
	if req.Name == nil {
		return merchant.APIKeyInput{}, errs.MissingField("name")
	}
	if req.Expiration == nil {
		return merchant.APIKeyInput{}, errs.MissingField("expiration")
	}
	return merchant.APIKeyInput{Name: *req.Name, Description: req.Description, ExpiresAt: req.Expiration.expiresAt()}, nil
}

func revokedAPIKeyOf(k *ent.APIKey) revokeAPIKeyResponse {
	return revokeAPIKeyResponse{MerchantID: k.MerchantID, KeyID: k.ID, Revoked: true}
}

// intParam reads an optional integer query parameter of a route that
// reads its query leniently (an empty value is the default).
func intParam(r *http.Request, name string, def int) (int, error) {
	values := queryValues{}
	if v := r.URL.Query().Get(name); v != "" {
		values[name] = v
	}
	return values.integer(name, def)
}
