package graph_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"switchyard/ent"
	"switchyard/ent/dispute"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentintent"
	"switchyard/ent/schema/schematype"
	"switchyard/internal/ids"
	"switchyard/internal/testenv"
	"switchyard/payments/merchant"
)

// analyticsRow is one row the analytics test wrote, as the test keeps it:
// when, which profile, and the values the queries group and sum.
type analyticsRow struct {
	at                           time.Time
	profile                      string
	status, key2, key3, currency string // key2: connector (payments) or account (attempts); key3: payment method
	amount                       int64
	outcome                      string // attempts: succeeded, failed or pending
}

// analyticsSeed is what seedAnalytics wrote for one merchant.
type analyticsSeed struct {
	payments, attempts, refunds, disputes []analyticsRow
	connectorOf                           map[string]string // account → connector name
}

// Attempt statuses by the outcome the test gives them.
var attemptOutcomes = map[string][]string{
	"succeeded": {"charged", "authorized", "voided"},
	"failed":    {"failure", "authorization_failed"},
	"pending":   {"pending", "started"},
}

// seedAnalytics writes n payments for the tenant, at random instants of
// [from, to) with microseconds, some exactly at from and just before to,
// plus a few outside it; with random statuses, connectors, methods,
// currencies, amounts and profiles (the default and second); attempts on
// those with a connector, and refunds and disputes on a share. It keeps
// what it wrote for the test to count.
func seedAnalytics(t *testing.T, srv *testenv.Server, tn tenant, second string, from, to time.Time, n int, seed uint64) analyticsSeed {
	t.Helper()
	ctx := merchantCtx(tn.merchantID)
	c := srv.Store.Client
	rng := rand.New(rand.NewPCG(seed, 7))
	out := analyticsSeed{connectorOf: map[string]string{}}
	mcas := map[string]*ent.MerchantConnectorAccount{}
	for i, conn := range []string{"stripe_test", "adyen"} {
		prof := tn.profileID
		if i == 1 {
			prof = second
		}
		m, err := c.MerchantConnectorAccount.Create().SetProfileID(prof).SetConnectorType("payment_processor").
			SetConnectorName(conn).SetConnectorLabel("analytics_" + conn).Save(ctx)
		if err != nil {
			t.Fatal(err)
		}
		mcas[conn] = m
		out.connectorOf[m.ID] = conn
	}
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	span := to.Sub(from)
	var pays []*ent.PaymentIntentCreate
	var atts []*ent.PaymentAttemptCreate
	var refs []*ent.RefundCreate
	var disps []*ent.DisputeCreate
	for i := range n {
		at := from.Add(time.Duration(rng.Int64N(int64(span)))).Truncate(time.Microsecond)
		switch i {
		case 0:
			at = from
		case 1:
			at = to.Add(-time.Microsecond)
		case 2:
			at = to // outside
		case 3:
			at = from.Add(-time.Microsecond) // outside
		}
		prof := tn.profileID
		if rng.IntN(4) == 0 {
			prof = second
		}
		p := analyticsRow{at: at, profile: prof, currency: pick("USD", "EUR", "JPY"), amount: int64(1 + rng.IntN(1_000_000)),
			status: pick("succeeded", "failed", "requires_payment_method", "requires_capture", "processing"),
			key2:   pick("stripe_test", "adyen", ""), key3: pick("card", "upi", "")}
		id := ids.New(ids.Payment)
		pc := c.PaymentIntent.Create().SetID(id).SetPaymentID(id).SetProfileID(p.profile).SetAmount(p.amount).
			SetCurrency(schematype.Currency(p.currency)).SetStatus(paymentintent.Status(p.status)).
			SetClientSecret(ids.ClientSecret(id)).SetExpiresOn(at.Add(15 * time.Minute)).SetCreatedAt(at).SetModifiedAt(at)
		if p.key2 != "" {
			pc.SetConnector(p.key2).SetMerchantConnectorID(mcas[p.key2].ID)
		}
		if p.key3 != "" {
			pc.SetPaymentMethod(p.key3)
		}
		pays = append(pays, pc)
		out.payments = append(out.payments, p)
		attemptID := ids.New(ids.Attempt)
		if p.key2 != "" {
			outcome := pick("succeeded", "failed", "pending")
			status := attemptOutcomes[outcome][rng.IntN(len(attemptOutcomes[outcome]))]
			aAt := at.Add(time.Duration(rng.IntN(3000)) * time.Millisecond)
			atts = append(atts, c.PaymentAttempt.Create().SetID(attemptID).SetPaymentIntentID(id).
				SetStatus(paymentattempt.Status(status)).SetAmount(p.amount).SetNetAmount(p.amount).
				SetCurrency(schematype.Currency(p.currency)).SetConnector(p.key2).SetMerchantConnectorID(mcas[p.key2].ID).
				SetCreatedAt(aAt).SetModifiedAt(aAt))
			// An attempt is its account's profile's (the account decides).
			out.attempts = append(out.attempts, analyticsRow{at: aAt, profile: mcas[p.key2].ProfileID, key2: mcas[p.key2].ID, outcome: outcome})
		}
		if rng.IntN(3) == 0 {
			r := analyticsRow{at: at.Add(time.Duration(rng.IntN(48*3600)) * time.Second), profile: p.profile,
				status: pick("succeeded", "failed", "pending", "review"), currency: p.currency, amount: 1 + p.amount/int64(1+rng.IntN(4))}
			rid := ids.New(ids.Refund)
			refs = append(refs, c.Refund.Create().SetID(rid).SetRefundID(rid).SetPaymentIntentID(id).SetAttemptID(attemptID).
				SetProfileID(r.profile).SetConnector("stripe_test").SetAmount(r.amount).SetCurrency(schematype.Currency(r.currency)).
				SetStatus(refundStatus(r.status)).SetCreatedAt(r.at).SetModifiedAt(r.at))
			out.refunds = append(out.refunds, r)
		}
		if rng.IntN(5) == 0 {
			d := analyticsRow{at: at.Add(time.Duration(rng.IntN(72*3600)) * time.Second), profile: p.profile,
				status: pick("dispute_opened", "dispute_won", "dispute_lost", "dispute_challenged")}
			disps = append(disps, c.Dispute.Create().SetPaymentIntentID(id).SetAttemptID(attemptID).SetProfileID(d.profile).
				SetAmount(p.amount).SetCurrency(schematype.Currency(p.currency)).SetConnector("stripe_test").
				SetConnectorStatus("needs_response").SetConnectorDisputeID(fmt.Sprintf("cd_%d", i)).
				SetDisputeStatus(dispute.DisputeStatus(d.status)).SetCreatedAt(d.at).SetModifiedAt(d.at))
			out.disputes = append(out.disputes, d)
		}
	}
	for _, err := range []error{
		c.PaymentIntent.CreateBulk(pays...).Exec(ctx), c.PaymentAttempt.CreateBulk(atts...).Exec(ctx),
		c.Refund.CreateBulk(refs...).Exec(ctx), c.Dispute.CreateBulk(disps...).Exec(ctx),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// localStart is the UTC instant the local hour, day or week (from Monday)
// holding at begins, by time.Time arithmetic alone: a repeated local hour
// (clocks going back) starts at its first occurrence. Zones here change
// clocks by whole hours, away from midnight.
func localStart(at time.Time, loc *time.Location, bucket string) time.Time {
	l := at.In(loc)
	y, m, d := l.Date()
	switch bucket {
	case "":
		return time.Time{}
	case "HOUR":
		s := at.Truncate(time.Hour)
		for p := s.Add(-time.Hour); p.In(loc).Hour() == l.Hour() && p.In(loc).Day() == d; p = p.Add(-time.Hour) {
			s = p
		}
		return s
	case "WEEK":
		d -= (int(l.Weekday()) + 6) % 7
	}
	return time.Date(y, m, d, 0, 0, 0, 0, loc).UTC()
}

// tally is a group's figures.
type tally struct{ count, volume, succeeded, failed int64 }

// expect groups the rows in [from, to) (of profile, when set) by local
// bucket and by what key says, as the test counts them.
func expect(rows []analyticsRow, from, to time.Time, loc *time.Location, bucket, profile string, key func(analyticsRow) string) map[string]tally {
	out := map[string]tally{}
	for _, r := range rows {
		if r.at.Before(from) || !r.at.Before(to) || (profile != "" && r.profile != profile) {
			continue
		}
		start := from
		if bucket != "" {
			start = localStart(r.at, loc, bucket)
		}
		k := start.UTC().Format(time.RFC3339) + "|" + key(r)
		g := out[k]
		g.count++
		g.volume += r.amount
		switch r.outcome {
		case "succeeded":
			g.succeeded++
		case "failed":
			g.failed++
		}
		out[k] = g
	}
	return out
}

// TestAnalyticsInGraphQL: every analytics query, bucketed by hour, day and
// week in several zones (across Berlin's autumn clock change) and whole,
// for the merchant and for one profile, answers exactly the counts, sums
// and success rates the test computes from the rows it wrote; another
// merchant's rows, and rows outside the range, never count.
func TestAnalyticsInGraphQL(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	tn := newTenant(t, srv, "merchant_analytics")
	other := newTenant(t, srv, "merchant_analytics_other")
	second, err := srv.Merchants.CreateProfile(merchantCtx(tn.merchantID), merchant.ProfileInput{})
	if err != nil {
		t.Fatal(err)
	}
	otherSecond, err := srv.Merchants.CreateProfile(merchantCtx(other.merchantID), merchant.ProfileInput{})
	if err != nil {
		t.Fatal(err)
	}
	// Ten days around the last Sunday of October 2024 (Berlin: 03:00 CEST
	// becomes 02:00 CET; New York changes a week later).
	from := time.Date(2024, 10, 22, 9, 17, 0, 0, time.UTC)
	to := time.Date(2024, 11, 5, 13, 0, 0, 0, time.UTC)
	w := seedAnalytics(t, srv, tn, second.ID, from, to, 500, 1)
	seedAnalytics(t, srv, other, otherSecond.ID, from, to, 200, 2)
	c := newGQL(t, srv.URL, tn.key)

	rangeVar := func(from, to time.Time, bucket, zone, profile string) map[string]any {
		r := map[string]any{"from": from.Format(time.RFC3339Nano), "to": to.Format(time.RFC3339Nano)}
		if bucket != "" {
			r["bucket"] = bucket
		}
		if zone != "" {
			r["timeZone"] = zone
		}
		if profile != "" {
			r["profileID"] = profile
		}
		return r
	}
	type window struct {
		name         string
		from, to     time.Time
		bucket, zone string
		profile      string
	}
	berlinSat := time.Date(2024, 10, 26, 0, 0, 0, 0, mustZone(t, "Europe/Berlin"))
	windows := []window{
		{"days in Berlin", from, to, "DAY", "Europe/Berlin", ""},
		{"hours across the change", berlinSat, berlinSat.Add(49 * time.Hour), "HOUR", "Europe/Berlin", ""},
		{"weeks in New York", from, to, "WEEK", "America/New_York", ""},
		{"days in Kolkata, one profile", from, to, "DAY", "Asia/Kolkata", second.ID},
		{"whole, UTC", from, to, "", "", ""},
		{"whole, default profile", from.Add(time.Hour), to.Add(-time.Hour), "", "UTC", tn.profileID},
	}
	for _, win := range windows {
		t.Run(win.name, func(t *testing.T) {
			c := c.on(t)
			loc := time.UTC
			if win.zone != "" {
				loc = mustZone(t, win.zone)
			}
			vars := map[string]any{"r": rangeVar(win.from, win.to, win.bucket, win.zone, win.profile)}
			for dim, key := range map[string]func(analyticsRow) string{
				"STATUS":         func(r analyticsRow) string { return r.status + "|" + r.currency },
				"CONNECTOR":      func(r analyticsRow) string { return r.key2 + "|" + r.currency },
				"PAYMENT_METHOD": func(r analyticsRow) string { return r.key3 + "|" + r.currency },
				"CURRENCY":       func(r analyticsRow) string { return r.currency + "|" + r.currency },
			} {
				var got struct {
					PaymentAnalytics []struct {
						BucketStart, Key, Currency string
						Count, Volume              int64
					}
				}
				c.must(`query($r: AnalyticsRange!, $g: PaymentDimension!) { paymentAnalytics(range: $r, groupBy: $g) {
					bucketStart key currency count volume } }`, map[string]any{"r": vars["r"], "g": dim}, &got)
				have := map[string]tally{}
				for _, m := range got.PaymentAnalytics {
					have[m.BucketStart+"|"+m.Key+"|"+m.Currency] = tally{count: m.Count, volume: m.Volume}
				}
				compareTallies(t, "payments by "+dim, have, expect(w.payments, win.from, win.to, loc, win.bucket, win.profile, key))
			}

			var refunds struct {
				RefundAnalytics []struct {
					BucketStart, Status, Currency string
					Count, Volume                 int64
				}
			}
			c.must(`query($r: AnalyticsRange!) { refundAnalytics(range: $r) { bucketStart status currency count volume } }`, vars, &refunds)
			have := map[string]tally{}
			for _, m := range refunds.RefundAnalytics {
				have[m.BucketStart+"|"+m.Status+"|"+m.Currency] = tally{count: m.Count, volume: m.Volume}
			}
			compareTallies(t, "refunds", have, expect(w.refunds, win.from, win.to, loc, win.bucket, win.profile,
				func(r analyticsRow) string { return r.status + "|" + r.currency }))

			var disputes struct {
				DisputeAnalytics []struct {
					BucketStart, Status string
					Count               int64
				}
			}
			c.must(`query($r: AnalyticsRange!) { disputeAnalytics(range: $r) { bucketStart status count } }`, vars, &disputes)
			have = map[string]tally{}
			for _, m := range disputes.DisputeAnalytics {
				have[m.BucketStart+"|"+m.Status] = tally{count: m.Count}
			}
			want := expect(w.disputes, win.from, win.to, loc, win.bucket, win.profile, func(r analyticsRow) string { return r.status })
			for k, g := range want {
				want[k] = tally{count: g.count}
			}
			compareTallies(t, "disputes", have, want)

			var rates struct {
				ConnectorSuccessRateSeries []struct {
					MerchantConnectorID, Connector, BucketStart string
					Attempts, Succeeded, Failed                 int64
					SuccessRate                                 *float64
				}
			}
			c.must(`query($r: AnalyticsRange!) { connectorSuccessRateSeries(range: $r) {
				merchantConnectorID connector bucketStart attempts succeeded failed successRate } }`, vars, &rates)
			have = map[string]tally{}
			for _, m := range rates.ConnectorSuccessRateSeries {
				decided := m.Succeeded + m.Failed
				if m.Connector != w.connectorOf[m.MerchantConnectorID] || (decided == 0) != (m.SuccessRate == nil) ||
					(decided > 0 && *m.SuccessRate != float64(m.Succeeded)/float64(decided)) {
					t.Errorf("success rate row %+v", m)
				}
				have[m.BucketStart+"|"+m.MerchantConnectorID] = tally{count: m.Attempts, succeeded: m.Succeeded, failed: m.Failed}
			}
			want = expect(w.attempts, win.from, win.to, loc, win.bucket, win.profile, func(r analyticsRow) string { return r.key2 })
			for k, g := range want {
				g.volume = 0
				want[k] = g
			}
			compareTallies(t, "success rates", have, want)
		})
	}

	// Another merchant sees its own figures only: its 200 payments, minus
	// the two seeded outside the range.
	var theirs struct{ PaymentAnalytics []struct{ Count int64 } }
	newGQL(t, srv.URL, other.key).must(`query($r: AnalyticsRange!) { paymentAnalytics(range: $r, groupBy: CURRENCY) { count } }`,
		map[string]any{"r": rangeVar(from, to, "", "", "")}, &theirs)
	var total int64
	for _, m := range theirs.PaymentAnalytics {
		total += m.Count
	}
	if total != 198 {
		t.Fatalf("the other merchant counts %d payments, want 198", total)
	}
}

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// compareTallies fails unless the query's groups are exactly the test's.
func compareTallies(t *testing.T, what string, have, want map[string]tally) {
	t.Helper()
	if len(want) == 0 {
		t.Fatalf("%s: the test expects no group; the window is wrong", what)
	}
	var diffs []string
	for k, w := range want {
		if have[k] != w {
			diffs = append(diffs, fmt.Sprintf("%s: got %+v, want %+v", k, have[k], w))
		}
	}
	for k, h := range have {
		if _, ok := want[k]; !ok {
			diffs = append(diffs, fmt.Sprintf("%s: got %+v, want none", k, h))
		}
	}
	slices.Sort(diffs)
	if len(diffs) > 0 {
		t.Errorf("%s: %d of %d groups differ:\n%s", what, len(diffs), len(want), strings.Join(diffs, "\n"))
	}
}

// TestAnalyticsRefusals: each bad range is refused with its code, and
// with the field at fault where there is one; nothing is a 500.
func TestAnalyticsRefusals(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	tn := newTenant(t, srv, "merchant_analytics_refusals")
	other := newTenant(t, srv, "merchant_analytics_refusals_other")
	c := newGQL(t, srv.URL, tn.key)
	from := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	r := func(kv ...any) map[string]any {
		m := map[string]any{"from": from.Format(time.RFC3339), "to": from.Add(24 * time.Hour).Format(time.RFC3339)}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	for _, tc := range []struct {
		name, code, field string
		rng               map[string]any
	}{
		{"to before from", "IR_07", "to", r("to", from.Add(-time.Hour).Format(time.RFC3339))},
		{"to equal to from", "IR_07", "to", r("to", from.Format(time.RFC3339))},
		{"before 1971", "IR_07", "from", r("from", "1969-07-20T20:17:00Z")},
		{"unknown time zone", "IR_07", "timeZone", r("timeZone", "Mars/Olympus_Mons")},
		{"the server's local zone", "IR_07", "timeZone", r("timeZone", "Local")},
		{"too many hours", "IR_07", "bucket", r("to", from.Add(32*24*time.Hour).Format(time.RFC3339), "bucket", "HOUR")},
		{"too many days", "IR_07", "bucket", r("to", from.Add(800*24*time.Hour).Format(time.RFC3339), "bucket", "DAY")},
		{"another merchant's profile", "HE_02", "", r("profileID", other.profileID)},
		{"no such profile", "HE_02", "", r("profileID", "pro_nosuchprofile")},
		{"an unknown bucket", "IR_06", "", r("bucket", "MONTH")},
		{"not a time", "IR_06", "", r("from", "yesterday")},
		{"no end", "IR_06", "", map[string]any{"from": from.Format(time.RFC3339)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, q := range []string{
				`query($r: AnalyticsRange!) { paymentAnalytics(range: $r, groupBy: STATUS) { count } }`,
				`query($r: AnalyticsRange!) { connectorSuccessRateSeries(range: $r) { attempts } }`,
				`query($r: AnalyticsRange!) { refundAnalytics(range: $r) { count } }`,
				`query($r: AnalyticsRange!) { disputeAnalytics(range: $r) { count } }`,
			} {
				e := c.on(t).fails(tc.code, q, map[string]any{"r": tc.rng})
				if field, _ := e.Extensions["field"].(string); field != tc.field {
					t.Errorf("%s: field %q, want %q (%s)", compact(q), field, tc.field, e.Message)
				}
			}
		})
	}
	// The most buckets allowed are allowed: 744 hours.
	c.must(`query($r: AnalyticsRange!) { paymentAnalytics(range: $r, groupBy: STATUS) { count } }`,
		map[string]any{"r": r("to", from.Add(744*time.Hour).Format(time.RFC3339), "bucket", "HOUR")}, nil)
}
