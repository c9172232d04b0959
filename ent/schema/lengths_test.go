package schema

import (
	"strings"
	"testing"

	"entgo.io/ent"
	"entgo.io/ent/schema/field"

	"switchyard/ent/migrate"
)

// TestEveryStringColumnCountsCharacters: every string field of every
// schema has a size, and its validators take as many characters as the
// size, however many bytes they are, and refuse one more: the column, the
// ent validator and the API's checks (payments/validate.Column) agree on
// one number of characters. A field bounded with MaxLen (bytes) fails.
func TestEveryStringColumnCountsCharacters(t *testing.T) {
	schemas := map[string]ent.Interface{
		"MerchantConnectorAccount": MerchantConnectorAccount{}, "Customer": Customer{}, "PaymentMethod": PaymentMethod{},
		"Event": Event{}, "EventDeliveryAttempt": EventDeliveryAttempt{}, "WebhookDeliveryTask": WebhookDeliveryTask{},
		"GsmRule": GsmRule{}, "MerchantAccount": MerchantAccount{}, "Profile": Profile{}, "APIKey": APIKey{},
		"PaymentIntent": PaymentIntent{}, "PaymentAttempt": PaymentAttempt{}, "Capture": Capture{},
		"IncrementalAuthorization": IncrementalAuthorization{}, "Refund": Refund{}, "Dispute": Dispute{},
		"Mandate": Mandate{}, "RoutingAlgorithm": RoutingAlgorithm{}, "User": User{}, "Membership": Membership{},
		"Invitation": Invitation{}, "AuditEntry": AuditEntry{}, "Payout": Payout{}, "PayoutAttempt": PayoutAttempt{},
		"SubscriptionItem": SubscriptionItem{}, "ItemPrice": ItemPrice{}, "Coupon": Coupon{}, "TestClock": TestClock{},
		"BillingSubscription": BillingSubscription{}, "Invoice": Invoice{}, "Authentication": Authentication{},
		"Organization":    Organization{},
		"IncomingWebhook": IncomingWebhook{}, "Relay": Relay{},
		"BlocklistEntry": BlocklistEntry{}, "BlocklistBatchJob": BlocklistBatchJob{}, "CardIssuer": CardIssuer{},
		"ProfileAcquirer": ProfileAcquirer{},
		"File":            File{},
	}
	if len(schemas) != len(migrate.Tables) {
		t.Fatalf("%d schemas listed here, %d tables: list the new schema", len(schemas), len(migrate.Tables))
	}
	checked := 0
	for name, s := range schemas {
		var fields []ent.Field
		for _, m := range s.Mixin() {
			fields = append(fields, m.Fields()...)
		}
		for _, f := range append(fields, s.Fields()...) {
			d := f.Descriptor()
			if d.Info.Type != field.TypeString || isText(d) {
				continue
			}
			checked++
			if d.Size <= 0 {
				t.Errorf("%s.%s has no size: bound it with MaxRuneLen", name, d.Name)
				continue
			}
			full, over := strings.Repeat("😀", d.Size), strings.Repeat("😀", d.Size+1)
			refused := false
			for _, v := range d.Validators {
				check, ok := v.(func(string) error)
				if !ok {
					continue
				}
				if err := check(full); err != nil {
					t.Errorf("%s.%s refuses %d characters (%d bytes) in a column of %d: %v", name, d.Name, d.Size, len(full), d.Size, err)
				}
				refused = refused || check(over) != nil
			}
			if !refused {
				t.Errorf("%s.%s takes %d characters in a column of %d", name, d.Name, d.Size+1, d.Size)
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d string fields checked", checked)
	}
	t.Logf("%d string fields checked", checked)
}

// isText: a Text field (sized by ent itself, 2³¹−1, no validator needed).
func isText(d *field.Descriptor) bool { return d.Size >= 1<<16 }
