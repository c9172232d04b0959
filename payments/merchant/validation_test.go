package merchant

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"switchyard/ent/schema/schematype"
	"switchyard/payments/errs"
)

func ptr[T any](v T) *T { return &v }

// refusedAs says how err answers a case that wants field refused, saying
// words ("" for a case that wants no refusal): "" when it does as wanted.
func refusedAs(err error, field, words string) string {
	e, ok := errs.As(err)
	switch {
	case field == "" && err == nil:
		return ""
	case field == "":
		return "refused: " + err.Error()
	case !ok || !memberRefused(err) || e.Field != field || !strings.Contains(err.Error(), words):
		return fmt.Sprintf("%v; want %s refused, saying %q", err, field, words)
	}
	return ""
}

// memberRefused reports whether err refuses a member of the request: one
// left out, or a value refused.
func memberRefused(err error) bool {
	return errors.Is(err, errs.ErrMissingField) || errors.Is(err, errs.ErrInvalidValue)
}

// fieldCases are the members a merchant's create and update share, each
// valid at its limit and refused one over, or refused for its form.
var fieldCases = []struct {
	name         string
	f            MerchantAccountFields
	field, words string
}{
	{"nothing", MerchantAccountFields{}, "", ""},
	{"name of 255", MerchantAccountFields{MerchantName: ptr(strings.Repeat("n", 255))}, "", ""},
	{"name of 256", MerchantAccountFields{MerchantName: ptr(strings.Repeat("n", 256))}, "merchant_name", "1 to 255"},
	{"empty name", MerchantAccountFields{MerchantName: ptr("")}, "merchant_name", "1 to 255"},
	{"return url", MerchantAccountFields{ReturnURL: ptr("https://shop.example/done")}, "", ""},
	{"relative return url", MerchantAccountFields{ReturnURL: ptr("/done")}, "return_url", "absolute http or https URL"},
	{"ftp return url", MerchantAccountFields{ReturnURL: ptr("ftp://shop.example/")}, "return_url", "absolute"},
	{"long return url", MerchantAccountFields{ReturnURL: ptr("https://shop.example/" + strings.Repeat("p", 235))}, "return_url", "at most 255"},
	{"webhook url", MerchantAccountFields{WebhookDetails: &schematype.WebhookDetails{HyperswitchWebhookDetails: schematype.HyperswitchWebhookDetails{WebhookURL: ptr("https://hooks.example/")}}}, "", ""},
	{"bad webhook url", MerchantAccountFields{WebhookDetails: &schematype.WebhookDetails{HyperswitchWebhookDetails: schematype.HyperswitchWebhookDetails{WebhookURL: ptr("hooks")}}},
		"webhook_details.webhook_url", "absolute"},
	{"long webhook username", MerchantAccountFields{WebhookDetails: &schematype.WebhookDetails{HyperswitchWebhookDetails: schematype.HyperswitchWebhookDetails{WebhookUsername: ptr(strings.Repeat("u", 256))}}},
		"webhook_details.webhook_username", "at most 255"},
	{"webhook statuses", MerchantAccountFields{WebhookDetails: &schematype.WebhookDetails{
		HyperswitchWebhookDetails: schematype.HyperswitchWebhookDetails{PaymentStatusesEnabled: []string{"succeeded", "failed"},
			RefundStatusesEnabled: []string{"review"}, PayoutStatusesEnabled: []string{"reversed"}},
		EnabledEventTypes: []string{"payment_succeeded"}}}, "", ""},
	{"unknown payment status", MerchantAccountFields{WebhookDetails: &schematype.WebhookDetails{HyperswitchWebhookDetails: schematype.HyperswitchWebhookDetails{PaymentStatusesEnabled: []string{"succeeded", "paid"}}}},
		"webhook_details.payment_statuses_enabled[1]", `"paid" is not one of`},
	{"unknown refund status", MerchantAccountFields{WebhookDetails: &schematype.WebhookDetails{HyperswitchWebhookDetails: schematype.HyperswitchWebhookDetails{RefundStatusesEnabled: []string{"done"}}}},
		"webhook_details.refund_statuses_enabled[0]", `"done"`},
	{"unknown payout status", MerchantAccountFields{WebhookDetails: &schematype.WebhookDetails{HyperswitchWebhookDetails: schematype.HyperswitchWebhookDetails{PayoutStatusesEnabled: []string{"succeeded"}}}},
		"webhook_details.payout_statuses_enabled[0]", `"succeeded"`},
	{"unknown event type", MerchantAccountFields{WebhookDetails: &schematype.WebhookDetails{EnabledEventTypes: []string{"payment_paid"}}},
		"webhook_details.enabled_event_types[0]", `"payment_paid"`},
	{"hash key of 255", MerchantAccountFields{PaymentResponseHashKey: ptr(strings.Repeat("k", 255))}, "", ""},
	{"hash key of 256", MerchantAccountFields{PaymentResponseHashKey: ptr(strings.Repeat("k", 256))}, "payment_response_hash_key", "1 to 255"},
	{"empty hash key", MerchantAccountFields{PaymentResponseHashKey: ptr("")}, "payment_response_hash_key", "1 to 255"},
	{"locker id", MerchantAccountFields{LockerID: ptr("locker_1")}, "", ""},
	{"locker id with a space", MerchantAccountFields{LockerID: ptr("locker 1")}, "locker_id", "1 to 64"},
	{"details", MerchantAccountFields{MerchantDetails: &MerchantDetails{PrimaryEmail: ptr("ops@shop.example"),
		Website: ptr(strings.Repeat("w", 255)), Address: &schematype.Address{Country: ptr("DE")}}}, "", ""},
	{"long website", MerchantAccountFields{MerchantDetails: &MerchantDetails{Website: ptr(strings.Repeat("w", 256))}},
		"merchant_details.website", "at most 255"},
	{"bad primary e-mail", MerchantAccountFields{MerchantDetails: &MerchantDetails{PrimaryEmail: ptr("ops")}},
		"merchant_details.primary_email", "email address"},
	{"bad secondary e-mail", MerchantAccountFields{MerchantDetails: &MerchantDetails{SecondaryEmail: ptr("ops@")}},
		"merchant_details.secondary_email", "email address"},
	{"bad address country", MerchantAccountFields{MerchantDetails: &MerchantDetails{Address: &schematype.Address{Country: ptr("XX")}}},
		"merchant_details.address.country", `"XX"`},
	{"business units", MerchantAccountFields{PrimaryBusinessDetails: []PrimaryBusinessDetails{{"US", "food"}, {"US", "toys"}, {"GB", "food"}}}, "", ""},
	{"business unit without country", MerchantAccountFields{PrimaryBusinessDetails: []PrimaryBusinessDetails{{"US", "food"}, {"", "toys"}}},
		"primary_business_details[1].country", "Missing"},
	{"business unit in no country", MerchantAccountFields{PrimaryBusinessDetails: []PrimaryBusinessDetails{{"USA", "food"}}},
		"primary_business_details[0].country", `"USA"`},
	{"business unit without label", MerchantAccountFields{PrimaryBusinessDetails: []PrimaryBusinessDetails{{"US", ""}}},
		"primary_business_details[0].business", "Missing"},
	{"business label of 64", MerchantAccountFields{PrimaryBusinessDetails: []PrimaryBusinessDetails{{"US", strings.Repeat("b", 64)}}}, "", ""},
	{"business label of 65", MerchantAccountFields{PrimaryBusinessDetails: []PrimaryBusinessDetails{{"US", strings.Repeat("b", 65)}}},
		"primary_business_details[0].business", "at most 64"},
	{"business unit twice", MerchantAccountFields{PrimaryBusinessDetails: []PrimaryBusinessDetails{{"US", "food"}, {"US", "food"}}},
		"primary_business_details[1]", "repeats country US"},
}

