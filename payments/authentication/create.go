package authentication

import (
	"context"
	"slices"

	"switchyard/ent"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/ent/migrate"
	"switchyard/ent/schema/schematype"
	"switchyard/internal/ids"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"

	entauth "switchyard/ent/authentication"
)

// Connectors are Hyperswitch's AuthenticationConnectors: the connector
// names an authentication processor account may run authentications as.
var Connectors = validate.NewEnum("AuthenticationConnectors", "threedsecureio", "netcetera", "gpayments",
	"ctp_mastercard", "unified_authentication_service", "juspaythreedsserver", "ctp_visa", "cardinal")

var exemptionTypes = validate.NewEnum("ScaExemptionType", "low_value", "transaction_risk_analysis")

var columns = validate.ColumnsOf(migrate.AuthenticationsTable, entauth.FieldReturnURL,
	entauth.FieldProfileAcquirerID, entauth.FieldEmail)

// CreateInput is POST /authentication's body, as the domain takes it.
type CreateInput struct {
	ProfileID         *string
	Amount            *int64
	Currency          *string
	Connector         *string
	ReturnURL         *string
	Force3DSChallenge *bool
	ExemptionType     *string
	ProfileAcquirerID *string
	AcquirerDetails   map[string]any
	CustomerDetails   map[string]any
}

// Validate checks the input on its own, in the request's order.
func (in *CreateInput) Validate() error {
	switch {
	case in.Amount == nil:
		return errs.MissingField("amount")
	case *in.Amount < 0:
		return errs.InvalidValue("amount", "must not be negative")
	case in.Currency == nil:
		return errs.MissingField("currency")
	}
	return validate.First(
		validate.Currencies.Required("currency", *in.Currency),
		Connectors.Optional("authentication_connector", in.Connector),
		exemptionTypes.Optional("psd2_sca_exemption_type", in.ExemptionType),
		validate.Lengths(columns.Length(entauth.FieldReturnURL, in.ReturnURL),
			columns.Length(entauth.FieldProfileAcquirerID, in.ProfileAcquirerID)),
		returnURL(in.ReturnURL),
	)
}

func returnURL(u *string) error {
	if u == nil {
		return nil
	}
	return validate.AbsoluteHTTPURL("return_url", *u, columns[entauth.FieldReturnURL])
}

// Create records a new authentication (POST /authentication) for the
// profile named (else the caller's, else the default) and the
// authentication processor account that will run it: the one of the
// connector named, else the profile's first.
func (s *Service) Create(ctx context.Context, in CreateInput) (*ent.Authentication, error) {
	if err := s.db.RequireMerchant(ctx); err != nil {
		return nil, err
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	pc, err := s.db.ProfileAndAccounts(ctx, s.db.Client, in.ProfileID)
	if err != nil {
		return nil, err
	}
	account, err := processor(pc, in.Connector)
	if err != nil {
		return nil, err
	}
	force := false
	if in.Force3DSChallenge != nil {
		force = *in.Force3DSChallenge
	}
	id := ids.New(ids.Authentication)
	now := s.db.Now()
	a, err := s.db.Client.Authentication.Create().SetID(id).
		SetProfileID(pc.Profile.ID).SetAmount(*in.Amount).SetCurrency(schematype.Currency(*in.Currency)).
		SetAuthenticationConnector(account.ConnectorName).SetMerchantConnectorID(account.ID).
		SetNillableReturnURL(in.ReturnURL).SetForce3dsChallenge(force).
		SetNillablePsd2ScaExemptionType(in.ExemptionType).SetNillableProfileAcquirerID(in.ProfileAcquirerID).
		SetAcquirerDetails(in.AcquirerDetails).SetCustomerDetails(in.CustomerDetails).
		SetClientSecret(ids.ClientSecret(id)).SetCreatedAt(now).SetModifiedAt(now).
		Save(ctx)
	return a, txn.ErrorOrNil(err, "authentication")
}

// processor is the authentication processor account of pc that runs an
// authentication: the active one of the connector named, else the first
// (oldest) active one. None is Hyperswitch's 422; a connector named that
// the profile has no account of is its 404.
func processor(pc *txn.ProfileConfig, named *string) (*ent.MerchantConnectorAccount, error) {
	i := slices.IndexFunc(pc.Accounts, func(a *ent.MerchantConnectorAccount) bool {
		return a.ConnectorType == merchantconnectoraccount.ConnectorTypeAuthenticationProcessor && !a.Disabled &&
			a.Status == merchantconnectoraccount.StatusActive && Connectors.Has(a.ConnectorName) &&
			(named == nil || a.ConnectorName == *named)
	})
	switch {
	case i >= 0:
		return pc.Accounts[i], nil
	case named != nil:
		return nil, errs.NotFound("Merchant connector account")
	}
	return nil, errs.ErrNoAuthenticationConnector.Newf("No authentication_connector found for profile_id %s: "+
		"add a connector account with connector_type authentication_processor", pc.Profile.ID)
}
