package rest

import (
	"encoding/json"

	"switchyard/ent"
	"switchyard/ent/schema/schematype"
	"switchyard/payments"
	"switchyard/payments/payouts"
)

// payoutRequest is Hyperswitch's PayoutsCreateRequest, which
// PayoutUpdateRequest and PayoutConfirmRequest share (a closed object:
// Hyperswitch's PayoutCreateRequest denies unknown fields).
type payoutRequest struct {
	MerchantOrderReferenceID *string                    `json:"merchant_order_reference_id"`
	Amount                   *int64                     `json:"amount"`
	Currency                 *string                    `json:"currency"`
	Routing                  json.RawMessage            `json:"routing"`
	Connector                []string                   `json:"connector"`
	Confirm                  *bool                      `json:"confirm"`
	PayoutType               *string                    `json:"payout_type"`
	PayoutMethodData         *payoutMethodDataIn        `json:"payout_method_data"`
	SourceBankData           json.RawMessage            `json:"source_bank_data"`
	Billing                  *schematype.AddressWrapper `json:"billing"`
	AutoFulfill              *bool                      `json:"auto_fulfill"`
	CustomerID               *string                    `json:"customer_id"`
	Customer                 *paymentCustomerIn         `json:"customer"`
	ClientSecret             *string                    `json:"client_secret"`
	ReturnURL                *string                    `json:"return_url"`
	BusinessCountry          *string                    `json:"business_country"`
	BusinessLabel            *string                    `json:"business_label"`
	Description              *string                    `json:"description"`
	EntityType               *string                    `json:"entity_type"`
	Recurring                *bool                      `json:"recurring"`
	Metadata                 map[string]any             `json:"metadata"`
	PayoutToken              *string                    `json:"payout_token"`
	ProfileID                *string                    `json:"profile_id"`
	Priority                 *string                    `json:"priority"`
	PayoutLink               *bool                      `json:"payout_link"`
	PayoutLinkConfig         json.RawMessage            `json:"payout_link_config"`
	SessionExpiry            *int64                     `json:"session_expiry"`
	Email                    *string                    `json:"email"`
	Name                     *string                    `json:"name"`
	Phone                    *string                    `json:"phone"`
	PhoneCountryCode         *string                    `json:"phone_country_code"`
	PayoutMethodID           *string                    `json:"payout_method_id"`
	BrowserInfo              *payments.BrowserInfo      `json:"browser_info"`
}

// payoutMethodDataIn is Hyperswitch's PayoutMethodData: one of its members.
type payoutMethodDataIn struct {
	Card         *cardPayoutIn   `json:"card"`
	Bank         *bankPayoutIn   `json:"bank"`
	BankTransfer *bankPayoutIn   `json:"bank_transfer"`
	Wallet       *walletPayoutIn `json:"wallet"`
	BankRedirect *bankRedirectIn `json:"bank_redirect"`
	Passthrough  json.RawMessage `json:"passthrough"`
}

// cardPayoutIn is Hyperswitch's CardPayout.
type cardPayoutIn struct {
	CardNumber     *string `json:"card_number"`
	ExpiryMonth    *string `json:"expiry_month"`
	ExpiryYear     *string `json:"expiry_year"`
	CardHolderName *string `json:"card_holder_name"`
	CardNetwork    *string `json:"card_network"`
}

// bankPayoutIn is Hyperswitch's Bank (and BankTransfer): an untagged
// union of ACH, BACS, SEPA, Pix and others, told apart by their members.
type bankPayoutIn struct {
	PayoutMethodType  *string `json:"payout_method_type"`
	BankName          *string `json:"bank_name"`
	BankCountryCode   *string `json:"bank_country_code"`
	BankCity          *string `json:"bank_city"`
	BankBranch        *string `json:"bank_branch"`
	BankAccountNumber *string `json:"bank_account_number"`
	BankRoutingNumber *string `json:"bank_routing_number"`
	BankSortCode      *string `json:"bank_sort_code"`
	IBAN              *string `json:"iban"`
	BIC               *string `json:"bic"`
	AccountHolderName *string `json:"account_holder_name"`
	PixKey            *string `json:"pix_key"`
	TaxID             *string `json:"tax_id"`
	EMV               *string `json:"emv"`
	ISPB              *string `json:"ispb"`
}

