package rest

import (
	"net/http"
	"strconv"

	"switchyard/ent"
	"switchyard/payments/blocklist"
	"switchyard/payments/errs"
)

// entry is the entry the request names: every variant requires both members.
func (req *blocklistRequest) entry() (blocklist.Entry, error) {
	switch {
	case req.Type == nil:
		return blocklist.Entry{}, errs.MissingField("type")
	case req.Data == nil:
		return blocklist.Entry{}, errs.MissingField("data")
	}
	return blocklist.Entry{Type: *req.Type, Data: *req.Data}, nil
}

func blocklistResponseOf(e *ent.BlocklistEntry) blocklistResponse {
	return blocklistResponse{FingerprintID: e.FingerprintID, DataKind: string(e.DataKind), CreatedAt: Timestamp(e.CreatedAt)}
}

func batchJobResponseOf(j *ent.BlocklistBatchJob) batchJobResponse {
	return batchJobResponse{JobID: j.ID, MerchantID: j.MerchantID, Status: string(j.Status), TotalRows: int(j.TotalRows),
		SucceededRows: int(j.SucceededRows), FailedRows: int(j.FailedRows), CreatedAt: Timestamp(j.CreatedAt),
		UpdatedAt: Timestamp(j.ModifiedAt)}
}

// blocklistPage reads a list's limit (default 10, 0 to 100) and offset.
func blocklistPage(r *http.Request) (limit, offset int, err error) {
	if limit, err = intParam(r, "limit", 10); err != nil {
		return 0, 0, err
	}
	if offset, err = intParam(r, "offset", 0); err != nil {
		return 0, 0, err
	}
	switch {
	case limit < 0 || limit > 100:
		return 0, 0, errs.InvalidValue("limit", "must be 0 to 100")
	case offset < 0:
		return 0, 0, errs.InvalidValue("offset", "must not be negative")
	}
	return limit, offset, nil
}

// registerBlocklist adds Hyperswitch's /blocklist routes: a merchant's
// blocked BINs and card fingerprints, the guard that makes a confirm
// refuse them, and CSV batches of entries.
func registerBlocklist(a *api, svc *blocklist.Service) {
	changing := func(change func(*http.Request, blocklist.Entry) (*ent.BlocklistEntry, error)) handlerFunc {
		return withBody(readingBody((*blocklistRequest).entry, func(r *http.Request, e blocklist.Entry) (any, error) {
			return respond(blocklistResponseOf)(change(r, e))
		}))
	}
	a.handle("POST /blocklist", MerchantOrAdmin, changing(func(r *http.Request, e blocklist.Entry) (*ent.BlocklistEntry, error) {
		return svc.Add(r.Context(), e)
	}))
	a.handle("DELETE /blocklist", MerchantOrAdmin, changing(func(r *http.Request, e blocklist.Entry) (*ent.BlocklistEntry, error) {
		return svc.Remove(r.Context(), e)
	}))
	// Hyperswitch answers the list as an array of BlocklistResponse (its
	// document says one object).
	a.handle("GET /blocklist", MerchantOrAdmin, func(r *http.Request) (any, error) {
		limit, offset, err := blocklistPage(r)
		if err != nil {
			return nil, err
		}
		in := blocklist.ListInput{DataKind: r.URL.Query().Get("data_kind"), Limit: limit, Offset: offset}
		return respond(each(blocklistResponseOf))(svc.List(r.Context(), in))
	})
	a.handle("POST /blocklist/toggle", MerchantOrAdmin, func(r *http.Request) (any, error) {
		raw := r.URL.Query().Get("status")
		if raw == "" {
			return nil, errs.MissingField("status")
		}
		on, err := strconv.ParseBool(raw)
		if err != nil || (raw != "true" && raw != "false") {
			return nil, errs.InvalidValue("status", "must be true or false")
		}
		if err := svc.SetGuard(r.Context(), on); err != nil {
			return nil, err
		}
		status := "disabled"
		if on {
			status = "enabled"
		}
		return blocklistToggleResponse{BlocklistGuardStatus: status}, nil
	})
	a.handle("POST /blocklist/batch", MerchantOrAdmin, func(r *http.Request) (any, error) {
		entries, err := readBatch(r)
		if err != nil {
			return nil, err
		}
		job, err := svc.Batch(r.Context(), entries)
		if err != nil {
			return nil, err
		}
		return withStatus(http.StatusAccepted, batchUploadResponse{JobID: job.ID, TotalRows: int(job.TotalRows), Status: string(job.Status)}), nil
	})
	a.handle("GET /blocklist/batch", MerchantOrAdmin, func(r *http.Request) (any, error) {
		limit, offset, err := blocklistPage(r)
		if err != nil {
			return nil, err
		}
		jobs, total, err := svc.Jobs(r.Context(), limit, offset)
		if err != nil {
			return nil, err
		}
		return batchJobsResponse{Count: len(jobs), TotalCount: total, Data: each(batchJobResponseOf)(jobs)}, nil
	})
	a.handle("GET /blocklist/batch/{job_id}", MerchantOrAdmin, func(r *http.Request) (any, error) {
		return respond(batchJobResponseOf)(svc.Job(r.Context(), r.PathValue("job_id")))
	})
}

// readBatch reads the CSV of a batch upload: the multipart form's file
// field, at most blocklist.MaxBatchBytes.
func readBatch(r *http.Request) ([]blocklist.Entry, error) {
	r.Body = http.MaxBytesReader(nil, r.Body, blocklist.MaxBatchBytes+64<<10)
	if err := r.ParseMultipartForm(blocklist.MaxBatchBytes); err != nil {
		return nil, errs.InvalidRequest("the body must be a multipart/form-data upload with a file field (a CSV of at most 5 MB)")
	}
	f, h, err := r.FormFile("file")
	if err != nil {
		return nil, errs.MissingField("file")
	}
	defer f.Close()
	if h.Size > blocklist.MaxBatchBytes {
		return nil, errs.InvalidRequest("CSV validation error: the file exceeds the 5 MB limit").WithField("file")
	}
	return blocklist.ParseBatch(f)
}
