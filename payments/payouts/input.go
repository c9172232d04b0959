package payouts

import (
	"strings"

	"switchyard/payments/cards"
	"switchyard/payments/connector"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// Input is a payout's create, update or confirm request (Hyperswitch's
// PayoutsCreateRequest, PayoutUpdateRequest and PayoutConfirmRequest share
// their members). Nil is absent.
type Input struct {
	Amount   *int64
	Currency *string
	// Connectors order the payout processors tried, by connector name or
	// account id (the request's routing, else its connector list).
	Connectors []string
	Confirm    *bool
	PayoutType *string
	// MethodData is the payout method as given; the service checks it
	// into method (which a payout_token may give instead).
	MethodData *MethodData
	method     *Method
	// Billing and Customer are stored as given (address, and the
	// customer's name, email and phone).
	Billing                  map[string]any
	Customer                 map[string]any
	AutoFulfill              *bool
	CustomerID               *string
	ReturnURL                *string
	BusinessCountry          *string
	BusinessLabel            *string
	Description              *string
	EntityType               *string
	Recurring                *bool
	Metadata                 map[string]any
	PayoutToken              *string
	ProfileID                *string
	Priority                 *string
	SessionExpiry            *int64
	MerchantOrderReferenceID *string
	ClientSecret             *string
	// Idempotency is the Idempotency-Key the create came with, if any.
	Idempotency *IdempotencyRef
}

// IdempotencyRef is a request's Idempotency-Key and its request's
// fingerprint (txn.IdempotencyRef).
type IdempotencyRef = txn.IdempotencyRef

// Method is a payout method as given, on its way to the connector: it is
// never stored as such (masked() is).
type Method struct {
	// Type is the payout_type (card, bank, wallet, bank_redirect); Subtype
	// the payout_method_type (debit, ach, bacs, sepa, pix, paypal, venmo,
	// interac).
	Type    string `json:"type"`
	Subtype string `json:"subtype"`
	Card    *Card  `json:"card,omitempty"`
	// AccountNumber is the bank account number or, for SEPA, the IBAN.
	AccountNumber string `json:"account_number,omitempty"`
	// BankCode is the routing number (ACH), sort code (BACS), BIC (SEPA)
	// or Pix key.
	BankCode   string `json:"bank_code,omitempty"`
	BankName   string `json:"bank_name,omitempty"`
	HolderName string `json:"holder_name,omitempty"`
	Email      string `json:"email,omitempty"`
	Phone      string `json:"phone,omitempty"`
	// RecipientToken, AccountID and Masked are a saved payout method's
	// (payout_token): the processor's token for the recipient, the
	// connector account that issued it, and the method as it was shown.
	RecipientToken string         `json:"recipient_token,omitempty"`
	AccountID      string         `json:"account_id,omitempty"`
	Masked         map[string]any `json:"masked,omitempty"`
}

// Card is a payout card (no CVC: a payout needs none).
type Card struct {
	Number     string `json:"number"`
	ExpMonth   string `json:"exp_month"`
	ExpYear    string `json:"exp_year"`
	HolderName string `json:"holder_name"`
	Network    string `json:"network,omitempty"`
}

// Payout types and the method types the sandbox pays to.
var (
	payoutTypes        = validate.NewEnum("PayoutType", "card", "bank", "wallet", "bank_redirect")
	entityTypes        = validate.NewEnum("PayoutEntityType", "Individual", "Company", "NonProfit", "PublicSector", "NaturalPerson", "lowercase", "Personal")
	priorities         = validate.NewEnum("PayoutSendPriority", "instant", "fast", "regular", "wire", "cross_border", "internal")
	maxPayoutAmount    = int64(1) << 53
	defaultSessionSecs = int64(900)
	maxSessionSecs     = int64(7 * 24 * 3600)
)

// checkMethod checks a method's own rules: a card number that passes Luhn.
func checkMethod(m *Method) error {
	if m == nil {
		return nil
	}
	if m.Card != nil {
		n := strings.ReplaceAll(m.Card.Number, " ", "")
		if !cards.Luhn(n) {
			return errs.InvalidValue("payout_method_data.card.card_number", "is not a valid card number")
		}
		m.Card.Number = n
	}
	return nil
}

// connectorMethod is m as the connector takes it.
func connectorMethod(m *Method) *connector.PayoutMethod {
	out := &connector.PayoutMethod{Type: m.Type, Subtype: m.Subtype, AccountNumber: m.AccountNumber,
		Email: m.Email, Phone: m.Phone, RecipientToken: m.RecipientToken}
	if c := m.Card; c != nil {
		out.Card = &connector.Card{Number: c.Number, ExpMonth: c.ExpMonth, ExpYear: c.ExpYear, HolderName: c.HolderName}
	}
	return out
}

// masked is what a payout keeps of m, and shows: Hyperswitch's
// PayoutMethodDataResponse (the card's last four digits and BIN, a bank
// account's last four, a masked e-mail or telephone number).
func masked(m *Method) map[string]any {
	switch {
	case m.Masked != nil:
		return m.Masked
	case m.Card != nil:
		d := cards.Describe(m.Card.Number)
		card := map[string]any{"last4": d.Last4, "card_isin": d.BIN, "card_exp_month": m.Card.ExpMonth,
			"card_exp_year": m.Card.ExpYear, "card_holder_name": m.Card.HolderName}
		if d.Network != "" {
			card["card_network"] = d.Network
		}
		return map[string]any{"card": card}
	case m.Type == "bank":
		return map[string]any{"bank": maskedBank(m)}
	case m.Subtype == "paypal":
		return map[string]any{"wallet": map[string]any{"email": maskEmail(m.Email), "field_type": "email"}}
	case m.Subtype == "venmo":
		return map[string]any{"wallet": map[string]any{"telephone_number": maskDigits(m.Phone)}}
	case m.Subtype == "interac":
		return map[string]any{"bank_redirect": map[string]any{"email": maskEmail(m.Email)}}
	}
	return nil
}

// maskedBank is a bank method's BankAdditionalData.
func maskedBank(m *Method) map[string]any {
	b := map[string]any{}
	switch m.Subtype {
	case "ach":
		b["bank_account_number"], b["bank_routing_number"] = maskDigits(m.AccountNumber), maskDigits(m.BankCode)
	case "bacs":
		b["bank_account_number"], b["bank_sort_code"] = maskDigits(m.AccountNumber), maskDigits(m.BankCode)
	case "sepa":
		b["iban"], b["bic"] = maskDigits(m.AccountNumber), m.BankCode
	case "pix":
		b["pix_key"] = maskDigits(m.BankCode)
		return b
	}
	if m.BankName != "" {
		b["bank_name"] = m.BankName
	}
	if m.HolderName != "" {
		b["account_holder_name"] = m.HolderName
	}
	return b
}

// maskDigits keeps the last four characters of v.
func maskDigits(v string) string {
	if len(v) <= 4 {
		return strings.Repeat("*", len(v))
	}
	return strings.Repeat("*", len(v)-4) + v[len(v)-4:]
}

// maskEmail keeps an e-mail's first character and its domain.
func maskEmail(v string) string {
	local, domain, ok := strings.Cut(v, "@")
	if !ok || local == "" {
		return maskDigits(v)
	}
	return local[:1] + strings.Repeat("*", len(local)-1) + "@" + domain
}

// identity is what tells m's recipient again, for a saved method's
// fingerprint.
func identity(m *Method) string {
	switch {
	case m.Card != nil:
		return m.Card.Number
	case m.AccountNumber != "":
		return m.Subtype + ":" + m.AccountNumber
	case m.Email != "":
		return strings.ToLower(m.Email)
	}
	return m.Phone
}
