package payments

import (
	"cmp"
	"context"
	"slices"
	"time"

	"switchyard/ent"
	"switchyard/ent/dispute"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/payments/errs"
)

// DisputeFilterValues are the values the disputes of the merchant in ctx
// (and of its profile, when the principal names one) take: GET
// /disputes/filter's DisputeListFilters, so a dashboard offers only
// filters that can match. Each list is sorted.
type DisputeFilterValues struct {
	// Connectors maps each connector name to the merchant's accounts of it
	// that disputes came through (accounts since deleted are left out: the
	// wire needs their label and type).
	Connectors map[string][]DisputeConnectorAccount
	Currencies []string
	Statuses   []string
	Stages     []string
}

// DisputeConnectorAccount is Hyperswitch's MerchantConnectorInfo.
type DisputeConnectorAccount struct {
	ID, Label, Type string
}

// DisputeFilters lists the connectors (with their accounts), currencies,
// statuses and stages of the caller's disputes: one DISTINCT read of the
// disputes and one of the accounts they name.
func (s *Service) DisputeFilters(ctx context.Context) (*DisputeFilterValues, error) {
	rows, err := s.db.Client.Dispute.Query().Where(disputeScope(ctx)...).Unique(true).
		Select(dispute.FieldConnector, dispute.FieldMerchantConnectorID, dispute.FieldCurrency,
			dispute.FieldDisputeStatus, dispute.FieldDisputeStage).All(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	out := &DisputeFilterValues{Connectors: map[string][]DisputeConnectorAccount{},
		Currencies: []string{}, Statuses: []string{}, Stages: []string{}}
	var accountIDs []string
	for _, d := range rows {
		if _, ok := out.Connectors[d.Connector]; !ok {
			out.Connectors[d.Connector] = []DisputeConnectorAccount{}
		}
		if d.MerchantConnectorID != nil && !slices.Contains(accountIDs, *d.MerchantConnectorID) {
			accountIDs = append(accountIDs, *d.MerchantConnectorID)
		}
		out.Currencies = addSorted(out.Currencies, string(d.Currency))
		out.Statuses = addSorted(out.Statuses, string(d.DisputeStatus))
		out.Stages = addSorted(out.Stages, string(d.DisputeStage))
	}
	if len(accountIDs) == 0 {
		return out, nil
	}
	// The tenancy interceptor scopes the accounts to the merchant as well.
	accounts, err := s.db.Client.MerchantConnectorAccount.Query().
		Where(merchantconnectoraccount.IDIn(accountIDs...)).
		Select(merchantconnectoraccount.FieldConnectorName, merchantconnectoraccount.FieldConnectorLabel,
			merchantconnectoraccount.FieldConnectorType).All(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	for _, a := range accounts {
		if list, ok := out.Connectors[a.ConnectorName]; ok {
			out.Connectors[a.ConnectorName] = append(list,
				DisputeConnectorAccount{ID: a.ID, Label: a.ConnectorLabel, Type: string(a.ConnectorType)})
		}
	}
	for _, list := range out.Connectors {
		slices.SortFunc(list, func(a, b DisputeConnectorAccount) int { return cmp.Compare(a.ID, b.ID) })
	}
	return out, nil
}

// addSorted inserts v into the sorted list unless it is there.
func addSorted(list []string, v string) []string {
	i, found := slices.BinarySearch(list, v)
	if found {
		return list
	}
	return slices.Insert(list, i, v)
}

// DisputeAggregate counts the caller's disputes received (created) from
// start, and up to end when given, both inclusive, by dispute_status: GET
// /disputes/aggregate's status_with_count. An end before start counts
// nothing, as Hyperswitch does not refuse it either. Every status is present, a
// status no dispute has with 0, as Hyperswitch's payments aggregate
// answers.
func (s *Service) DisputeAggregate(ctx context.Context, start time.Time, end *time.Time) (map[string]int64, error) {
	preds := append(disputeScope(ctx), dispute.CreatedAtGTE(start))
	if end != nil {
		preds = append(preds, dispute.CreatedAtLTE(*end))
	}
	var groups []struct {
		Status string `json:"dispute_status"`
		Count  int64  `json:"count"`
	}
	if err := s.db.Client.Dispute.Query().Where(preds...).GroupBy(dispute.FieldDisputeStatus).
		Aggregate(ent.Count()).Scan(ctx, &groups); err != nil {
		return nil, errs.Internal(err)
	}
	counts := make(map[string]int64, len(disputeStatuses.Values()))
	for _, status := range disputeStatuses.Values() {
		counts[status] = 0
	}
	for _, g := range groups {
		counts[g.Status] = g.Count
	}
	return counts, nil
}
