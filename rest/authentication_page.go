package rest

import (
	"errors"
	"net/http"
	"net/url"

	entauth "switchyard/ent/authentication"
	"switchyard/payments/authentication"
	"switchyard/payments/errs"
)

// The sandbox's challenge page for authentications (POST /authentication
// with a challenge card answers acs_url pointing here):
//
//	GET  /sandbox/authentication/{authentication_id}?token=…      the page
//	POST /sandbox/authentication/{authentication_id}/complete      token, approve=true|false
//
// It is the payment page's (sandbox.go) for an authentication: the token
// authenticates the customer's browser, a wrong one is a 404 page,
// Approve and Decline are POST forms, and the answer sends the browser to
// the return_url with the authentication's id and status (303), or shows
// the result when there is none.

func registerAuthenticationPages(mux *http.ServeMux, svc *authentication.Service) {
	mux.HandleFunc("GET /sandbox/authentication/{authentication_id}", func(w http.ResponseWriter, r *http.Request) {
		id, token := r.PathValue("authentication_id"), r.URL.Query().Get("token")
		c, err := svc.ChallengePage(r.Context(), id, token)
		if err != nil {
			sandboxError(w, r, err)
			return
		}
		v := challengeView(c)
		if c.Status == entauth.StatusPending && c.TransStatus != nil {
			v.Title = "Authenticate this card"
			v.Message = "This sandbox page stands in for the card issuer's 3-D Secure challenge of " +
				majorUnits(c.Amount, string(c.Currency)) + " " + string(c.Currency) +
				". Approve to authenticate the cardholder, or decline."
			v.Action = "/sandbox/authentication/" + url.PathEscape(id) + "/complete"
			v.Token = token
		} else {
			v.Title, v.Message = "Nothing to authenticate", "This authentication is no longer waiting for the cardholder."
			v.Continue = c.Return
		}
		renderSandbox(w, http.StatusOK, v)
	})

	mux.HandleFunc("POST /sandbox/authentication/{authentication_id}/complete", func(w http.ResponseWriter, r *http.Request) {
		approved, ok := approveForm(w, r)
		if !ok {
			return
		}
		c, err := svc.CompleteChallenge(r.Context(), r.PathValue("authentication_id"), r.PostForm.Get("token"), approved)
		if errors.Is(err, errs.ErrAuthenticationStatusInvalid) {
			// A second press, or a page left open: the first answer stands.
			renderSandbox(w, http.StatusConflict, sandboxView{Title: "Already answered",
				Message: "This challenge has been answered already; its first answer stands."})
			return
		}
		if err != nil {
			sandboxError(w, r, err)
			return
		}
		if c.Return != "" {
			w.Header().Set("Cache-Control", "no-store")
			http.Redirect(w, r, c.Return, http.StatusSeeOther)
			return
		}
		v := challengeView(c)
		if c.Status == entauth.StatusSuccess {
			v.Title, v.Message = "Card authenticated", "You can close this page."
		} else {
			v.Title, v.Message = "Authentication failed", "The cardholder was not authenticated."
		}
		renderSandbox(w, http.StatusOK, v)
	})
}

// challengeView is the page's frame for c.
func challengeView(c *authentication.Challenge) sandboxView {
	return sandboxView{Connector: deref(c.AuthenticationConnector)}
}

// approveForm reads the page's form: approve=true or approve=false. A bad
// form is answered here (400) and ok is false.
func approveForm(w http.ResponseWriter, r *http.Request) (approved, ok bool) {
	if err := r.ParseForm(); err != nil {
		renderSandbox(w, http.StatusBadRequest, sandboxView{Title: "Bad request", Message: "The form could not be read."})
		return false, false
	}
	switch r.PostForm.Get("approve") {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	renderSandbox(w, http.StatusBadRequest, sandboxView{Title: "Bad request",
		Message: "The form must say approve=true or approve=false."})
	return false, false
}
