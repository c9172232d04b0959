package rest

import (
	"encoding/json"
	"net/http"

	"switchyard/payments"
	"switchyard/payments/errs"
)

// evidenceMembers reads a SubmitEvidenceRequest into the domain's input:
// every member given a value, by its wire name (null is absent).
func evidenceMembers(req *submitEvidenceRequest) (payments.EvidenceInput, error) {
	raw, err := json.Marshal(req)
	if err != nil {
		return payments.EvidenceInput{}, errs.Internal(err)
	}
	var all map[string]*string
	if err := json.Unmarshal(raw, &all); err != nil {
		return payments.EvidenceInput{}, errs.Internal(err)
	}
	in := payments.EvidenceInput{Members: map[string]string{}}
	for k, v := range all {
		switch {
		case k == "dispute_id":
			if v != nil {
				in.DisputeID = *v
			}
		case v != nil:
			in.Members[k] = *v
		}
	}
	return in, nil
}

// evidenceBlockOf maps an evidence type and its file onto Hyperswitch's
// DisputeEvidenceBlock; a file deleted since is shown not available.
func evidenceBlockOf(b payments.EvidenceBlock) disputeEvidenceBlock {
	meta := fileMetadataBody{FileID: b.FileID}
	if f := b.File; f != nil {
		meta.FileName, meta.FileSize, meta.FileType, meta.Available = f.FileName, int(f.FileSize), f.FileType, true
	}
	return disputeEvidenceBlock{EvidenceType: b.EvidenceType, FileMetadataResponse: meta}
}

// registerDisputeEvidence adds Hyperswitch's dispute evidence routes:
// submit (POST, JSON), attach a file to one evidence type (PUT, multipart
// with file, dispute_id, evidence_type), remove one (DELETE, JSON) and
// read the evidence's files (GET).
func registerDisputeEvidence(a *api, svc *payments.Service) {
	a.handle("POST /disputes/evidence", MerchantOrAdmin, withBody(readingBody(evidenceMembers,
		func(r *http.Request, in payments.EvidenceInput) (any, error) {
			return respond(disputeBodyOf)(svc.SubmitEvidence(r.Context(), in))
		})))
	a.handle("PUT /disputes/evidence", MerchantOrAdmin, func(r *http.Request) (any, error) {
		u, fields, err := readUpload(r, svc.MaxFileSize(), svc.FileTooLarge)
		if err != nil {
			return nil, err
		}
		if u.Purpose == "" {
			u.Purpose = "dispute_evidence" // implied by the route
		}
		fileID, err := svc.AttachEvidence(r.Context(), fields["dispute_id"], fields["evidence_type"], u)
		if err != nil {
			return nil, err
		}
		return createFileBody{FileID: fileID}, nil
	})
	a.handle("DELETE /disputes/evidence", MerchantOrAdmin, withBody(func(r *http.Request, req *deleteEvidenceRequest) (any, error) {
		if err := svc.DeleteEvidence(r.Context(), deref(req.DisputeID), deref(req.EvidenceType)); err != nil {
			return nil, err
		}
		return struct{}{}, nil
	}))
	a.handle("GET /disputes/evidence/{dispute_id}", MerchantOrAdmin, func(r *http.Request) (any, error) {
		return respond(each(evidenceBlockOf))(svc.DisputeEvidence(r.Context(), r.PathValue("dispute_id")))
	})
}
