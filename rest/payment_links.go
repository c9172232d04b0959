package rest

import (
	"cmp"
	"log/slog"
	"maps"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"switchyard/ent/schema/schematype"
	"switchyard/payments"
	"switchyard/payments/errs"
)

// Payment links: GET /payment_link/{payment_link_id} (the link's record,
// with the secret or publishable key) and the hosted pages the link opens,
// which take no key (the customer's browser has none):
//
//	GET /payment_link/{merchant_id}/{payment_id}          the checkout, or the payment's outcome
//	GET /payment_link/s/{merchant_id}/{payment_id}        the same, in a frame of the profile's allowed_domains only
//	GET /payment_link/status/{merchant_id}/{payment_id}   the outcome, where the checkout goes after paying
//
// Which page shows is the domain's (payments.PaymentLinkPage); these
// handlers render it. Everything the merchant supplied (colours, logo and
// image URLs, names, transaction details) is placed by html/template in its
// context, so a value that is not a safe CSS value or URL is neutralised
// rather than refused (Hyperswitch does not validate them either).

func paymentLinkRecordOf(v *payments.PaymentLinkView) retrievePaymentLinkResponse {
	return retrievePaymentLinkResponse{
		PaymentLinkID: v.Link.ID, MerchantID: v.Intent.MerchantID, ProcessorMerchantID: v.Intent.MerchantID,
		LinkToPay: v.Link.Link, Amount: v.Intent.Amount, CreatedAt: Timestamp(v.Link.CreatedAt),
		Expiry: Timestamp(v.Expiry), Description: v.Intent.Description, Status: string(v.Status),
		Currency: string(v.Intent.Currency), SecureLink: v.Link.SecureLink,
	}
}

// paymentLinkOf is a payment's payment_link member: null without a link.
func paymentLinkOf(l *schematype.PaymentLink) *paymentLinkOut {
	if l == nil {
		return nil
	}
	return &paymentLinkOut{Link: l.Link, PaymentLinkID: l.ID, SecureLink: l.SecureLink}
}

// businessLinkConfigShape is the spec's BusinessPaymentLinkConfig: a
// PaymentLinkConfigRequest with the profile's own members.
var businessLinkConfigShape = func() docShape {
	members := maps.Clone(paymentLinkConfigShape.members)
	members["domain_name"] = dString
	members["business_specific_configs"] = dObject(nil)
	members["allowed_domains"] = dArray(dString)
	members["branding_visibility"] = dBool
	return dObject(members)
}()

// checkLinkConfig checks a payment's payment_link_config against the spec.
func checkLinkConfig(name string, v map[string]any) error {
	if v == nil {
		return nil
	}
	return checkDoc(name, v, paymentLinkConfigShape)
}

// checkBusinessLinkConfig checks a profile's payment_link_config, each of
// its business_specific_configs a PaymentLinkConfigRequest.
func checkBusinessLinkConfig(v map[string]any) error {
	if v == nil {
		return nil
	}
	if err := checkDoc("payment_link_config", v, businessLinkConfigShape); err != nil {
		return err
	}
	specific, _ := v["business_specific_configs"].(map[string]any)
	for name, c := range specific {
		if err := checkDoc("payment_link_config.business_specific_configs."+name, c, paymentLinkConfigShape); err != nil {
			return err
		}
	}
	return nil
}

// registerPaymentLinks adds the link's record and its pages. sdkURL is
// where the pages load Hyperswitch's checkout SDK (HyperLoader.js) from.
func registerPaymentLinks(a *api, svc *payments.Service, sdkURL string) {
	a.handle("GET /payment_link/{payment_link_id}", ClientOrMerchant, func(r *http.Request) (any, error) {
		return respond(paymentLinkRecordOf)(svc.GetPaymentLink(r.Context(), r.PathValue("payment_link_id")))
	})
	pages := linkPages{svc: svc, sdkURL: sdkURL}
	a.mux.HandleFunc("GET /payment_link/{merchant_id}/{payment_id}", pages.serve(false, false))
	a.mux.HandleFunc("GET /payment_link/s/{merchant_id}/{payment_id}", pages.serve(true, false))
	a.mux.HandleFunc("GET /payment_link/status/{merchant_id}/{payment_id}", pages.serve(false, true))
}

type linkPages struct {
	svc    *payments.Service
	sdkURL string
}

