// Package authentication is external 3-D Secure as a service: Hyperswitch's
// /authentication resource, an authentication run apart from any payment
// (create, eligibility, authenticate, the challenge, sync, the session
// tokens and the click-to-pay eligibility check). It owns the
// authentications table, the state machine that moves an authentication from
// started through pending to success or failed (pure decide functions,
// decide.go), and which authentication processor account runs it.
//
// The card arrives at eligibility and waits, sealed, in the customer
// context's vault until authenticate; the database keeps it masked only.
// The CAVV the 3-D Secure server answers is sealed with the secrets box.
// The 3-D Secure server is the sandbox's (connector.SandboxThreeDS): pure
// and in-process, so each step decides and records its answer in one
// transaction under the row's lock, with no call to reserve or recover.
//
// It stands beside payments and payments/payouts in the payment layer and
// imports neither.
package authentication

import (
	"context"
	"time"

	"switchyard/ent"
	entauth "switchyard/ent/authentication"
	"switchyard/internal/secrets"
	"switchyard/internal/tenancy"
	"switchyard/payments/customer"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

// Deps are what authentication operations need.
type Deps struct {
	DB *txn.DB
	// Box seals the CAVV and makes the challenge page's tokens.
	Box *secrets.Box
	// Customers keeps the card in its vault between eligibility and
	// authenticate.
	Customers *customer.Service
	// PublicURL is where Switchyard is reached: the next action's
	// authenticate URL and the challenge page's.
	PublicURL string
}

// Service runs the authentication operations.
type Service struct {
	db        *txn.DB
	box       *secrets.Box
	customers *customer.Service
	publicURL string
}

// New returns the authentication service over d.
func New(d Deps) *Service {
	return &Service{db: d.DB, box: d.Box, customers: d.Customers, publicURL: d.PublicURL}
}

// ClientSecretLifetime is how long an authentication's client_secret
// holds after its creation: Hyperswitch's default session expiry.
const ClientSecretLifetime = 15 * time.Minute

// cardKeptFor is how long the card waits in the vault for authenticate.
const cardKeptFor = ClientSecretLifetime

func errNotFound() *errs.Error { return errs.ErrAuthenticationNotFound.New() }

// load reads authentication id of the caller's merchant (and profile, when
// the key names one), locked inside a transaction when lock. Another
// merchant's id is not found.
func (s *Service) load(ctx context.Context, client *ent.Client, id string, lock bool) (*ent.Authentication, error) {
	q := client.Authentication.Query().Where(txn.InProfile(ctx, entauth.ProfileID, entauth.ID(id))...)
	if lock {
		q = txn.ForUpdate(s.db, q)
	}
	a, err := q.Only(ctx)
	if ent.IsNotFound(err) {
		return nil, errNotFound()
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	return a, nil
}

// loadForClient is load with the client-secret rule of the caller
// (checkClientSecret).
func (s *Service) loadForClient(ctx context.Context, id string, given *string) (*ent.Authentication, error) {
	a, err := s.load(ctx, s.db.Client, id, false)
	if err != nil {
		return nil, err
	}
	p, _ := tenancy.FromContext(ctx)
	return a, checkClientSecret(a, given, p.ClientOnly, s.db.Now())
}

// update runs change on authentication id, locked and rechecked by check
// in one transaction, and returns the row as written.
func (s *Service) update(ctx context.Context, id string, check func(*ent.Authentication) error,
	change func(*ent.AuthenticationUpdateOne)) (*ent.Authentication, error) {
	var out *ent.Authentication
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		a, err := s.load(ctx, tx.Client(), id, true)
		if err != nil {
			return err
		}
		if err := check(a); err != nil {
			return err
		}
		u := a.Update().SetModifiedAt(s.db.Now())
		change(u)
		out, err = u.Save(ctx)
		return txn.ErrorOrNil(err, "authentication")
	})
	return out, err
}
