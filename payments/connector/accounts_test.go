package connector

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"switchyard/ent"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/ent/schema/schematype"
	"switchyard/internal/secrets"
	"switchyard/payments/errs"
	"switchyard/payments/validate"
)

func ptr[T any](v T) *T { return &v }

// validInput sets every member of a connector account, each valid.
func validInput() AccountInput {
	return AccountInput{
		ConnectorName:    "stripe",
		ProfileID:        ptr("pro_1"),
		BusinessCountry:  ptr(Country("GB")),
		BusinessLabel:    ptr("food"),
		BusinessSubLabel: ptr("chicken"),
		AccountFields: AccountFields{
			ConnectorType:  "payment_processor",
			ConnectorLabel: ptr("eu_stripe"),
			AccountDetails: map[string]any{"auth_type": "HeaderKey", "api_key": "sk_test_123456"},
			PaymentMethodsEnabled: []PaymentMethodsEnabled{{
				PaymentMethod: "card",
				PaymentMethodTypes: []RequestPaymentMethodTypes{{
					PaymentMethodType:  "credit",
					PaymentExperience:  ptr(PaymentExperience("redirect_to_url")),
					CardNetworks:       []CardNetwork{"Visa", "Mastercard"},
					AcceptedCurrencies: &AcceptedCurrencies{Type: AcceptEnableOnly, List: []schematype.Currency{"USD"}},
					AcceptedCountries:  &AcceptedCountries{Type: AcceptDisableOnly, List: []Country{"US"}},
					MinimumAmount:      ptr(int64(1)),
					MaximumAmount:      ptr(int64(1000)),
				}},
			}},
			WebhookDetails: &WebhookDetails{MerchantSecret: "m", AdditionalSecret: "a"},
			FrmConfigs: []FrmConfig{{
				Gateway: "payment_vas",
				PaymentMethods: []FrmPaymentMethod{{
					PaymentMethod: "card",
					Flow:          ptr(FrmFlow("pre")),
					PaymentMethodTypes: []FrmPaymentMethodType{{
						PaymentMethodType: "credit", CardNetworks: "Visa", Flow: "post", Action: "manual_review",
					}},
				}},
			}},
			Status: ptr(AccountInactive),
			AdditionalMerchantData: &AdditionalMerchantData{OpenBankingRecipientData: &MerchantRecipientData{
				AccountData: &MerchantAccountData{Bacs: &UKAccountData{AccountNumber: "12345678", SortCode: "123456", Name: "A"}},
			}},
			WalletsDetails: &WalletDetails{GooglePay: map[string]any{"merchant_id": "x"}},
		},
	}
}

// pmt returns the first RequestPaymentMethodTypes of in.
func pmt(in *AccountInput) *RequestPaymentMethodTypes {
	return &in.PaymentMethodsEnabled[0].PaymentMethodTypes[0]
}

func frmType(in *AccountInput) *FrmPaymentMethodType {
	return &in.FrmConfigs[0].PaymentMethods[0].PaymentMethodTypes[0]
}

func accountData(in *AccountInput, a MerchantAccountData) {
	in.AdditionalMerchantData.OpenBankingRecipientData.AccountData = &a
}

const (
	pmtPath     = "payment_methods_enabled[0].payment_method_types[0]"
	frmPath     = "frm_configs[0].payment_methods[0].payment_method_types[0]"
	accountPath = "additional_merchant_data.open_banking_recipient_data.account_data"
)

// keys returns n credentials named A, B, … (then a, b, …).
func keys(n int) map[string]any {
	m := make(map[string]any, n)
	for i := range n {
		m[string(rune('A'+i))] = "v"
	}
	return m
}

// manyDetails returns n credentials whose names are 1 to n characters long.
func manyDetails(n int) map[string]any {
	m := make(map[string]any, n)
	for i := range n {
		m[strings.Repeat("k", i+1)] = "v"
	}
	return m
}

