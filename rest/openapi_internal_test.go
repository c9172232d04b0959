package rest

import "testing"

func TestServesPath(t *testing.T) {
	for _, tc := range []struct {
		pattern, path string
		want          bool
	}{
		{"GET /disputes/{dispute_id}", "/disputes/{dispute_id}", true},
		{"GET /disputes/{id}", "/disputes/{dispute_id}", true},
		{"GET /disputes/{dispute_id}", "/disputes/filter", false},
		{"GET /disputes/filter", "/disputes/filter", true},
		{"GET /disputes/{dispute_id}", "/disputes/profile/list", false},
		{"POST /payments/{payment_id}", "/payments/{payment_id}/capture", false},
		{"POST /payments/{payment_id}/capture", "/payments/{payment_id}/capture", true},
		{"/", "/payments", false},
		{"", "/payments", false},
		{"POST /payments", "/payments", true},
	} {
		if got := servesPath(tc.pattern, tc.path); got != tc.want {
			t.Errorf("servesPath(%q, %q) = %v, want %v", tc.pattern, tc.path, got, tc.want)
		}
	}
}
