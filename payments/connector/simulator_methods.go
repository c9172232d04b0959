package connector

import (
	"strconv"
	"strings"
	"time"
	"unicode"
)

// The sandbox's payment methods other than cards and UPI (docs/sandbox.md,
// "Other payment methods"). Each family has a way to succeed and a way to
// fail:
//
//   - Wallets with a token the merchant's page obtained (apple_pay,
//     google_pay, samsung_pay) are charged at once, as the card behind the
//     token: its last four digits 0002 decline it (generic_decline), 9995
//     for insufficient funds, anything else succeeds. Every other wallet
//     (paypal_redirect, ali_pay_redirect, …) redirects to the Approve /
//     Decline page.
//   - pay_later, bank_redirect, crypto, reward, card_redirect,
//     real_time_payment, open_banking, mobile_payment: the Approve /
//     Decline page (decline: customer_declined).
//   - bank_transfer: ach, sepa, bacs, multibanco and the Indonesian virtual
//     accounts wait for the transfer with Instructions (the account to pay
//     into and a reference); CompleteAuthentication approved means the
//     money arrived, declined that it never did (funds_not_received). Other
//     variants (pix, pse, local and instant transfers) redirect.
//   - voucher: waits for the customer to pay at a till, with Instructions
//     (the voucher's reference); declined means it expired
//     (voucher_expired).
//   - bank_debit: charged at once; the test accounts in bankDebitAccounts
//     fail, any other account succeeds. With SetupFutureUsage a successful
//     debit returns a ConnectorMandateID (naming the account's last four
//     characters, never the account), and a later Authorize that passes it
//     instead of the account debits the account again.
//   - gift_card: givex and bhn_card_network are charged at once (a number
//     ending 0002 lacks the balance: insufficient_funds); pay_safe_card
//     redirects.

// tokenWallets are the wallet variants whose data is a token the
// connector charges at once.
var tokenWallets = map[string]bool{"apple_pay": true, "google_pay": true, "samsung_pay": true}

// walletDeclines are the last four digits of a wallet's card that decline.
var walletDeclines = map[string]string{"0002": "generic_decline", "9995": "insufficient_funds"}

// bankDebitAccounts are the sandbox's failing bank accounts (Stripe's test
// numbers): account number, or IBAN for SEPA, to the declines key.
var bankDebitAccounts = map[string]string{
	// ACH
	"000111111116": "no_account",
	"000111111113": "account_closed",
	"000222222227": "bank_insufficient_funds",
	// SEPA
	"DE62370400440532013001": "bank_insufficient_funds",
	"DE35370400440532013002": "account_closed",
	// BECS
	"111111113": "account_closed",
	"222222227": "bank_insufficient_funds",
	// BACS
	"90012345": "bank_insufficient_funds",
	"33333335": "account_closed",
}

// debitMandateToken is a bank debit mandate's connector token: the
// account's last four characters and the attempt that set it up.
func debitMandateToken(last4, attemptID string) string {
	return "sim_bd_" + last4 + "_" + attemptID
}

// parseDebitMandateToken returns the account's last four characters of a
// bank debit mandate's token.
func parseDebitMandateToken(tok string) (string, bool) {
	rest, ok := strings.CutPrefix(tok, "sim_bd_")
	if !ok {
		return "", false
	}
	last4, attempt, ok := strings.Cut(rest, "_")
	return last4, ok && last4 != "" && attempt != ""
}

// instructedTransfers are the bank_transfer variants that wait for the
// money with Instructions; the others redirect.
var instructedTransfers = map[string]bool{
	"ach_bank_transfer": true, "sepa_bank_transfer": true, "bacs_bank_transfer": true, "multibanco_bank_transfer": true,
	"permata_bank_transfer": true, "bca_bank_transfer": true, "bni_va_bank_transfer": true, "bri_va_bank_transfer": true,
	"cimb_va_bank_transfer": true, "danamon_va_bank_transfer": true, "mandiri_va_bank_transfer": true,
}

// waitFor is how long a bank transfer or a voucher may be paid.
const waitFor = 7 * 24 * time.Hour

// authorizeOther decides a payment by any method but a card or UPI.
func (s *Simulator) authorizeOther(req *AuthorizeRequest, st *state) {
	pm := req.PaymentMethod
	switch pm.Type {
	case MethodWallet:
		authorizeWallet(req, st)
	case MethodBankDebit:
		authorizeBankDebit(req, st)
	case MethodGiftCard:
		authorizeGiftCard(req, st)
	case MethodBankTransfer:
		st.Status = StatusAuthenticationPending
		if instructedTransfers[pm.Variant] {
			st.Instructions = s.transferInstructions(req)
		}
	case MethodVoucher:
		st.Status = StatusAuthenticationPending
		st.Instructions = &Instructions{Kind: InstructionsVoucher, Reference: reference(req.AttemptID),
			ExpiresAt: s.now().Add(waitFor).UTC().Truncate(time.Second)}
	case MethodPayLater, MethodBankRedirect, MethodCrypto, MethodReward, MethodCardRedirect,
		MethodRealTimePayment, MethodOpenBanking, MethodMobilePayment:
		st.Status = StatusAuthenticationPending
	default:
		st.fail(newDecline(CodeNotSupported,
			"Payment method \""+string(pm.Type)+"\" is not supported by the sandbox (payment_method_not_supported)."))
	}
}

// authorizeWallet charges a token wallet as the card behind the token; any
// other wallet redirects.
func authorizeWallet(req *AuthorizeRequest, st *state) {
	pm := req.PaymentMethod
	if !tokenWallets[pm.Variant] {
		st.Status = StatusAuthenticationPending
		return
	}
	if d, ok := walletDeclines[pm.WalletLast4]; ok {
		st.fail(declineFor(d))
		return
	}
	st.succeed(req.AttemptID)
}

