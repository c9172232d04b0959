package users

import (
	"crypto/rand"
	"crypto/subtle"
	_ "embed"
	"encoding/base64"
	"fmt"
	"net/mail"
	"strings"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"

	"switchyard/payments/errs"
)

// Password rules: NIST SP 800-63B's, a length and a list of passwords
// known to attackers, rather than composition rules.
const (
	minPasswordLen = 10  // characters
	maxPasswordLen = 256 // bytes: argon2 takes any length, but a bound stops a costly body
	maxEmailLen    = 254
)

//go:embed common_passwords.txt
var commonPasswordList string

// commonPasswords are the list's entries, lower-cased.
var commonPasswords = func() map[string]bool {
	out := map[string]bool{}
	for line := range strings.Lines(commonPasswordList) {
		if p := strings.TrimSpace(line); p != "" && !strings.HasPrefix(p, "#") {
			out[strings.ToLower(p)] = true
		}
	}
	return out
}()

// checkPassword refuses a password too short, too long, on the common
// list, made of too few distinct characters, or containing the email's
// local part.
func checkPassword(password, email string) error {
	bad := func(format string, args ...any) error {
		return errs.ErrInvalidPassword.Detailf(format, args...).WithField("password")
	}
	switch n := utf8.RuneCountInString(password); {
	case n < minPasswordLen:
		return bad("use at least %d characters", minPasswordLen)
	case len(password) > maxPasswordLen:
		return bad("use at most %d bytes", maxPasswordLen)
	}
	lower := strings.ToLower(password)
	if commonPasswords[lower] {
		return bad("it is one of the most common passwords")
	}
	distinct := map[rune]bool{}
	for _, r := range lower {
		distinct[r] = true
	}
	if len(distinct) < 4 {
		return bad("use more than %d different characters", len(distinct))
	}
	if local, _, ok := strings.Cut(strings.ToLower(email), "@"); ok && len(local) >= 4 && strings.Contains(lower, local) {
		return bad("it must not contain the email address")
	}
	return nil
}

// normalizeEmail checks an email address and returns it as given (trimmed)
// and its key: lower-cased, so that two spellings of one address are one
// user.
func normalizeEmail(email string) (given, key string, err error) {
	given = strings.TrimSpace(email)
	bad := func(why string) error {
		return errs.ErrInvalidEmail.Detailf("%s", why).WithField("email")
	}
	if given == "" {
		return "", "", errs.MissingField("email")
	}
	if utf8.RuneCountInString(given) > maxEmailLen {
		return "", "", bad(fmt.Sprintf("at most %d characters", maxEmailLen))
	}
	addr, perr := mail.ParseAddress(given)
	if perr != nil || addr.Name != "" || addr.Address != given {
		return "", "", bad("expected an address such as name@example.com")
	}
	_, domain, _ := strings.Cut(given, "@")
	if !strings.Contains(domain, ".") || strings.HasPrefix(domain, ".") || strings.HasSuffix(domain, ".") {
		return "", "", bad("the domain needs a dot, as in example.com")
	}
	return given, strings.ToLower(given), nil
}

// argon2id parameters: OWASP's second recommendation (19 MiB, two passes,
// one lane), about 60 ms of one processor a hash; how many run at once is
// bounded by the hashing slots (hashing.go). docs/users.md lists them.
const (
	argonTime    = 2
	argonMemory  = 19 * 1024 // KiB
	argonThreads = 1
	argonKeyLen  = 32
	argonSaltLen = 16
)

// hashPassword returns password's argon2id hash in the PHC string format.
func hashPassword(password string) string {
	salt := make([]byte, argonSaltLen)
	_, _ = rand.Read(salt) // never fails (crypto/rand)
	key := argon2.IDKey([]byte(password), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads,
		b64.EncodeToString(salt), b64.EncodeToString(key))
}

// passwordMatches checks password against a PHC argon2id hash, with the
// parameters the hash names (so that they can be raised later).
func passwordMatches(hash, password string) bool {
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false
	}
	var version int
	var memory, passes uint32
	var threads uint8
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &memory, &passes, &threads); err != nil {
		return false
	}
	b64 := base64.RawStdEncoding
	salt, err1 := b64.DecodeString(parts[4])
	want, err2 := b64.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(want) == 0 {
		return false
	}
	got := argon2.IDKey([]byte(password), salt, passes, memory, threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1
}

// newToken is a random bearer secret: 32 bytes, URL-safe, with a prefix
// saying what it is.
func newToken(prefix string) string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return prefix + base64.RawURLEncoding.EncodeToString(b)
}