// TestMerchantAccountFields: a create and an update check the members
// they share alike.
func TestMerchantAccountFields(t *testing.T) {
	for _, tc := range fieldCases {
		t.Run(tc.name, func(t *testing.T) {
			for call, err := range map[string]error{
				"create": checkMerchantAccountInput(MerchantAccountInput{MerchantID: "m_1", MerchantAccountFields: tc.f}),
				"update": (&MerchantAccountPatch{MerchantID: "m_1", MerchantAccountFields: tc.f}).validate("m_1"),
			} {
				if msg := refusedAs(err, tc.field, tc.words); msg != "" {
					t.Errorf("%s: %s", call, msg)
				}
			}
		})
	}
}

// TestMerchantAccountRefusals: what a create and an update refuse of
// their own members, before anything is read.
func TestMerchantAccountRefusals(t *testing.T) {
	create := checkMerchantAccountInput
	update := func(p MerchantAccountPatch) error { return p.validate("m_1") }
	for _, tc := range []struct {
		name         string
		err          error
		field, words string
	}{
		{"create: no id", create(MerchantAccountInput{}), "merchant_id", "Missing"},
		{"create: id of 64", create(MerchantAccountInput{MerchantID: strings.Repeat("m", 64)}), "", ""},
		{"create: id of 65", create(MerchantAccountInput{MerchantID: strings.Repeat("m", 65)}), "merchant_id", "1 to 64"},
		{"create: id with a dot", create(MerchantAccountInput{MerchantID: "m.1"}), "merchant_id", "1 to 64"},
		{"create: the list route's id", create(MerchantAccountInput{MerchantID: "list"}), "merchant_id", `"list" is reserved`},
		{"create: organization", create(MerchantAccountInput{MerchantID: "m_1", OrganizationID: ptr("org_1")}), "", ""},
		{"create: bad organization", create(MerchantAccountInput{MerchantID: "m_1", OrganizationID: ptr("")}), "organization_id", "1 to 64"},
		{"create: time zone", create(MerchantAccountInput{MerchantID: "m_1", TimeZone: ptr("Europe/Amsterdam")}), "", ""},
		{"create: unknown time zone", create(MerchantAccountInput{MerchantID: "m_1", TimeZone: ptr("Mars/Olympus")}), "time_zone", ""},
		{"create: standard", create(MerchantAccountInput{MerchantID: "m_1", MerchantAccountType: ptr("standard")}), "", ""},
		{"create: platform", create(MerchantAccountInput{MerchantID: "m_1", MerchantAccountType: ptr("platform")}),
			"merchant_account_type", `"platform" accounts are not supported`},
		{"create: connected", create(MerchantAccountInput{MerchantID: "m_1", MerchantAccountType: ptr("connected")}),
			"merchant_account_type", `"connected" accounts are not supported`},
		{"create: unknown type", create(MerchantAccountInput{MerchantID: "m_1", MerchantAccountType: ptr("premium")}),
			"merchant_account_type", "must be one of standard, platform, connected"},
		{"update: no merchant id", update(MerchantAccountPatch{}), "merchant_id", "Missing"},
		{"update: another merchant", update(MerchantAccountPatch{MerchantID: "m_2"}), "merchant_id", "must be the merchant in the path (m_1)"},
		{"update: default profile", update(MerchantAccountPatch{MerchantID: "m_1", DefaultProfile: ptr("pro_1")}), "", ""},
		{"update: empty default profile", update(MerchantAccountPatch{MerchantID: "m_1", DefaultProfile: ptr("")}), "default_profile", "id of a profile"},
		{"update: another merchant before its fields", update(MerchantAccountPatch{MerchantID: "m_2",
			MerchantAccountFields: MerchantAccountFields{MerchantName: ptr("")}}), "merchant_id", "must be the merchant"},
		{"update: fields before the default profile", update(MerchantAccountPatch{MerchantID: "m_1", DefaultProfile: ptr(""),
			MerchantAccountFields: MerchantAccountFields{MerchantName: ptr("")}}), "merchant_name", "1 to 255"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if msg := refusedAs(tc.err, tc.field, tc.words); msg != "" {
				t.Error(msg)
			}
		})
	}
}

