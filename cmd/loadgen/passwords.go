package main

// -mode passwords: the memory of password hashing under a burst.
//
//	go run ./cmd/loadgen -mode passwords
//	go run ./cmd/loadgen -mode passwords -bin /tmp/switchyard-old   # another build
//
// It builds cmd/switchyard (or takes -bin) and starts `switchyard serve` as
// a process of its own on the embedded default (SQLite and the in-process
// Redis in a fresh temporary data directory, nothing else set), so the
// memory read from /proc/<pid>/status is the server's alone. Then it fires
// -clients (100) signUp mutations at once, each a new email, signs up
// one at a time those the burst refused, and then fires as many signIn
// mutations at once for those users. For each burst it
// prints the answers (successes, and each error code with how many carried
// Retry-After), the slowest answer, and the server's RSS: before, its peak
// during the burst (VmHWM, reset before each) and right after, then again
// -settle later. It exits 1 unless every answer was a success or an RL_
// refusal and the peak stayed within passwordsRSSGoal.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// passwordsRSSGoal is the most the server's RSS may reach in a burst.
const passwordsRSSGoal = 300 << 20

// passwordsSettle is how long after a burst the RSS is read again.
const passwordsSettle = 5 * time.Second

const (
	burstPassword = "correct horse battery"
	signUpDoc     = `mutation($e: String!, $p: String!) { signUp(email: $e, password: $p, merchantName: "Load") { session { token } } }`
	signInDoc     = `mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { token } }`
)

// burstResult is what one burst measured.
type burstResult struct {
	name                string
	answers             map[string]int // "ok" or the error code (or the transport's failure)
	retryAfter          map[string]int // of those, how many carried Retry-After
	slowest             time.Duration
	before, peak, after int64
	settled             int64
	unexpected          []string
	statuses            map[int]int
}

// runPasswords is -mode passwords.
func runPasswords(ctx context.Context, o options, out io.Writer) error {
	if o.clients < 1 || o.clients > 1000 {
		return fmt.Errorf("-clients 1..1000 for -mode passwords")
	}
	work, err := os.MkdirTemp("", "loadgen-passwords-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	bin, err := buildServer(ctx, o, work)
	if err != nil {
		return err
	}
	dataDir := filepath.Join(work, "data")
	if err := os.Mkdir(dataDir, 0o700); err != nil {
		return err
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SWITCHYARD_") {
			env = append(env, kv)
		}
	}
	env = append(env, "SWITCHYARD_DATA_DIR="+dataDir, "SWITCHYARD_LOG_LEVEL="+o.serverLog)
	srv, err := startServer(ctx, bin, env, dataDir)
	if err != nil {
		return err
	}
	defer func() { _ = srv.stop() }()
	fmt.Fprintf(out, "switchyard serve (embedded default) pid %d at %s; %d clients a burst\n", srv.pid(), srv.url, o.clients)

	emails := make([]string, o.clients)
	for i := range emails {
		emails[i] = fmt.Sprintf("burst%04d@loadgen.example", i)
	}
	var results []burstResult
	for _, b := range []struct{ name, doc string }{{"signUp", signUpDoc}, {"signIn", signInDoc}} {
		r, err := passwordBurst(ctx, srv, b.name, b.doc, emails)
		if err != nil {
			return err
		}
		results = append(results, r)
		if b.name == "signUp" {
			// Those refused sign up one at a time, so that every sign-in
			// of the next burst has a user.
			if err := signUpRest(ctx, srv.url, emails); err != nil {
				return err
			}
		}
	}
	return passwordsSummary(out, results)
}

// signUpRest signs up, one at a time, every email the burst did not.
func signUpRest(ctx context.Context, baseURL string, emails []string) error {
	for _, email := range emails {
		body, err := json.Marshal(map[string]any{"query": signUpDoc, "variables": map[string]any{"e": email, "p": burstPassword}})
		if err != nil {
			return err
		}
		for {
			answer, _, _ := postGraphQL(ctx, oneShot, baseURL, body)
			if answer == "ok" || answer == "UR_03" { // UR_03: signed up in the burst
				break
			}
			if !strings.HasPrefix(answer, "RL_") {
				return fmt.Errorf("signUp %s after the burst: %s", email, answer)
			}
			time.Sleep(time.Second)
		}
	}
	return nil
}

