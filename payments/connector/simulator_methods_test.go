package connector

import (
	"bytes"
	"fmt"
	"log/slog"
	"testing"
)

// TestEveryFamilyHasASuccessAndAFailure walks the sandbox table of the
// families other than cards and UPI (docs/sandbox.md): each row is a
// payment method, what Authorize answers, and what the customer's answer
// (approve or decline) makes of a payment left waiting.
func TestEveryFamilyHasASuccessAndAFailure(t *testing.T) {
	sim := newSim()
	const (
		charged  = "charged"
		redirect = "redirect"
		waits    = "waits" // Instructions, no redirect
	)
	rows := []struct {
		pm PaymentMethod
		// outcome is charged, redirect, waits, or the decline reason.
		outcome string
		// declineReason is what declining a waiting payment gives.
		declineReason string
		// instructions is the member the bank details come under.
		instructions string
	}{
		{pm: PaymentMethod{Type: MethodWallet, Variant: "google_pay", WalletLast4: "1111"}, outcome: charged},
		{pm: PaymentMethod{Type: MethodWallet, Variant: "apple_pay"}, outcome: charged},
		{pm: PaymentMethod{Type: MethodWallet, Variant: "google_pay", WalletLast4: "0002"}, outcome: "generic_decline"},
		{pm: PaymentMethod{Type: MethodWallet, Variant: "apple_pay", WalletLast4: "9995"}, outcome: "insufficient_funds"},
		{pm: PaymentMethod{Type: MethodWallet, Variant: "paypal_redirect"}, outcome: redirect, declineReason: "customer_declined"},
		{pm: PaymentMethod{Type: MethodPayLater, Variant: "klarna_redirect"}, outcome: redirect, declineReason: "customer_declined"},
		{pm: PaymentMethod{Type: MethodBankRedirect, Variant: "ideal"}, outcome: redirect, declineReason: "customer_declined"},
		{pm: PaymentMethod{Type: MethodCrypto, Subtype: "crypto_currency"}, outcome: redirect, declineReason: "customer_declined"},
		{pm: PaymentMethod{Type: MethodReward, Subtype: "classic"}, outcome: redirect, declineReason: "customer_declined"},
		{pm: PaymentMethod{Type: MethodCardRedirect, Variant: "knet"}, outcome: redirect, declineReason: "customer_declined"},
		{pm: PaymentMethod{Type: MethodRealTimePayment, Variant: "fps"}, outcome: redirect, declineReason: "customer_declined"},
		{pm: PaymentMethod{Type: MethodOpenBanking, Variant: "open_banking_pis"}, outcome: redirect, declineReason: "customer_declined"},
		{pm: PaymentMethod{Type: MethodMobilePayment, Variant: "direct_carrier_billing"}, outcome: redirect, declineReason: "customer_declined"},
		{pm: PaymentMethod{Type: MethodBankTransfer, Variant: "ach_bank_transfer"}, outcome: waits, declineReason: "funds_not_received", instructions: "ach_credit_transfer"},
		{pm: PaymentMethod{Type: MethodBankTransfer, Variant: "sepa_bank_transfer", Country: "NL"}, outcome: waits, declineReason: "funds_not_received", instructions: "sepa_bank_instructions"},
		{pm: PaymentMethod{Type: MethodBankTransfer, Variant: "bacs_bank_transfer"}, outcome: waits, declineReason: "funds_not_received", instructions: "bacs_bank_instructions"},
		{pm: PaymentMethod{Type: MethodBankTransfer, Variant: "multibanco_bank_transfer"}, outcome: waits, declineReason: "funds_not_received", instructions: "multibanco"},
		{pm: PaymentMethod{Type: MethodBankTransfer, Variant: "permata_bank_transfer"}, outcome: waits, declineReason: "funds_not_received", instructions: "doku_bank_transfer_instructions"},
		{pm: PaymentMethod{Type: MethodBankTransfer, Variant: "pix"}, outcome: redirect, declineReason: "customer_declined"},
		{pm: PaymentMethod{Type: MethodVoucher, Variant: "boleto"}, outcome: waits, declineReason: "voucher_expired"},
		{pm: PaymentMethod{Type: MethodVoucher, Variant: "oxxo"}, outcome: waits, declineReason: "voucher_expired"},
		{pm: PaymentMethod{Type: MethodBankDebit, Variant: "ach_bank_debit", BankAccount: "000123456789"}, outcome: charged},
		{pm: PaymentMethod{Type: MethodBankDebit, Variant: "ach_bank_debit", BankAccount: "000111111116"}, outcome: "no_account"},
		{pm: PaymentMethod{Type: MethodBankDebit, Variant: "ach_bank_debit", BankAccount: "000222222227"}, outcome: "insufficient_funds"},
		{pm: PaymentMethod{Type: MethodBankDebit, Variant: "sepa_bank_debit", BankAccount: "DE89 3704 0044 0532 0130 00"}, outcome: charged},
		{pm: PaymentMethod{Type: MethodBankDebit, Variant: "sepa_bank_debit", BankAccount: "de62370400440532013001"}, outcome: "insufficient_funds"},
		{pm: PaymentMethod{Type: MethodBankDebit, Variant: "becs_bank_debit", BankAccount: "111111113"}, outcome: "account_closed"},
		{pm: PaymentMethod{Type: MethodBankDebit, Variant: "bacs_bank_debit", BankAccount: "90012345"}, outcome: "insufficient_funds"},
		{pm: PaymentMethod{Type: MethodBankDebit, Variant: "ach_bank_debit"}, outcome: "invalid_bank_account"},
		{pm: PaymentMethod{Type: MethodGiftCard, Variant: "givex", GiftCard: &GiftCard{Number: "6036280000000000001", PIN: "123"}}, outcome: charged},
		{pm: PaymentMethod{Type: MethodGiftCard, Variant: "givex", GiftCard: &GiftCard{Number: "6036280000000000002", PIN: "123"}}, outcome: "insufficient_funds"},
		{pm: PaymentMethod{Type: MethodGiftCard, Variant: "bhn_card_network", GiftCard: &GiftCard{Number: "7777000000000002"}}, outcome: "insufficient_funds"},
		{pm: PaymentMethod{Type: MethodGiftCard, Variant: "pay_safe_card"}, outcome: redirect, declineReason: "customer_declined"},
	}
	for _, row := range rows {
		name := fmt.Sprintf("%s/%s%s/%s", row.pm.Type, row.pm.Variant, row.pm.Subtype, row.pm.BankAccount.redacted())
		t.Run(name, func(t *testing.T) {
			complete := completer(t, sim, "adyen")
			r, err := sim.Authorize(ctx, &AuthorizeRequest{Account: account("adyen"), Amount: amount, Currency: "EUR", PaymentMethod: row.pm})
			if err != nil {
				t.Fatal(err)
			}
			switch row.outcome {
			case charged:
				wantSuccess(t, r, CaptureAutomatic)
				return
			case redirect, waits:
				if r.Status != StatusAuthenticationPending || r.RedirectRequired != (row.outcome == redirect) {
					t.Fatalf("want %s, got %s redirect=%v", row.outcome, r.Status, r.RedirectRequired)
				}
				if (r.Instructions != nil) != (row.outcome == waits) {
					t.Fatalf("instructions %+v", r.Instructions)
				}
				if in := r.Instructions; in != nil {
					if in.Reference == "" || !in.ExpiresAt.After(sim.now()) {
						t.Errorf("instructions lack a reference or a future expiry: %+v", in)
					}
					if row.instructions != "" && in.BankTransfer[row.instructions] == nil {
						t.Errorf("bank details under %s missing: %v", row.instructions, in.BankTransfer)
					}
				}
				wantSuccess(t, complete(r, true), CaptureAutomatic)
				declined := complete(r, false)
				if declined.Status != StatusFailure || declined.Decline.Reason != row.declineReason {
					t.Fatalf("declined: got %s %+v, want %s", declined.Status, declined.Decline, row.declineReason)
				}
			default:
				if r.Status != StatusFailure || r.Decline == nil || r.Decline.Reason != row.outcome {
					t.Fatalf("want decline %s, got %s %+v", row.outcome, r.Status, r.Decline)
				}
			}
		})
	}
}

func TestSEPATransferNamesItsCountry(t *testing.T) {
	r, _ := newSim().Authorize(ctx, &AuthorizeRequest{Account: account("adyen"), Amount: amount, Currency: "EUR",
		PaymentMethod: PaymentMethod{Type: MethodBankTransfer, Variant: "sepa_bank_transfer", Country: "NL"}})
	sepa, _ := r.Instructions.BankTransfer["sepa_bank_instructions"].(map[string]any)
	if sepa["country"] != "NL" || sepa["reference"] != r.Instructions.Reference {
		t.Fatalf("sepa instructions %v", sepa)
	}
}

func TestBankAndGiftCardDataRedact(t *testing.T) {
	const iban, gift, pin = "DE89370400440532013000", "6036280000000000001", "9876"
	pm := PaymentMethod{Type: MethodBankDebit, BankAccount: iban, GiftCard: &GiftCard{Number: gift, PIN: pin}}
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("pm", "pm", pm, "account", pm.BankAccount, "gift", pm.GiftCard)
	noLeak(t, pm, iban, gift, pin)
	noLeak(t, buf.String(), iban, gift, pin)
	if out := fmt.Sprint(pm.BankAccount); out != "…3000" {
		t.Errorf("account prints %q", out)
	}
}
