// Package secrets owns the protection of secrets at rest: AES-256-GCM
// encryption of stored credentials, keyed hashes of API keys, keyed card
// fingerprints, masking of secrets shown in responses, and URL errors that
// do not repeat a password. Every key is derived from the one master key in
// config, one subkey per purpose.
package secrets

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"
)

// KeySize is the length of the master key in bytes.
const KeySize = 32

// version1 prefixes every sealed value: AES-256-GCM under the "v1" subkey,
// then a 12-byte random nonce, the ciphertext and the 16-byte tag. A later
// key or algorithm gets a new version byte, so old values stay readable.
const version1 byte = 1

// Subkey labels (HKDF-Expand info). Changing one invalidates stored data.
const (
	labelEncrypt     = "switchyard secrets aes-256-gcm v1"
	labelAPIKeyHash  = "switchyard api-key hash v1"
	labelFingerprint = "switchyard fingerprint v1"
	labelTokenHash   = "switchyard token hash v1"
)

// ErrOpen is returned (wrapped) by Open for any value it cannot decrypt:
// truncated, unknown version, tampered with, wrong key or wrong associated data.
var ErrOpen = errors.New("secrets: cannot open sealed value")

// Box encrypts and hashes with subkeys of one master key. It is safe for
// concurrent use.
type Box struct {
	aead           cipher.AEAD
	apiKeyHashKey  []byte
	fingerprintKey []byte
	tokenHashKey   []byte
}

// NewBox derives the subkeys from a 32-byte master key.
func NewBox(masterKey []byte) (*Box, error) {
	if len(masterKey) != KeySize {
		return nil, fmt.Errorf("secrets: master key must be %d bytes, got %d", KeySize, len(masterKey))
	}
	block, err := aes.NewCipher(subkey(masterKey, labelEncrypt))
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCMWithRandomNonce(block) // prepends a random 12-byte nonce
	if err != nil {
		return nil, err
	}
	return &Box{
		aead:           aead,
		apiKeyHashKey:  subkey(masterKey, labelAPIKeyHash),
		fingerprintKey: subkey(masterKey, labelFingerprint),
		tokenHashKey:   subkey(masterKey, labelTokenHash),
	}, nil
}

// subkey is HKDF-Expand(SHA-256) of the master key over a label, i.e.
// HMAC-SHA256(master, label || 0x01). The master key is already uniformly
// random, so no extract step is needed.
func subkey(master []byte, label string) []byte {
	k, err := hkdf.Expand(sha256.New, master, label, KeySize)
	if err != nil {
		panic(err) // only for lengths over 255·32 bytes
	}
	return k
}

// Seal encrypts plaintext and binds it to associatedData (for example the
// owning row's id), which Open must be given unchanged.
func (b *Box) Seal(plaintext, associatedData []byte) ([]byte, error) {
	out := make([]byte, 1, 1+b.aead.Overhead()+len(plaintext))
	out[0] = version1
	return b.aead.Seal(out, nil, plaintext, associatedData), nil
}

// Open decrypts a value made by Seal with the same associated data.
func (b *Box) Open(ciphertext, associatedData []byte) ([]byte, error) {
	if len(ciphertext) < 1+b.aead.Overhead() {
		return nil, fmt.Errorf("%w: too short", ErrOpen)
	}
	if v := ciphertext[0]; v != version1 {
		return nil, fmt.Errorf("%w: unknown version %d", ErrOpen, v)
	}
	pt, err := b.aead.Open(nil, nil, ciphertext[1:], associatedData)
	if err != nil {
		return nil, fmt.Errorf("%w: authentication failed", ErrOpen)
	}
	return pt, nil
}

// SealJSON encodes v as JSON and seals it.
func (b *Box) SealJSON(v any, associatedData []byte) ([]byte, error) {
	pt, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("secrets: %w", err)
	}
	return b.Seal(pt, associatedData)
}

// OpenJSON opens ciphertext and decodes the JSON inside into v.
func (b *Box) OpenJSON(ciphertext, associatedData []byte, v any) error {
	pt, err := b.Open(ciphertext, associatedData)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(pt, v); err != nil {
		return fmt.Errorf("secrets: %w", err)
	}
	return nil
}

// HashAPIKey returns the hex HMAC-SHA256 of an API key under the API-key
// subkey: what is stored, and what a presented key is looked up by.
func (b *Box) HashAPIKey(key string) string {
	m := hmac.New(sha256.New, b.apiKeyHashKey)
	m.Write([]byte(key))
	return hex.EncodeToString(m.Sum(nil))
}

// HashToken returns the hex HMAC-SHA256 of a bearer secret other than an
// API key (a dashboard session, an invitation, a throttled email) under its
// own subkey: what is stored instead of the secret.
func (b *Box) HashToken(token string) string {
	m := hmac.New(sha256.New, b.tokenHashKey)
	m.Write([]byte(token))
	return hex.EncodeToString(m.Sum(nil))
}

// Fingerprint returns a hex keyed hash of parts (for example a card's PAN and
// expiry) under the fingerprint subkey. Parts are length-prefixed, so
// ("ab", "c") and ("a", "bc") differ.
func (b *Box) Fingerprint(parts ...string) string {
	m := hmac.New(sha256.New, b.fingerprintKey)
	var n [8]byte
	for _, p := range parts {
		binary.BigEndian.PutUint64(n[:], uint64(len(p)))
		m.Write(n[:])
		m.Write([]byte(p))
	}
	return hex.EncodeToString(m.Sum(nil))
}

// minMaskVisible is the shortest value whose ends are shown: below it, the
// four visible characters would reveal at least as much as the stars hide.
const minMaskVisible = 8

// Mask hides a secret for display, Hyperswitch style: the first 2 and last 2
// characters stay and every character between becomes "*"
// ("sk_test_abc" -> "sk*******bc"). Values shorter than 8 characters become
// all stars. The length is kept in every case; "" stays "".
func Mask(s string) string {
	n := utf8.RuneCountInString(s)
	if n < minMaskVisible {
		return strings.Repeat("*", n)
	}
	r := []rune(s)
	return string(r[:2]) + strings.Repeat("*", n-4) + string(r[n-2:])
}

// ParseURL is url.Parse for a URL that may hold a password (a database's,
// Redis's): its error keeps only the cause, "malformed URL: …", since
// url.Error repeats the whole URL.
func ParseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("malformed URL: %v", err)
	}
	return u, nil
}
