package connector

import (
	"slices"
	"strings"
	"testing"

	"switchyard/ent"
)

// TestCardFieldsTable: every connector of the table is a known connector
// name, every field it asks for is a billing field, and a card's fields come
// in the checkout's order with the account's own added once.
func TestCardFieldsTable(t *testing.T) {
	for name, paths := range cardFields {
		if !Known(name) {
			t.Errorf("cardFields names %q, not a connector", name)
		}
		for _, p := range paths {
			if _, _, ok := FieldOf(p, "card"); !ok || !strings.HasPrefix(p, "payment_method_data.billing.") {
				t.Errorf("cardFields[%s] asks for %q, not a billing field", name, p)
			}
		}
	}
	mca := &ent.MerchantConnectorAccount{ConnectorName: "cybersource", Metadata: map[string]any{
		"sandbox": map[string]any{"required_fields": []any{FieldPhone, FieldEmail}}}}
	want := []string{FieldFirstName, FieldLastName, FieldEmail, FieldLine1, FieldCity, FieldState, FieldZip, FieldCountry, FieldPhone}
	if got := RequiredFields(mca, "card"); !slices.Equal(got, want) {
		t.Fatalf("cybersource card fields with the account's: %v, want %v", got, want)
	}
	if got := RequiredFields(mca, "wallet"); !slices.Equal(got, []string{FieldEmail, FieldPhone}) {
		t.Fatalf("wallet fields: only the account's: %v", got)
	}
	if got := cardFields["cybersource"]; got[0] != FieldFirstName || len(got) != 8 {
		t.Fatalf("the table was changed by a lookup: %v", got)
	}
	if f, _, _ := FieldOf(FieldFirstName, "card"); f.Render != "CardHolderName" || f.DisplayName != "card_holder_name" {
		t.Fatalf("a card's billing name is its holder's: %+v", f)
	}
	if f, _, _ := FieldOf(FieldFirstName, "wallet"); f.Render != "FirstName" {
		t.Fatalf("another method's billing name is a first name: %+v", f)
	}
}
