package rest

import (
	"net/http"

	"switchyard/ent"
	"switchyard/payments/merchant"
)

// organizationOf is an organization on the wire (OrganizationResponse).
func organizationOf(o *ent.Organization) organizationBody {
	return organizationBody{
		OrganizationID: o.ID, OrganizationName: o.OrganizationName, OrganizationDetails: o.OrganizationDetails,
		Metadata: o.Metadata, CreatedAt: Timestamp(o.CreatedAt), ModifiedAt: Timestamp(o.ModifiedAt),
		OrganizationType: ptrTo("standard"),
	}
}

func ptrTo[T any](v T) *T { return &v }

// registerOrganizations adds Hyperswitch's organization routes (admin key):
// the organizations merchant accounts belong to.
func registerOrganizations(a *api, svc *merchant.Service) {
	a.handle("POST /organization", AdminOnly, withBody(func(r *http.Request, req *organizationCreateRequest) (any, error) {
		return respond(organizationOf)(svc.CreateOrganization(r.Context(), merchant.OrganizationInput{
			Name: req.OrganizationName, Details: req.OrganizationDetails, Metadata: req.Metadata}))
	}))
	a.handle("GET /organization/{id}", AdminOnly, func(r *http.Request) (any, error) {
		return respond(organizationOf)(svc.GetOrganization(r.Context(), r.PathValue("id")))
	})
	a.handle("PUT /organization/{id}", AdminOnly, withBody(func(r *http.Request, req *organizationUpdateRequest) (any, error) {
		return respond(organizationOf)(svc.UpdateOrganization(r.Context(), r.PathValue("id"), merchant.OrganizationInput{
			Name: req.OrganizationName, Details: req.OrganizationDetails, Metadata: req.Metadata}))
	}))
}
