package files

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"strings"

	"switchyard/ent"
	"switchyard/ent/file"
	"switchyard/internal/ids"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// DefaultMaxSize is the largest file accepted when Deps.MaxSize is 0.
const DefaultMaxSize = 5 << 20

// PurposeDisputeEvidence is the one purpose Hyperswitch's files have.
const PurposeDisputeEvidence = "dispute_evidence"

// allowedTypes are the media types evidence may have: documents and
// images, the kinds connectors accept as dispute evidence.
var allowedTypes = map[string]bool{
	"application/pdf": true, "image/png": true, "image/jpeg": true, "image/jpg": true, "image/gif": true,
	"image/webp": true, "image/tiff": true, "text/plain": true, "text/csv": true,
}

// Deps are what the files service needs.
type Deps struct {
	DB    *txn.DB
	Store Store
	// MaxSize bounds a file's size in bytes; 0 is DefaultMaxSize.
	MaxSize int64
}

// Service is uploaded files: their rows and their bytes.
type Service struct {
	db      *txn.DB
	store   Store
	maxSize int64
}

// New returns the files service.
func New(d Deps) *Service {
	if d.MaxSize <= 0 {
		d.MaxSize = DefaultMaxSize
	}
	return &Service{db: d.DB, store: d.Store, maxSize: d.MaxSize}
}

// MaxSize is the largest file accepted, in bytes.
func (s *Service) MaxSize() int64 { return s.maxSize }

// Upload is POST /files's input (Hyperswitch's CreateFileRequest).
type Upload struct {
	// Data is the file's bytes; nil when the request had no file part.
	Data []byte
	// Given is whether the request had a file part at all.
	Given bool
	Name  string
	// Type is the file's media type (file_type), e.g. application/pdf.
	Type    string
	Purpose string
}

// ErrFileNotFound is Hyperswitch's FileNotFound (HE_04).
func ErrFileNotFound() *errs.Error { return errs.ErrFileNotFound.New() }

