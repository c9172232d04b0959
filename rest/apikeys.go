package rest

import (
	"net/http"
	"strconv"

	"switchyard/ent"
	"switchyard/payments/errs"
	"switchyard/payments/merchant"
)

type createAPIKeyRequest struct {
	Name        *string     `json:"name"`
	Description *string     `json:"description"`
	Expiration  *Expiration `json:"expiration"`
}

type updateAPIKeyRequest struct {
	Name        *string     `json:"name"`
	Description *string     `json:"description"`
	Expiration  *Expiration `json:"expiration"`
}

type createAPIKeyResponse struct {
	KeyID       string     `json:"key_id"`
	MerchantID  string     `json:"merchant_id"`
	Name        string     `json:"name"`
	Description *string    `json:"description"`
	APIKey      string     `json:"api_key"`
	Created     Timestamp  `json:"created"`
	Expiration  Expiration `json:"expiration"`
}

type apiKeyResponse struct {
	KeyID       string     `json:"key_id"`
	MerchantID  string     `json:"merchant_id"`
	Name        string     `json:"name"`
	Description *string    `json:"description"`
	Prefix      string     `json:"prefix"`
	Created     Timestamp  `json:"created"`
	Expiration  Expiration `json:"expiration"`
}

type revokeAPIKeyResponse struct {
	MerchantID string `json:"merchant_id"`
	KeyID      string `json:"key_id"`
	Revoked    bool   `json:"revoked"`
}

func apiKeyOf(k *ent.APIKey) apiKeyResponse {
	return apiKeyResponse{
		KeyID: k.ID, MerchantID: k.MerchantID, Name: k.Name, Description: k.Description,
		Prefix: k.Prefix, Created: Timestamp(k.CreatedAt), Expiration: expirationOf(k.ExpiresAt),
	}
}

// registerAPIKeys adds Hyperswitch's /api_keys routes (admin key).
func registerAPIKeys(a *api, svc *merchant.Service) {
	a.handle("POST /api_keys/{merchant_id}", AdminOnly, func(r *http.Request) (any, error) {
		var req createAPIKeyRequest
		if err := decode(r, &req); err != nil {
			return nil, err
		}
		if req.Name == nil {
			return nil, errs.MissingField("name")
		}
		if req.Expiration == nil {
			return nil, errs.MissingField("expiration")
		}
		k, plain, err := svc.CreateAPIKey(r.Context(), merchant.APIKeyInput{
			Name: *req.Name, Description: req.Description, ExpiresAt: req.Expiration.expiresAt(),
		})
		if err != nil {
			return nil, err
		}
		return createAPIKeyResponse{
			KeyID: k.ID, MerchantID: k.MerchantID, Name: k.Name, Description: k.Description,
			APIKey: plain, Created: Timestamp(k.CreatedAt), Expiration: expirationOf(k.ExpiresAt),
		}, nil
	})
	a.handle("GET /api_keys/{merchant_id}/list", AdminOnly, func(r *http.Request) (any, error) {
		limit, err := intParam(r, "limit", 100)
		if err != nil {
			return nil, err
		}
		skip, err := intParam(r, "skip", 0)
		if err != nil {
			return nil, err
		}
		keys, err := svc.ListAPIKeys(r.Context(), limit, skip)
		if err != nil {
			return nil, err
		}
		out := make([]apiKeyResponse, len(keys))
		for i, k := range keys {
			out[i] = apiKeyOf(k)
		}
		return out, nil
	})
	a.handle("GET /api_keys/{merchant_id}/{key_id}", AdminOnly, func(r *http.Request) (any, error) {
		k, err := svc.GetAPIKey(r.Context(), r.PathValue("key_id"))
		if err != nil {
			return nil, err
		}
		return apiKeyOf(k), nil
	})
	a.handle("POST /api_keys/{merchant_id}/{key_id}", AdminOnly, func(r *http.Request) (any, error) {
		var req updateAPIKeyRequest
		if err := decode(r, &req); err != nil {
			return nil, err
		}
		k, err := svc.UpdateAPIKey(r.Context(), r.PathValue("key_id"), merchant.APIKeyPatch{
			Name: req.Name, Description: req.Description,
			Expiration: req.Expiration != nil, ExpiresAt: req.Expiration.expiresAt(),
		})
		if err != nil {
			return nil, err
		}
		return apiKeyOf(k), nil
	})
	a.handle("DELETE /api_keys/{merchant_id}/{key_id}", AdminOnly, func(r *http.Request) (any, error) {
		k, err := svc.RevokeAPIKey(r.Context(), r.PathValue("key_id"))
		if err != nil {
			return nil, err
		}
		return revokeAPIKeyResponse{MerchantID: k.MerchantID, KeyID: k.ID, Revoked: true}, nil
	})
}

// intParam reads an optional integer query parameter.
func intParam(r *http.Request, name string, def int) (int, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, errs.InvalidValue(name, "must be an integer, got %q", v)
	}
	return n, nil
}
