package merchant

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"switchyard/ent/schema"
	"switchyard/ent/schema/schematype"
	"switchyard/payments/errs"
	"switchyard/payments/validate"
)

// The validation of merchant accounts and profiles. Every rule names the
// request field it is about.

const (
	maxMerchantNameLen   = 255
	maxReturnURLLen      = 255
	maxWebhookURLLen     = 2048
	maxHashKeyLen        = 255
	maxMerchantDetailLen = 255
	maxBusinessLabelLen  = 64
)

// accountIDPattern is a merchant id, organization id or locker id.
var accountIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

func checkAccountIDValue(field, v string) error {
	if !accountIDPattern.MatchString(v) {
		return errs.InvalidValue(field, "must be 1 to 64 characters of A-Z, a-z, 0-9, _ and -")
	}
	return nil
}

func checkMerchantAccountInput(in MerchantAccountInput) error {
	if in.MerchantID == "" {
		return errs.MissingField("merchant_id")
	}
	if err := checkAccountIDValue("merchant_id", in.MerchantID); err != nil {
		return err
	}
	if in.MerchantID == "list" {
		// GET /accounts/list is the list route; a merchant of that id could
		// never be retrieved.
		return errs.InvalidValue("merchant_id", `"list" is reserved`)
	}
	if in.OrganizationID != nil {
		if err := checkAccountIDValue("organization_id", *in.OrganizationID); err != nil {
			return err
		}
	}
	if in.TimeZone != nil {
		if _, err := validate.TimeZone("time_zone", *in.TimeZone); err != nil {
			return err
		}
	}
	if in.MerchantAccountType != nil && *in.MerchantAccountType != "standard" {
		switch *in.MerchantAccountType {
		case "platform", "connected":
			return errs.InvalidValue("merchant_account_type", "%q accounts are not supported; use \"standard\"", *in.MerchantAccountType)
		}
		return errs.InvalidValue("merchant_account_type", "must be one of standard, platform, connected")
	}
	return checkMerchantFields(in.MerchantName, in.MerchantDetails, in.ReturnURL, in.WebhookDetails,
		in.PaymentResponseHashKey, in.LockerID, in.PrimaryBusinessDetails)
}

func checkMerchantFields(name *string, details *MerchantDetails, returnURL *string, wh *schematype.WebhookDetails,
	hashKey, lockerID *string, business []PrimaryBusinessDetails) error {
	if name != nil && (*name == "" || validate.Chars(*name) > maxMerchantNameLen) {
		return errs.InvalidValue("merchant_name", "must be 1 to %d characters", maxMerchantNameLen)
	}
	if err := checkMerchantDetails(details); err != nil {
		return err
	}
	if returnURL != nil {
		if err := validate.AbsoluteHTTPURL("return_url", *returnURL, maxReturnURLLen); err != nil {
			return err
		}
	}
	if err := checkWebhookDetails(wh); err != nil {
		return err
	}
	if err := checkResponseHashKey(hashKey); err != nil {
		return err
	}
	if lockerID != nil {
		if err := checkAccountIDValue("locker_id", *lockerID); err != nil {
			return err
		}
	}
	seen := map[PrimaryBusinessDetails]bool{}
	for i, b := range business {
		field := fmt.Sprintf("primary_business_details[%d]", i)
		if b.Country == "" {
			return errs.MissingField(field + ".country")
		}
		if !validate.Countries.Has(b.Country) {
			return errs.InvalidValue(field+".country", "%q is not an ISO 3166-1 alpha-2 country code", b.Country)
		}
		if b.Business == "" {
			return errs.MissingField(field + ".business")
		}
		if validate.Chars(b.Business) > maxBusinessLabelLen {
			return errs.InvalidValue(field+".business", "must be at most %d characters", maxBusinessLabelLen)
		}
		if seen[b] {
			return errs.InvalidValue(field, "repeats country %s with business %q", b.Country, b.Business)
		}
		seen[b] = true
	}
	return nil
}

