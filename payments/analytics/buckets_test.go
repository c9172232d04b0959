package analytics

import (
	"math/rand/v2"
	"testing"
	"time"
)

// zones with daylight saving, half- and quarter-hour offsets, transitions
// at midnight and a zone that skipped a whole day.
var testZones = []string{"UTC", "America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kolkata",
	"Asia/Kathmandu", "America/Santiago", "Pacific/Chatham", "America/St_Johns", "Africa/Casablanca",
	"America/Havana", "Asia/Tehran", "Pacific/Apia", "Europe/London", "America/Sao_Paulo"}

// truncated is t's local bucket as time.Time arithmetic sees it: the wall
// clock of the hour, the day or the Monday t falls in.
func truncated(t time.Time, loc *time.Location, bucket string) [4]int {
	l := t.In(loc)
	y, m, d := l.Date()
	switch bucket {
	case BucketHour:
		return [4]int{y, int(m), d, l.Hour()}
	case BucketWeek:
		back := (int(l.Weekday()) + 6) % 7 // days since Monday
		y, m, d = time.Date(y, m, d-back, 12, 0, 0, 0, time.UTC).Date()
	}
	return [4]int{y, int(m), d, 0}
}

// TestGridAgainstTimeArithmetic: over random zones, ranges and instants,
// the offsets the segments give are the zone's; an instant's bucket
// (computed as the SQL does) starts at the earliest instant with the same
// local hour, day or week as time.Time says, no later than the instant;
// the instant just before that start is in another bucket; and bucket
// numbers grow with time.
func TestGridAgainstTimeArithmetic(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	base := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	for round := range 3000 {
		name := testZones[rng.IntN(len(testZones))]
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Fatal(err)
		}
		bucket := []string{BucketHour, BucketDay, BucketWeek}[round%3]
		from := base.Add(time.Duration(rng.Int64N(int64(25 * 365 * 24 * time.Hour)))).Truncate(time.Second)
		to := from.Add(time.Duration(1+rng.Int64N(int64(120*24*time.Hour))) * time.Nanosecond).Truncate(time.Second).Add(time.Second)
		g := newGrid(loc, from, to, bucket)
		prev := int64(-1 << 62)
		for range 20 {
			at := from.Add(time.Duration(rng.Int64N(int64(to.Sub(from))))).Truncate(time.Second)
			if i := rng.IntN(4); i == 0 && len(g.segs) > 1 {
				// Right at, or just before, a change.
				at = g.segs[1+rng.IntN(len(g.segs)-1)].start.Add(-time.Duration(rng.IntN(2)) * time.Second)
			}
			if _, off := at.In(loc).Zone(); int64(off) != offsetAt(g.segs, at) {
				t.Fatalf("%s %v: segment offset %d, zone %d (%v)", name, at, offsetAt(g.segs, at), off, g.segs)
			}
			n := g.number(at)
			s := g.start(n)
			want := truncated(at, loc, bucket)
			if s.After(at) || truncated(s, loc, bucket) != want || truncated(s.Add(-time.Second), loc, bucket) == want {
				t.Fatalf("%s %s %v (local %v): bucket %d starts %v (local %v)", name, bucket, at, at.In(loc), n, s, s.In(loc))
			}
			// (The SQL only sees rows from from on.)
			if !s.Before(from) && g.number(s) != n || (n > g.number(from) && g.number(s.Add(-time.Second)) >= n) {
				t.Fatalf("%s %s %v: bucket %d's start %v is in bucket %d", name, bucket, at, n, s, g.number(s))
			}
		}
		// Numbers never go down with time, except where clocks go back.
		prevOff := offsetAt(g.segs, from)
		for at := from; at.Before(to); at = at.Add(time.Duration(1+rng.IntN(7200)) * time.Second) {
			if off := offsetAt(g.segs, at); off < prevOff {
				prev = -1 << 62
				prevOff = off
			}
			if n := g.number(at); n < prev {
				t.Fatalf("%s %s: bucket %d at %v after %d", name, bucket, n, at, prev)
			} else {
				prev = n
			}
		}
	}
}

