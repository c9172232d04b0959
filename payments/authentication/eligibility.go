package authentication

import (
	"context"
	"encoding/json"

	"switchyard/ent"
	"switchyard/ent/schema/schematype"
	"switchyard/payments/cards"
	"switchyard/payments/connector"
	"switchyard/payments/customer"
	"switchyard/payments/errs"
	"switchyard/payments/validate"

	entauth "switchyard/ent/authentication"
)

// EligibilityInput is POST /authentication/{id}/eligibility's body.
type EligibilityInput struct {
	ClientSecret      *string
	PaymentMethod     string
	PaymentMethodType *string
	Card              *customer.CardInput
	Billing, Shipping *schematype.AddressWrapper
	// BrowserInformation is the browser's BrowserInformation object.
	BrowserInformation map[string]any
	Email              *string
}

// Validate checks the input on its own: a card (the only payment method
// 3-D Secure authenticates), valid, and the addresses and e-mail.
func (in *EligibilityInput) Validate() error {
	if in.PaymentMethod == "" {
		return errs.MissingField("payment_method")
	}
	if in.PaymentMethod != "card" {
		return errs.ErrNotSupported.Newf("Payment method %q is not supported by 3-D Secure authentication; use card", in.PaymentMethod)
	}
	pm := &customer.PaymentMethodInput{Type: "card", Card: in.Card}
	if in.PaymentMethodType != nil {
		pm.Subtype = *in.PaymentMethodType
	}
	return validate.First(
		pm.Validate(),
		validate.Address("billing", in.Billing),
		validate.Address("shipping", in.Shipping),
		validate.Email("email", in.Email),
		validate.Lengths(columns.Length(entauth.FieldEmail, in.Email)),
	)
}

// Eligibility takes the card of authentication id (POST
// /authentication/{id}/eligibility): the 3-D Secure server's version and
// transaction id are recorded, the card is kept masked on the row and
// sealed in the vault for authenticate, and the authentication is pending.
func (s *Service) Eligibility(ctx context.Context, id string, in EligibilityInput) (*ent.Authentication, error) {
	a, err := s.loadForClient(ctx, id, in.ClientSecret)
	if err != nil {
		return nil, err
	}
	if err := checkEligibility(a); err != nil {
		return nil, err
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	number, _ := cards.Normalize(in.Card.Number)
	card := *in.Card
	card.Number = number
	if err := s.customers.VaultPut(ctx, a.MerchantID, a.ID, &customer.PaymentMethodInput{Type: "card", Card: &card}, cardKeptFor); err != nil {
		return nil, err
	}
	d := cards.Describe(number)
	network := d.Network
	if in.Card.Network != nil {
		network = *in.Card.Network
	}
	first := connector.SandboxThreeDS(number, a.ID)
	return s.update(ctx, id, checkEligibility, func(u *ent.AuthenticationUpdateOne) {
		u.SetStatus(entauth.StatusPending).
			SetCardLast4(d.Last4).SetCardBin(d.BIN).SetCardNetwork(network).
			SetCardExpMonth(card.ExpMonth).SetCardExpYear(card.ExpYear).
			SetThreedsServerTransactionID(first.ServerTransID).SetMessageVersion(connector.ThreeDSMessageVersion).
			SetBilling(asMap(in.Billing)).SetShipping(asMap(in.Shipping)).
			SetBrowserInformation(in.BrowserInformation).SetNillableEmail(in.Email)
		if network == "" {
			u.ClearCardNetwork()
		}
	})
}

// asMap is an address as its JSON object, for a JSON column.
func asMap(w *schematype.AddressWrapper) map[string]any {
	if w == nil {
		return nil
	}
	b, err := json.Marshal(w)
	if err != nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	return m
}
