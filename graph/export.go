package graph

import (
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"switchyard/graph/model"
	"switchyard/internal/ids"
	"switchyard/internal/tenancy"
	"switchyard/payments"
	"switchyard/payments/errs"
)

// The dashboard's CSV export of payments. createPaymentExport checks the
// filter and the caller, and keeps a one-time grant in Redis (the merchant,
// the caller's profile scope and the filter) under its token's hash; the
// browser then GETs ExportPath?token=… and the payments are streamed from
// the database a batch at a time. The token rides in the query, not the
// path, because request logs keep paths.

// ExportPath is where an export is downloaded.
const ExportPath = "/exports/payments.csv"

// exportFor is how long an export's link works.
const exportFor = 5 * time.Minute

// ExportGrants keeps the one-time grants of exports by their token's hash
// (internal/redisstore.ExportGrants).
type ExportGrants interface {
	Put(ctx context.Context, hash string, record []byte, ttl time.Duration) error
	Take(ctx context.Context, hash string) ([]byte, error)
}

// exportGrant is what a link lets its holder download.
type exportGrant struct {
	MerchantID string                       `json:"merchant_id"`
	ProfileID  string                       `json:"profile_id,omitempty"`
	Filter     payments.PaymentExportFilter `json:"filter"`
}

func exportTokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// createPaymentExport checks filter and keeps a grant for the caller's
// merchant (and profile scope): the link's token is a 240-bit secret.
func (r *Resolver) createPaymentExport(ctx context.Context, filter *payments.PaymentExportFilter) (*model.PaymentExport, error) {
	if r.exports == nil {
		return nil, errs.Internal(errors.New("no export store"))
	}
	p, _ := tenancy.FromContext(ctx)
	if p.MerchantID == "" {
		return nil, errs.Unauthorized()
	}
	g := exportGrant{MerchantID: p.MerchantID, ProfileID: p.ProfileID}
	if filter != nil {
		g.Filter = *filter
	}
	if err := g.Filter.Validate(); err != nil {
		return nil, err
	}
	record, err := json.Marshal(g)
	if err != nil {
		return nil, errs.Internal(err)
	}
	token := "exp_" + ids.Base62(40)
	if err := r.exports.Put(ctx, exportTokenHash(token), record, exportFor); err != nil {
		return nil, errs.Unavailable("The export store")
	}
	return &model.PaymentExport{URL: r.publicURL + ExportPath + "?token=" + url.QueryEscape(token),
		ExpiresAt: time.Now().Add(exportFor).UTC().Truncate(time.Second)}, nil
}

// exportColumns are the CSV's header.
var exportColumns = []string{"payment_id", "created", "status", "amount", "currency", "amount_major", "amount_received",
	"amount_capturable", "customer_id", "connector", "payment_method", "payment_method_type", "error_code",
	"error_message", "description", "merchant_order_reference_id", "profile_id"}

// ExportHandler serves ExportPath: the grant's payments as CSV, streamed.
// A used, expired or unknown link is 404; a failure after the first row
// aborts the connection, so a cut-short file is never taken for a whole
// one.
func ExportHandler(svc *payments.Service, grants ExportGrants, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Cache-Control", "no-store")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		token := r.URL.Query().Get("token")
		var record []byte
		var err error
		if token != "" && grants != nil {
			record, err = grants.Take(r.Context(), exportTokenHash(token))
		}
		if err != nil {
			log.ErrorContext(r.Context(), "export grant unavailable", "err", err)
			http.Error(w, "The export store is unavailable; try again.", http.StatusServiceUnavailable)
			return
		}
		var g exportGrant
		if record == nil || json.Unmarshal(record, &g) != nil {
			http.Error(w, "This export link is not valid: it works once, for 5 minutes. Export again.", http.StatusNotFound)
			return
		}
		ctx := tenancy.WithPrincipal(r.Context(), tenancy.Principal{Kind: tenancy.KindMerchant, MerchantID: g.MerchantID, ProfileID: g.ProfileID})
		h.Set("Content-Type", "text/csv; charset=utf-8")
		h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="payments-%s-%s.csv"`,
			safeFileName(g.MerchantID), time.Now().UTC().Format("20060102-150405")))
		out := csv.NewWriter(w)
		flusher, _ := w.(http.Flusher)
		_ = out.Write(exportColumns)
		rows := 0
		err = svc.ExportPayments(ctx, g.Filter, func(v *payments.PaymentView) error {
			if err := out.Write(exportRow(v)); err != nil {
				return err
			}
			if rows++; rows%500 == 0 { // a batch at a time to the client
				out.Flush()
				if flusher != nil {
					flusher.Flush()
				}
			}
			return out.Error()
		})
		if err == nil {
			out.Flush()
			err = out.Error()
		}
		if err != nil {
			log.ErrorContext(r.Context(), "export failed", "err", err, "rows", rows)
			panic(http.ErrAbortHandler) // the client sees a broken download, not a short file
		}
	})
}

// exportRow is one payment's line, each text cell kept from spreadsheets'
// formula parsing.
func exportRow(v *payments.PaymentView) []string {
	pi := v.Intent
	received := ""
	if n := v.Received(); n != nil {
		received = strconv.FormatInt(*n, 10)
	}
	customerID := ""
	if v.Customer != nil {
		customerID = v.Customer.CustomerID
	}
	var code, message string
	if v.Active != nil {
		code, message = deref(v.Active.ErrorCode), deref(v.Active.ErrorMessage)
	}
	return []string{
		cell(pi.PaymentID), pi.CreatedAt.UTC().Format(time.RFC3339), string(pi.Status),
		strconv.FormatInt(pi.Amount, 10), string(pi.Currency), pi.Currency.Major(pi.Amount), received,
		strconv.FormatInt(pi.AmountCapturable, 10), cell(customerID), cell(deref(pi.Connector)),
		cell(deref(pi.PaymentMethod)), cell(deref(pi.PaymentMethodType)), cell(code), cell(message),
		cell(deref(pi.Description)), cell(deref(pi.MerchantOrderReferenceID)), pi.ProfileID,
	}
}

// cell keeps a text that a spreadsheet would read as a formula (=, +, -,
// @, or a tab or carriage return first) as text, with a leading quote:
// OWASP's advice against CSV injection.
func cell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// safeFileName keeps letters, digits, _ and - of s.
func safeFileName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			return r
		}
		return -1
	}, s)
}
