package txn_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"switchyard/ent"
	"switchyard/ent/paymentintent"
	"switchyard/ent/schema/schematype"
	"switchyard/internal/testenv"
	"switchyard/payments/txn"
)

// TestDraftIsTheInsertedRow is a property test: for random payment
// creates, the row Draft gives before the INSERT is the row Save returns
// and the row the database then holds, on every backend; and drafting
// writes nothing.
func TestDraftIsTheInsertedRow(t *testing.T) {
	for _, b := range testenv.Backends(t) {
		t.Run(b.Name, func(t *testing.T) {
			ctx, db, dialect := merchantDB(t, b, "m_draft")
			rng := rand.New(rand.NewPCG(3, 4))
			precision := time.Duration(0)
			if dialect == "mysql" {
				precision = time.Microsecond
			}
			for i := range 100 {
				checkDraft(t, ctx, db, precision, rng, i)
			}
		})
	}
}

func checkDraft(t *testing.T, ctx context.Context, db *txn.DB, precision time.Duration, rng *rand.Rand, i int) {
	t.Helper()
	err := db.InTx(ctx, func(tx *ent.Tx) error {
		pid := fmt.Sprintf("pay_draft_%d", i)
		create := tx.PaymentIntent.Create().SetID(pid).SetMerchantID("m_draft").SetPaymentID(pid).SetProfileID("pro_x").
			SetAmount(rng.Int64N(100000) + 1).SetCurrency(schematype.Currency("USD")).SetClientSecret(pid + "_secret").
			SetSessionExpiry(900).SetExpiresOn(time.Now().UTC()). // to the nanosecond: the draft has what the database keeps
			SetStatus(paymentintent.StatusRequiresPaymentMethod).
			SetNillableDescription(maybe(rng, "draft"))
		setters := []func(){
			func() { create.SetCaptureMethod(paymentintent.CaptureMethodManual) },
			func() { create.SetMetadata(map[string]any{"k": "v", "n": 1.5}) },
			func() { create.SetCaptureOn(time.Now().UTC()) },
			func() { create.SetAuthenticationType(paymentintent.AuthenticationTypeThreeDs) },
			func() { create.SetAmountToCapture(rng.Int64N(1000)) },
			func() { create.SetIdempotencyKey("key_" + pid).SetIdempotencyFingerprint("fp") },
			func() { create.SetReturnURL("https://shop.example/return") },
		}
		applySome(rng, setters)
		draft, err := txn.Draft(ctx, db, create)
		if err != nil {
			return err
		}
		if n := tx.PaymentIntent.Query().Where(paymentintent.ID(pid)).CountX(ctx); n != 0 {
			return fmt.Errorf("a draft inserted %d rows", n)
		}
		// What a confirm adds before the INSERT.
		create.SetStatus(paymentintent.StatusProcessing).SetActiveAttemptID("att_" + pid).SetAttemptCount(1).SetVersion(1)
		draft.Status, draft.ActiveAttemptID, draft.AttemptCount, draft.Version =
			paymentintent.StatusProcessing, ptr("att_"+pid), 1, 1
		saved, err := create.Save(ctx)
		if err != nil {
			return err
		}
		if err := rowDiff("draft against read back", draft, tx.PaymentIntent.GetX(ctx, pid)); err != nil {
			return err
		}
		// Save's row has the times as given; to the database's precision
		// it is the draft.
		saved.ExpiresOn = saved.ExpiresOn.Truncate(precision)
		if saved.CaptureOn != nil {
			saved.CaptureOn = ptr(saved.CaptureOn.Truncate(precision))
		}
		return rowDiff("draft against saved", draft, saved)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func ptr[T any](v T) *T { return &v }
