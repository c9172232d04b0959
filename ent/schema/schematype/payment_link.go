package schematype

import "time"

// PaymentLink is a payment's hosted checkout link, as created with the
// payment: its id, its URLs, and the look it was resolved to then (the
// payment's config over its profile's, over the defaults). It expires
// with the payment's client secret (expires_on).
type PaymentLink struct {
	ID         string    `json:"payment_link_id"`
	Link       string    `json:"link"`
	SecureLink *string   `json:"secure_link,omitempty"`
	CreatedAt  time.Time `json:"created_at"`
	// Config is the resolved look: every member the page reads is set.
	Config PaymentLinkConfig `json:"config"`
	// AllowedDomains are the profile's, when the link was made: the
	// secure link may be framed by these (glob patterns) only.
	AllowedDomains []string `json:"allowed_domains,omitempty"`
}
