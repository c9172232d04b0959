package payouts

import (
	"errors"
	"testing"

	"switchyard/payments/errs"
)

func str(v string) *string { return &v }

// TestWhichMethodTheMembersMake: the one rule both front doors use to
// read a payout method: each Hyperswitch member makes its method, or is
// refused with the typed error naming the member at fault.
func TestWhichMethodTheMembersMake(t *testing.T) {
	card := &CardData{CardNumber: str("4242424242424242"), ExpiryMonth: str("12"), ExpiryYear: str("2040")}
	tests := []struct {
		name          string
		in            *MethodData
		typ, sub      string
		account, code string
		fail          error
		field         string
	}{
		{name: "none", in: nil},
		{name: "card", in: &MethodData{Card: card}, typ: "card", sub: "debit"},
		{name: "card without number", in: &MethodData{Card: &CardData{ExpiryMonth: str("12"), ExpiryYear: str("2040")}},
			fail: errs.ErrMissingField, field: "payout_method_data.card.card_number"},
		{name: "card without expiry year", in: &MethodData{Card: &CardData{CardNumber: str("4242424242424242"), ExpiryMonth: str("12")}},
			fail: errs.ErrMissingField, field: "payout_method_data.card.expiry_year"},
		{name: "ach", in: &MethodData{Bank: &BankData{BankAccountNumber: str("000123456789"), BankRoutingNumber: str("110000000")}},
			typ: "bank", sub: "ach", account: "000123456789", code: "110000000"},
		{name: "ach as bank_transfer", in: &MethodData{BankTransfer: &BankData{BankAccountNumber: str("1"), BankRoutingNumber: str("2")}},
			typ: "bank", sub: "ach", account: "1", code: "2"},
		{name: "ach without account", in: &MethodData{Bank: &BankData{BankRoutingNumber: str("110000000")}},
			fail: errs.ErrMissingField, field: "payout_method_data.bank.bank_account_number"},
		{name: "bacs", in: &MethodData{Bank: &BankData{BankAccountNumber: str("55550259"), BankSortCode: str("231470")}},
			typ: "bank", sub: "bacs", account: "55550259", code: "231470"},
		{name: "bacs without account", in: &MethodData{BankTransfer: &BankData{BankSortCode: str("231470")}},
			fail: errs.ErrMissingField, field: "payout_method_data.bank_transfer.bank_account_number"},
		{name: "sepa", in: &MethodData{Bank: &BankData{IBAN: str("DE89370400440532013000"), BIC: str("COBADEFFXXX")}},
			typ: "bank", sub: "sepa", account: "DE89370400440532013000", code: "COBADEFFXXX"},
		{name: "sepa with an empty iban", in: &MethodData{Bank: &BankData{IBAN: str(""), BIC: str("COBADEFFXXX")}},
			fail: errs.ErrMissingField, field: "payout_method_data.bank.iban"},
		{name: "pix", in: &MethodData{Bank: &BankData{BankAccountNumber: str("12345678"), PixKey: str("k"), EMV: str("x")}},
			typ: "bank", sub: "pix", account: "12345678", code: "k"},
		{name: "pix without account", in: &MethodData{Bank: &BankData{PixKey: str("k")}},
			fail: errs.ErrMissingField, field: "payout_method_data.bank.bank_account_number"},
		{name: "bank without a scheme's member", in: &MethodData{Bank: &BankData{BankName: str("Chase"), BankAccountNumber: str("1")}},
			fail: errs.ErrInvalidValue, field: "payout_method_data.bank"},
		{name: "paypal by e-mail", in: &MethodData{Wallet: &WalletData{Paypal: &PaypalData{Email: str("a@example.com")}}},
			typ: "wallet", sub: "paypal"},
		{name: "paypal by id", in: &MethodData{Wallet: &WalletData{Paypal: &PaypalData{PaypalID: str("G83KXTJ5EHCQ2")}}},
			typ: "wallet", sub: "paypal"},
		{name: "paypal with nothing", in: &MethodData{Wallet: &WalletData{Paypal: &PaypalData{}}},
			fail: errs.ErrMissingField, field: "payout_method_data.wallet.paypal.email"},
		{name: "venmo", in: &MethodData{Wallet: &WalletData{Venmo: &VenmoData{TelephoneNumber: str("16608213349")}}},
			typ: "wallet", sub: "venmo"},
		{name: "venmo without telephone", in: &MethodData{Wallet: &WalletData{Venmo: &VenmoData{}}},
			fail: errs.ErrMissingField, field: "payout_method_data.wallet.venmo.telephone_number"},
		{name: "apple pay", in: &MethodData{Wallet: &WalletData{ApplePayDecrypt: true}},
			fail: errs.ErrNotSupported, field: "payout_method_data.wallet.apple_pay_decrypt"},
		{name: "google pay", in: &MethodData{Wallet: &WalletData{GooglePayDecrypt: true}},
			fail: errs.ErrNotSupported, field: "payout_method_data.wallet.google_pay_decrypt"},
		{name: "empty wallet", in: &MethodData{Wallet: &WalletData{}}, fail: errs.ErrInvalidValue, field: "payout_method_data.wallet"},
		{name: "interac", in: &MethodData{BankRedirect: &BankRedirectData{Interac: &InteracData{Email: str("a@example.com")}}},
			typ: "bank_redirect", sub: "interac"},
		{name: "interac without e-mail", in: &MethodData{BankRedirect: &BankRedirectData{Interac: &InteracData{}}},
			fail: errs.ErrMissingField, field: "payout_method_data.bank_redirect.interac.email"},
		{name: "open banking uk", in: &MethodData{BankRedirect: &BankRedirectData{OpenBankingUk: true}},
			fail: errs.ErrNotSupported, field: "payout_method_data.bank_redirect.open_banking_uk"},
		{name: "passthrough", in: &MethodData{Passthrough: true}, fail: errs.ErrNotSupported, field: "payout_method_data.passthrough"},
		{name: "no member", in: &MethodData{}, fail: errs.ErrInvalidValue, field: "payout_method_data"},
		{name: "two members", in: &MethodData{Card: card, Wallet: &WalletData{Venmo: &VenmoData{TelephoneNumber: str("1")}}},
			fail: errs.ErrInvalidValue, field: "payout_method_data"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := tt.in.Method()
			if tt.fail != nil {
				var e *errs.Error
				if !errors.Is(err, tt.fail) || !errors.As(err, &e) || e.Field != tt.field {
					t.Fatalf("err %v, want %v naming %s", err, tt.fail, tt.field)
				}
				return
			}
			if err != nil {
				t.Fatalf("err %v", err)
			}
			if tt.in == nil {
				if m != nil {
					t.Fatalf("no data made %+v", m)
				}
				return
			}
			if m.Type != tt.typ || m.Subtype != tt.sub || m.AccountNumber != tt.account || m.BankCode != tt.code {
				t.Fatalf("made %+v, want %s/%s %q %q", m, tt.typ, tt.sub, tt.account, tt.code)
			}
		})
	}
}