// TestConnectorAccountInputValidate has one case per rule: the code and the
// exact field path of the error. A nil code means the input is valid.
func TestConnectorAccountInputValidate(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(*AccountInput)
		want  *errs.Failure
		field string
	}{
		{"every member valid", func(*AccountInput) {}, nil, ""},
		{"only the mandatory members", func(in *AccountInput) {
			*in = AccountInput{AccountFields: AccountFields{ConnectorType: "payment_processor"}, ConnectorName: "stripe"}
		}, nil, ""},
		// connector_type, connector_name, status: required and closed.
		{"connector_type missing", func(in *AccountInput) { in.ConnectorType = "" }, errs.ErrMissingField, "connector_type"},
		{"connector_type outside the spec's 13", func(in *AccountInput) { in.ConnectorType = "surcharge_processor" }, errs.ErrInvalidValue, "connector_type"},
		{"connector_name missing", func(in *AccountInput) { in.ConnectorName = "" }, errs.ErrMissingField, "connector_name"},
		{"connector_name unknown", func(in *AccountInput) { in.ConnectorName = "stripe2" }, errs.ErrInvalidValue, "connector_name"},
		{"connector_name test stand-in", func(in *AccountInput) { in.ConnectorName = "pretendpay" }, nil, ""},
		{"status", func(in *AccountInput) { in.Status = ptr(AccountStatus("paused")) }, errs.ErrInvalidValue, "status"},
		{"status active", func(in *AccountInput) { in.Status = ptr(AccountActive) }, nil, ""},
		// Scalars.
		{"connector_label empty", func(in *AccountInput) { in.ConnectorLabel = ptr("") }, errs.ErrInvalidValue, "connector_label"},
		{"connector_label 255", func(in *AccountInput) { in.ConnectorLabel = ptr(strings.Repeat("l", 255)) }, nil, ""},
		{"connector_label 256", func(in *AccountInput) { in.ConnectorLabel = ptr(strings.Repeat("l", 256)) }, errs.ErrInvalidValue, "connector_label"},
		{"profile_id 64", func(in *AccountInput) { in.ProfileID = ptr(strings.Repeat("p", 64)) }, nil, ""},
		{"profile_id 65", func(in *AccountInput) { in.ProfileID = ptr(strings.Repeat("p", 65)) }, errs.ErrInvalidValue, "profile_id"},
		{"profile_id empty", func(in *AccountInput) { in.ProfileID = ptr("") }, errs.ErrInvalidValue, "profile_id"},
		{"business_country", func(in *AccountInput) { in.BusinessCountry = ptr(Country("UK")) }, errs.ErrInvalidValue, "business_country"},
		{"business_label 65", func(in *AccountInput) { in.BusinessLabel = ptr(strings.Repeat("b", 65)) }, errs.ErrInvalidValue, "business_label"},
		{"business_sub_label 65", func(in *AccountInput) { in.BusinessSubLabel = ptr(strings.Repeat("b", 65)) }, errs.ErrInvalidValue, "business_sub_label"},
		// connector_account_details.
		{"details 50 keys", func(in *AccountInput) { in.AccountDetails = keys(50) }, nil, ""},
		{"details 51 keys", func(in *AccountInput) { in.AccountDetails = keys(51) }, errs.ErrInvalidValue, "connector_account_details"},
		{"details key 40", func(in *AccountInput) { in.AccountDetails = manyDetails(40) }, nil, ""},
		{"details key 41", func(in *AccountInput) { in.AccountDetails = manyDetails(41) }, errs.ErrInvalidValue, "connector_account_details." + strings.Repeat("k", 41)},
		{"details key empty", func(in *AccountInput) { in.AccountDetails = map[string]any{"": "v"} }, errs.ErrInvalidValue, "connector_account_details"},
		{"details value 500", func(in *AccountInput) { in.AccountDetails["api_key"] = strings.Repeat("v", 500) }, nil, ""},
		{"details value 501", func(in *AccountInput) { in.AccountDetails["api_key"] = strings.Repeat("v", 501) }, errs.ErrInvalidValue, "connector_account_details.api_key"},
		{"details value counts characters", func(in *AccountInput) { in.AccountDetails["api_key"] = strings.Repeat("é", 500) }, nil, ""},
		// Hyperswitch's CurrencyAuthKey: an object per currency.
		{"details nested object", func(in *AccountInput) {
			in.AccountDetails = map[string]any{"auth_type": "CurrencyAuthKey",
				"auth_key_map": map[string]any{"USD": map[string]any{"api_key": "k"}, "EUR": map[string]any{"api_key": "k2"}}}
		}, nil, ""},
		{"details number and bool", func(in *AccountInput) { in.AccountDetails["n"], in.AccountDetails["b"] = 3.0, true }, nil, ""},
		{"details nested value 501", func(in *AccountInput) {
			in.AccountDetails["auth_key_map"] = map[string]any{"USD": map[string]any{"api_key": strings.Repeat("v", 501)}}
		}, errs.ErrInvalidValue, "connector_account_details.auth_key_map.USD.api_key"},
		{"details nested 51 keys", func(in *AccountInput) { in.AccountDetails["auth_key_map"] = keys(51) }, errs.ErrInvalidValue, "connector_account_details.auth_key_map"},
		{"details list item 501", func(in *AccountInput) { in.AccountDetails["l"] = []any{"a", strings.Repeat("v", 501)} }, errs.ErrInvalidValue, "connector_account_details.l[1]"},
		{"details list 51 items", func(in *AccountInput) { in.AccountDetails["l"] = make([]any, 51) }, errs.ErrInvalidValue, "connector_account_details.l"},
		// payment_methods_enabled.
		{"payment_method missing", func(in *AccountInput) { in.PaymentMethodsEnabled[0].PaymentMethod = "" }, errs.ErrMissingField, "payment_methods_enabled[0].payment_method"},
		{"payment_method", func(in *AccountInput) { in.PaymentMethodsEnabled[0].PaymentMethod = "cash" }, errs.ErrInvalidValue, "payment_methods_enabled[0].payment_method"},
		{"payment_method_type missing", func(in *AccountInput) { pmt(in).PaymentMethodType = "" }, errs.ErrMissingField, pmtPath + ".payment_method_type"},
		{"payment_method_type", func(in *AccountInput) { pmt(in).PaymentMethodType = "Credit" }, errs.ErrInvalidValue, pmtPath + ".payment_method_type"},
		{"payment_method_type as spelled", func(in *AccountInput) { pmt(in).PaymentMethodType = "sepa_guarenteed_debit" }, nil, ""},
		{"payment_experience", func(in *AccountInput) { pmt(in).PaymentExperience = ptr(PaymentExperience("qr")) }, errs.ErrInvalidValue, pmtPath + ".payment_experience"},
		{"card network", func(in *AccountInput) { pmt(in).CardNetworks = []CardNetwork{"Visa", "VISA"} }, errs.ErrInvalidValue, pmtPath + ".card_networks[1]"},
		{"card network empty", func(in *AccountInput) { pmt(in).CardNetworks = []CardNetwork{""} }, errs.ErrMissingField, pmtPath + ".card_networks[0]"},
		{"currencies type missing", func(in *AccountInput) { pmt(in).AcceptedCurrencies.Type = "" }, errs.ErrMissingField, pmtPath + ".accepted_currencies.type"},
		{"currencies type", func(in *AccountInput) { pmt(in).AcceptedCurrencies.Type = "some" }, errs.ErrInvalidValue, pmtPath + ".accepted_currencies.type"},
		{"currencies enable_only without list", func(in *AccountInput) { pmt(in).AcceptedCurrencies.List = nil }, errs.ErrMissingField, pmtPath + ".accepted_currencies.list"},
		{"currencies disable_only without list", func(in *AccountInput) {
			pmt(in).AcceptedCurrencies = &AcceptedCurrencies{Type: AcceptDisableOnly}
		}, errs.ErrMissingField, pmtPath + ".accepted_currencies.list"},
		{"currencies enable_only empty list", func(in *AccountInput) {
			pmt(in).AcceptedCurrencies.List = []schematype.Currency{}
		}, nil, ""},
		{"currencies all_accepted", func(in *AccountInput) { pmt(in).AcceptedCurrencies = &AcceptedCurrencies{Type: AcceptAll} }, nil, ""},
		{"currencies all_accepted with list", func(in *AccountInput) { pmt(in).AcceptedCurrencies.Type = AcceptAll }, errs.ErrInvalidValue, pmtPath + ".accepted_currencies.list"},
		{"currency", func(in *AccountInput) { pmt(in).AcceptedCurrencies.List = []schematype.Currency{"USD", "usd"} }, errs.ErrInvalidValue, pmtPath + ".accepted_currencies.list[1]"},
		{"countries enable_only without list", func(in *AccountInput) {
			pmt(in).AcceptedCountries = &AcceptedCountries{Type: AcceptEnableOnly}
		}, errs.ErrMissingField, pmtPath + ".accepted_countries.list"},
		{"countries all_accepted with list", func(in *AccountInput) { pmt(in).AcceptedCountries.Type = AcceptAll }, errs.ErrInvalidValue, pmtPath + ".accepted_countries.list"},
		{"country", func(in *AccountInput) { pmt(in).AcceptedCountries.List = []Country{"GB", "EU"} }, errs.ErrInvalidValue, pmtPath + ".accepted_countries.list[1]"},
		{"minimum_amount negative", func(in *AccountInput) { pmt(in).MinimumAmount = ptr(int64(-1)) }, errs.ErrInvalidValue, pmtPath + ".minimum_amount"},
		{"maximum_amount negative", func(in *AccountInput) { pmt(in).MaximumAmount = ptr(int64(-1)) }, errs.ErrInvalidValue, pmtPath + ".maximum_amount"},
		{"minimum over maximum", func(in *AccountInput) { pmt(in).MinimumAmount = ptr(int64(1001)) }, errs.ErrInvalidValue, pmtPath + ".maximum_amount"},
		{"minimum equals maximum", func(in *AccountInput) { pmt(in).MinimumAmount = ptr(int64(1000)) }, nil, ""},
		{"maximum_amount over 2^53-1", func(in *AccountInput) { pmt(in).MaximumAmount = ptr(int64(maxSafeAmount + 1)) }, errs.ErrInvalidValue, pmtPath + ".maximum_amount"},
		// connector_webhook_details.
		{"merchant_secret missing", func(in *AccountInput) { in.WebhookDetails.MerchantSecret = "" }, errs.ErrMissingField, "connector_webhook_details.merchant_secret"},
		{"additional_secret missing", func(in *AccountInput) { in.WebhookDetails.AdditionalSecret = "" }, errs.ErrMissingField, "connector_webhook_details.additional_secret"},
		// frm_configs.
		{"frm gateway missing", func(in *AccountInput) { in.FrmConfigs[0].Gateway = "" }, errs.ErrMissingField, "frm_configs[0].gateway"},
		{"frm gateway", func(in *AccountInput) { in.FrmConfigs[0].Gateway = "riskified" }, errs.ErrInvalidValue, "frm_configs[0].gateway"},
		{"frm payment_methods missing", func(in *AccountInput) { in.FrmConfigs[0].PaymentMethods = nil }, errs.ErrMissingField, "frm_configs[0].payment_methods"},
		{"frm payment_methods empty", func(in *AccountInput) { in.FrmConfigs[0].PaymentMethods = []FrmPaymentMethod{} }, nil, ""},
		{"frm payment_method missing", func(in *AccountInput) { in.FrmConfigs[0].PaymentMethods[0].PaymentMethod = "" }, errs.ErrMissingField, "frm_configs[0].payment_methods[0].payment_method"},
		{"frm payment_method", func(in *AccountInput) { in.FrmConfigs[0].PaymentMethods[0].PaymentMethod = "crypto_wallet" }, errs.ErrInvalidValue, "frm_configs[0].payment_methods[0].payment_method"},
		{"frm flow", func(in *AccountInput) { in.FrmConfigs[0].PaymentMethods[0].Flow = ptr(FrmFlow("both")) }, errs.ErrInvalidValue, "frm_configs[0].payment_methods[0].flow"},
		{"frm type payment_method_type missing", func(in *AccountInput) { frmType(in).PaymentMethodType = "" }, errs.ErrMissingField, frmPath + ".payment_method_type"},
		{"frm type payment_method_type", func(in *AccountInput) { frmType(in).PaymentMethodType = "card" }, errs.ErrInvalidValue, frmPath + ".payment_method_type"},
		{"frm type card_networks missing", func(in *AccountInput) { frmType(in).CardNetworks = "" }, errs.ErrMissingField, frmPath + ".card_networks"},
		{"frm type card_networks", func(in *AccountInput) { frmType(in).CardNetworks = "Amex" }, errs.ErrInvalidValue, frmPath + ".card_networks"},
		{"frm type flow missing", func(in *AccountInput) { frmType(in).Flow = "" }, errs.ErrMissingField, frmPath + ".flow"},
		{"frm type flow", func(in *AccountInput) { frmType(in).Flow = "Pre" }, errs.ErrInvalidValue, frmPath + ".flow"},
		{"frm type action missing", func(in *AccountInput) { frmType(in).Action = "" }, errs.ErrMissingField, frmPath + ".action"},
		{"frm type action", func(in *AccountInput) { frmType(in).Action = "refund" }, errs.ErrInvalidValue, frmPath + ".action"},
		// additional_merchant_data.
		{"recipient data missing", func(in *AccountInput) { in.AdditionalMerchantData.OpenBankingRecipientData = nil }, errs.ErrMissingField, "additional_merchant_data.open_banking_recipient_data"},
		{"recipient none", func(in *AccountInput) {
			in.AdditionalMerchantData.OpenBankingRecipientData = &MerchantRecipientData{}
		}, errs.ErrInvalidValue, "additional_merchant_data.open_banking_recipient_data"},
		{"recipient two", func(in *AccountInput) {
			in.AdditionalMerchantData.OpenBankingRecipientData.WalletID = ptr("w")
		}, errs.ErrInvalidValue, "additional_merchant_data.open_banking_recipient_data"},
		{"recipient wallet_id", func(in *AccountInput) {
			in.AdditionalMerchantData.OpenBankingRecipientData = &MerchantRecipientData{WalletID: ptr("w")}
		}, nil, ""},
		{"recipient wallet_id empty", func(in *AccountInput) {
			in.AdditionalMerchantData.OpenBankingRecipientData = &MerchantRecipientData{WalletID: ptr("")}
		}, errs.ErrInvalidValue, "additional_merchant_data.open_banking_recipient_data.wallet_id"},
		{"recipient connector_recipient_id", func(in *AccountInput) {
			in.AdditionalMerchantData.OpenBankingRecipientData = &MerchantRecipientData{ConnectorRecipientID: ptr("r")}
		}, nil, ""},
		{"recipient connector_recipient_id empty", func(in *AccountInput) {
			in.AdditionalMerchantData.OpenBankingRecipientData = &MerchantRecipientData{ConnectorRecipientID: ptr("")}
		}, errs.ErrInvalidValue, "additional_merchant_data.open_banking_recipient_data.connector_recipient_id"},
		{"account none", func(in *AccountInput) { accountData(in, MerchantAccountData{}) }, errs.ErrInvalidValue, accountPath},
		{"account two", func(in *AccountInput) {
			accountData(in, MerchantAccountData{
				Sepa:        &IbanAccountData{Iban: "DE89370400440532013000", Name: "A"},
				SepaInstant: &IbanAccountData{Iban: "DE89370400440532013000", Name: "A"},
			})
		}, errs.ErrInvalidValue, accountPath},
		// iban, sepa, sepa_instant.
		{"iban 34", func(in *AccountInput) {
			accountData(in, MerchantAccountData{Iban: &IbanAccountData{Iban: "MT" + strings.Repeat("1", 32), Name: "A"}})
		}, nil, ""},
		{"iban 35", func(in *AccountInput) {
			accountData(in, MerchantAccountData{Iban: &IbanAccountData{Iban: "MT" + strings.Repeat("1", 33), Name: "A"}})
		}, errs.ErrInvalidValue, accountPath + ".iban.iban"},
		{"iban missing", func(in *AccountInput) {
			accountData(in, MerchantAccountData{Iban: &IbanAccountData{Name: "A"}})
		}, errs.ErrMissingField, accountPath + ".iban.iban"},
		{"iban not alphanumeric", func(in *AccountInput) {
			accountData(in, MerchantAccountData{Iban: &IbanAccountData{Iban: "GB33-BUKB", Name: "A"}})
		}, errs.ErrInvalidValue, accountPath + ".iban.iban"},
		{"iban name missing", func(in *AccountInput) {
			accountData(in, MerchantAccountData{Iban: &IbanAccountData{Iban: "GB33BUKB20201555555555"}})
		}, errs.ErrMissingField, accountPath + ".iban.name"},
		{"sepa", func(in *AccountInput) {
			accountData(in, MerchantAccountData{Sepa: &IbanAccountData{Iban: "FR1420041010050500013M02606", Name: "A"}})
		}, nil, ""},
		{"sepa iban missing", func(in *AccountInput) {
			accountData(in, MerchantAccountData{Sepa: &IbanAccountData{Name: "A"}})
		}, errs.ErrMissingField, accountPath + ".sepa.iban"},
		{"sepa_instant name missing", func(in *AccountInput) {
			accountData(in, MerchantAccountData{SepaInstant: &IbanAccountData{Iban: "DE89370400440532013000"}})
		}, errs.ErrMissingField, accountPath + ".sepa_instant.name"},
		// bacs and faster_payments: 8-digit account number, 6-digit sort code.
		{"bacs account_number 7", func(in *AccountInput) {
			accountData(in, MerchantAccountData{Bacs: &UKAccountData{AccountNumber: "1234567", SortCode: "123456", Name: "A"}})
		}, errs.ErrInvalidValue, accountPath + ".bacs.account_number"},
		{"bacs account_number 9", func(in *AccountInput) {
			accountData(in, MerchantAccountData{Bacs: &UKAccountData{AccountNumber: "123456789", SortCode: "123456", Name: "A"}})
		}, errs.ErrInvalidValue, accountPath + ".bacs.account_number"},
		{"bacs account_number not digits", func(in *AccountInput) {
			accountData(in, MerchantAccountData{Bacs: &UKAccountData{AccountNumber: "1234567O", SortCode: "123456", Name: "A"}})
		}, errs.ErrInvalidValue, accountPath + ".bacs.account_number"},
		{"bacs sort_code 7", func(in *AccountInput) {
			accountData(in, MerchantAccountData{Bacs: &UKAccountData{AccountNumber: "12345678", SortCode: "1234567", Name: "A"}})
		}, errs.ErrInvalidValue, accountPath + ".bacs.sort_code"},
		{"bacs sort_code with hyphens", func(in *AccountInput) {
			accountData(in, MerchantAccountData{Bacs: &UKAccountData{AccountNumber: "12345678", SortCode: "12-34-56", Name: "A"}})
		}, errs.ErrInvalidValue, accountPath + ".bacs.sort_code"},
		{"bacs name missing", func(in *AccountInput) {
			accountData(in, MerchantAccountData{Bacs: &UKAccountData{AccountNumber: "12345678", SortCode: "123456"}})
		}, errs.ErrMissingField, accountPath + ".bacs.name"},
		{"faster_payments", func(in *AccountInput) {
			accountData(in, MerchantAccountData{FasterPayments: &UKAccountData{AccountNumber: "12345678", SortCode: "123456", Name: "A"}})
		}, nil, ""},
		{"faster_payments account_number missing", func(in *AccountInput) {
			accountData(in, MerchantAccountData{FasterPayments: &UKAccountData{SortCode: "123456", Name: "A"}})
		}, errs.ErrMissingField, accountPath + ".faster_payments.account_number"},
		{"faster_payments sort_code 5", func(in *AccountInput) {
			accountData(in, MerchantAccountData{FasterPayments: &UKAccountData{AccountNumber: "12345678", SortCode: "12345", Name: "A"}})
		}, errs.ErrInvalidValue, accountPath + ".faster_payments.sort_code"},
		// elixir: 26-digit account number, 28-character IBAN.
		{"elixir", func(in *AccountInput) {
			accountData(in, MerchantAccountData{Elixir: &ElixirAccountData{AccountNumber: strings.Repeat("1", 26), Iban: "PL27114020040000300201355387", Name: "A"}})
		}, nil, ""},
		{"elixir account_number 27", func(in *AccountInput) {
			accountData(in, MerchantAccountData{Elixir: &ElixirAccountData{AccountNumber: strings.Repeat("1", 27), Iban: "PL27114020040000300201355387", Name: "A"}})
		}, errs.ErrInvalidValue, accountPath + ".elixir.account_number"},
		{"elixir iban 29", func(in *AccountInput) {
			accountData(in, MerchantAccountData{Elixir: &ElixirAccountData{AccountNumber: strings.Repeat("1", 26), Iban: "PL271140200400003002013553870", Name: "A"}})
		}, errs.ErrInvalidValue, accountPath + ".elixir.iban"},
		{"elixir name missing", func(in *AccountInput) {
			accountData(in, MerchantAccountData{Elixir: &ElixirAccountData{AccountNumber: strings.Repeat("1", 26), Iban: "PL27114020040000300201355387"}})
		}, errs.ErrMissingField, accountPath + ".elixir.name"},
		// bankgiro 7 to 8 digits, plusgiro 2 to 8, hyphens allowed.
		{"bankgiro 7", func(in *AccountInput) {
			accountData(in, MerchantAccountData{Bankgiro: &GiroAccountData{Number: "123-4567", Name: "A"}})
		}, nil, ""},
		{"bankgiro 6", func(in *AccountInput) {
			accountData(in, MerchantAccountData{Bankgiro: &GiroAccountData{Number: "123456", Name: "A"}})
		}, errs.ErrInvalidValue, accountPath + ".bankgiro.number"},
		{"bankgiro 9", func(in *AccountInput) {
			accountData(in, MerchantAccountData{Bankgiro: &GiroAccountData{Number: "1234-56789", Name: "A"}})
		}, errs.ErrInvalidValue, accountPath + ".bankgiro.number"},
		{"bankgiro missing", func(in *AccountInput) {
			accountData(in, MerchantAccountData{Bankgiro: &GiroAccountData{Name: "A"}})
		}, errs.ErrMissingField, accountPath + ".bankgiro.number"},
		{"bankgiro name missing", func(in *AccountInput) {
			accountData(in, MerchantAccountData{Bankgiro: &GiroAccountData{Number: "5402-9656"}})
		}, errs.ErrMissingField, accountPath + ".bankgiro.name"},
		{"plusgiro 2", func(in *AccountInput) {
			accountData(in, MerchantAccountData{Plusgiro: &GiroAccountData{Number: "4-7", Name: "A"}})
		}, nil, ""},
		{"plusgiro 1", func(in *AccountInput) {
			accountData(in, MerchantAccountData{Plusgiro: &GiroAccountData{Number: "4", Name: "A"}})
		}, errs.ErrInvalidValue, accountPath + ".plusgiro.number"},
		{"plusgiro 9", func(in *AccountInput) {
			accountData(in, MerchantAccountData{Plusgiro: &GiroAccountData{Number: "123456789", Name: "A"}})
		}, errs.ErrInvalidValue, accountPath + ".plusgiro.number"},
		{"plusgiro letters", func(in *AccountInput) {
			accountData(in, MerchantAccountData{Plusgiro: &GiroAccountData{Number: "47x9", Name: "A"}})
		}, errs.ErrInvalidValue, accountPath + ".plusgiro.number"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := validInput()
			tc.edit(&in)
			checkRule(t, in.Validate(), tc.want, tc.field)
		})
	}
}

