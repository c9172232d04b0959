package payments

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"switchyard/ent"
	"switchyard/ent/paymentintent"
	"switchyard/ent/schema/schematype"
)

func TestLinkPageOf(t *testing.T) {
	created := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	expiry := created.Add(900 * time.Second)
	before, at, after := expiry.Add(-time.Second), expiry, expiry.Add(time.Second)
	for _, tc := range []struct {
		status paymentintent.Status
		now    time.Time
		want   LinkPageKind
	}{
		{paymentintent.StatusRequiresPaymentMethod, before, LinkPageCheckout},
		{paymentintent.StatusRequiresPaymentMethod, at, LinkPageCheckout}, // expired only once past it
		{paymentintent.StatusRequiresPaymentMethod, after, LinkPageExpired},
		{paymentintent.StatusRequiresConfirmation, after, LinkPageExpired},
		{paymentintent.StatusRequiresCustomerAction, before, LinkPageCheckout},
		{paymentintent.StatusSucceeded, before, LinkPagePaid},
		{paymentintent.StatusSucceeded, after, LinkPagePaid}, // a paid link shows its receipt, expired or not
		{paymentintent.StatusRequiresCapture, after, LinkPagePaid},
		{paymentintent.StatusPartiallyCaptured, before, LinkPagePaid},
		{paymentintent.StatusFailed, before, LinkPageFailed},
		{paymentintent.StatusFailed, after, LinkPageFailed},
		{paymentintent.StatusCancelled, before, LinkPageCancelled},
		{paymentintent.StatusProcessing, before, LinkPageProcessing},
		{paymentintent.StatusRequiresMerchantAction, after, LinkPageProcessing},
		{paymentintent.StatusExpired, before, LinkPageExpired},
	} {
		if got := linkPageOf(tc.status, expiry, tc.now); got != tc.want {
			t.Errorf("%s at expiry%+v: %s, want %s", tc.status, tc.now.Sub(expiry), got, tc.want)
		}
	}
	if linkStatus(expiry, at) != LinkActive || linkStatus(expiry, after) != LinkExpired {
		t.Error("a link is active up to its expiry and expired after it")
	}
}

func TestResolveLinkConfig(t *testing.T) {
	profile := &schematype.BusinessPaymentLinkConfig{
		PaymentLinkConfig: schematype.PaymentLinkConfig{Theme: ptr("#111111"), Logo: ptr("https://cdn.example/logo.png"),
			SDKLayout: ptr("accordion"), DisplaySDKOnly: ptr(true),
			TransactionDetails: []schematype.PaymentLinkTransactionDetail{{Key: "Policy", Value: "P-1"}}},
		BusinessSpecificConfigs: map[string]schematype.PaymentLinkConfig{
			"summer": {Theme: ptr("#ffaa00"), SellerName: ptr("Summer shop")},
		},
	}
	for _, tc := range []struct {
		name     string
		payment  *schematype.PaymentLinkConfig
		profile  *schematype.BusinessPaymentLinkConfig
		configID *string
		check    func(c schematype.PaymentLinkConfig) bool
	}{
		{"defaults", nil, nil, nil, func(c schematype.PaymentLinkConfig) bool {
			return *c.Theme == defaultLinkTheme && c.Logo == nil && *c.SellerName == "Acme" && *c.SDKLayout == "tabs" &&
				!*c.DisplaySDKOnly && !*c.EnabledSavedPaymentMethod && *c.ShowMerchantName && c.TransactionDetails == nil
		}},
		{"the profile's defaults", nil, profile, nil, func(c schematype.PaymentLinkConfig) bool {
			return *c.Theme == "#111111" && *c.Logo == "https://cdn.example/logo.png" && *c.SellerName == "Acme" &&
				*c.SDKLayout == "accordion" && *c.DisplaySDKOnly && len(c.TransactionDetails) == 1
		}},
		{"the payment's members over the profile's", &schematype.PaymentLinkConfig{Theme: ptr("#222222"),
			DisplaySDKOnly: ptr(false), TransactionDetails: []schematype.PaymentLinkTransactionDetail{{Key: "Order", Value: "7"}, {Key: "Ref", Value: "x"}}},
			profile, nil, func(c schematype.PaymentLinkConfig) bool {
				return *c.Theme == "#222222" && *c.Logo == "https://cdn.example/logo.png" && !*c.DisplaySDKOnly &&
					len(c.TransactionDetails) == 2 && *c.SDKLayout == "accordion"
			}},
		{"a named business config replaces the profile's defaults", nil, profile, ptr("summer"), func(c schematype.PaymentLinkConfig) bool {
			return *c.Theme == "#ffaa00" && *c.SellerName == "Summer shop" && c.Logo == nil && *c.SDKLayout == "tabs"
		}},
		{"an unknown name keeps the profile's defaults", nil, profile, ptr("winter"), func(c schematype.PaymentLinkConfig) bool {
			return *c.Theme == "#111111"
		}},
		{"the payment over a named config", &schematype.PaymentLinkConfig{SellerName: ptr("Mine")}, profile, ptr("summer"),
			func(c schematype.PaymentLinkConfig) bool { return *c.SellerName == "Mine" && *c.Theme == "#ffaa00" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if c := ResolveLinkConfig(tc.payment, tc.profile, tc.configID, "Acme"); !tc.check(c) {
				t.Errorf("resolved to %+v", c)
			}
		})
	}
}

