package analytics

import (
	"fmt"
	"strings"
	"time"
)

// Buckets a range may be cut in.
const (
	BucketHour = "hour"
	BucketDay  = "day"
	BucketWeek = "week"
)

// bucketWidth is each bucket's length in local seconds.
var bucketWidth = map[string]int64{BucketHour: 3600, BucketDay: 86400, BucketWeek: 7 * 86400}

// weekAlign shifts local time so weeks start on Monday 00:00: the Unix
// epoch was a Thursday, and Monday 1970-01-05 is 4 days after it.
const weekAlign = 4 * 86400

// MaxBuckets bounds a series: a month of hours, two years of days.
const MaxBuckets = 744

// segment is a stretch of time over which a zone's UTC offset stays put:
// from start until the next segment's start.
type segment struct {
	start  time.Time
	offset int64 // seconds east of UTC
}

// segmentsOf is loc's offsets over [from, to): the one in effect at from,
// then one per change (daylight saving, or the zone's history) before to.
// Changes that keep the offset (a new abbreviation) are merged away.
func segmentsOf(loc *time.Location, from, to time.Time) []segment {
	t := from.In(loc)
	_, off := t.Zone()
	out := []segment{{start: from.UTC(), offset: int64(off)}}
	for {
		_, end := t.ZoneBounds()
		if end.IsZero() || !end.Before(to) {
			return out
		}
		t = end.In(loc)
		_, off := t.Zone()
		if int64(off) != out[len(out)-1].offset {
			out = append(out, segment{start: end.UTC(), offset: int64(off)})
		}
	}
}

// offsetAt is the offset in effect at t (t at or after the first start).
func offsetAt(segs []segment, t time.Time) int64 {
	off := segs[0].offset
	for _, s := range segs[1:] {
		if t.Before(s.start) {
			break
		}
		off = s.offset
	}
	return off
}

// grid is how a range's rows fall into buckets: each row's local time (its
// UTC epoch seconds shifted by the zone's offset at that instant) divided
// by the bucket's width, so a local day is a bucket whether it has 23, 24
// or 25 hours, and weeks start on Monday. The database computes a row's
// bucket number (sql); Go maps numbers back to the UTC instants at which
// the local buckets start (start).
type grid struct {
	from, to time.Time
	width    int64 // 0: the whole range is one bucket
	align    int64
	segs     []segment // over [from, to): what the SQL shifts by
	wide     []segment // from a bucket before from: where starts are found
}

func newGrid(loc *time.Location, from, to time.Time, bucket string) grid {
	g := grid{from: from.UTC(), to: to.UTC(), width: bucketWidth[bucket]}
	if bucket == BucketWeek {
		g.align = weekAlign
	}
	g.segs = segmentsOf(loc, g.from, g.to)
	// The first bucket starts up to a width (and a day of offset changes)
	// before from.
	g.wide = segmentsOf(loc, g.from.Add(-time.Duration(g.width+2*86400)*time.Second), g.to)
	return g
}

// number is t's bucket number: the Go twin of the SQL expression.
func (g grid) number(t time.Time) int64 {
	if g.width == 0 {
		return 0
	}
	return floorDiv(t.Unix()+offsetAt(g.segs, t)-g.align, g.width)
}

// count is how many buckets the range spans.
func (g grid) count() int64 {
	if g.width == 0 {
		return 1
	}
	return g.number(g.to.Add(-time.Microsecond)) - g.number(g.from) + 1
}

// start is the UTC instant bucket n begins at: the earliest instant whose
// local time falls in it. That is local midnight (or the hour, or Monday)
// as the zone has it; when the zone skips that moment (clocks going forward
// at midnight) the bucket starts when the clocks land in it, and when an
// hour repeats (clocks going back) both real hours are one local hour, and
// its bucket starts at the first.
func (g grid) start(n int64) time.Time {
	if g.width == 0 {
		return g.from
	}
	lo := n*g.width + g.align // the bucket's local start, as local seconds
	for i, s := range g.wide {
		segStart := s.start.Unix()
		if i == 0 {
			segStart = -1 << 62 // the first segment holds everything before
		}
		segEnd := int64(1 << 62)
		if i+1 < len(g.wide) {
			segEnd = g.wide[i+1].start.Unix()
		}
		from, until := max(lo-s.offset, segStart), min(lo+g.width-s.offset, segEnd)
		if from < until {
			return time.Unix(from, 0).UTC()
		}
	}
	// Past the last change: its offset holds.
	last := g.wide[len(g.wide)-1]
	return time.Unix(lo-last.offset, 0).UTC()
}

// sql is the dialect's expression of column's bucket number (column a UTC
// DATETIME): its epoch seconds, independent of the session's time zone,
// plus the zone's offset chosen by a CASE over the range's offset
// changes, less the week alignment, divided by the width. The boundaries
// and offsets are Go values written inline (a grouped SELECT list takes no
// placeholders portably); they are formatted numbers and timestamps only.
func (g grid) sql(dialect, column string) string {
	if g.width == 0 {
		return "0"
	}
	epoch := fmt.Sprintf("TIMESTAMPDIFF(SECOND, '1970-01-01 00:00:00', %s)", column)
	before := func(t time.Time) string {
		return fmt.Sprintf("%s < '%s'", column, t.UTC().Format("2006-01-02 15:04:05.000000"))
	}
	div := "DIV"
	if dialect == "sqlite3" {
		// The pure-Go driver stores a time as Go prints it ("2006-01-02
		// 15:04:05.999999 +0000 UTC"), which strftime does not read whole;
		// created_at is always UTC, so its first 19 characters are the time.
		epoch = fmt.Sprintf("CAST(strftime('%%s', substr(%s, 1, 19)) AS INTEGER)", column)
		before = func(t time.Time) string { return fmt.Sprintf("%s < %d", epoch, t.Unix()) }
		div = "/"
	}
	shift := fmt.Sprint(g.segs[0].offset - g.align)
	if len(g.segs) > 1 {
		var b strings.Builder
		b.WriteString("CASE")
		for i, s := range g.segs[1:] {
			fmt.Fprintf(&b, " WHEN %s THEN %d", before(s.start), g.segs[i].offset-g.align)
		}
		fmt.Fprintf(&b, " ELSE %d END", g.segs[len(g.segs)-1].offset-g.align)
		shift = b.String()
	}
	// Local time less the alignment is positive from 1971 on (the range's
	// floor), so integer division is floor division in both dialects.
	return fmt.Sprintf("(%s + %s) %s %d", epoch, shift, div, g.width)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}