func checkRule(t *testing.T, err error, want *errs.Failure, field string) {
	t.Helper()
	if want == nil {
		if err != nil {
			t.Fatalf("want valid, got %v", err)
		}
		return
	}
	e, ok := errs.As(err)
	if !ok {
		t.Fatalf("want %s on %s, got %v", want, field, err)
	}
	if !errors.Is(err, want) || e.Field != field || e.Kind != errs.KindInvalid || !strings.Contains(e.Message, field) {
		t.Fatalf("got %s %q on %q, want %s on %q", e.Code, e.Message, e.Field, want, field)
	}
}

func TestConnectorAccountPatchValidate(t *testing.T) {
	valid := func() AccountPatch {
		in := validInput()
		return AccountPatch{AccountFields: AccountFields{
			ConnectorType: in.ConnectorType, ConnectorLabel: in.ConnectorLabel, AccountDetails: in.AccountDetails,
			PaymentMethodsEnabled: in.PaymentMethodsEnabled, WebhookDetails: in.WebhookDetails,
			FrmConfigs: in.FrmConfigs, Status: in.Status, AdditionalMerchantData: in.AdditionalMerchantData,
			WalletsDetails: in.WalletsDetails,
		}}
	}
	cases := []struct {
		name  string
		edit  func(*AccountPatch)
		want  *errs.Failure
		field string
	}{
		{"every member valid", func(*AccountPatch) {}, nil, ""},
		{"only connector_type", func(p *AccountPatch) {
			*p = AccountPatch{AccountFields: AccountFields{ConnectorType: "payout_processor"}}
		}, nil, ""},
		{"connector_type missing", func(p *AccountPatch) { p.ConnectorType = "" }, errs.ErrMissingField, "connector_type"},
		{"connector_type", func(p *AccountPatch) { p.ConnectorType = "processor" }, errs.ErrInvalidValue, "connector_type"},
		{"connector_label empty", func(p *AccountPatch) { p.ConnectorLabel = ptr("") }, errs.ErrInvalidValue, "connector_label"},
		{"status", func(p *AccountPatch) { p.Status = ptr(AccountStatus("Active")) }, errs.ErrInvalidValue, "status"},
		{"details value 501", func(p *AccountPatch) { p.AccountDetails = map[string]any{"k": strings.Repeat("v", 501)} }, errs.ErrInvalidValue, "connector_account_details.k"},
		{"payment method", func(p *AccountPatch) { p.PaymentMethodsEnabled[0].PaymentMethod = "gold" }, errs.ErrInvalidValue, "payment_methods_enabled[0].payment_method"},
		{"webhook secret", func(p *AccountPatch) { p.WebhookDetails = &WebhookDetails{AdditionalSecret: "a"} }, errs.ErrMissingField, "connector_webhook_details.merchant_secret"},
		{"frm action", func(p *AccountPatch) { p.FrmConfigs[0].PaymentMethods[0].PaymentMethodTypes[0].Action = "" }, errs.ErrMissingField, frmPath + ".action"},
		{"account data", func(p *AccountPatch) {
			p.AdditionalMerchantData = &AdditionalMerchantData{OpenBankingRecipientData: &MerchantRecipientData{
				AccountData: &MerchantAccountData{Plusgiro: &GiroAccountData{Number: "1", Name: "A"}},
			}}
		}, errs.ErrInvalidValue, accountPath + ".plusgiro.number"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := valid()
			tc.edit(&p)
			checkRule(t, p.Validate(), tc.want, tc.field)
		})
	}
}

