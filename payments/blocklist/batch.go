package blocklist

import (
	"context"
	"encoding/csv"
	"errors"
	"io"
	"strings"

	"switchyard/ent"
	"switchyard/ent/blocklistbatchjob"
	"switchyard/ent/blocklistentry"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

// Limits of a batch, as Hyperswitch's document gives them.
const (
	MaxBatchBytes = 5 << 20
	MaxBatchRows  = 100_000
)

// ParseBatch reads a batch CSV: a header row type,data,metadata (metadata
// optional), then one entry a row, its metadata key=value pairs separated
// by ";". A file that is not such a CSV is refused whole; a row whose
// entry is wrong is left to Batch, which counts it failed.
func ParseBatch(r io.Reader) ([]Entry, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	header, err := cr.Read()
	if err != nil {
		return nil, errCSV("the file has no header row")
	}
	cols := map[string]int{}
	for i, name := range header {
		cols[strings.ToLower(strings.TrimSpace(strings.TrimPrefix(name, "\ufeff")))] = i
	}
	typeCol, okType := cols["type"]
	dataCol, okData := cols["data"]
	if !okType || !okData {
		return nil, errCSV("the header row must be type,data,metadata")
	}
	metaCol, hasMeta := cols["metadata"]
	var out []Entry
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, errCSV("the file is not a valid CSV: " + err.Error())
		}
		if len(out) == MaxBatchRows {
			return nil, errCSV("the file has more than 100000 data rows")
		}
		e := Entry{Type: cell(rec, typeCol), Data: cell(rec, dataCol)}
		if hasMeta {
			e.Metadata = metadataOf(cell(rec, metaCol))
		}
		out = append(out, e)
	}
	if len(out) == 0 {
		return nil, errCSV("the file has no data rows")
	}
	return out, nil
}

func cell(rec []string, i int) string {
	if i < len(rec) {
		return strings.TrimSpace(rec[i])
	}
	return ""
}

// metadataOf reads key=value pairs separated by ";"; nil for none.
func metadataOf(s string) map[string]any {
	var out map[string]any
	for _, pair := range strings.Split(s, ";") {
		k, v, ok := strings.Cut(pair, "=")
		if k = strings.TrimSpace(k); !ok || k == "" {
			continue
		}
		if out == nil {
			out = map[string]any{}
		}
		out[k] = strings.TrimSpace(v)
	}
	return out
}

func errCSV(reason string) *errs.Error {
	return errs.InvalidRequest("CSV validation error: %s", reason).WithField("file")
}

// Batch adds entries and records the batch as a job. Switchyard runs the
// batch as it is uploaded: the job is recorded completed, each row that
// was added counted succeeded and each refused one (a malformed BIN, a
// value blocked already) failed, so one bad row does not sink the others.
func (s *Service) Batch(ctx context.Context, entries []Entry) (*ent.BlocklistBatchJob, error) {
	if _, err := txn.Merchant(ctx); err != nil {
		return nil, err
	}
	var job *ent.BlocklistBatchJob
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		var ok int32
		for _, e := range entries {
			kind, err := e.kind()
			if err != nil {
				continue
			}
			// A duplicate is found before its insert, so that the
			// transaction never fails on one.
			exists, err := tx.BlocklistEntry.Query().Where(blocklistentry.FingerprintID(e.Data)).Exist(ctx)
			if err != nil {
				return txn.ErrorOrNil(err, "blocklist entries")
			}
			if exists {
				continue
			}
			if _, err := insert(ctx, tx.Client(), e, kind); err != nil {
				return err
			}
			ok++
		}
		total := int32(len(entries))
		var err error
		job, err = tx.BlocklistBatchJob.Create().SetStatus(blocklistbatchjob.StatusCompleted).
			SetTotalRows(total).SetSucceededRows(ok).SetFailedRows(total - ok).Save(ctx)
		return txn.ErrorOrNil(err, "blocklist batch job")
	})
	return job, err
}

// Job is one of the merchant's batch jobs.
func (s *Service) Job(ctx context.Context, id string) (*ent.BlocklistBatchJob, error) {
	if _, err := txn.Merchant(ctx); err != nil {
		return nil, err
	}
	out, err := s.db.Client.BlocklistBatchJob.Get(ctx, id)
	if err != nil {
		return nil, txn.ReadError(err, errs.ErrBlocklistJobNotFound.New)
	}
	return out, nil
}

// Jobs is a page of the merchant's batch jobs, newest first, and how many
// it has in all.
func (s *Service) Jobs(ctx context.Context, limit, offset int) ([]*ent.BlocklistBatchJob, int, error) {
	if _, err := txn.Merchant(ctx); err != nil {
		return nil, 0, err
	}
	q := s.db.Client.BlocklistBatchJob.Query()
	total, err := q.Clone().Count(ctx)
	if err != nil {
		return nil, 0, txn.ErrorOrNil(err, "blocklist batch jobs")
	}
	out, err := q.Order(ent.Desc(blocklistbatchjob.FieldCreatedAt), ent.Desc(blocklistbatchjob.FieldID)).
		Limit(limit).Offset(offset).All(ctx)
	return out, total, txn.ErrorOrNil(err, "blocklist batch jobs")
}
