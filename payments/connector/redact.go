package connector

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"sort"
	"strings"
)

// lastFour is the last four characters of a card or account number (an
// IBAN's are not all digits), separators dropped, or "" when it is too short
// to show any.
func lastFour(number string) string {
	n := strings.NewReplacer(" ", "", "-", "").Replace(number)
	if len(n) < 8 {
		return ""
	}
	return n[len(n)-4:]
}

func (c Card) redacted() string {
	cvc := ""
	if c.CVC != "" {
		cvc = "[redacted]"
	}
	return fmt.Sprintf("Card{Last4:%s ExpMonth:%s ExpYear:%s CVC:%s HolderName:%s}",
		lastFour(c.Number), c.ExpMonth, c.ExpYear, cvc, c.HolderName)
}

// Format prints the card without its number (last four digits only) and
// without its CVC, for every verb.
func (c Card) Format(f fmt.State, _ rune) { _, _ = fmt.Fprint(f, c.redacted()) }

// LogValue keeps the PAN and CVC out of log/slog output.
func (c Card) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("last4", lastFour(c.Number)),
		slog.String("exp_month", c.ExpMonth),
		slog.String("exp_year", c.ExpYear),
		slog.String("holder_name", c.HolderName),
	)
}

// MarshalJSON keeps the PAN and CVC out of JSON: only the last four digits,
// the expiry and the holder name are written.
func (c Card) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Last4      string `json:"last4"`
		ExpMonth   string `json:"exp_month"`
		ExpYear    string `json:"exp_year"`
		HolderName string `json:"holder_name,omitempty"`
	}{lastFour(c.Number), c.ExpMonth, c.ExpYear, c.HolderName})
}

// Credentials are a connector account's decrypted connector_account_details
// (api_key, key1, …). Printing, logging or marshalling them shows the keys
// only, never the values.
type Credentials map[string]any

func (c Credentials) keys() []string {
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Format prints the credential names with redacted values.
func (c Credentials) Format(f fmt.State, _ rune) {
	parts := make([]string, 0, len(c))
	for _, k := range c.keys() {
		parts = append(parts, k+":[redacted]")
	}
	_, _ = fmt.Fprint(f, "Credentials{"+strings.Join(parts, " ")+"}")
}

// LogValue logs the credential names with redacted values.
func (c Credentials) LogValue() slog.Value {
	attrs := make([]slog.Attr, 0, len(c))
	for _, k := range c.keys() {
		attrs = append(attrs, slog.String(k, "[redacted]"))
	}
	return slog.GroupValue(attrs...)
}

// MarshalJSON writes the credential names with redacted values.
func (c Credentials) MarshalJSON() ([]byte, error) {
	m := make(map[string]string, len(c))
	for k := range c {
		m[k] = "[redacted]"
	}
	return json.Marshal(m)
}

// Secret is an account number, IBAN or gift card number on its way to a
// connector. Printing, logging or marshalling it shows its last four
// characters at most.
type Secret string

func (s Secret) redacted() string {
	if l4 := lastFour(string(s)); l4 != "" {
		return "…" + l4
	}
	if s == "" {
		return ""
	}
	return "[redacted]"
}

// Format prints the last four characters only, for every verb.
func (s Secret) Format(f fmt.State, _ rune) { _, _ = fmt.Fprint(f, s.redacted()) }

// LogValue keeps the value out of log/slog output.
func (s Secret) LogValue() slog.Value { return slog.StringValue(s.redacted()) }

// MarshalJSON writes the last four characters only.
func (s Secret) MarshalJSON() ([]byte, error) { return json.Marshal(s.redacted()) }

// GiftCard is a gift card's number and PIN (or CVC). It redacts itself as
// Card does: the last four digits, never the PIN.
type GiftCard struct {
	Number Secret
	PIN    Secret
}

// Format prints the card without its number (last four digits only) and
// without its PIN, for every verb.
func (g GiftCard) Format(f fmt.State, _ rune) {
	_, _ = fmt.Fprintf(f, "GiftCard{Number:%s}", g.Number.redacted())
}

// LogValue keeps the number and the PIN out of log/slog output.
func (g GiftCard) LogValue() slog.Value {
	return slog.GroupValue(slog.String("number", g.Number.redacted()))
}

// MarshalJSON writes the last four digits only.
func (g GiftCard) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Number string `json:"number"`
	}{g.Number.redacted()})
}