// Create checks an upload, stores its bytes, then records its row. A
// crash between the two leaves bytes no row names (harmless, and never
// served), never a row without bytes.
func (s *Service) Create(ctx context.Context, u Upload) (*ent.File, error) {
	if !u.Given {
		return nil, errs.ErrFileMissing.New()
	}
	if u.Purpose != PurposeDisputeEvidence {
		return nil, errs.ErrFilePurposeMissing.New()
	}
	if strings.TrimSpace(u.Type) == "" {
		return nil, errs.ErrFileContentTypeMissing.New()
	}
	mediaType, _, err := mime.ParseMediaType(u.Type)
	if err != nil {
		return nil, errs.InvalidValue("file_type", "%q is not a media type", u.Type)
	}
	if !allowedTypes[mediaType] {
		return nil, errs.ErrFileInvalid.Detailf("file_type %s is not accepted; send a PDF, an image (PNG, JPEG, GIF, WebP, TIFF) or plain text", mediaType)
	}
	if len(u.Data) == 0 {
		return nil, errs.ErrFileInvalid.Detailf("the file is empty")
	}
	if int64(len(u.Data)) > s.maxSize {
		return nil, s.TooLarge()
	}
	if validate.Chars(u.Name) > 255 {
		return nil, errs.InvalidValue("file_name", "must be at most 255 characters")
	}
	merchantID, err := txn.Merchant(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.db.RequireMerchant(ctx); err != nil {
		return nil, err
	}
	create := s.db.Client.File.Create().SetFileType(mediaType).SetFileSize(int64(len(u.Data))).
		SetPurpose(file.Purpose(u.Purpose))
	if u.Name != "" {
		create.SetFileName(u.Name)
	}
	// The id is drawn first: the bytes are stored under it before the row
	// exists.
	fileID := ids.New(ids.File)
	create.SetID(fileID)
	key := merchantID + "/" + fileID
	if err := s.store.Put(ctx, key, u.Data, mediaType); err != nil {
		return nil, errs.Internal(fmt.Errorf("store file: %w", err))
	}
	f, err := create.SetStoreKey(key).Save(ctx)
	if err != nil {
		return nil, txn.Error(err, "file")
	}
	return f, nil
}

// TooLarge is the refusal of a file over the size limit.
func (s *Service) TooLarge() *errs.Error {
	return errs.ErrFileInvalid.Detailf("file_size exceeded the max file size of %d bytes", s.maxSize)
}

// Get returns a file of the merchant in ctx and its bytes.
func (s *Service) Get(ctx context.Context, fileID string) (*ent.File, []byte, error) {
	f, err := s.row(ctx, s.db.Client, fileID)
	if err != nil {
		return nil, nil, err
	}
	data, err := s.store.Get(ctx, f.StoreKey)
	if errors.Is(err, ErrNoObject) {
		return nil, nil, errs.ErrFileNotFound.Newf("File not available")
	}
	if err != nil {
		return nil, nil, errs.Internal(fmt.Errorf("read file: %w", err))
	}
	return f, data, nil
}

// Metadata returns the merchant's files by id, for evidence; an id that
// is not the merchant's is FileNotFound.
func (s *Service) Metadata(ctx context.Context, client *ent.Client, fileIDs []string) (map[string]*ent.File, error) {
	out, err := found(ctx, client, fileIDs)
	if err != nil {
		return nil, err
	}
	for _, id := range fileIDs {
		if out[id] == nil {
			return nil, errs.ErrFileNotFound.Detailf("%s", id)
		}
	}
	return out, nil
}

// Found returns those of the merchant's files by id that exist.
func (s *Service) Found(ctx context.Context, fileIDs []string) (map[string]*ent.File, error) {
	return found(ctx, s.db.Client, fileIDs)
}

func found(ctx context.Context, client *ent.Client, fileIDs []string) (map[string]*ent.File, error) {
	out := make(map[string]*ent.File, len(fileIDs))
	if len(fileIDs) == 0 {
		return out, nil
	}
	fs, err := client.File.Query().Where(file.IDIn(fileIDs...)).All(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	for _, f := range fs {
		out[f.ID] = f
	}
	return out, nil
}

// MarkSubmitted records, in the transaction that submits evidence, that
// the files went to the connector: they can no longer be deleted.
func (s *Service) MarkSubmitted(ctx context.Context, tx *ent.Tx, fileIDs []string) error {
	if len(fileIDs) == 0 {
		return nil
	}
	_, err := tx.File.Update().Where(file.IDIn(fileIDs...)).SetEvidenceSubmitted(true).Save(ctx)
	return txn.ErrorOrNil(err, "file")
}

// Delete removes a file of the merchant in ctx: its row, then its bytes.
// A file in submitted evidence is the connector's record of the dispute
// and cannot be deleted (HE_03).
func (s *Service) Delete(ctx context.Context, fileID string) error {
	var key string
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		f, err := s.row(ctx, tx.Client(), fileID)
		if err != nil {
			return err
		}
		if f.EvidenceSubmitted {
			return errs.ErrFileInvalid.Detailf("the file is part of dispute evidence already submitted to the connector and cannot be deleted")
		}
		key = f.StoreKey
		return txn.ErrorOrNil(tx.File.DeleteOneID(f.ID).Exec(ctx), "file")
	})
	if err != nil {
		return err
	}
	if err := s.store.Delete(ctx, key); err != nil {
		return errs.Internal(fmt.Errorf("delete file: %w", err))
	}
	return nil
}

func (s *Service) row(ctx context.Context, client *ent.Client, fileID string) (*ent.File, error) {
	f, err := client.File.Query().Where(file.ID(fileID)).Only(ctx)
	if err != nil {
		return nil, txn.ReadError(err, ErrFileNotFound)
	}
	return f, nil
}
