package webhooks

import (
	"crypto/hmac"
	"crypto/sha512"
	"encoding/hex"
)

// SignatureHeader carries the body's signature.
const SignatureHeader = "X-Webhook-Signature-512"

// Sign is the lowercase hex HMAC-SHA512 of body keyed with the profile's
// payment_response_hash_key.
func Sign(key string, body []byte) string {
	m := hmac.New(sha512.New, []byte(key))
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}