func checkResponseHashKey(key *string) error {
	if key != nil && (*key == "" || validate.Chars(*key) > maxHashKeyLen) {
		return errs.InvalidValue("payment_response_hash_key", "must be 1 to %d characters", maxHashKeyLen)
	}
	return nil
}

func checkMerchantDetails(d *MerchantDetails) error {
	if d == nil {
		return nil
	}
	for _, f := range []struct {
		name string
		v    *string
	}{
		{"primary_contact_person", d.PrimaryContactPerson}, {"primary_phone", d.PrimaryPhone},
		{"secondary_contact_person", d.SecondaryContactPerson}, {"secondary_phone", d.SecondaryPhone},
		{"website", d.Website}, {"about_business", d.AboutBusiness},
		{"merchant_tax_registration_id", d.MerchantTaxRegistrationID},
	} {
		if err := validate.MaxLen("merchant_details."+f.name, f.v, maxMerchantDetailLen); err != nil {
			return err
		}
	}
	if err := validate.Email("merchant_details.primary_email", d.PrimaryEmail); err != nil {
		return err
	}
	if err := validate.Email("merchant_details.secondary_email", d.SecondaryEmail); err != nil {
		return err
	}
	return validate.PostalAddress("merchant_details.address", d.Address)
}

// Status sets webhook_details may enable: the spec's payment intent
// statuses, Hyperswitch's refund and payout statuses.
var (
	webhookIntentStatuses = accountValueSet("succeeded", "failed", "cancelled", "cancelled_post_capture", "processing",
		"requires_customer_action", "requires_merchant_action", "requires_payment_method",
		"requires_confirmation", "requires_capture", "partially_captured", "partially_captured_and_capturable",
		"partially_authorized_and_requires_capture", "partially_captured_and_processing", "conflicted", "expired")
	webhookRefundStatuses = accountValueSet("succeeded", "failed", "pending", "review")
	webhookPayoutStatuses = accountValueSet("success", "failed", "cancelled", "initiated", "expired", "reversed", "pending",
		"ineligible", "requires_creation", "requires_confirmation", "requires_payout_method_data",
		"requires_fulfillment", "requires_vendor_account_creation")
)

// webhookEventTypes are the event types webhook_details.enabled_event_types
// may name (an empty list means every type).
var webhookEventTypes = accountValueSet(schema.EventTypes...)

func accountValueSet(vs ...string) map[string]bool {
	m := make(map[string]bool, len(vs))
	for _, v := range vs {
		m[v] = true
	}
	return m
}

func checkWebhookDetails(w *schematype.WebhookDetails) error {
	if w == nil {
		return nil
	}
	if w.WebhookURL != nil {
		if err := validate.AbsoluteHTTPURL("webhook_details.webhook_url", *w.WebhookURL, maxWebhookURLLen); err != nil {
			return err
		}
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"webhook_version", w.WebhookVersion}, {"webhook_username", w.WebhookUsername}, {"webhook_password", w.WebhookPassword}} {
		if err := validate.MaxLen("webhook_details."+f.name, f.v, maxMerchantDetailLen); err != nil {
			return err
		}
	}
	for _, f := range []struct {
		name    string
		values  []string
		allowed map[string]bool
	}{
		{"payment_statuses_enabled", w.PaymentStatusesEnabled, webhookIntentStatuses},
		{"refund_statuses_enabled", w.RefundStatusesEnabled, webhookRefundStatuses},
		{"payout_statuses_enabled", w.PayoutStatusesEnabled, webhookPayoutStatuses},
		{"enabled_event_types", w.EnabledEventTypes, webhookEventTypes},
	} {
		for i, v := range f.values {
			if !f.allowed[v] {
				return errs.InvalidValue(fmt.Sprintf("webhook_details.%s[%d]", f.name, i),
					"%q is not one of %s", v, strings.Join(slices.Sorted(maps.Keys(f.allowed)), ", "))
			}
		}
	}
	return nil
}
