package routing

import (
	"testing"
	"time"

	"switchyard/ent"
)

func outcomesOf(now time.Time, pattern string) []outcome {
	out := make([]outcome, len(pattern)) // newest first
	for i, c := range pattern {
		out[i] = outcome{at: now.Add(-time.Duration(i) * time.Second), success: c == '1'}
	}
	return out
}

func TestSuccessRateWindow(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	r := &successRateRule{window: 4, min: 2, defaultRate: 90, maxAge: time.Minute}
	for _, tc := range []struct {
		name   string
		window []outcome
		want   float64
	}{
		{"no outcomes: the default", nil, 90},
		{"fewer than min: the default", outcomesOf(now, "0"), 90},
		{"min reached", outcomesOf(now, "01"), 50},
		{"only the window counts", outcomesOf(now, "11110000"), 100},
		{"old outcomes drop out", []outcome{{now, true}, {now.Add(-time.Second), false}, {now.Add(-2 * time.Minute), false}}, 50},
		{"too few young ones: the default", []outcome{{now, false}, {now.Add(-2 * time.Minute), false}}, 90},
	} {
		if got := r.successRate(tc.window, now); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestElimination(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	r := &eliminationRule{bucket: 4, coolDown: 10 * time.Second, threshold: 0.5}
	for _, tc := range []struct {
		name   string
		window []outcome
		want   bool
	}{
		{"nothing", nil, false},
		{"two failures of an unfilled bucket", outcomesOf(now, "00"), false},
		{"three failures", outcomesOf(now, "000"), true},
		{"three of the last four", outcomesOf(now, "0100"), true},
		{"older failures are out of the bucket", outcomesOf(now, "1100000"), false},
		{"cooled down", outcomesOf(now.Add(-11*time.Second), "000"), false},
	} {
		if got := r.eliminated(tc.window, now); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestOrderByOutcomes(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	a, b, c := &ent.MerchantConnectorAccount{ID: "a"}, &ent.MerchantConnectorAccount{ID: "b"}, &ent.MerchantConnectorAccount{ID: "c"}
	static := []*ent.MerchantConnectorAccount{a, b, c}
	ids := func(l []*ent.MerchantConnectorAccount) string {
		s := ""
		for _, m := range l {
			s += m.ID
		}
		return s
	}
	sr := &successRateRule{selects: true, window: 4, min: 2, defaultRate: 100, explorePercent: 10}
	el := &eliminationRule{selects: true, bucket: 2, coolDown: time.Minute, threshold: 0.5}
	windows := map[string][]outcome{"a": outcomesOf(now, "0011"), "b": outcomesOf(now, "1111"), "c": outcomesOf(now, "1")}
	for _, tc := range []struct {
		name         string
		dr           dynamicRouting
		draw         float64
		want, wantBy string
	}{
		{"exploitation: by rate, the default for c, ties in static order", dynamicRouting{successRate: sr}, 50, "bca", ApproachSuccessRateExploitation},
		{"metrics only keeps the static order", dynamicRouting{successRate: &successRateRule{window: 4}}, 50, "abc", ""},
		{"elimination moves a out", dynamicRouting{elimination: el}, 50, "bca", ApproachElimination},
		{"both", dynamicRouting{successRate: sr, elimination: el}, 50, "bca", ApproachSuccessRateExploitation},
	} {
		got, by := orderByOutcomes(static, windows, tc.dr, now, tc.draw)
		if ids(got) != tc.want || by != tc.wantBy {
			t.Errorf("%s: %s by %q, want %s by %q", tc.name, ids(got), by, tc.want, tc.wantBy)
		}
	}
	// Exploration draws a random order: every account comes first sometimes.
	first := map[string]int{}
	for range 300 {
		got, by := orderByOutcomes(static, windows, dynamicRouting{successRate: sr}, now, 5)
		if by != ApproachSuccessRateExploration || len(got) != 3 {
			t.Fatalf("exploration: %s by %s", ids(got), by)
		}
		first[got[0].ID]++
	}
	if len(first) != 3 {
		t.Fatalf("exploration firsts: %v", first)
	}
	// Every account eliminated: the order stands, never empty.
	all := map[string][]outcome{"a": outcomesOf(now, "00"), "b": outcomesOf(now, "00"), "c": outcomesOf(now, "00")}
	if got, by := orderByOutcomes(static, all, dynamicRouting{elimination: el}, now, 50); ids(got) != "abc" || by != "" {
		t.Fatalf("all eliminated: %s by %q", ids(got), by)
	}
}
