package rest

import (
	"net/http"

	"switchyard/ent"
	"switchyard/payments/acquirers"
	"switchyard/payments/errs"
)

// input is the request as the domain takes it; profile_id is the
// handlers' to check (required on create, refused on update).
func (req *profileAcquirerRequest) input() acquirers.Input {
	return acquirers.Input{AcquirerAssignedMerchantID: req.AcquirerAssignedMerchantID, MerchantName: req.MerchantName,
		Network: req.Network, AcquirerBIN: req.AcquirerBIN, AcquirerICA: req.AcquirerIca,
		AcquirerCountryCode: req.AcquirerCountryCode, AcquirerFraudRate: req.AcquirerFraudRate, IsDefault: req.IsDefault}
}

func profileAcquirerOf(a *ent.ProfileAcquirer) profileAcquirerResponse {
	return profileAcquirerResponse{ProfileAcquirerID: a.ID, AcquirerAssignedMerchantID: a.AcquirerAssignedMerchantID,
		MerchantName: a.MerchantName, Network: a.Network, AcquirerBIN: a.AcquirerBin, AcquirerIca: a.AcquirerIca,
		AcquirerFraudRate: a.AcquirerFraudRate, AcquirerCountryCode: a.AcquirerCountryCode, ProfileID: a.ProfileID,
		IsDefault: a.IsDefault}
}

// registerProfileAcquirers adds Hyperswitch's /profile_acquirers routes:
// a profile's acquirer configurations, created and updated.
func registerProfileAcquirers(a *api, svc *acquirers.Service) {
	a.handle("POST /profile_acquirers", MerchantOrAdmin, withBody(func(r *http.Request, req *profileAcquirerRequest) (any, error) {
		if req.ProfileID == nil {
			return nil, errs.MissingField("profile_id")
		}
		return respond(profileAcquirerOf)(svc.Create(r.Context(), *req.ProfileID, req.input()))
	}))
	a.handle("POST /profile_acquirers/{profile_id}/{profile_acquirer_id}", MerchantOrAdmin, withBody(func(r *http.Request, req *profileAcquirerRequest) (any, error) {
		if req.ProfileID != nil {
			return nil, errs.InvalidRequest("Json deserialize error: unknown field `profile_id`").WithField("profile_id")
		}
		return respond(profileAcquirerOf)(svc.Update(r.Context(), r.PathValue("profile_id"), r.PathValue("profile_acquirer_id"), req.input()))
	}))
}
