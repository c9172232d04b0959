package users

import (
	"errors"
	"strings"
	"testing"
	"time"

	"switchyard/payments/errs"
)

func TestCheckPassword(t *testing.T) {
	for _, tc := range []struct {
		password, email string
		ok              bool
		why             string
	}{
		{"correct horse battery", "a@shop.example", true, ""},
		{"ten chars!", "a@shop.example", true, ""},
		{"nine char", "a@shop.example", false, "at least 10"},
		{"ÄÖÜäöüßéèê", "a@shop.example", true, ""}, // ten characters, more bytes
		{strings.Repeat("x", 257), "a@shop.example", false, "at most 256"},
		{"Password123", "a@shop.example", false, "most common"},
		{"QWERTYUIOP", "a@shop.example", false, "most common"},
		{"abababababab", "a@shop.example", false, "different characters"},
		{"jane.doe is me 2026", "Jane.Doe@shop.example", false, "email"},
		{"bob is not long enough to match", "bob@shop.example", true, ""}, // a name under 4 letters is not checked
	} {
		err := checkPassword(tc.password, tc.email)
		if (err == nil) != tc.ok {
			t.Errorf("%q: %v, want ok %v", tc.password, err, tc.ok)
			continue
		}
		if err != nil {
			e, _ := errs.As(err)
			if !errors.Is(err, errs.ErrInvalidPassword) || e.Field != "password" || !strings.Contains(e.Message, tc.why) {
				t.Errorf("%q: %s %s %q, want %s on password saying %q", tc.password, e.Code, e.Field, e.Message, errs.ErrInvalidPassword, tc.why)
			}
		}
	}
}

func TestNormalizeEmail(t *testing.T) {
	for _, tc := range []struct {
		in, given, key string
		want           *errs.Failure
	}{
		{"  Jane.Doe@Shop.Example ", "Jane.Doe@Shop.Example", "jane.doe@shop.example", nil},
		{"a+tag@sub.shop.example", "a+tag@sub.shop.example", "a+tag@sub.shop.example", nil},
		{"", "", "", errs.ErrMissingField},
		{"jane", "", "", errs.ErrInvalidEmail},
		{"jane@localhost", "", "", errs.ErrInvalidEmail},
		{"jane@shop.", "", "", errs.ErrInvalidEmail},
		{"Jane <jane@shop.example>", "", "", errs.ErrInvalidEmail},
		{"a@b.c, d@e.f", "", "", errs.ErrInvalidEmail},
		{strings.Repeat("a", 250) + "@b.cd", "", "", errs.ErrInvalidEmail},
	} {
		given, key, err := normalizeEmail(tc.in)
		if tc.want == nil {
			if err != nil || given != tc.given || key != tc.key {
				t.Errorf("%q: %q %q %v, want %q %q", tc.in, given, key, err, tc.given, tc.key)
			}
			continue
		}
		if !errors.Is(err, tc.want) {
			t.Errorf("%q: %v, want %s", tc.in, err, tc.want)
		}
	}
}

func TestPasswordHash(t *testing.T) {
	h := hashPassword("correct horse battery")
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("hash %q", h)
	}
	if h == hashPassword("correct horse battery") {
		t.Fatal("two hashes of one password are equal: no salt")
	}
	for pw, want := range map[string]bool{"correct horse battery": true, "correct horse batterY": false, "": false} {
		if got := passwordMatches(h, pw); got != want {
			t.Errorf("matches(%q) = %v", pw, got)
		}
	}
	for _, broken := range []string{"", "$argon2i$v=19$m=1,t=1,p=1$c2FsdA$a2V5", strings.Replace(h, "v=19", "v=16", 1), h[:len(h)-4] + "!!!!"} {
		if passwordMatches(broken, "correct horse battery") {
			t.Errorf("a broken hash %q matched", broken)
		}
	}
}

func TestThrottleDelay(t *testing.T) {
	p := DefaultPolicy
	for failures, want := range map[int64]time.Duration{
		0: 0, 2: 0, 3: 250 * time.Millisecond, 4: 500 * time.Millisecond, 5: time.Second, 6: 2 * time.Second,
		7: 4 * time.Second, 9: 4 * time.Second, 1000: 4 * time.Second,
	} {
		if got := p.delay(failures, p.EmailSlowAfter); got != want {
			t.Errorf("after %d failures: %v, want %v", failures, got, want)
		}
	}
}

func TestAllows(t *testing.T) {
	for _, tc := range []struct {
		role    Role
		allowed []Role
		want    bool
	}{
		{RoleAdmin, nil, true},
		{RoleViewer, nil, false},
		{RoleOperator, []Role{RoleOperator}, true},
		{RoleDeveloper, []Role{RoleOperator}, false},
		{RoleViewer, []Role{RoleDeveloper, RoleOperator, RoleViewer}, true},
	} {
		if got := Allows(tc.role, tc.allowed); got != tc.want {
			t.Errorf("Allows(%s, %v) = %v", tc.role, tc.allowed, got)
		}
	}
}
