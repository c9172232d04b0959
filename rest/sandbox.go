package rest

import (
	"bytes"
	"crypto/rand"
	"html/template"
	"log/slog"
	"net/http"
	"net/url"

	"switchyard/ent/paymentintent"
	"switchyard/ent/schema/schematype"
	"switchyard/payments"
	"switchyard/payments/errs"
)

// The sandbox's 3-D Secure (and redirect) page. A payment that needs the
// customer answers next_action.redirect_to_url pointing here:
//
//	GET  /sandbox/authenticate/{attempt_id}?token=…           the page
//	POST /sandbox/authenticate/{attempt_id}/complete           token, approve=true|false
//
// The customer's browser carries no API key: the token (a keyed hash of the
// attempt id) authenticates it, and a wrong one is a 404 page. Approve and
// Decline are POST forms, so a link prefetcher or preview bot that GETs the
// URL cannot complete a payment. The answer sends the browser back to the
// shop as payments.MerchantReturn says: a 303 to the return_url with
// Hyperswitch's members in its query, or, for a profile with
// redirect_to_merchant_with_http_post, a page whose form POSTs them there
// (as Hyperswitch's redirection form does). Without a return_url it shows
// the result.

var sandboxPage = template.Must(template.New("page").Parse(pageHead + `<title>{{.Title}} · Switchyard sandbox</title>
<style>
  :root { color-scheme: light dark; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center;
         font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif;
         background: #f4f5f7; color: #1d2330; }
  main { width: min(92vw, 26rem); background: #fff; border-radius: 14px; padding: 2rem;
         box-shadow: 0 6px 28px rgba(20, 30, 60, .12); }
  .tag { display: inline-block; font-size: .75rem; font-weight: 600; letter-spacing: .06em;
         text-transform: uppercase; color: #7a4d00; background: #fff2d6; border-radius: 999px;
         padding: .15rem .6rem; }
  h1 { font-size: 1.3rem; margin: .8rem 0 .3rem; }
  p { margin: .3rem 0 1rem; color: #545b6b; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: .35rem 1rem; margin: 1.2rem 0 1.6rem; }
  dt { color: #6b7283; }
  dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
  .amount { font-size: 1.6rem; font-weight: 700; }
  .actions { display: flex; gap: .75rem; }
  .actions form { flex: 1; margin: 0; }
  button, a.button { width: 100%; font: inherit; font-weight: 600; border-radius: 10px; padding: .75rem 1rem;
           cursor: pointer; border: 1px solid transparent; display: inline-block; text-align: center;
           text-decoration: none; box-sizing: border-box; }
  .approve { background: #1f7a4d; color: #fff; }
  .decline { background: #fff; color: #a3261b; border-color: #e2b4ae; }
  a.button { background: #24324d; color: #fff; }
  @media (prefers-color-scheme: dark) {
    body { background: #12151c; color: #e6e9ef; }
    main { background: #1c212b; box-shadow: none; }
    p, dt { color: #a4abba; }
    .decline { background: transparent; color: #ff9d92; border-color: #6b3530; }
  }
</style>
</head>
<body>
<main>
  <span class="tag">Sandbox{{with .Connector}} · {{.}}{{end}}</span>
  <h1>{{.Title}}</h1>
  <p>{{.Message}}</p>
  {{with .Payment}}<dl>
    <dt>Amount</dt><dd class="amount">{{.Amount}} {{.Currency}}</dd>
    {{with .Connector}}<dt>Connector</dt><dd>{{.}}</dd>{{end}}
    <dt>Payment</dt><dd><code>{{.PaymentID}}</code></dd>
    {{with .Status}}<dt>Status</dt><dd>{{.}}</dd>{{end}}
  </dl>{{end}}
  {{if .Action}}<div class="actions">
    <form method="post" action="{{.Action}}">
      <input type="hidden" name="token" value="{{.Token}}">
      <input type="hidden" name="approve" value="true">
      <button type="submit" class="approve">Approve</button>
    </form>
    <form method="post" action="{{.Action}}">
      <input type="hidden" name="token" value="{{.Token}}">
      <input type="hidden" name="approve" value="false">
      <button type="submit" class="decline">Decline</button>
    </form>
  </div>{{end}}
  {{with .Continue}}<a class="button" href="{{.}}">Return to the merchant</a>{{end}}
  {{with .PostBack}}<form method="post" action="{{.Action}}">
    {{range .Params}}<input type="hidden" name="{{index . 0}}" value="{{index . 1}}">
    {{end}}<button type="submit" class="approve">Return to the merchant</button>
  </form>{{end}}
</main>
{{if .AutoPost}}<script nonce="{{.Nonce}}">HTMLFormElement.prototype.submit.call(document.forms[0]);</script>{{end}}
</body>
</html>
`))

// sandboxView is what the page shows.
type sandboxView struct {
	Title, Message, Connector string
	Payment                   *sandboxPayment
	// Action and Token make the Approve and Decline forms.
	Action, Token string
	// Continue links back to the merchant; PostBack is the form that
	// POSTs back to a merchant who takes its answer so, sent at once when
	// AutoPost (its script allowed by Nonce).
	Continue string
	PostBack *payments.MerchantReturn
	AutoPost bool
	Nonce    string
}

// backToMerchant makes v lead to the shop as r says.
func (v *sandboxView) backToMerchant(r *payments.MerchantReturn) {
	switch {
	case r == nil:
	case r.Post:
		v.PostBack = r
	default:
		v.Continue = r.URL
	}
}