// TestConnectorEnums pins the size of each closed set and a few members.
func TestConnectorEnums(t *testing.T) {
	for _, tc := range []struct {
		set  *validate.Enum
		size int
		has  []string
		not  []string
	}{
		{connectorTypes, 13, []string{"payment_processor", "vault_processor"}, []string{"surcharge_processor"}},
		{KnownNames, 148, []string{"stripe", "stripe_test", "phonypay", "fauxpay", "pretendpay", "adyen", "zsl"}, []string{"Stripe", "dummy"}},
		{connectorStatuses, 2, []string{"active", "inactive"}, []string{"disabled"}},
		{paymentMethods, 16, []string{"card", "network_token", "mobile_payment"}, []string{"credit"}},
		{validate.PaymentMethodTypes, 121, []string{"credit", "debit", "sepa_guarenteed_debit", "upi_qr", "open_banking_pis", "klarna"}, []string{"card", "sepa_guaranteed_debit"}},
		{paymentExperiences, 8, []string{"redirect_to_url", "collect_otp"}, []string{"redirect"}},
		{validate.CardNetworks, 15, []string{"Visa", "AmericanExpress", "Nyce"}, []string{"visa", "Amex"}},
		{validate.Countries, 249, []string{"US", "GB", "AX", "BQ", "SS", "ZW"}, []string{"UK", "EU", "XK", "us"}},
		{validate.Currencies, len(schematype.Currency("").Values()), []string{"USD", "EUR", "ZWL"}, []string{"usd", "XXX"}},
		{frmFlows, 2, []string{"pre", "post"}, nil},
		{frmActions, 3, []string{"cancel_txn", "auto_refund", "manual_review"}, nil},
		{acceptedTypes, 3, []string{"enable_only", "disable_only", "all_accepted"}, nil},
	} {
		values := tc.set.Values()
		if distinct := len(slices.Compact(slices.Sorted(slices.Values(values)))); len(values) != tc.size || distinct != tc.size {
			t.Errorf("%s has %d values (%d distinct), want %d", tc.set.Name(), len(values), distinct, tc.size)
		}
		for _, v := range tc.has {
			if !tc.set.Has(v) {
				t.Errorf("%s lacks %q", tc.set.Name(), v)
			}
		}
		for _, v := range tc.not {
			if tc.set.Has(v) {
				t.Errorf("%s has %q", tc.set.Name(), v)
			}
		}
	}
}

