package txn_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"switchyard/ent"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentintent"
	"switchyard/ent/schema/schematype"
	"switchyard/internal/store"
	"switchyard/internal/tenancy"
	"switchyard/internal/testenv"
	"switchyard/payments/txn"
)

// TestUpdateRowMatchesReadBack is a property test: for random sets, adds
// and clears of a payment's and an attempt's fields, the row UpdateRow
// returns without reading is the row the database then returns, on every
// backend.
func TestUpdateRowMatchesReadBack(t *testing.T) {
	for _, b := range testenv.Backends(t) {
		t.Run(b.Name, func(t *testing.T) {
			ctx, db, _ := merchantDB(t, b, "m_upd")
			rng := rand.New(rand.NewPCG(1, 2))
			for i := range 150 {
				checkPaymentUpdate(t, ctx, db, rng, i)
				checkAttemptUpdate(t, ctx, db, rng, i)
			}
		})
	}
}

func checkPaymentUpdate(t *testing.T, ctx context.Context, db *txn.DB, rng *rand.Rand, i int) {
	t.Helper()
	err := db.InTx(ctx, func(tx *ent.Tx) error {
		pid := fmt.Sprintf("pay_upd_%d", i)
		pi := tx.PaymentIntent.Create().SetID(pid).SetPaymentID(pid).SetProfileID("pro_x").
			SetAmount(1000).SetCurrency(schematype.Currency("USD")).SetClientSecret(pid + "_secret").
			SetSessionExpiry(900).SetExpiresOn(time.Now().UTC().Truncate(time.Microsecond)).
			SetStatus(paymentintent.StatusRequiresPaymentMethod).
			SetNillableDescription(maybe(rng, "first")).
			SaveX(ctx)
		upd := tx.PaymentIntent.Update().Where(paymentintent.ID(pi.ID))
		setters := []func(){
			func() { upd.SetStatus(paymentintent.StatusProcessing) },
			func() { upd.AddVersion(int64(rng.IntN(3) + 1)) },
			func() { upd.AddAttemptCount(1) },
			func() { upd.SetAmountCaptured(rng.Int64N(1000)) },
			func() { upd.SetConnector("stripe_test") },
			func() { upd.SetActiveAttemptID("att_" + pid) },
			func() { upd.SetDescription("second") },
			func() { upd.ClearDescription() },
			func() { upd.SetMetadata(map[string]any{"k": "v", "n": 1.5}) },
			func() { upd.SetCaptureOn(time.Now().UTC()) },
			func() { upd.SetAuthenticationType(paymentintent.AuthenticationTypeThreeDs) },
		}
		applySome(rng, setters)
		got, err := txn.UpdateRow(ctx, db, pi, upd)
		if err != nil {
			return err
		}
		want := tx.PaymentIntent.GetX(ctx, pi.ID)
		return rowDiff("payment without read-back, then read back", got, want)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func checkAttemptUpdate(t *testing.T, ctx context.Context, db *txn.DB, rng *rand.Rand, i int) {
	t.Helper()
	err := db.InTx(ctx, func(tx *ent.Tx) error {
		att := tx.PaymentAttempt.Create().SetID(fmt.Sprintf("att_upd_%d", i)).SetPaymentIntentID("pay_x").
			SetStatus(paymentattempt.StatusPending).SetAmount(1000).SetNetAmount(1000).
			SetCurrency(schematype.Currency("USD")).SetPaymentMethod("card").
			SetErrorCode("before").SetNillableConnector(maybe(rng, "adyen")).
			SetCard(&schematype.CardDetails{Last4: "4242"}).
			SaveX(ctx)
		upd := tx.PaymentAttempt.Update().Where(paymentattempt.ID(att.ID))
		setters := []func(){
			func() { upd.SetStatus(paymentattempt.StatusCharged) },
			func() { upd.ClearErrorCode().ClearErrorMessage() },
			func() { upd.SetErrorMessage("declined") },
			func() { upd.SetConnectorTransactionID("ctx_" + att.ID) },
			func() { upd.SetConnectorMetadata(map[string]any{"a": []any{"b"}}) },
			func() { upd.SetAmountCapturable(rng.Int64N(1000)) },
			func() {
				upd.SetCard(&schematype.CardDetails{Last4: "1111", PaymentChecks: map[string]string{"cvc_check": "pass"}})
			},
			func() { upd.ClearNextAction() },
			func() { upd.SetNextAction(map[string]any{"type": "redirect_to_url"}) },
		}
		applySome(rng, setters)
		got, err := txn.UpdateRow(ctx, db, att, upd)
		if err != nil {
			return err
		}
		want := tx.PaymentAttempt.GetX(ctx, att.ID)
		return rowDiff("attempt without read-back, then read back", got, want)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func maybe(rng *rand.Rand, s string) *string {
	if rng.IntN(2) == 0 {
		return nil
	}
	return &s
}

// applySome calls a random subset of setters (at least one), in order.
func applySome(rng *rand.Rand, setters []func()) {
	called := false
	for _, set := range setters {
		if rng.IntN(2) == 0 {
			set()
			called = true
		}
	}
	if !called {
		setters[rng.IntN(len(setters))]()
	}
}

// merchantDB is a migrated store on backend b with one merchant, the DB
// over it, and a context acting as that merchant.
func merchantDB(t *testing.T, b testenv.Backend, merchantID string) (context.Context, *txn.DB, string) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, b.Open(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	if _, err := st.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	st.Client.MerchantAccount.Create().SetID(merchantID).SetPublishableKey("pk_" + merchantID).SaveX(tenancy.System(ctx))
	ctx = tenancy.WithPrincipal(ctx, tenancy.Principal{Kind: tenancy.KindMerchant, MerchantID: merchantID})
	return ctx, txn.New(st.Client, st.Dialect), st.Dialect
}

// rowDiff compares two entities as JSON (their exported fields). It
// returns the difference rather than failing the test, for callers inside
// a transaction, which must end.
func rowDiff(what string, got, want any) error {
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		return fmt.Errorf("%s:\n%s\n%s", what, g, w)
	}
	return nil
}
