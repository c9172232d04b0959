package rest

import (
	"encoding/json"

	"switchyard/ent"
	"switchyard/payments/payouts"
)

// payoutBodyOf renders a payout; its attempts are shown when withAttempts.
func payoutBodyOf(v *payouts.View, withAttempts bool) payoutBody {
	p := v.Payout
	b := payoutBody{
		PayoutID: p.ID, MerchantID: p.MerchantID, MerchantOrderReferenceID: p.MerchantOrderReferenceID,
		Amount: p.Amount, Currency: string(p.Currency), Connector: p.Connector,
		PayoutMethodData: p.PayoutMethodData, Billing: p.Billing, AutoFulfill: p.AutoFulfill,
		CustomerID: p.CustomerID, ClientSecret: p.ClientSecret, ReturnURL: p.ReturnURL,
		BusinessCountry: p.BusinessCountry, BusinessLabel: p.BusinessLabel, Description: p.Description,
		EntityType: p.EntityType, Recurring: p.Recurring, Metadata: p.Metadata,
		MerchantConnectorID: p.MerchantConnectorID, Status: string(p.Status),
		ErrorMessage: p.ErrorMessage, ErrorCode: p.ErrorCode, ProfileID: p.ProfileID, Created: ts(&p.CreatedAt),
		ConnectorTransactionID: p.ConnectorTransactionID, Priority: p.Priority,
		UnifiedCode: p.UnifiedCode, UnifiedMessage: p.UnifiedMessage, PayoutMethodID: p.PayoutToken,
	}
	if p.PayoutType != nil {
		t := string(*p.PayoutType)
		b.PayoutType = &t
	}
	b.Customer, b.Email, b.Name, b.Phone, b.PhoneCountryCode = customerOfPayout(p)
	if withAttempts {
		b.Attempts = each(payoutAttemptBodyOf)(v.Attempts)
	}
	return b
}

// customerOfPayout is the payout's customer object and its deprecated
// top-level copies.
func customerOfPayout(p *ent.Payout) (map[string]any, *string, *string, *string, *string) {
	c := p.CustomerDetails
	if c == nil && p.CustomerID == nil {
		return nil, nil, nil, nil, nil
	}
	out := map[string]any{"id": p.CustomerID}
	str := func(k string) *string {
		if v, ok := c[k].(string); ok {
			out[k] = v
			return &v
		}
		return nil
	}
	return out, str("email"), str("name"), str("phone"), str("phone_country_code")
}

func payoutAttemptBodyOf(a *ent.PayoutAttempt) payoutAttemptBody {
	cur, conn := string(a.Currency), a.Connector
	b := payoutAttemptBody{AttemptID: a.ID, Status: string(a.Status), Amount: a.Amount, Currency: &cur, Connector: &conn,
		ErrorCode: a.ErrorCode, ErrorMessage: a.ErrorMessage, PayoutMethodType: a.PayoutMethodType,
		ConnectorTransactionID: a.ConnectorTransactionID, CancellationReason: a.CancellationReason,
		UnifiedCode: a.UnifiedCode, UnifiedMessage: a.UnifiedMessage}
	if a.PayoutType != nil {
		t := string(*a.PayoutType)
		b.PaymentMethod = &t
	}
	return b
}

// Payout is the payout object of a payout event: what GET shows.
func (Renderer) Payout(v *payouts.View) (json.RawMessage, error) {
	return json.Marshal(payoutBodyOf(v, true))
}

var _ payouts.Renderer = Renderer{}