func TestMaskJSON(t *testing.T) {
	got := maskJSON(map[string]any{
		"api_key": "sk_test_abcdef",
		"short":   "abc",
		"nested":  map[string]any{"list": []any{"0123456789", 42.0, true, nil}},
	}).(map[string]any)
	if got["api_key"] != "sk**********ef" || got["short"] != "***" {
		t.Fatalf("masked: %v", got)
	}
	list := got["nested"].(map[string]any)["list"].([]any)
	if list[0] != "01******89" || list[1] != "**" || list[2] != true || list[3] != nil {
		t.Fatalf("nested: %v", list)
	}
}

// TestConnectorSecretsSealed: the view masks what was sealed, and a sealed
// value moved to another row does not open.
func TestConnectorSecretsSealed(t *testing.T) {
	box, err := secrets.NewBox(bytes.Repeat([]byte{7}, secrets.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	s := &Service{box: box}
	details := map[string]any{"api_key": "sk_test_0123456789"}
	webhook := &WebhookDetails{MerchantSecret: "whsec_merchant", AdditionalSecret: "whsec_additional"}
	wallets := &WalletDetails{ApplePay: map[string]any{"certificate": "certificate_body"}}
	sealed, err := s.sealConnectorSecrets("mca_1", details, webhook, wallets)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range [][]byte{sealed.details, sealed.webhook, sealed.wallets} {
		for _, plain := range []string{"sk_test_0123456789", "whsec_merchant", "whsec_additional", "certificate_body"} {
			if bytes.Contains(b, []byte(plain)) {
				t.Fatalf("%q sealed in clear", plain)
			}
		}
	}
	row := &ent.MerchantConnectorAccount{
		ID: "mca_1", ConnectorType: merchantconnectoraccount.ConnectorTypePaymentProcessor, ConnectorName: "stripe",
		Status:                        merchantconnectoraccount.StatusActive,
		ConnectorAccountDetailsSealed: sealed.details,
		ConnectorWebhookDetailsSealed: sealed.webhook,
		ConnectorWalletsDetailsSealed: sealed.wallets,
	}
	v, err := s.view(row)
	if err != nil {
		t.Fatal(err)
	}
	if v.AccountDetails["api_key"] != "sk**************89" || v.WebhookDetails.MerchantSecret != "wh**********nt" ||
		v.WebhookDetails.AdditionalSecret != "wh************al" || v.WalletsDetails.ApplePay["certificate"] != "ce************dy" {
		t.Fatalf("view: %+v %+v %+v", v.AccountDetails, v.WebhookDetails, v.WalletsDetails)
	}
	if v.WalletsDetails.GooglePay != nil || v.WebhookSetup.IsWebhookAutoConfigurationSupported || !*v.WebhookSetup.RequiresWebhookSecret {
		t.Fatalf("view: %+v", v)
	}
	creds, err := s.Credentials(row)
	if err != nil || creds["api_key"] != "sk_test_0123456789" {
		t.Fatalf("credentials: %v %v", creds, err)
	}
	// Moved to another row, the ciphertext is refused.
	row.ID = "mca_2"
	if _, err := s.view(row); err == nil {
		t.Fatal("a sealed value opened under another row's id")
	} else if !errors.Is(err, errs.ErrInternal) || !errors.Is(err, secrets.ErrOpen) {
		t.Fatalf("wrong error: %v", err)
	}
}
