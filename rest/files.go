package rest

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"switchyard/payments/errs"
	"switchyard/payments/files"
)

// uploadRoutes are the routes whose body is a multipart file upload: the
// server bounds their bodies by BodyLimit rather than the JSON limit.
var uploadRoutes = map[string]bool{"POST /files": true, "PUT /disputes/evidence": true}

// uploadOverhead is room for a multipart body's form fields and part
// headers beside the file.
const uploadOverhead = 64 << 10

// BodyLimit is the largest body r may have: the JSON limit, or for a file
// upload the largest file accepted (files.DefaultMaxSize) plus the form.
func BodyLimit(r *http.Request, jsonLimit int64) int64 {
	if uploadRoutes[r.Method+" "+strings.TrimRight(r.URL.Path, "/")] {
		return max(jsonLimit, files.DefaultMaxSize+uploadOverhead)
	}
	return jsonLimit
}

// maxFormField bounds each text field of an upload form.
const maxFormField = 1 << 10

// readUpload reads a multipart upload (Hyperswitch's CreateFileRequest
// form): the part named file, and the text fields (purpose, file_type,
// dispute_id, evidence_type, …) by name. Other parts are ignored, as
// Hyperswitch ignores them. The file's type is file_type, or the part's
// own Content-Type when file_type is not given. A file over maxSize is
// read only up to that limit and refused.
func readUpload(r *http.Request, maxSize int64, tooLarge func() *errs.Error) (files.Upload, map[string]string, error) {
	var u files.Upload
	fields := map[string]string{}
	mediaType, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mediaType != "multipart/form-data" {
		return u, nil, errs.ErrFileMissing.Newf("File not found in the request: send a multipart/form-data body with a file part")
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return u, nil, errs.ErrInvalidRequest.Newf("The multipart body could not be read: %v", err)
	}
	partType := ""
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return u, nil, uploadReadError(err)
		}
		switch name := part.FormName(); {
		case name == "file":
			data, err := io.ReadAll(io.LimitReader(part, maxSize+1))
			if err != nil {
				return u, nil, uploadReadError(err)
			}
			if int64(len(data)) > maxSize {
				return u, nil, tooLarge()
			}
			u.Data, u.Given, u.Name, partType = data, true, part.FileName(), part.Header.Get("Content-Type")
		case name != "":
			v, err := io.ReadAll(io.LimitReader(part, maxFormField+1))
			if err != nil {
				return u, nil, uploadReadError(err)
			}
			if len(v) > maxFormField {
				return u, nil, errs.InvalidValue(name, "must be at most %d bytes", maxFormField)
			}
			fields[name] = string(v)
		}
		_ = part.Close()
	}
	u.Purpose, u.Type = fields["purpose"], fields["file_type"]
	if u.Type == "" && partType != "application/octet-stream" {
		u.Type = partType
	}
	return u, fields, nil
}

func uploadReadError(err error) error {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return errs.BodyTooLarge(tooLarge.Limit)
	}
	return errs.ErrInvalidRequest.Newf("The multipart body could not be read: %v", err)
}

// fileBytes is an answer that is a file's bytes, not JSON.
type fileBytes struct {
	name, contentType string
	data              []byte
}

func (f fileBytes) write(w http.ResponseWriter) {
	w.Header().Set("Content-Type", f.contentType)
	w.Header().Set("Content-Length", strconv.Itoa(len(f.data)))
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if f.name != "" {
		w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": f.name}))
	}
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(f.data)
}

// registerFiles adds Hyperswitch's /files routes: upload (multipart),
// download (the bytes) and delete. Every file is the merchant's: another
// merchant's id is HE_04 FileNotFound, as an unknown one.
func registerFiles(a *api, svc *files.Service) {
	a.handle("POST /files", MerchantOrAdmin, func(r *http.Request) (any, error) {
		u, _, err := readUpload(r, svc.MaxSize(), svc.TooLarge)
		if err != nil {
			return nil, err
		}
		f, err := svc.Create(r.Context(), u)
		if err != nil {
			return nil, err
		}
		return createFileBody{FileID: f.ID}, nil
	})
	a.handle("GET /files/{file_id}", MerchantOrAdmin, func(r *http.Request) (any, error) {
		f, data, err := svc.Get(r.Context(), r.PathValue("file_id"))
		if err != nil {
			return nil, err
		}
		name := ""
		if f.FileName != nil {
			name = *f.FileName
		}
		return fileBytes{name: name, contentType: f.FileType, data: data}, nil
	})
	a.handle("DELETE /files/{file_id}", MerchantOrAdmin, func(r *http.Request) (any, error) {
		if err := svc.Delete(r.Context(), r.PathValue("file_id")); err != nil {
			return nil, err
		}
		return struct{}{}, nil
	})
}