// walletPayoutIn is Hyperswitch's Wallet.
type walletPayoutIn struct {
	Paypal           *paypalIn       `json:"paypal"`
	Venmo            *venmoIn        `json:"venmo"`
	ApplePayDecrypt  json.RawMessage `json:"apple_pay_decrypt"`
	GooglePayDecrypt json.RawMessage `json:"google_pay_decrypt"`
}

type paypalIn struct {
	Email           *string `json:"email"`
	TelephoneNumber *string `json:"telephone_number"`
	PaypalID        *string `json:"paypal_id"`
}

type venmoIn struct {
	TelephoneNumber *string `json:"telephone_number"`
}

type bankRedirectIn struct {
	Interac *struct {
		Email *string `json:"email"`
	} `json:"interac"`
	OpenBankingUk json.RawMessage `json:"open_banking_uk"`
}

// payoutBody is Hyperswitch's PayoutCreateResponse.
type payoutBody struct {
	PayoutID                 string              `json:"payout_id"`
	MerchantID               string              `json:"merchant_id"`
	MerchantOrderReferenceID *string             `json:"merchant_order_reference_id"`
	Amount                   int64               `json:"amount"`
	Currency                 string              `json:"currency"`
	Connector                *string             `json:"connector"`
	PayoutType               *string             `json:"payout_type"`
	PayoutMethodData         map[string]any      `json:"payout_method_data"`
	SourceBankData           map[string]any      `json:"source_bank_data"`
	Billing                  map[string]any      `json:"billing"`
	AutoFulfill              bool                `json:"auto_fulfill"`
	CustomerID               *string             `json:"customer_id"`
	Customer                 map[string]any      `json:"customer"`
	ClientSecret             string              `json:"client_secret"`
	ReturnURL                *string             `json:"return_url"`
	BusinessCountry          *string             `json:"business_country"`
	BusinessLabel            *string             `json:"business_label"`
	Description              *string             `json:"description"`
	EntityType               string              `json:"entity_type"`
	Recurring                bool                `json:"recurring"`
	Metadata                 map[string]any      `json:"metadata"`
	MerchantConnectorID      *string             `json:"merchant_connector_id"`
	Status                   string              `json:"status"`
	ErrorMessage             *string             `json:"error_message"`
	ErrorCode                *string             `json:"error_code"`
	ProfileID                string              `json:"profile_id"`
	Created                  *Timestamp          `json:"created"`
	ConnectorTransactionID   *string             `json:"connector_transaction_id"`
	Priority                 *string             `json:"priority"`
	Attempts                 []payoutAttemptBody `json:"attempts"`
	PayoutLink               map[string]any      `json:"payout_link"`
	Email                    *string             `json:"email"`
	Name                     *string             `json:"name"`
	Phone                    *string             `json:"phone"`
	PhoneCountryCode         *string             `json:"phone_country_code"`
	UnifiedCode              *string             `json:"unified_code"`
	UnifiedMessage           *string             `json:"unified_message"`
	PayoutMethodID           *string             `json:"payout_method_id"`
}

// payoutAttemptBody is Hyperswitch's PayoutAttemptResponse.
type payoutAttemptBody struct {
	AttemptID              string  `json:"attempt_id"`
	Status                 string  `json:"status"`
	Amount                 int64   `json:"amount"`
	Currency               *string `json:"currency"`
	Connector              *string `json:"connector"`
	ErrorCode              *string `json:"error_code"`
	ErrorMessage           *string `json:"error_message"`
	PaymentMethod          *string `json:"payment_method"`
	PayoutMethodType       *string `json:"payout_method_type"`
	ConnectorTransactionID *string `json:"connector_transaction_id"`
	CancellationReason     *string `json:"cancellation_reason"`
	UnifiedCode            *string `json:"unified_code"`
	UnifiedMessage         *string `json:"unified_message"`
}

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
