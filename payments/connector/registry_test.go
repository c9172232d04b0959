package connector

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestNames(t *testing.T) {
	got := Names()
	if !slices.IsSorted(got) {
		t.Error("Names not sorted")
	}
	// Every line of the embedded list is one name, none twice.
	if lines := strings.Fields(connectorNamesFile); len(lines) != len(got) {
		t.Errorf("connector_names.txt has %d names, Names %d", len(lines), len(got))
	}
	if len(got) != 148 {
		t.Errorf("%d names", len(got))
	}
	got[0] = "mutated"
	if Names()[0] == "mutated" {
		t.Error("Names shares its slice")
	}
}

func TestKnown(t *testing.T) {
	for _, n := range []string{"stripe_test", "phonypay", "fauxpay", "pretendpay", "adyen_test", "checkout_test", "paypal_test", "stripe_billing_test", "stripe", "adyen", "zsl"} {
		if !Known(n) {
			t.Errorf("Known(%q) = false", n)
		}
	}
	for _, n := range []string{"", "Stripe", "stripe ", "nope", "dummy"} {
		if Known(n) {
			t.Errorf("Known(%q) = true", n)
		}
	}
}

func TestFor(t *testing.T) {
	for _, n := range Names() {
		c, err := For(n)
		if err != nil {
			t.Fatalf("For(%q): %v", n, err)
		}
		if _, ok := c.(*Simulator); !ok {
			t.Fatalf("For(%q) = %T", n, c)
		}
	}
	_, err := For("nope")
	if !errors.Is(err, ErrUnknownConnector) {
		t.Fatalf("For(nope) = %v", err)
	}
	var ue *UnknownConnectorError
	if !errors.As(err, &ue) || ue.Name != "nope" || !strings.Contains(err.Error(), "nope") {
		t.Errorf("error %v", err)
	}

	sim := newSim()
	r := NewRegistry(sim)
	if c, _ := r.For("adyen"); c != Connector(sim) {
		t.Error("registry does not serve its sandbox connector")
	}
	if _, err := r.For("Adyen"); !errors.Is(err, ErrUnknownConnector) {
		t.Errorf("case-sensitive: %v", err)
	}
}

// The sandbox card table (docs/sandbox.md) wins over Hyperswitch's dummy
// connector: 4000000000009995 is declined on stripe_test too, and the name
// changes nothing.
func TestNameIgnored(t *testing.T) {
	for _, n := range []string{"stripe_test", "phonypay", "adyen", "paypal_test"} {
		c, _ := For(n)
		req := cardReq("4000000000009995", CaptureAutomatic)
		req.ConnectorName = n
		r, err := c.Authorize(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		wantDecline(t, r, "card_declined", "insufficient_funds")
	}
}
