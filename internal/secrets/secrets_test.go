package secrets

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"errors"
	"testing"
)

func testKey(seed byte) []byte {
	k := make([]byte, KeySize)
	for i := range k {
		k[i] = seed + byte(i)
	}
	return k
}

func newBox(t *testing.T, seed byte) *Box {
	t.Helper()
	b, err := NewBox(testKey(seed))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestNewBoxKeyLength(t *testing.T) {
	for _, n := range []int{0, 16, 31, 33, 64} {
		if _, err := NewBox(make([]byte, n)); err == nil {
			t.Errorf("NewBox accepted a %d-byte key", n)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	b := newBox(t, 0)
	tests := []struct {
		name   string
		pt, ad []byte
	}{
		{"empty", nil, nil},
		{"text", []byte("sk_test_abc"), []byte("mca_123")},
		{"binary no ad", bytes.Repeat([]byte{0, 255}, 1000), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ct, err := b.Seal(tt.pt, tt.ad)
			if err != nil {
				t.Fatal(err)
			}
			if ct[0] != version1 || len(ct) != 1+12+len(tt.pt)+16 {
				t.Errorf("layout: version %d, len %d", ct[0], len(ct))
			}
			if len(tt.pt) > 4 && bytes.Contains(ct, tt.pt) {
				t.Error("ciphertext contains the plaintext")
			}
			got, err := b.Open(ct, tt.ad)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, tt.pt) {
				t.Errorf("got %q, want %q", got, tt.pt)
			}
		})
	}
}

func TestOpenRejects(t *testing.T) {
	b := newBox(t, 0)
	ad := []byte("mca_123")
	ct, _ := b.Seal([]byte("sk_test_abc"), ad)
	flip := func(i int) []byte {
		c := bytes.Clone(ct)
		c[i] ^= 1
		return c
	}
	tests := []struct {
		name string
		box  *Box
		ct   []byte
		ad   []byte
	}{
		{"flipped nonce byte", b, flip(1), ad},
		{"flipped ciphertext byte", b, flip(14), ad},
		{"flipped tag byte", b, flip(len(ct) - 1), ad},
		{"unknown version", b, flip(0), ad},
		{"truncated", b, ct[:len(ct)-1], ad},
		{"too short", b, ct[:10], ad},
		{"empty", b, nil, ad},
		{"wrong associated data", b, ct, []byte("mca_124")},
		{"missing associated data", b, ct, nil},
		{"wrong key", newBox(t, 1), ct, ad},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pt, err := tt.box.Open(tt.ct, tt.ad)
			if !errors.Is(err, ErrOpen) || pt != nil {
				t.Errorf("Open = %q, %v; want ErrOpen", pt, err)
			}
		})
	}
}

func TestEncryptionKeyIsNotMasterKey(t *testing.T) {
	master := testKey(0)
	b, _ := NewBox(master)
	ct, _ := b.Seal([]byte("secret"), nil)
	block, _ := aes.NewCipher(master)
	raw, _ := cipher.NewGCMWithRandomNonce(block)
	if _, err := raw.Open(nil, nil, ct[1:], nil); err == nil {
		t.Error("the master key itself opens the ciphertext; want a derived subkey")
	}
}

func TestNonceUnique(t *testing.T) {
	b := newBox(t, 0)
	seen := map[string]bool{}
	for range 10_000 {
		ct, _ := b.Seal([]byte("same"), nil)
		nonce := string(ct[1:13])
		if seen[nonce] {
			t.Fatal("nonce repeated")
		}
		seen[nonce] = true
	}
}

func TestJSON(t *testing.T) {
	type creds struct {
		APIKey string `json:"api_key"`
		Key1   string `json:"key1"`
	}
	b := newBox(t, 0)
	in := creds{APIKey: "sk_test_abc", Key1: "merchant"}
	ct, err := b.SealJSON(in, []byte("mca_1"))
	if err != nil {
		t.Fatal(err)
	}
	var out creds
	if err := b.OpenJSON(ct, []byte("mca_1"), &out); err != nil {
		t.Fatal(err)
	}
	if out != in {
		t.Errorf("got %+v, want %+v", out, in)
	}
	if err := b.OpenJSON(ct, []byte("mca_2"), &out); !errors.Is(err, ErrOpen) {
		t.Errorf("wrong AD: err = %v", err)
	}
	if _, err := b.SealJSON(make(chan int), nil); err == nil {
		t.Error("SealJSON accepted an unencodable value")
	}
}

// The golden values pin the derivation: stored API-key hashes and card
// fingerprints must stay valid across releases.
func TestHashStability(t *testing.T) {
	b := newBox(t, 0) // key 00 01 … 1f
	if got, want := b.HashAPIKey("snd_abc"), "237296d4f7ce21dc70f6a87943b1b8bd53ea3b6025fcd143138a9a45b8cd7678"; got != want {
		t.Errorf("HashAPIKey = %s, want %s", got, want)
	}
	if got, want := b.Fingerprint("4242424242424242", "12", "2030"), "9cb9116fb072ed6c34841244d94379a681033f61f499e980ede01c1ba915187e"; got != want {
		t.Errorf("Fingerprint = %s, want %s", got, want)
	}
	if b.HashAPIKey("snd_abc") != newBox(t, 0).HashAPIKey("snd_abc") {
		t.Error("HashAPIKey differs between boxes with one master key")
	}
}

func TestKeySeparation(t *testing.T) {
	b, other := newBox(t, 0), newBox(t, 1)
	tests := []struct {
		name string
		a, b string
	}{
		{"api-key hash vs fingerprint", b.HashAPIKey("x"), b.Fingerprint("x")},
		{"api-key hash under other master", b.HashAPIKey("x"), other.HashAPIKey("x")},
		{"fingerprint under other master", b.Fingerprint("x"), other.Fingerprint("x")},
		{"different keys", b.HashAPIKey("x"), b.HashAPIKey("y")},
		{"fingerprint parts are framed", b.Fingerprint("ab", "c"), b.Fingerprint("a", "bc")},
		{"fingerprint part count", b.Fingerprint("a"), b.Fingerprint("a", "")},
	}
	for _, tt := range tests {
		if tt.a == tt.b {
			t.Errorf("%s: both %s", tt.name, tt.a)
		}
	}
}

func TestMask(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"a", "*"},
		{"abcd", "****"},
		{"abcdefg", "*******"},
		{"abcdefgh", "ab****gh"},
		{"sk_test_abc", "sk*******bc"},
		{"ключ_секрет", "кл*******ет"},
	}
	for _, tt := range tests {
		if got := Mask(tt.in); got != tt.want {
			t.Errorf("Mask(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
