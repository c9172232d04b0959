package connector

import "testing"

func TestSandboxThreeDSByCard(t *testing.T) {
	for _, tc := range []struct {
		card, status, eci string
		cavv, ok          bool
	}{
		{"4242424242424242", ThreeDSAuthenticated, "05", true, true},
		{"5555555555554444", ThreeDSAuthenticated, "02", true, true},
		{"4000000000003048", ThreeDSAttempted, "06", true, true},
		{"4000000000003022", ThreeDSNotAuthenticated, "07", false, false},
		{"4000000000003089", ThreeDSUnavailable, "07", false, false},
		{"4000000000003220", ThreeDSChallenge, "", false, false},
	} {
		a := SandboxThreeDS(tc.card, "authn_1")
		if a.TransStatus != tc.status || a.ECI != tc.eci || (a.CAVV != "") != tc.cavv || a.Succeeded() != tc.ok {
			t.Errorf("%s: got %+v, want status %s eci %s cavv %v", tc.card, a, tc.status, tc.eci, tc.cavv)
		}
		if a.DSTransID == "" || a.DSTransID != SandboxThreeDS(tc.card, "authn_1").DSTransID || a.DSTransID == SandboxThreeDS(tc.card, "authn_2").DSTransID {
			t.Errorf("%s: ds_trans_id %q is not stable per authentication", tc.card, a.DSTransID)
		}
	}
	if a := SandboxThreeDSChallenge("4000000000003220", "authn_1", true); a.TransStatus != ThreeDSAuthenticated || a.CAVV == "" {
		t.Errorf("approved challenge: %+v", a)
	}
	if a := SandboxThreeDSChallenge("4000000000003220", "authn_1", false); a.TransStatus != ThreeDSNotAuthenticated || a.Succeeded() {
		t.Errorf("declined challenge: %+v", a)
	}
}