// TestMerchantAccountPatchCascade: the members Hyperswitch copies to every
// profile, and only those, make an update change the profiles.
func TestMerchantAccountPatchCascade(t *testing.T) {
	url, yes, key := ptr("https://shop.example/"), ptr(true), ptr("k")
	wh := &schematype.WebhookDetails{HyperswitchWebhookDetails: schematype.HyperswitchWebhookDetails{WebhookURL: url}}
	for _, tc := range []struct {
		name string
		f    MerchantAccountFields
		want *ProfileInput
	}{
		{"nothing", MerchantAccountFields{}, nil},
		{"merchant's own members", MerchantAccountFields{MerchantName: ptr("n"), LockerID: ptr("l"),
			Metadata: map[string]any{"a": 1}, MerchantDetails: &MerchantDetails{}}, nil},
		{"return url", MerchantAccountFields{ReturnURL: url}, &ProfileInput{ReturnURL: url}},
		{"webhook details", MerchantAccountFields{WebhookDetails: wh}, &ProfileInput{WebhookDetails: wh}},
		{"response hash", MerchantAccountFields{EnablePaymentResponseHash: yes}, &ProfileInput{EnablePaymentResponseHash: yes}},
		{"hash key", MerchantAccountFields{PaymentResponseHashKey: key}, &ProfileInput{PaymentResponseHashKey: key}},
		{"redirect with POST", MerchantAccountFields{RedirectToMerchantWithHTTPPost: yes}, &ProfileInput{RedirectToMerchantWithHTTPPost: yes}},
		{"all of them and a name", MerchantAccountFields{MerchantName: ptr("n"), ReturnURL: url, WebhookDetails: wh,
			EnablePaymentResponseHash: yes, PaymentResponseHashKey: key, RedirectToMerchantWithHTTPPost: yes},
			&ProfileInput{ReturnURL: url, WebhookDetails: wh, EnablePaymentResponseHash: yes, PaymentResponseHashKey: key,
				RedirectToMerchantWithHTTPPost: yes}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := MerchantAccountPatch{MerchantID: "m_1", MerchantAccountFields: tc.f}
			got, ok := p.cascade()
			if ok != (tc.want != nil) || (ok && !reflect.DeepEqual(got, *tc.want)) {
				t.Errorf("cascade %+v %v, want %+v", got, ok, tc.want)
			}
		})
	}
}

