package rest

import (
	"net/http"

	"switchyard/ent"
	"switchyard/payments/cardissuers"
	"switchyard/payments/errs"
)

// name is the issuer's name, required on create and on update.
func (req *cardIssuerRequest) name() (string, error) {
	if req.IssuerName == nil {
		return "", errs.MissingField("issuer_name")
	}
	return *req.IssuerName, nil
}

func cardIssuerOf(i *ent.CardIssuer) cardIssuerResponse {
	return cardIssuerResponse{ID: i.ID, IssuerName: i.IssuerName}
}

// registerCardIssuers adds Hyperswitch's /card_issuers routes: a global
// catalogue that the admin key keeps and merchants read.
func registerCardIssuers(a *api, svc *cardissuers.Service) {
	a.handle("POST /card_issuers", AdminOnly, withBody(readingBody((*cardIssuerRequest).name, func(r *http.Request, name string) (any, error) {
		return respond(cardIssuerOf)(svc.Create(r.Context(), name))
	})))
	a.handle("PUT /card_issuers/{id}", AdminOnly, withBody(readingBody((*cardIssuerRequest).name, func(r *http.Request, name string) (any, error) {
		return respond(cardIssuerOf)(svc.Update(r.Context(), r.PathValue("id"), name))
	})))
	a.handle("DELETE /card_issuers/{id}", AdminOnly, func(r *http.Request) (any, error) {
		id := r.PathValue("id")
		if err := svc.Delete(r.Context(), id); err != nil {
			return nil, err
		}
		return map[string]any{"id": id, "deleted": true}, nil
	})
	a.handle("GET /card_issuers", MerchantOrAdmin, func(r *http.Request) (any, error) {
		limit, err := intParam(r, "limit", 0)
		if err != nil {
			return nil, err
		}
		list, err := svc.List(r.Context(), r.URL.Query().Get("query"), limit)
		if err != nil {
			return nil, err
		}
		return cardIssuerListResponse{Issuers: each(cardIssuerOf)(list)}, nil
	})
}
