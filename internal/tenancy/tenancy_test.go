package tenancy_test

import (
	"context"
	"errors"
	"testing"

	"switchyard/ent"
	"switchyard/ent/profile"
	"switchyard/internal/store"
	"switchyard/internal/tenancy"
	"switchyard/internal/testenv"
)

// TestScopingIsEnforcedByTheDataLayer proves the ent interceptor and hook
// scope every read and write to the principal's merchant, and fail closed.
func TestScopingIsEnforcedByTheDataLayer(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, testenv.Database(t))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	c := st.Client
	sys := tenancy.System(ctx)
	for _, id := range []string{"m_a", "m_b"} {
		c.MerchantAccount.Create().SetID(id).SetPublishableKey("pk_" + id).SaveX(sys)
		c.Profile.Create().SetMerchantID(id).SetProfileName("default").
			SetPaymentResponseHashKeySealed([]byte("x")).SaveX(sys)
	}
	asA := tenancy.WithPrincipal(ctx, tenancy.Principal{Kind: tenancy.KindMerchant, MerchantID: "m_a"})
	profB := c.Profile.Query().Where(profile.MerchantID("m_b")).OnlyX(sys)

	t.Run("reads see only the own merchant", func(t *testing.T) {
		if n := c.Profile.Query().CountX(asA); n != 1 {
			t.Fatalf("A sees %d profiles, want 1", n)
		}
		if n := c.MerchantAccount.Query().CountX(asA); n != 1 {
			t.Fatalf("A sees %d merchants, want 1", n)
		}
		if _, err := c.Profile.Get(asA, profB.ID); !ent.IsNotFound(err) {
			t.Fatalf("A reading B's profile: %v, want not found", err)
		}
	})
	t.Run("writes cannot touch another merchant", func(t *testing.T) {
		if err := c.Profile.UpdateOneID(profB.ID).SetProfileName("hijacked").Exec(asA); !ent.IsNotFound(err) {
			t.Fatalf("A updating B's profile: %v, want not found", err)
		}
		if n := c.Profile.Delete().Where(profile.ID(profB.ID)).ExecX(asA); n != 0 {
			t.Fatalf("A deleted %d of B's profiles", n)
		}
		_, err := c.Profile.Create().SetMerchantID("m_b").SetProfileName("x").
			SetPaymentResponseHashKeySealed([]byte("x")).Save(asA)
		if !errors.Is(err, tenancy.ErrForeignMerchant) {
			t.Fatalf("A creating a row for B: %v", err)
		}
		p := c.Profile.Create().SetProfileName("own").SetPaymentResponseHashKeySealed([]byte("x")).SaveX(asA)
		if p.MerchantID != "m_a" {
			t.Fatalf("created row belongs to %q", p.MerchantID)
		}
		if c.Profile.GetX(sys, profB.ID).ProfileName != "default" {
			t.Fatal("B's profile changed")
		}
	})
	t.Run("no principal fails closed", func(t *testing.T) {
		if _, err := c.Profile.Query().All(ctx); !errors.Is(err, tenancy.ErrNoPrincipal) {
			t.Fatalf("query: %v", err)
		}
		if _, err := c.Profile.Update().SetProfileName("x").Save(ctx); !errors.Is(err, tenancy.ErrNoPrincipal) {
			t.Fatalf("update: %v", err)
		}
	})
}