// authorizeBankDebit debits the account given, or the one a mandate's
// token names.
func authorizeBankDebit(req *AuthorizeRequest, st *state) {
	pm := req.PaymentMethod
	if pm.ConnectorMandateID != "" {
		last4, ok := parseDebitMandateToken(pm.ConnectorMandateID)
		if !ok {
			st.fail(newDecline(CodeInvalidMandate, "No such bank debit mandate (resource_missing)."))
			return
		}
		st.AccountLast4 = last4
		st.succeed(req.AttemptID)
		return
	}
	account := strings.ToUpper(strings.Map(dropSpace, string(pm.BankAccount)))
	if account == "" {
		st.fail(newDecline(CodeInvalidBankData, "The bank account is missing (invalid_bank_account)."))
		return
	}
	if d, ok := bankDebitAccounts[account]; ok {
		st.fail(declineFor(d))
		return
	}
	st.AccountLast4 = account[max(0, len(account)-4):]
	st.SetupFutureUsage = req.SetupFutureUsage
	st.succeed(req.AttemptID)
}

// authorizeGiftCard charges a gift card at once, pay_safe_card by redirect.
func authorizeGiftCard(req *AuthorizeRequest, st *state) {
	pm := req.PaymentMethod
	if pm.Variant == "pay_safe_card" {
		st.Status = StatusAuthenticationPending
		return
	}
	number := strings.Map(dropSpace, string(pm.GiftCard.number()))
	if number == "" {
		st.fail(newDecline(CodeInvalidGiftCard, "The gift card number is missing (invalid_gift_card)."))
		return
	}
	if strings.HasSuffix(number, "0002") {
		st.fail(declineFor("gift_card_balance"))
		return
	}
	st.succeed(req.AttemptID)
}

// authorizeUPI decides a UPI payment: collect by its VPA, intent and QR
// in the customer's app.
func authorizeUPI(req *AuthorizeRequest, st *state) {
	pm := req.PaymentMethod
	vpa := strings.ToLower(strings.TrimSpace(pm.VPA))
	if vpa == "" && pm.Subtype != "" && pm.Subtype != "upi_collect" {
		// UPI intent or QR: the customer approves in their app.
		st.Status = StatusAuthenticationPending
		return
	}
	switch vpa {
	case "success@upi":
		st.Status = StatusAuthenticationPending
	case "failure@upi":
		st.fail(declineFor("upi_failure"))
	default:
		st.fail(declineFor("invalid_upi_id"))
	}
}

func (g *GiftCard) number() Secret {
	if g == nil {
		return ""
	}
	return g.Number
}

func dropSpace(r rune) rune {
	if unicode.IsSpace(r) || r == '-' {
		return -1
	}
	return r
}

// reference is the payment's reference for the receiving bank or the
// till: derived from the attempt, so a retry of the call gives the same.
func reference(attemptID string) string {
	ref := strings.ToUpper(strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return -1
	}, attemptID))
	if len(ref) > 12 {
		ref = ref[len(ref)-12:]
	}
	return "SY" + ref
}

// The sandbox's receiving bank: where a bank transfer is to be sent.
const (
	sandboxBankName   = "Switchyard Sandbox Bank"
	sandboxBankHolder = "Switchyard Sandbox Payments"
)

// transferInstructions are the bank details of a bank transfer, in
// Hyperswitch's BankTransferInstructions shape for the variant.
func (s *Simulator) transferInstructions(req *AuthorizeRequest) *Instructions {
	ref := reference(req.AttemptID)
	in := &Instructions{Kind: InstructionsBankTransfer, Reference: ref,
		ExpiresAt: s.now().Add(waitFor).UTC().Truncate(time.Second)}
	switch req.PaymentMethod.Variant {
	case "ach_bank_transfer":
		in.BankTransfer = map[string]any{"ach_credit_transfer": map[string]any{
			"account_number": "000" + digitsOf(ref, 9), "bank_name": sandboxBankName,
			"routing_number": "110000000", "swift_code": "SYSBUS33XXX"}}
	case "sepa_bank_transfer":
		country := req.PaymentMethod.Country
		if country == "" {
			country = "DE"
		}
		in.BankTransfer = map[string]any{"sepa_bank_instructions": map[string]any{
			"account_holder_name": sandboxBankHolder, "bic": "SYSBDEFFXXX", "country": country,
			"iban": "DE02120300000000202051", "reference": ref}}
	case "bacs_bank_transfer":
		in.BankTransfer = map[string]any{"bacs_bank_instructions": map[string]any{
			"account_holder_name": sandboxBankHolder, "account_number": digitsOf(ref, 8), "sort_code": "108800"}}
	case "multibanco_bank_transfer":
		in.BankTransfer = map[string]any{"multibanco": map[string]any{"entity": "12345", "reference": digitsOf(ref, 9)}}
	default: // the Indonesian virtual accounts
		in.BankTransfer = map[string]any{"doku_bank_transfer_instructions": map[string]any{
			"expires_at": strconv.FormatInt(in.ExpiresAt.UnixMilli(), 10), "reference": digitsOf(ref, 16),
			"instructions_url": "https://sandbox.switchyard.invalid/bank-transfer/" + ref}}
	}
	return in
}

// digitsOf is n digits derived from ref, deterministic.
func digitsOf(ref string, n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		c := ref[i%len(ref)]
		b.WriteByte('0' + (c+byte(i))%10)
	}
	return b.String()
}
