package payments

import (
	"context"
	"encoding/json"
	"net/url"
	"path"
	"strings"
	"time"

	"switchyard/ent"
	"switchyard/ent/merchantaccount"
	"switchyard/ent/paymentintent"
	"switchyard/ent/schema/schematype"
	"switchyard/internal/ids"
	"switchyard/internal/tenancy"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

// Payment links (Hyperswitch's): a payment created with payment_link: true
// gets a hosted checkout page, served at /payment_link/{merchant_id}/
// {payment_id}, which mounts the checkout SDK with the payment's client
// secret. Its look is the payment's payment_link_config over its profile's
// (over Hyperswitch's defaults), resolved once, when the link is made. The
// link expires with the client secret (expires_on: created + session_expiry),
// so the page stops offering the payment exactly when the SDK's confirm
// would be refused.

// Hyperswitch's defaults for a link's look (its DEFAULT_BACKGROUND_COLOR,
// DEFAULT_SDK_LAYOUT, …). The logo has none: Hyperswitch's default is an
// image on its own CDN, which a Switchyard page does not fetch.
const (
	defaultLinkTheme  = "#212E46"
	defaultLinkLayout = "tabs"
	linkLocale        = "en"
	// linkIDPrefix starts a link's id, as Hyperswitch's plink_….
	linkIDPrefix = "plink"
)

// PaymentLinkStatus is Hyperswitch's PaymentLinkStatus.
type PaymentLinkStatus string

// A link is active until its expiry, then expired.
const (
	LinkActive  PaymentLinkStatus = "active"
	LinkExpired PaymentLinkStatus = "expired"
)

// linkStatus is the link's status at now: expired once now is past its
// expiry (Hyperswitch's check_payment_link_status).
func linkStatus(expiry, now time.Time) PaymentLinkStatus {
	if now.After(expiry) {
		return LinkExpired
	}
	return LinkActive
}

// LinkPageKind is which page a payment link shows.
type LinkPageKind string

// The pages of a link: the checkout while the payment can still be paid,
// and otherwise one page per outcome.
const (
	LinkPageCheckout   LinkPageKind = "checkout"
	LinkPagePaid       LinkPageKind = "paid"
	LinkPageProcessing LinkPageKind = "processing"
	LinkPageFailed     LinkPageKind = "failed"
	LinkPageCancelled  LinkPageKind = "cancelled"
	LinkPageExpired    LinkPageKind = "expired"
)

// linkPageOf is the page a link shows for a payment in status at now. A
// payment still waiting for its customer is offered until the link
// expires; any other status shows its outcome, even past the expiry (a
// paid link shows its receipt), as Hyperswitch's link does.
func linkPageOf(status paymentintent.Status, expiry, now time.Time) LinkPageKind {
	switch status {
	case paymentintent.StatusRequiresPaymentMethod, paymentintent.StatusRequiresConfirmation,
		paymentintent.StatusRequiresCustomerAction:
		if linkStatus(expiry, now) == LinkExpired {
			return LinkPageExpired
		}
		return LinkPageCheckout
	case paymentintent.StatusSucceeded, paymentintent.StatusPartiallyCaptured,
		paymentintent.StatusPartiallyCapturedAndCapturable, paymentintent.StatusRequiresCapture,
		paymentintent.StatusPartiallyAuthorizedAndRequiresCapture:
		return LinkPagePaid
	case paymentintent.StatusFailed:
		return LinkPageFailed
	case paymentintent.StatusCancelled, paymentintent.StatusCancelledPostCapture:
		return LinkPageCancelled
	case paymentintent.StatusExpired:
		return LinkPageExpired
	default: // processing, requires_merchant_action, conflicted, …
		return LinkPageProcessing
	}
}

// ResolveLinkConfig is a link's look: each member from the payment's
// config, else from the profile's (its business_specific_configs entry
// named by configID, when there is one, else its own defaults), else
// Hyperswitch's default. seller_name defaults to the merchant's name.
func ResolveLinkConfig(payment *schematype.PaymentLinkConfig, profile *schematype.BusinessPaymentLinkConfig,
	configID *string, merchantName string) schematype.PaymentLinkConfig {
	var pay, prof schematype.PaymentLinkConfig
	if payment != nil {
		pay = *payment
	}
	if profile != nil {
		prof = profile.PaymentLinkConfig
		if named, ok := profile.BusinessSpecificConfigs[deref(configID)]; ok && configID != nil {
			prof = named
		}
	}
	out := schematype.PaymentLinkConfig{
		Theme:                     firstOf(pay.Theme, prof.Theme, ptr(defaultLinkTheme)),
		Logo:                      firstOf(pay.Logo, prof.Logo),
		SellerName:                firstOf(pay.SellerName, prof.SellerName, ptr(merchantName)),
		SDKLayout:                 firstOf(pay.SDKLayout, prof.SDKLayout, ptr(defaultLinkLayout)),
		DisplaySDKOnly:            firstOf(pay.DisplaySDKOnly, prof.DisplaySDKOnly, ptr(false)),
		EnabledSavedPaymentMethod: firstOf(pay.EnabledSavedPaymentMethod, prof.EnabledSavedPaymentMethod, ptr(false)),
		HideCardNicknameField:     firstOf(pay.HideCardNicknameField, prof.HideCardNicknameField, ptr(false)),
		ShowCardFormByDefault:     firstOf(pay.ShowCardFormByDefault, prof.ShowCardFormByDefault, ptr(true)),
		TransactionDetails:        pay.TransactionDetails,
		BackgroundImage:           firstOf(pay.BackgroundImage, prof.BackgroundImage),
		DetailsLayout:             firstOf(pay.DetailsLayout, prof.DetailsLayout),
		PaymentButtonText:         firstOf(pay.PaymentButtonText, prof.PaymentButtonText),
		PaymentButtonColour:       firstOf(pay.PaymentButtonColour, prof.PaymentButtonColour),
		PaymentButtonTextColour:   firstOf(pay.PaymentButtonTextColour, prof.PaymentButtonTextColour),
		BackgroundColour:          firstOf(pay.BackgroundColour, prof.BackgroundColour),
		SkipStatusScreen:          firstOf(pay.SkipStatusScreen, prof.SkipStatusScreen, ptr(false)),
		ShowMerchantName:          firstOf(pay.ShowMerchantName, prof.ShowMerchantName, ptr(true)),
		PaymentFormHeaderText:     firstOf(pay.PaymentFormHeaderText, prof.PaymentFormHeaderText),
	}
	if out.TransactionDetails == nil {
		out.TransactionDetails = prof.TransactionDetails
	}
	return out
}

// firstOf is the first given (non-nil) of vs.
func firstOf[T any](vs ...*T) *T {
	for _, v := range vs {
		if v != nil {
			return v
		}
	}
	return nil
}

func ptr[T any](v T) *T { return &v }

// decodeLinkConfig reads an open payment_link_config object (as stored)
// into out; a member of the wrong type is the request's error.
func decodeLinkConfig(field string, in map[string]any, out any) error {
	if in == nil {
		return nil
	}
	raw, err := json.Marshal(in)
	if err == nil {
		err = json.Unmarshal(raw, out)
	}
	if err != nil {
		return errs.InvalidValue(field, "is not a valid payment link configuration: %v", err)
	}
	return nil
}

// linkBase is the origin links are served on: the profile's domain_name
// (https:// unless it names its scheme), else this server's public URL.
func linkBase(publicURL string, domainName *string) string {
	if domainName == nil || *domainName == "" {
		return publicURL
	}
	d := strings.TrimRight(*domainName, "/")
	if strings.Contains(d, "://") {
		return d
	}
	return "https://" + d
}

// newPaymentLink makes the link of a payment being created: its id, its
// URLs (the secure one only for a profile with allowed_domains, as
// Hyperswitch makes it), and its resolved look.
func newPaymentLink(in *PaymentInput, prof *ent.Profile, merchantName, publicURL, merchantID, paymentID string, now time.Time) (*schematype.PaymentLink, error) {
	var pay schematype.PaymentLinkConfig
	var business schematype.BusinessPaymentLinkConfig
	if err := decodeLinkConfig("payment_link_config", in.PaymentLinkConfig, &pay); err != nil {
		return nil, err
	}
	if err := decodeLinkConfig("profile.payment_link_config", prof.PaymentLinkConfig, &business); err != nil {
		return nil, err
	}
	base := linkBase(publicURL, business.DomainName)
	path := url.PathEscape(merchantID) + "/" + url.PathEscape(paymentID) + "?locale=" + linkLocale
	link := &schematype.PaymentLink{
		ID:        ids.New(linkIDPrefix),
		Link:      base + "/payment_link/" + path,
		CreatedAt: now,
		Config:    ResolveLinkConfig(&pay, &business, in.PaymentLinkConfigID, merchantName),
	}
	if len(business.AllowedDomains) > 0 {
		link.SecureLink = ptr(base + "/payment_link/s/" + path)
		link.AllowedDomains = business.AllowedDomains
	}
	return link, nil
}

// addPaymentLink makes the link of a payment being created in tx, when it
// asked for one, and sets it on create.
func (s *Service) addPaymentLink(ctx context.Context, tx *ent.Tx, create *ent.PaymentIntentCreate, in *PaymentInput,
	prof *ent.Profile, merchantID, paymentID string, now time.Time) error {
	if !in.PaymentLink {
		return nil
	}
	m, err := tx.MerchantAccount.Query().Where(merchantaccount.ID(merchantID)).Only(ctx)
	if err != nil {
		return errs.Internal(err)
	}
	link, err := newPaymentLink(in, prof, deref(m.MerchantName), s.publicURL, merchantID, paymentID, now)
	if err != nil {
		return err
	}
	create.SetPaymentLinkID(link.ID).SetPaymentLink(link).SetPaymentLinkEnabled(paymentintent.PaymentLinkEnabledEnable)
	return nil
}

// checkPaymentLinkCreate refuses what Hyperswitch refuses of a create that
// asks for a link: a link is for the customer to pay, so the payment
// cannot be confirmed by its creation.
func (in *PaymentInput) checkPaymentLinkCreate() error {
	if in.PaymentLink && in.Confirm {
		return errs.InvalidRequestData("cannot confirm a payment while creating a payment link")
	}
	return nil
}

// SecureLinkRequest is how a secure link's page was asked for: the
// browser's Sec-Fetch-Dest, and the Origin or else the Referer of the page
// that asked.
type SecureLinkRequest struct {
	Dest, Origin, Referer string
}

// checkSecureLinkEmbed refuses a secure link opened other than in a frame
// of one of the allowed domains, as Hyperswitch's
// validate_secure_payment_link_render_request does: the request must be a
// frame's (Sec-Fetch-Dest: iframe), and the host (with its port, when the
// URL names one) of its Origin or Referer must match one of the allowed
// domains' glob patterns.
func checkSecureLinkEmbed(allowed []string, req SecureLinkRequest) error {
	if req.Dest != "iframe" {
		return errs.Forbidden("payment_link")
	}
	from := req.Origin
	if from == "" {
		from = req.Referer
	}
	u, err := url.Parse(from)
	if err != nil || u.Hostname() == "" {
		return errs.Forbidden("payment_link")
	}
	for _, pattern := range allowed {
		if ok, err := path.Match(pattern, u.Host); err == nil && ok {
			return nil
		}
	}
	return errs.Forbidden("payment_link")
}

// PaymentLinkView is a payment's link as GET /payment_link/{id} shows it
// (Hyperswitch's RetrievePaymentLinkResponse).
type PaymentLinkView struct {
	Link   schematype.PaymentLink
	Intent *ent.PaymentIntent
	Expiry time.Time
	Status PaymentLinkStatus
}

// GetPaymentLink is the link of the caller's merchant with id linkID;
// another merchant's is not found.
func (s *Service) GetPaymentLink(ctx context.Context, linkID string) (*PaymentLinkView, error) {
	where := txn.InProfile(ctx, paymentintent.ProfileID, paymentintent.PaymentLinkID(linkID))
	pi, err := s.db.Client.PaymentIntent.Query().Where(where...).Only(ctx)
	if ent.IsNotFound(err) || (err == nil && pi.PaymentLink == nil) {
		return nil, errPaymentLinkNotFound()
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	return &PaymentLinkView{Link: *pi.PaymentLink, Intent: pi, Expiry: pi.ExpiresOn,
		Status: linkStatus(pi.ExpiresOn, s.db.Now())}, nil
}

func errPaymentLinkNotFound() *errs.Error { return errs.NotFound("Payment Link") }

// LinkPage is what a payment link's page shows: which page, the payment,
// the link's look, and what the checkout needs to mount (the merchant's
// publishable key and the payment's client secret).
type LinkPage struct {
	Kind           LinkPageKind
	Intent         *ent.PaymentIntent
	Link           schematype.PaymentLink
	PublishableKey string
	// ReturnURL is where the checkout sends the customer after a redirect
	// (3-D Secure): the payment's return_url, or "" (the page's own status
	// page then).
	ReturnURL string
	// ErrorMessage is the active attempt's, for a failed payment.
	ErrorMessage *string
}

// PaymentLinkPage is the page of the link of merchantID's payment
// paymentID. The customer's browser carries no key: the path names the
// merchant, and a payment that is not that merchant's, or has no link, is
// not found. secure, when not nil, asks for the secure link: it exists only
// when the link was made with allowed domains, and opens only in their
// frames (checkSecureLinkEmbed).
func (s *Service) PaymentLinkPage(ctx context.Context, merchantID, paymentID string, secure *SecureLinkRequest) (*LinkPage, error) {
	ctx = tenancy.ForMerchant(tenancy.System(ctx), merchantID)
	pi, err := s.db.Client.PaymentIntent.Query().
		Where(paymentintent.MerchantID(merchantID), paymentintent.PaymentID(paymentID)).Only(ctx)
	if ent.IsNotFound(err) || (err == nil && (pi.PaymentLink == nil || (secure != nil && pi.PaymentLink.SecureLink == nil))) {
		return nil, errPaymentLinkNotFound()
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	if secure != nil {
		if err := checkSecureLinkEmbed(pi.PaymentLink.AllowedDomains, *secure); err != nil {
			return nil, err
		}
	}
	m, err := s.db.Client.MerchantAccount.Query().Where(merchantaccount.ID(merchantID)).Only(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	page := &LinkPage{Kind: linkPageOf(pi.Status, pi.ExpiresOn, s.db.Now()), Intent: pi, Link: *pi.PaymentLink,
		PublishableKey: m.PublishableKey, ReturnURL: deref(pi.ReturnURL)}
	if page.Kind == LinkPageFailed && pi.ActiveAttemptID != nil {
		att, err := s.db.Client.PaymentAttempt.Query().Where(paymentAttemptOf(pi.ID, *pi.ActiveAttemptID)...).Only(ctx)
		if err != nil {
			return nil, errs.Internal(err)
		}
		page.ErrorMessage = att.ErrorMessage
	}
	return page, nil
}
