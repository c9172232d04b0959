package payments

// An attempt's authorization: the connector call's request, and the
// sandbox redirect a customer follows for 3-D Secure.

import (
	"context"
	"net/url"

	"switchyard/ent"
	"switchyard/ent/paymentintent"
	"switchyard/ent/schema/schematype"
	"switchyard/payments/connector"
	"switchyard/payments/customer"
)

// connectorFor returns the integration that serves an attempt's connector
// account, and the account as the connector calls take it.
func (s *Service) connectorFor(pi *ent.PaymentIntent, att *ent.PaymentAttempt, mca *ent.MerchantConnectorAccount) (connector.Connector, connector.Account, error) {
	return s.connectors.Integration(mca, pi.PaymentID, att.ID)
}

// connectorCaptureMethod is the capture method the authorization asks of the
// connector: sequential_automatic authorizes as manual, and its capture
// follows as a call of its own.
func connectorCaptureMethod(pi *ent.PaymentIntent) connector.CaptureMethod {
	if pi.CaptureMethod == paymentintent.CaptureMethodSequentialAutomatic {
		return connector.CaptureManual
	}
	return connector.CaptureMethod(pi.CaptureMethod)
}

// authorize calls the connector for a recorded attempt and settles the
// answer (a connectorCall whose reserve was the confirm's transaction).
// With sequential_automatic the authorization is followed by its capture,
// as two connector calls. A failure the merchant's retry rules allow is
// tried again on the next connector of the route, each try a new attempt
// recorded before its call (see retryOnNextConnector).
// ext is the external 3-D Secure result the authorization carries (nil:
// none).
func (s *Service) authorize(ctx context.Context, pi *ent.PaymentIntent, att *ent.PaymentAttempt, mca *ent.MerchantConnectorAccount,
	m *customer.PaymentMethodInput, ext *connector.ExternalThreeDS) (*PaymentView, error) {
	for {
		a := authorization{paymentID: pi.PaymentID, attemptID: att.ID, retryWith: m, prior: &confirmation{pi: pi, att: att},
			external: ext}
		call := s.authorizationCall(&a, pi, att, mca)
		if _, err := call.Run(ctx, s.db); err != nil {
			return nil, err
		}
		view, next, err := s.finishAuthorization(ctx, &a)
		if err != nil || next == nil {
			return view, err
		}
		pi, att, mca = next.pi, next.att, next.mca
	}
}

// authorizeRequest is the connector's request for an attempt.
func (s *Service) authorizeRequest(pi *ent.PaymentIntent, att *ent.PaymentAttempt, acct connector.Account, m *customer.PaymentMethodInput,
	ext *connector.ExternalThreeDS) *connector.AuthorizeRequest {
	req := &connector.AuthorizeRequest{
		Account:            acct,
		Amount:             att.NetAmount,
		AmountToCapture:    deref(att.AmountToCapture),
		Currency:           string(pi.Currency),
		CaptureMethod:      connectorCaptureMethod(pi),
		OffSession:         pi.OffSession != nil && *pi.OffSession,
		SetupFutureUsage:   customer.KeepsCard(pi), // a card kept for later needs the connector's token
		PaymentMethod:      connectorMethod(m),
		AuthenticationType: connector.NoThreeDS,
		ExternalThreeDS:    ext,
	}
	if pi.AuthenticationType != nil && *pi.AuthenticationType == paymentintent.AuthenticationTypeThreeDs {
		req.AuthenticationType = connector.ThreeDS
	}
	if b := billingOf(pi, m); b != nil && b.Address != nil {
		if b.Address.Line1 != nil {
			req.Billing.Line1 = *b.Address.Line1
		}
		if b.Address.Zip != nil {
			req.Billing.Zip = *b.Address.Zip
		}
	}
	return req
}

func billingOf(pi *ent.PaymentIntent, m *customer.PaymentMethodInput) *schematype.AddressWrapper {
	if m.Billing != nil {
		return m.Billing
	}
	return pi.Billing
}

func connectorMethod(m *customer.PaymentMethodInput) connector.PaymentMethod {
	out := connector.PaymentMethod{Type: connector.PaymentMethodType(m.Type), Subtype: m.Subtype, VPA: m.VPA,
		ConnectorMandateID: m.ConnectorMandateID, Variant: m.Variant, BankAccount: connector.Secret(m.BankAccount),
		WalletLast4: m.WalletLast4, Country: m.Country}
	if g := m.GiftCard; g != nil {
		out.GiftCard = &connector.GiftCard{Number: connector.Secret(g.Number), PIN: connector.Secret(g.PIN)}
	}
	if m.Card != nil {
		holder := ""
		if m.Card.HolderName != nil {
			holder = *m.Card.HolderName
		}
		out.Card = &connector.Card{Number: m.Card.Number, ExpMonth: m.Card.ExpMonth, ExpYear: m.Card.ExpYear,
			CVC: m.Card.CVC, HolderName: holder}
	}
	return out
}

// redirectURL is the sandbox Approve/Decline page of an attempt. The token
// is a keyed hash of the attempt id, so the URL cannot be guessed.
func (s *Service) redirectURL(attemptID string) string {
	return s.publicURL + "/sandbox/authenticate/" + url.PathEscape(attemptID) + "?token=" + s.RedirectToken(attemptID)
}

// RedirectToken authenticates the customer's browser on the sandbox page.
func (s *Service) RedirectToken(attemptID string) string {
	return s.box.Fingerprint("sandbox-redirect", attemptID)[:32]
}