// TestDefaultProfileInput: a new merchant's first profile inherits what
// its profiles share with it.
func TestDefaultProfileInput(t *testing.T) {
	in := MerchantAccountInput{MerchantID: "m_1", MerchantAccountFields: MerchantAccountFields{
		MerchantName: ptr("Shop"), ReturnURL: ptr("https://shop.example/"), EnablePaymentResponseHash: ptr(false),
		PaymentResponseHashKey: ptr("k"), RedirectToMerchantWithHTTPPost: ptr(true), Metadata: map[string]any{"a": "b"},
		WebhookDetails: &schematype.WebhookDetails{HyperswitchWebhookDetails: schematype.HyperswitchWebhookDetails{WebhookURL: ptr("https://hooks.example/")}}}}
	want := ProfileInput{ProfileName: ptr("default"), ReturnURL: in.ReturnURL, WebhookDetails: in.WebhookDetails,
		EnablePaymentResponseHash: in.EnablePaymentResponseHash, PaymentResponseHashKey: in.PaymentResponseHashKey,
		RedirectToMerchantWithHTTPPost: in.RedirectToMerchantWithHTTPPost, Metadata: in.Metadata}
	if got := in.defaultProfile(); !reflect.DeepEqual(got, want) {
		t.Errorf("%+v, want %+v", got, want)
	}
}