type sandboxPayment struct {
	PaymentID, Amount, Currency, Connector, Status string
}

func registerSandboxPages(mux *http.ServeMux, svc *payments.Service) {
	registerThreeDSAuthorizePage(mux, svc)
	// The checkout posts an external authentication's challenge request
	// (creq) to the page: the page reads none of it.
	mux.HandleFunc("POST /sandbox/authenticate/{attempt_id}", sandboxPageHandler(svc))
	mux.HandleFunc("GET /sandbox/authenticate/{attempt_id}", sandboxPageHandler(svc))
	mux.HandleFunc("POST /sandbox/authenticate/{attempt_id}/complete", sandboxCompleteHandler(svc))
}

// sandboxPageHandler shows the Approve/Decline page.
func sandboxPageHandler(svc *payments.Service) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		attemptID := r.PathValue("attempt_id")
		token := r.URL.Query().Get("token")
		t, err := svc.AuthenticationPage(r.Context(), attemptID, token)
		if err != nil {
			sandboxError(w, r, err)
			return
		}
		v := sandboxView{Connector: t.Connector, Payment: sandboxPaymentOf(t)}
		if t.Status == paymentintent.StatusRequiresCustomerAction {
			v.Title = "Authenticate this payment"
			v.Message = "This sandbox page stands in for the bank's 3-D Secure check or the payment " +
				"method's own page. Approve to complete the payment, or decline it."
			v.Action = "/sandbox/authenticate/" + url.PathEscape(attemptID) + "/complete"
			v.Token = token
			v.Payment.Status = ""
		} else {
			v.Title = "Nothing to authenticate"
			v.Message = "This payment is no longer waiting for the customer."
			v.backToMerchant(t.Return)
		}
		renderSandbox(w, http.StatusOK, v)
	}
}

// sandboxCompleteHandler records the customer's answer, then goes on to
// the checkout's authorize page (an external authentication's challenge)
// or back to the shop.
func sandboxCompleteHandler(svc *payments.Service) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		approved, ok := approveForm(w, r)
		if !ok {
			return
		}
		t, err := svc.CompleteAuthentication(r.Context(), r.PathValue("attempt_id"), r.PostForm.Get("token"), approved)
		if err != nil {
			sandboxError(w, r, err)
			return
		}
		if t.AuthorizeURL != "" {
			w.Header().Set("Cache-Control", "no-store")
			http.Redirect(w, r, t.AuthorizeURL, http.StatusSeeOther)
			return
		}
		if t.Return != nil && !t.Return.Post {
			w.Header().Set("Cache-Control", "no-store")
			http.Redirect(w, r, t.Return.URL, http.StatusSeeOther)
			return
		}
		v := sandboxView{Connector: t.Connector, Payment: sandboxPaymentOf(t)}
		if t.Return != nil {
			v.Title, v.Message = "Returning to the merchant", "Continue if this page does not move on by itself."
			v.backToMerchant(t.Return)
			v.AutoPost, v.Nonce = true, rand.Text()
			renderSandbox(w, http.StatusOK, v)
			return
		}
		if t.Status == paymentintent.StatusFailed {
			v.Title, v.Message = "Payment failed", "The payment did not go through."
		} else {
			v.Title, v.Message = "Payment authenticated", "You can close this page."
		}
		renderSandbox(w, http.StatusOK, v)
	}
}

func sandboxPaymentOf(t *payments.RedirectTarget) *sandboxPayment {
	return &sandboxPayment{PaymentID: t.PaymentID, Amount: majorUnits(t.Amount, t.Currency),
		Currency: t.Currency, Connector: t.Connector, Status: string(t.Status)}
}

// sandboxError shows a domain error as a page: an unknown attempt or a
// wrong token is 404, anything else a 500 whose cause is logged.
func sandboxError(w http.ResponseWriter, r *http.Request, err error) {
	e, ok := errs.As(err)
	if ok && e.Kind == errs.KindNotFound {
		renderSandbox(w, http.StatusNotFound, sandboxView{Title: "Link not found",
			Message: "This authentication link is not valid. Return to the merchant and try again."})
		return
	}
	slog.ErrorContext(r.Context(), "sandbox authentication failed", "err", err)
	renderSandbox(w, http.StatusInternalServerError, sandboxView{Title: "Something went wrong",
		Message: "The payment could not be completed. Return to the merchant and try again."})
}

func renderSandbox(w http.ResponseWriter, status int, v sandboxView) {
	csp := "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'"
	if v.Nonce != "" {
		csp += "; script-src 'nonce-" + v.Nonce + "'"
	}
	// The token is in the page's URL: never send it on as a Referer.
	writePage(w, sandboxPage, v, status, map[string]string{"Content-Security-Policy": csp, "Referrer-Policy": "no-referrer"})
}

// writePage renders a page the customer's browser opens, not to be cached
// or sniffed, with the headers given.
func writePage(w http.ResponseWriter, page *template.Template, v any, status int, headers map[string]string) {
	var buf bytes.Buffer
	if err := page.Execute(&buf, v); err != nil {
		http.Error(w, "template error", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	for k, v := range headers {
		h.Set(k, v)
	}
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// majorUnits shows a minor-unit amount in major units: 1050 USD → "10.50".
func majorUnits(minor int64, currency string) string {
	return schematype.Currency(currency).Major(minor)
}