func TestNewPaymentLink(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name       string
		profile    map[string]any
		payment    map[string]any
		wantLink   string
		wantSecure string
		wantErr    string
	}{
		{name: "open link only", wantLink: "http://127.0.0.1:8080/payment_link/merchant_1/pay_1?locale=en"},
		{name: "secure link with allowed domains", profile: map[string]any{"allowed_domains": []any{"shop.example", "*.shop.example"}},
			wantLink:   "http://127.0.0.1:8080/payment_link/merchant_1/pay_1?locale=en",
			wantSecure: "http://127.0.0.1:8080/payment_link/s/merchant_1/pay_1?locale=en"},
		{name: "the profile's domain", profile: map[string]any{"domain_name": "pay.shop.example"},
			wantLink: "https://pay.shop.example/payment_link/merchant_1/pay_1?locale=en"},
		{name: "a wrong type", payment: map[string]any{"theme": 5}, wantErr: "payment_link_config"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := &PaymentInput{PaymentLink: true, PaymentFields: PaymentFields{PaymentLinkConfig: tc.payment}}
			link, err := newPaymentLink(in, &ent.Profile{PaymentLinkConfig: tc.profile}, "Acme", "http://127.0.0.1:8080", "merchant_1", "pay_1", now)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want one naming %s", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if link.Link != tc.wantLink || deref(link.SecureLink) != tc.wantSecure || !strings.HasPrefix(link.ID, "plink_") ||
				!link.CreatedAt.Equal(now) {
				t.Errorf("link %+v", link)
			}
			if tc.wantSecure != "" && !reflect.DeepEqual(link.AllowedDomains, []string{"shop.example", "*.shop.example"}) {
				t.Errorf("allowed domains %q", link.AllowedDomains)
			}
		})
	}
}

func TestPaymentLinkCannotBeConfirmedAtCreate(t *testing.T) {
	in := PaymentInput{PaymentLink: true, Confirm: true}
	if err := in.checkPaymentLinkCreate(); err == nil {
		t.Error("a link created with confirm: true was accepted")
	}
	in.Confirm = false
	if err := in.checkPaymentLinkCreate(); err != nil {
		t.Error(err)
	}
}

func TestCheckSecureLinkEmbed(t *testing.T) {
	allowed := []string{"shop.example", "*.shop.example", "localhost:5000"}
	for _, tc := range []struct {
		req  SecureLinkRequest
		want bool
	}{
		{SecureLinkRequest{Dest: "iframe", Referer: "https://shop.example/checkout?x=1"}, true},
		{SecureLinkRequest{Dest: "iframe", Origin: "https://a.shop.example"}, true},
		{SecureLinkRequest{Dest: "iframe", Origin: "https://a.b.shop.example"}, true}, // a glob's * spans dots
		{SecureLinkRequest{Dest: "iframe", Referer: "http://localhost:5000/pay"}, true},
		{SecureLinkRequest{Dest: "iframe", Referer: "http://localhost:5001/pay"}, false},
		{SecureLinkRequest{Dest: "iframe", Referer: "http://localhost/pay"}, false},
		{SecureLinkRequest{Dest: "iframe", Origin: "https://evil.example", Referer: "https://shop.example/"}, false}, // the Origin wins
		{SecureLinkRequest{Dest: "iframe", Referer: "https://shop.example.evil.example/"}, false},
		{SecureLinkRequest{Dest: "document", Referer: "https://shop.example/"}, false},
		{SecureLinkRequest{Dest: "iframe"}, false},
		{SecureLinkRequest{Dest: "iframe", Referer: "not a url"}, false},
	} {
		if got := checkSecureLinkEmbed(allowed, tc.req) == nil; got != tc.want {
			t.Errorf("%+v: allowed %v, want %v", tc.req, got, tc.want)
		}
	}
}