// serve renders a link's page: the checkout while the payment can be
// paid (on the status route, a redirect back to it), else its outcome.
func (p linkPages) serve(secure, status bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		merchantID, paymentID := r.PathValue("merchant_id"), r.PathValue("payment_id")
		var embed *payments.SecureLinkRequest
		if secure {
			embed = &payments.SecureLinkRequest{Dest: r.Header.Get("Sec-Fetch-Dest"), Origin: r.Header.Get("Origin"),
				Referer: r.Header.Get("Referer")}
		}
		page, err := p.svc.PaymentLinkPage(r.Context(), merchantID, paymentID, embed)
		if err != nil {
			linkError(w, r, err)
			return
		}
		csp := ""
		if secure {
			csp = frameAncestors(page.Link.AllowedDomains)
		}
		if status && page.Kind == payments.LinkPageCheckout {
			http.Redirect(w, r, "/payment_link/"+url.PathEscape(merchantID)+"/"+url.PathEscape(paymentID), http.StatusSeeOther)
			return
		}
		renderLink(w, http.StatusOK, p.view(page), csp)
	}
}

// cspSource is what a CSP source expression may hold: an allowed domain
// with anything else (a ';' or space that would start another directive
// or source) is left out.
var cspSource = regexp.MustCompile(`^[A-Za-z0-9.*:/_-]+$`)

// frameAncestors is the secure link's policy: only the allowed domains
// (Hyperswitch's glob patterns, which CSP's host sources read alike) may
// frame it.
func frameAncestors(domains []string) string {
	var srcs []string
	for _, d := range domains {
		if cspSource.MatchString(d) {
			srcs = append(srcs, d)
		}
	}
	if len(srcs) == 0 {
		return "frame-ancestors 'none'"
	}
	return "frame-ancestors " + strings.Join(srcs, " ")
}

// linkView is what the page template reads: the resolved look, flattened
// to the strings and flags the template places.
type linkView struct {
	Kind             string
	Title            string
	Message          string
	SDKURL           string
	Theme            string
	Logo             string
	BackgroundColour string
	BackgroundImage  string
	ButtonColour     string
	ButtonTextColour string
	HeaderText       string
	// Summary shows the merchant's side (not display_sdk_only); ShowSeller
	// its name in it (show_merchant_name).
	Summary, ShowSeller bool
	SellerName          string
	Amount              string
	Currency            string
	PaymentID           string
	Description         string
	Paid                string
	Items               []linkItem
	Details             []linkDetail
	ButtonText          string
	ReturnURL           string
	// Checkout is what the page's script mounts the SDK with.
	Checkout *linkCheckout
}

type linkItem struct {
	Name, Quantity, Amount string
}

// linkDetail is a transaction detail, in the order of its position.
type linkDetail struct {
	Key, Value         string
	KeyBold, ValueBold bool
}

// linkDetailsOf orders the transaction details by their position (those
// without one last, as given).
func linkDetailsOf(in []schematype.PaymentLinkTransactionDetail) []linkDetail {
	sorted := slices.Clone(in)
	slices.SortStableFunc(sorted, func(a, b schematype.PaymentLinkTransactionDetail) int {
		return cmp.Compare(detailPosition(a), detailPosition(b))
	})
	out := make([]linkDetail, len(sorted))
	for i, d := range sorted {
		out[i] = linkDetail{Key: d.Key, Value: d.Value}
		if c := d.UIConfiguration; c != nil {
			out[i].KeyBold, out[i].ValueBold = isTrue(c.IsKeyBold), isTrue(c.IsValueBold)
		}
	}
	return out
}

func detailPosition(d schematype.PaymentLinkTransactionDetail) int64 {
	if d.UIConfiguration == nil || d.UIConfiguration.Position == nil {
		return math.MaxInt64
	}
	return int64(*d.UIConfiguration.Position)
}

func isTrue(b *bool) bool { return b != nil && *b }

// linkCheckout is the script's data: html/template writes it as a
// JavaScript object, escaped for the script context.
type linkCheckout struct {
	PublishableKey string `json:"publishableKey"`
	ClientSecret   string `json:"clientSecret"`
	Layout         string `json:"layout"`
	Theme          string `json:"theme"`
	ReturnURL      string `json:"returnUrl"`
	StatusURL      string `json:"statusUrl"`
	SavedMethods   bool   `json:"savedMethods"`
	HideNickname   bool   `json:"hideNickname"`
}

