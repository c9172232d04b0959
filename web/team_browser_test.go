package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"switchyard/internal/testenv"
)

// browserPage drives one dashboard tab and fails the test with the page's
// text and the errors it reported.
type browserPage struct {
	t     *testing.T
	ctx   context.Context
	watch *testenv.PageWatch
}

func (p browserPage) fail(format string, args ...any) {
	p.t.Helper()
	page, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.body.innerText`))
	p.t.Fatalf(format+"\n%s\npage:\n%s", append(args, p.watch, page)...)
}

// do runs the actions, failing with what about the page is wrong.
func (p browserPage) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	// Each step has its own time, so that a stuck one leaves the page to show.
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		p.fail("%s: %v", what, err)
	}
}

// waitText waits until the element's text contains want.
func (p browserPage) waitText(sel, want string) {
	p.t.Helper()
	js := fmt.Sprintf(`(() => { const n = document.querySelector(%q); return !!n && n.innerText.includes(%q); })()`, sel, want)
	if _, err := chromedp.Run(p.ctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		p.fail("%s never showed %q: %v", sel, want, err)
	}
}

// clickTwice clicks the button with this text twice in one go, as a
// double click does: the action must happen once.
func (p browserPage) clickTwice(text string) {
	p.t.Helper()
	js := fmt.Sprintf(`(() => { const b = [...document.querySelectorAll('button')].find(b => b.textContent === %q); if (!b) return false; b.click(); b.click(); return true; })()`, text)
	if ok, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](js)); err != nil || !ok {
		p.fail("no button %q to click (%v)", text, err)
	}
}

// count is how many elements the selector finds now.
func (p browserPage) count(sel string) int {
	p.t.Helper()
	n, err := chromedp.Run(p.ctx, chromedp.Evaluate[int](fmt.Sprintf(`document.querySelectorAll(%q).length`, sel)))
	if err != nil {
		p.fail("count %s: %v", sel, err)
	}
	return n
}

// value is an input's value, once it is visible.
func (p browserPage) value(sel string) string {
	p.t.Helper()
	p.do("wait for "+sel, chromedp.WaitVisible(chromedp.CSS(sel)))
	v, err := chromedp.Run(p.ctx, chromedp.Value(chromedp.CSS(sel)))
	if err != nil {
		p.fail("%s: %v", sel, err)
	}
	return v
}

// text is an element's text, once it is visible.
func (p browserPage) text(sel string) string {
	p.t.Helper()
	p.do("wait for "+sel, chromedp.WaitVisible(chromedp.CSS(sel)))
	v, err := chromedp.Run(p.ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		p.fail("%s: %v", sel, err)
	}
	return v
}

// memberRole is the member's role as the server has it, read over GraphQL
// with a session of its own ("" when not a member).
func memberRole(t *testing.T, base, member, adminEmail, adminPassword string) string {
	t.Helper()
	token := call(t, base, "/graphql", map[string]any{
		"query":     `mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { token } }`,
		"variables": map[string]any{"e": adminEmail, "p": adminPassword},
	})["data"].(map[string]any)["signIn"].(map[string]any)["token"].(string)
	users := call(t, base, "/graphql", map[string]any{"query": `{ users { user { email } role } }`},
		"Authorization", "Bearer "+token)["data"].(map[string]any)["users"].([]any)
	for _, u := range users {
		m := u.(map[string]any)
		if m["user"].(map[string]any)["email"] == member {
			return m["role"].(string)
		}
	}
	return ""
}

// firstRefusedThenOK answers the first delivery 500 and every later one 200.
type firstRefusedThenOK struct {
	mu     sync.Mutex
	bodies []string
}

func (h *firstRefusedThenOK) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body struct {
		EventType string `json:"event_type"`
	}
	_ = json.NewDecoder(r.Body).Decode(&body)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.bodies = append(h.bodies, body.EventType)
	if len(h.bodies) == 1 {
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte("receiver busy"))
		return
	}
	_, _ = w.Write([]byte("thanks"))
}

// TestDashboardTeamAndDevelopers drives the Team and Developers pages in
// headless Chromium. An admin signs up, invites an OPERATOR from the Team
// page and copies the link; signed out, the same browser accepts it as a
// new user, who sees no Team section, no team control at /dashboard/team
// and no key or webhook control on Developers (and the server refuses a
// forged read of the members). The admin signs in again, finds the member
// and the invitation in the audit log, changes the member's role with the
// menu and then removes them (the server has each; the log shows both),
// creates an API key on Developers whose shown secret lists payments over
// REST (a double click makes one key), sets the webhook URL to a local
// receiver, shows the signing key, and sees a payment's event in the event
// log with its refused first attempt (the answer's body, the next
// automatic attempt), then retries it (a double click sends it once) and
// sees it delivered.
func TestDashboardTeamAndDevelopers(t *testing.T) {
	exe := testenv.Chromium(t)
	srv := testenv.NewServer(t, testenv.Database(t))
	ctx := testenv.Browser(t, exe, 90*time.Second)
	watch, err := testenv.WatchPage(ctx)
	if err != nil {
		t.Fatalf("start Chromium (%s): %v", exe, err)
	}
	p := browserPage{t: t, ctx: ctx, watch: watch}
	const adminEmail, adminPassword = "admin@team.example", "a long team passphrase"
	const operatorEmail, operatorPassword = "ops@team.example", "an operator passphrase"

	p.do("sign up",
		chromedp.Navigate(srv.URL+"/dashboard/signup"),
		chromedp.WaitVisible(chromedp.CSS(`#field-merchantName`)),
		chromedp.SendKeys(chromedp.CSS(`#field-merchantName`), "Team Shop"),
		chromedp.SendKeys(chromedp.CSS(`#field-email`), adminEmail),
		chromedp.SendKeys(chromedp.CSS(`#field-password`), adminPassword),
		chromedp.Click(chromedp.CSS(`button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#payments-title`)),
	)

	// Team: the admin is the one member; an OPERATOR is invited with the
	// form, and the page shows the link to copy.
	p.do("open Team",
		chromedp.Click(chromedp.CSS(`nav a[href="/dashboard/team"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#team-title`)),
	)
	p.waitText(`[data-testid="members"] tbody`, adminEmail)
	p.do("invite",
		chromedp.SendKeys(chromedp.CSS(`#invite-email`), operatorEmail),
	)
	// A select's value set past React's own setter, then its change event,
	// as a person's choice does (SetValue alone leaves React's state).
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
		const sel = document.querySelector('#invite-role');
		Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set.call(sel, 'OPERATOR');
		return sel.dispatchEvent(new Event('change', {bubbles: true}));
	})()`)); err != nil {
		p.fail("choose OPERATOR: %v", err)
	}
	p.do("send the invitation", chromedp.Click(chromedp.Search(`//button[text()="Invite"]`)))
	link := p.value(`[data-testid="invitation-link"]`)
	if !strings.HasPrefix(link, srv.URL+"/dashboard/invite#inv_tok_") {
		p.fail("the invitation link is %q", link)
	}
	p.waitText("form", "makes them operator")

	// Signed out, the same browser opens the link and joins as a new user.
	p.do("sign out",
		chromedp.Click(chromedp.Search(`//button[text()="Sign out"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#auth-title`)),
	)
	p.do("open the invitation",
		chromedp.Navigate(link),
		chromedp.WaitVisible(chromedp.CSS(`#field-password`)),
	)
	p.waitText("#auth-title", "Join Team Shop")
	p.waitText("form", operatorEmail+" is invited as an operator.")
	p.do("accept",
		chromedp.SendKeys(chromedp.CSS(`#field-password`), operatorPassword),
		chromedp.Click(chromedp.CSS(`button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#payments-title`)),
	)
	p.waitText(".topbar", operatorEmail)
	p.waitText(".topbar", "operator")

	// The operator has no Team section, and the page itself offers nothing.
	if n := p.count(`nav a[href="/dashboard/team"]`); n != 0 {
		p.fail("an operator sees the Team section")
	}
	p.do("open /dashboard/team as an operator",
		chromedp.Navigate(srv.URL+"/dashboard/team"),
		chromedp.WaitVisible(chromedp.CSS(`#team-title`)),
	)
	p.waitText("main", "Only the merchant's admins")
	if n := p.count(`main button, main form, main select, [data-testid="members"]`); n != 0 {
		p.fail("an operator is offered %d team controls", n)
	}
	// Nor any key action on Developers (createApiKey, rollApiKey and
	// revokeApiKey are for admins and developers).
	p.do("open Developers as an operator",
		chromedp.Click(chromedp.CSS(`nav a[href="/dashboard/developers"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="api-keys"]`)),
	)
	p.waitText(`[data-testid="api-keys"] tbody`, "…")
	if n := p.count(`#key-name, [data-testid="api-keys"] button, [data-testid="signing-key"], #webhook-url:enabled`); n != 0 {
		p.fail("an operator is offered %d key or webhook controls", n)
	}
	// The server refuses what the page hides: a forged role change.
	opToken, err := chromedp.Run(ctx, chromedp.Evaluate[string](`sessionStorage.getItem("switchyard.session")`))
	if err != nil || !strings.HasPrefix(opToken, "sys_") {
		p.fail("the operator's session %q (%v)", opToken, err)
	}
	status, raw, err := testenv.Call(srv.URL, "POST", "/graphql", "", map[string]any{
		"query": `{ users { user { id email } role } }`,
	}, "Authorization", "Bearer "+opToken)
	if err != nil || !strings.Contains(string(raw), `"errors"`) || strings.Contains(string(raw), adminEmail) {
		p.fail("an operator read the members: %d %s %v", status, raw, err)
	}

	// The admin again: the audit log, newest first, shows the invitation
	// and the new member's joining.
	p.do("sign out the operator",
		chromedp.Click(chromedp.Search(`//button[text()="Sign out"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#field-email`)),
		chromedp.SendKeys(chromedp.CSS(`#field-email`), adminEmail),
		chromedp.SendKeys(chromedp.CSS(`#field-password`), adminPassword),
		chromedp.Click(chromedp.CSS(`button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#payments-title`)),
		chromedp.Click(chromedp.CSS(`nav a[href="/dashboard/team"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#audit-title`)),
	)
	p.waitText(`[data-testid="members"] tbody`, operatorEmail)
	p.waitText(`[data-testid="audit-log"] tbody`, "inviteUser")
	if got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll('[data-testid="members"] tbody tr')].find(r => r.innerText.includes("`+operatorEmail+`")).querySelector('select').value`)); err != nil || got != "OPERATOR" {
		p.fail("the operator's role shows as %q (%v)", got, err)
	}

	// The operator's role changed with the menu; then removed, after a
	// confirming click: the server keeps each, and the audit log shows both.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
		const row = [...document.querySelectorAll('[data-testid="members"] tbody tr')].find(r => r.innerText.includes("`+operatorEmail+`"));
		const sel = row.querySelector('select');
		Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set.call(sel, 'VIEWER');
		return sel.dispatchEvent(new Event('change', {bubbles: true}));
	})()`)); err != nil {
		p.fail("change the operator's role: %v", err)
	}
	p.waitText(`[data-testid="audit-log"] tbody`, "updateUserRole")
	if role := memberRole(t, srv.URL, operatorEmail, adminEmail, adminPassword); role != "VIEWER" {
		p.fail("after the change the member's role is %q", role)
	}
	p.do("remove the member",
		chromedp.Click(chromedp.Search(`//tr[contains(., "`+operatorEmail+`")]//button[text()="Remove…"]`)),
		chromedp.Click(chromedp.Search(`//button[text()="Remove `+operatorEmail+`"]`)),
	)
	p.waitText(`[data-testid="audit-log"] tbody`, "removeUser")
	if members := p.text(`[data-testid="members"] tbody`); strings.Contains(members, operatorEmail) {
		p.fail("the removed member is still listed:\n%s", members)
	}
	if role := memberRole(t, srv.URL, operatorEmail, adminEmail, adminPassword); role != "" {
		p.fail("after the removal the member's role is %q", role)
	}

	// Developers: a new secret key, shown once, lists payments over REST.
	p.do("create an API key",
		chromedp.Click(chromedp.CSS(`nav a[href="/dashboard/developers"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#key-name`)),
		chromedp.SendKeys(chromedp.CSS(`#key-name`), "ci server"),
	)
	p.clickTwice("Create key")
	secret := p.value(`[data-testid="new-secret-key"]`)
	if !strings.HasPrefix(secret, "snd_") {
		p.fail("the new secret key is %q", secret)
	}
	p.waitText(`[data-testid="api-keys"] tbody`, "ci server")
	if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`[...document.querySelectorAll('[data-testid="api-keys"] tbody tr')].filter(r => r.innerText.includes("ci server")).length`)); err != nil || n != 1 {
		p.fail("a double click made %d keys (%v)", n, err)
	}
	if status, raw, err := testenv.Call(srv.URL, "GET", "/payments/list", secret, nil); err != nil || status != 200 || !strings.Contains(string(raw), `"data"`) {
		p.fail("GET /payments/list with the shown key: %d %s %v", status, raw, err)
	}
	if pk := p.count(`[data-testid="publishable-key"]`); pk != 1 {
		p.fail("no publishable key shown")
	}
	p.waitText(`[data-testid="publishable-key"]`, "pk_")

	// Webhooks: the URL set with the form; a payment's event is refused
	// once by the receiver, and the log shows that attempt and the next.
	recv := &firstRefusedThenOK{}
	hooks := httptest.NewServer(recv)
	t.Cleanup(hooks.Close)
	p.do("set the webhook URL",
		chromedp.SendKeys(chromedp.CSS(`#webhook-url`), hooks.URL+"/hooks"),
		chromedp.Click(chromedp.Search(`//button[text()="Save webhook settings"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="webhooks-saved"]`)),
	)
	p.do("show the signing key", chromedp.Click(chromedp.Search(`//button[text()="Show signing key"]`)))
	if key := p.value(`[data-testid="signing-key"]`); len(key) < 16 {
		p.fail("the signing key shown is %q", key)
	}
	paid := call(t, srv.URL, "/payments", map[string]any{
		"amount": 2500, "currency": "USD", "confirm": true, "payment_method": "card",
		"payment_method_data": map[string]any{"card": map[string]any{
			"card_number": "4242424242424242", "card_exp_month": "12", "card_exp_year": fmt.Sprint(time.Now().Year() + 3), "card_cvc": "123",
		}},
	}, "api-key", secret)["payment_id"].(string)
	if _, err := srv.Webhooks.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	p.do("refresh the event log", chromedp.Click(chromedp.Search(`//button[text()="Refresh"]`)))
	p.waitText(`[data-testid="event-log"]`, paid)
	p.waitText(`[data-testid="event-log"]`, "payment_succeeded")
	p.waitText(`[data-testid="event-log"]`, "HTTP 500")
	p.waitText(`[data-testid="event-log"]`, "next attempt")
	p.waitText(`[data-testid="delivery-state"]`, "pending")
	if body, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid="delivery-attempt"] pre').textContent`)); err != nil || body != "receiver busy" {
		p.fail("the refused attempt's answer %q (%v)", body, err)
	}

	// A retry from the page (clicked twice: sent once) is delivered.
	p.clickTwice("Retry delivery")
	p.waitText(`[data-testid="event-log"]`, "manual retry")
	p.waitText(`[data-testid="event-log"]`, "HTTP 200")
	p.waitText(`[data-testid="delivery-state"]`, "delivered")
	if n := p.count(`[data-testid="delivery-attempt"]`); n != 2 {
		p.fail("%d delivery attempts shown, want 2", n)
	}
	recv.mu.Lock()
	got := append([]string(nil), recv.bodies...)
	recv.mu.Unlock()
	if len(got) != 2 || got[0] != "payment_succeeded" || got[1] != "payment_succeeded" {
		t.Errorf("the receiver got %v, want the payment's event twice", got)
	}

	if problems := watch.Problems(); len(problems) > 0 {
		t.Errorf("the page reported errors:\n%s", strings.Join(problems, "\n"))
	}
	// data: URLs are Chromium's own (the date field's calendar icon).
	for _, u := range watch.Requests() {
		if !strings.HasPrefix(u, srv.URL+"/") && !strings.HasPrefix(u, "data:") {
			t.Errorf("the page fetched %s: everything must come from the server", u)
		}
	}
}