// passwordBurst sends one mutation per email at once and reads the
// server's memory around it.
func passwordBurst(ctx context.Context, srv *serverProcess, name, doc string, emails []string) (burstResult, error) {
	r := burstResult{name: name, answers: map[string]int{}, retryAfter: map[string]int{}, statuses: map[int]int{}}
	time.Sleep(time.Second) // let the previous burst's garbage be collected as it would be
	mem, err := readMemory(srv.pid())
	if err != nil {
		return r, err
	}
	r.before = mem.rss
	if err := resetPeak(srv.pid()); err != nil {
		return r, err
	}
	client := &http.Client{Timeout: requestTimeout, Transport: &http.Transport{MaxIdleConnsPerHost: len(emails)}}
	defer client.CloseIdleConnections()
	start := make(chan struct{})
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, email := range emails {
		body, err := json.Marshal(map[string]any{"query": doc, "variables": map[string]any{"e": email, "p": burstPassword}})
		if err != nil {
			return r, err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			began := time.Now()
			answer, status, retry := postGraphQL(ctx, client, srv.url, body)
			took := time.Since(began)
			mu.Lock()
			defer mu.Unlock()
			r.answers[answer]++
			r.statuses[status]++
			if retry {
				r.retryAfter[answer]++
			}
			r.slowest = max(r.slowest, took)
			if answer != "ok" && !strings.HasPrefix(answer, "RL_") {
				r.unexpected = append(r.unexpected, answer)
			}
		}()
	}
	close(start)
	wg.Wait()
	if mem, err = readMemory(srv.pid()); err != nil {
		return r, err
	}
	r.after, r.peak = mem.rss, mem.peak
	select {
	case <-ctx.Done():
		return r, ctx.Err()
	case <-time.After(passwordsSettle):
	}
	if mem, err = readMemory(srv.pid()); err != nil {
		return r, err
	}
	r.settled = mem.rss
	return r, nil
}

// postGraphQL sends one operation and says how it was answered: "ok", the
// first error's code, or the transport's failure; its status, and whether
// it carried Retry-After.
func postGraphQL(ctx context.Context, client *http.Client, baseURL string, body []byte) (string, int, bool) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, baseURL+"/graphql", bytes.NewReader(body))
	if err != nil {
		return "request: " + err.Error(), 0, false
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return "transport: " + err.Error(), 0, false
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return "read: " + err.Error(), resp.StatusCode, false
	}
	var answer struct {
		Errors []struct {
			Extensions struct{ Code string }
		}
	}
	if err := json.Unmarshal(raw, &answer); err != nil {
		return fmt.Sprintf("status %d, not JSON", resp.StatusCode), resp.StatusCode, false
	}
	retry := resp.Header.Get("Retry-After") != ""
	if len(answer.Errors) > 0 {
		return answer.Errors[0].Extensions.Code, resp.StatusCode, retry
	}
	return "ok", resp.StatusCode, retry
}

func passwordsSummary(out io.Writer, results []burstResult) error {
	fmt.Fprintf(out, "\n%-7s %-34s %9s %10s %10s %10s %10s %9s\n", "burst", "answers", "statuses", "RSS before", "RSS peak", "RSS after", "+"+passwordsSettle.String(), "slowest")
	var failed []string
	for _, r := range results {
		fmt.Fprintf(out, "%-7s %-34s %9s %10s %10s %10s %10s %9s\n", r.name, countsText(r.answers, r.retryAfter), statusText(r.statuses),
			mb(r.before), mb(r.peak), mb(r.after), mb(r.settled), r.slowest.Round(time.Millisecond))
		if len(r.unexpected) > 0 {
			failed = append(failed, fmt.Sprintf("%s: %d answers neither a success nor an RL_ refusal, e.g. %s", r.name, len(r.unexpected), r.unexpected[0]))
		}
		if r.peak > passwordsRSSGoal {
			failed = append(failed, fmt.Sprintf("%s: the server's RSS peaked at %s, over %s", r.name, mb(r.peak), mb(passwordsRSSGoal)))
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("goals not met:\n  %s", strings.Join(failed, "\n  "))
	}
	fmt.Fprintf(out, "goals met: every answer a success or an RL_ refusal, server RSS ≤ %s\n", mb(passwordsRSSGoal))
	return nil
}

// countsText writes answers as "ok 97, RL_02 3 (3 Retry-After)".
func countsText(answers, retryAfter map[string]int) string {
	keys := make([]string, 0, len(answers))
	for k := range answers {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var parts []string
	for _, k := range keys {
		p := fmt.Sprintf("%s %d", k, answers[k])
		if n := retryAfter[k]; n > 0 {
			p += fmt.Sprintf(" (%d Retry-After)", n)
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ", ")
}

func statusText(statuses map[int]int) string {
	var parts []string
	for s, n := range statuses {
		parts = append(parts, fmt.Sprintf("%d×%d", n, s))
	}
	slices.Sort(parts)
	return strings.Join(parts, " ")
}
