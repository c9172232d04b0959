// Package ids owns Switchyard's identifiers: prefixed random ids for every
// resource ("pay_…", "ref_…"), API keys, and client secrets, all drawn from
// crypto/rand as unbiased base62.
package ids

import (
	"crypto/rand"
	"strings"
)

// Resource id prefixes. PrefixOf maps an id back to one of these.
const (
	Payment                  = "pay"
	Attempt                  = "pa"
	Capture                  = "cap"
	IncrementalAuthorization = "inc"
	Refund                   = "ref"
	Dispute                  = "dp"
	Mandate                  = "man"
	Customer                 = "cus"
	ConnectorAccount         = "mca"
	Event                    = "evt"
	DeliveryAttempt          = "wha"
	WebhookTask              = "wht"
	PaymentMethod            = "pm"
	Profile                  = "pro"
	RoutingAlgorithm         = "routing"
	GsmRule                  = "gsm"
	APIKey                   = "key"
	Merchant                 = "merchant"
	User                     = "usr"
	Membership               = "mbr"
	Invitation               = "inv"
	AuditEntry               = "aud"
	Payout                   = "payout"
	PayoutAttempt            = "poa"
	Authentication           = "authn"
	SubscriptionItem         = "item"
	ItemPrice                = "price"
	Coupon                   = "coupon"
	Subscription             = "sub"
	Invoice                  = "invoice"
	TestClock                = "clock"
	Organization             = "org"
	IncomingWebhook          = "whin"
	Relay                    = "relay"
	BlocklistEntry           = "blk"
	BlocklistBatchJob        = "blkjob"
	CardIssuer               = "issuer"
	ProfileAcquirer          = "acq"
	File                     = "file"
)

// idLen base62 characters carry 24·log2(62) ≈ 142.9 bits.
const idLen = 24

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// New returns prefix + "_" + 24 random base62 characters, e.g. "pay_…".
func New(prefix string) string {
	return prefix + "_" + Base62(idLen)
}

// SecretKey returns a new sandbox secret API key: "snd_" + 32 base62.
func SecretKey() string { return "snd_" + Base62(32) }

// PublishableKey returns a new sandbox publishable key: "pk_snd_" + 32 base62.
func PublishableKey() string { return "pk_snd_" + Base62(32) }

// ClientSecret returns a client secret for a payment:
// paymentID + "_secret_" + 24 base62.
func ClientSecret(paymentID string) string {
	return paymentID + "_secret_" + Base62(idLen)
}

// PrefixOf returns the text before the first "_" ("pay" for "pay_…", "pk"
// for "pk_snd_…"), or "" when id has no "_".
func PrefixOf(id string) string {
	prefix, _, ok := strings.Cut(id, "_")
	if !ok {
		return ""
	}
	return prefix
}

// Base62 returns n characters drawn uniformly from [0-9A-Za-z]. Random bytes
// at or above 248 (= 4·62) are rejected so that every character is equally
// likely.
func Base62(n int) string {
	out := make([]byte, 0, n)
	buf := make([]byte, n+n/8+8)
	for len(out) < n {
		rand.Read(buf) // never fails (crypto/rand crashes the program instead)
		for _, b := range buf {
			if b >= 248 {
				continue
			}
			out = append(out, alphabet[b%62])
			if len(out) == n {
				break
			}
		}
	}
	return string(out)
}