// TestBerlinAutumnDay: the last Sunday of October 2024 in Berlin has 25
// hours, all in one day bucket starting at local midnight (22:00 UTC the
// day before); its 02:00 hour happens twice and is one hour bucket.
func TestBerlinAutumnDay(t *testing.T) {
	berlin, _ := time.LoadLocation("Europe/Berlin")
	from := time.Date(2024, 10, 26, 0, 0, 0, 0, berlin)
	to := time.Date(2024, 10, 29, 0, 0, 0, 0, berlin)
	day := newGrid(berlin, from, to, BucketDay)
	sunday := time.Date(2024, 10, 27, 0, 0, 0, 0, berlin)
	late := time.Date(2024, 10, 27, 23, 30, 0, 0, berlin)
	if n := day.number(sunday); day.number(late) != n || !day.start(n).Equal(time.Date(2024, 10, 26, 22, 0, 0, 0, time.UTC)) ||
		day.number(late.Add(time.Hour)) != n+1 || day.start(n+1).Sub(day.start(n)) != 25*time.Hour {
		t.Fatalf("Sunday: bucket %d starts %v", n, day.start(n))
	}
	if day.count() != 3 || len(day.segs) != 2 {
		t.Fatalf("3 days, 2 offsets: %d, %v", day.count(), day.segs)
	}
	hour := newGrid(berlin, from, to, BucketHour)
	first := time.Date(2024, 10, 27, 0, 30, 0, 0, time.UTC)  // 02:30 CEST
	second := time.Date(2024, 10, 27, 1, 30, 0, 0, time.UTC) // 02:30 CET
	if hour.number(first) != hour.number(second) || !hour.start(hour.number(first)).Equal(time.Date(2024, 10, 27, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("the repeated hour: %d, %d", hour.number(first), hour.number(second))
	}
	if hour.count() != 72 {
		t.Fatalf("72 local hours from Saturday to Tuesday: %d", hour.count())
	}
}

// TestSlicesCoverTheRange: over random zones, buckets and ranges, the
// slices are consecutive, cover the range exactly, and (bucketed) cut it
// only at bucket starts, so no bucket is read by two slices; adding up
// groups that two slices both found gives one group with the sums.
func TestSlicesCoverTheRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	base := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	for round := range 2000 {
		loc, _ := time.LoadLocation(testZones[rng.IntN(len(testZones))])
		bucket := []string{"", BucketHour, BucketDay, BucketWeek}[round%4]
		from := base.Add(time.Duration(rng.Int64N(int64(5 * 365 * 24 * time.Hour)))).Truncate(time.Second)
		to := from.Add(time.Duration(1+rng.Int64N(int64(30*24*time.Hour))) * time.Nanosecond).Truncate(time.Second).Add(time.Second)
		sc := scope{grid: newGrid(loc, from, to, bucket)}
		parts := sc.sliced()
		if parts[0].from != sc.from || parts[len(parts)-1].to != sc.to {
			t.Fatalf("slices %v do not span [%v, %v)", parts, sc.from, sc.to)
		}
		if to.Sub(from) > slicesOver && (bucket == "" || sc.count() >= 2) && len(parts) < 2 {
			t.Fatalf("a range of %v in %s buckets was not sliced", to.Sub(from), bucket)
		}
		for i, p := range parts {
			if !p.to.After(p.from) {
				t.Fatalf("empty slice %d: %v", i, parts)
			}
			if i > 0 {
				if p.from != parts[i-1].to {
					t.Fatalf("slices %d and %d are not consecutive", i-1, i)
				}
				if bucket != "" && sc.number(p.from) == sc.number(p.from.Add(-time.Microsecond)) {
					t.Fatalf("%s: slice %d starts inside a bucket at %v", bucket, i, p.from)
				}
			}
		}
	}
	merged := mergeGroups([][]groupRow{
		{{Bucket: 1, Key: "succeeded", Currency: "USD", Count: 2, Volume: 300}, {Bucket: 2, Key: "failed", Currency: "EUR", Count: 1, Volume: 5}},
		{{Bucket: 1, Key: "succeeded", Currency: "USD", Count: 3, Volume: 700, Succeeded: 1}, {Bucket: 1, Key: "failed", Currency: "USD", Count: 1}},
	})
	want := []groupRow{{Bucket: 1, Key: "failed", Currency: "USD", Count: 1},
		{Bucket: 1, Key: "succeeded", Currency: "USD", Count: 5, Volume: 1000, Succeeded: 1},
		{Bucket: 2, Key: "failed", Currency: "EUR", Count: 1, Volume: 5}}
	if len(merged) != len(want) {
		t.Fatalf("merged %+v", merged)
	}
	for i := range want {
		if merged[i] != want[i] {
			t.Fatalf("merged %+v, want %+v", merged, want)
		}
	}
}
