package payments

import (
	"context"
	"time"

	"switchyard/ent"
	"switchyard/ent/customer"
	"switchyard/ent/paymentintent"
	"switchyard/ent/predicate"
	"switchyard/ent/schema/schematype"
	custs "switchyard/payments/customer"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

// PaymentExportFilter selects the payments an export holds: the
// dashboard's payment list filters. Absent members select every payment.
type PaymentExportFilter struct {
	Statuses   []paymentintent.Status `json:"statuses,omitempty"`
	Currencies []string               `json:"currencies,omitempty"`
	Connectors []string               `json:"connectors,omitempty"`
	// AmountGTE and AmountLTE bound the amount in minor units.
	AmountGTE *int64 `json:"amount_gte,omitempty"`
	AmountLTE *int64 `json:"amount_lte,omitempty"`
	// CreatedGTE and CreatedLT bound the creation time, [from, until).
	CreatedGTE *time.Time `json:"created_gte,omitempty"`
	CreatedLT  *time.Time `json:"created_lt,omitempty"`
	// CustomerID is the merchant's customer_id; PaymentID a payment_id.
	CustomerID *string `json:"customer_id,omitempty"`
	PaymentID  *string `json:"payment_id,omitempty"`
	// CustomerEmail selects the payments of the merchant's customers with
	// this e-mail, whatever its case (customer.EmailIs).
	CustomerEmail *string `json:"customer_email,omitempty"`
}

// maxExportFilterValues bounds each list of a filter: a dashboard picks a
// few values, and each is a bind parameter.
const maxExportFilterValues = 50

// Validate refuses a filter that selects nothing by mistake or that no
// list could hold: unknown statuses or currencies, reversed ranges.
func (f *PaymentExportFilter) Validate() error {
	for name, n := range map[string]int{"statuses": len(f.Statuses), "currencies": len(f.Currencies), "connectors": len(f.Connectors)} {
		if n > maxExportFilterValues {
			return errs.InvalidValue(name, "at most %d values", maxExportFilterValues)
		}
	}
	for _, s := range f.Statuses {
		if err := paymentintent.StatusValidator(s); err != nil {
			return errs.InvalidValue("statuses", "unknown status %q", s)
		}
	}
	for _, c := range f.Currencies {
		if !schematype.Currency(c).Valid() {
			return errs.InvalidValue("currencies", "unknown currency %q", c)
		}
	}
	if f.AmountGTE != nil && f.AmountLTE != nil && *f.AmountGTE > *f.AmountLTE {
		return errs.InvalidValue("amount_gte", "must not be above amount_lte")
	}
	if f.CreatedGTE != nil && f.CreatedLT != nil && !f.CreatedGTE.Before(*f.CreatedLT) {
		return errs.InvalidValue("created_gte", "must be before created_lt")
	}
	return nil
}

// DefaultExportBatch is how many payments an export reads and writes at a
// time (Deps.ExportBatch): the most it holds in memory, whatever the
// export's length.
const DefaultExportBatch = 500

// ExportPayments hands emit the payments of the merchant in ctx (and of
// its profile, when the principal names one) that f selects, newest first,
// each as the REST list shows it. It reads them a batch at a time along the
// keyset index, so an export of any length holds one batch; payments made
// while it runs sort before its first and are not in it. An error from
// emit (the client went away) stops it.
func (s *Service) ExportPayments(ctx context.Context, f PaymentExportFilter, emit func(*PaymentView) error) error {
	if err := f.Validate(); err != nil {
		return err
	}
	preds, none, err := s.exportPredicates(ctx, f)
	if err != nil || none {
		return err
	}
	batch := s.exportBatch
	var after *ent.PaymentIntent
	for {
		page := preds
		if after != nil {
			page = append(page[:len(page):len(page)], keysetAfter(after.CreatedAt, after.ID, false))
		}
		rows, err := s.db.Client.PaymentIntent.Query().Where(page...).
			Order(ent.Desc(paymentintent.FieldCreatedAt), ent.Desc(paymentintent.FieldID)).
			Limit(batch).All(ctx)
		if err != nil {
			return errs.Internal(err)
		}
		if len(rows) == 0 {
			return nil
		}
		views, err := s.LoadViews(ctx, rows)
		if err != nil {
			return err
		}
		for _, v := range views {
			if err := emit(v); err != nil {
				return err
			}
		}
		if len(rows) < batch {
			return nil
		}
		after = rows[len(rows)-1]
	}
}

// exportPredicates turns f into the query's conditions; none reports a
// filter that can match nothing (a customer_id the merchant has not).
func (s *Service) exportPredicates(ctx context.Context, f PaymentExportFilter) (preds []predicate.PaymentIntent, none bool, err error) {
	preds = txn.WhereIn(txn.InProfile(ctx, paymentintent.ProfileID), f.Statuses, paymentintent.StatusIn)
	preds = txn.WhereIn(preds, txn.Enums[schematype.Currency](f.Currencies), paymentintent.CurrencyIn)
	preds = txn.WhereIn(preds, f.Connectors, paymentintent.ConnectorIn)
	preds = txn.WhereIf(preds, f.AmountGTE, paymentintent.AmountGTE)
	preds = txn.WhereIf(preds, f.AmountLTE, paymentintent.AmountLTE)
	preds = txn.WhereIf(preds, f.CreatedGTE, paymentintent.CreatedAtGTE)
	preds = txn.WhereIf(preds, f.CreatedLT, paymentintent.CreatedAtLT)
	preds = txn.WhereIf(preds, f.PaymentID, paymentintent.PaymentID)
	if f.CustomerID != nil {
		c, err := s.db.Client.Customer.Query().Where(customer.CustomerID(*f.CustomerID)).Select(customer.FieldID).Only(ctx)
		if ent.IsNotFound(err) {
			return nil, true, nil
		}
		if err != nil {
			return nil, false, errs.Internal(err)
		}
		preds = append(preds, paymentintent.CustomerID(c.ID))
	}
	if f.CustomerEmail != nil {
		merchantID, err := txn.Merchant(ctx)
		if err != nil {
			return nil, false, err
		}
		byEmail, err := custs.PaymentsOf(ctx, s.db.Client, custs.EmailIs(merchantID, *f.CustomerEmail))
		if err != nil {
			return nil, false, err
		}
		preds = append(preds, byEmail)
	}
	return preds, false, nil
}