// linkOutcomes are the titles and messages of the outcome pages.
var linkOutcomes = map[payments.LinkPageKind][2]string{
	payments.LinkPagePaid:       {"Payment successful", "Thank you: your payment was received."},
	payments.LinkPageProcessing: {"Payment processing", "Your payment is being processed. The merchant will confirm it."},
	payments.LinkPageFailed:     {"Payment failed", "Your payment could not be completed."},
	payments.LinkPageCancelled:  {"Payment cancelled", "This payment was cancelled."},
	payments.LinkPageExpired:    {"Link expired", "This payment link has expired and can no longer be paid. Ask the merchant for a new one."},
}

func (p linkPages) view(page *payments.LinkPage) linkView {
	pi, cfg := page.Intent, page.Link.Config
	v := linkView{Kind: string(page.Kind), SDKURL: p.sdkURL, Theme: deref(cfg.Theme), Logo: deref(cfg.Logo),
		BackgroundColour: deref(cfg.BackgroundColour), ButtonColour: deref(cfg.PaymentButtonColour),
		ButtonTextColour: deref(cfg.PaymentButtonTextColour), HeaderText: deref(cfg.PaymentFormHeaderText),
		Summary: !isTrue(cfg.DisplaySDKOnly), ShowSeller: isTrue(cfg.ShowMerchantName), SellerName: deref(cfg.SellerName),
		Amount: majorUnits(pi.Amount, string(pi.Currency)), Currency: string(pi.Currency), PaymentID: pi.PaymentID,
		Description: deref(pi.Description), Details: linkDetailsOf(cfg.TransactionDetails), ReturnURL: page.ReturnURL,
		ButtonText: "Pay now"}
	if cfg.BackgroundImage != nil {
		v.BackgroundImage = cfg.BackgroundImage.URL
	}
	if cfg.PaymentButtonText != nil {
		v.ButtonText = *cfg.PaymentButtonText
	}
	for _, o := range pi.OrderDetails {
		v.Items = append(v.Items, linkItem{Name: o.ProductName, Quantity: strconv.Itoa(o.Quantity),
			Amount: majorUnits(o.Amount, string(pi.Currency))})
	}
	if page.Kind == payments.LinkPageCheckout {
		status := "/payment_link/status/" + url.PathEscape(pi.MerchantID) + "/" + url.PathEscape(pi.PaymentID)
		v.Title = "Payment request from " + v.SellerName
		v.Checkout = &linkCheckout{PublishableKey: page.PublishableKey, ClientSecret: pi.ClientSecret,
			Layout: deref(cfg.SDKLayout), Theme: deref(cfg.Theme), ReturnURL: page.ReturnURL, StatusURL: status,
			SavedMethods: isTrue(cfg.EnabledSavedPaymentMethod), HideNickname: isTrue(cfg.HideCardNicknameField)}
		return v
	}
	v.Title, v.Message = linkOutcomes[page.Kind][0], linkOutcomes[page.Kind][1]
	if page.Kind == payments.LinkPageFailed && page.ErrorMessage != nil {
		v.Message += " " + *page.ErrorMessage
	}
	if page.Kind == payments.LinkPagePaid {
		v.Paid = pi.ModifiedAt.UTC().Format(time.RFC1123)
	}
	return v
}

// renderLink writes a link page; a secure link's carries its
// frame-ancestors policy (csp). The page's URL names the payment: it is
// never sent on as a Referer.
func renderLink(w http.ResponseWriter, status int, v linkView, csp string) {
	headers := map[string]string{"Referrer-Policy": "no-referrer"}
	if csp != "" {
		headers["Content-Security-Policy"] = csp
	}
	writePage(w, linkPage, v, status, headers)
}

// linkError shows a domain error as a page: a link that is not the
// merchant's, or does not exist, is a 404; a secure link opened outside its
// allowed frames a 403, itself not to be framed; anything else a 500 whose
// cause is logged.
func linkError(w http.ResponseWriter, r *http.Request, err error) {
	e, ok := errs.As(err)
	switch {
	case ok && e.Kind == errs.KindNotFound:
		renderLink(w, http.StatusNotFound, linkView{Kind: "missing", Title: "Link not found",
			Message: "This payment link does not exist. Check the link the merchant sent you."}, "")
		return
	case ok && e.Kind == errs.KindForbidden:
		renderLink(w, http.StatusForbidden, linkView{Kind: "forbidden", Title: "Link not available here",
			Message: "This payment link opens only inside the merchant's own site."}, "frame-ancestors 'none'")
		return
	}
	slog.ErrorContext(r.Context(), "payment link page", "err", err)
	renderLink(w, http.StatusInternalServerError, linkView{Kind: "error", Title: "Something went wrong",
		Message: "The payment link could not be shown. Try again in a moment."}, "")
}
