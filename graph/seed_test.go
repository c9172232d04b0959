package graph_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"switchyard/ent"
	"switchyard/ent/event"
	"switchyard/ent/eventdeliveryattempt"
	"switchyard/ent/mandate"
	"switchyard/ent/paymentintent"
	"switchyard/ent/profile"
	"switchyard/ent/refund"
	"switchyard/ent/schema/schematype"
	"switchyard/internal/ids"
	"switchyard/internal/tenancy"
	"switchyard/internal/testenv"
	"switchyard/payments/merchant"
)

// tenant is a merchant and its secret key.
type tenant struct {
	merchantID, key, profileID string
}

// demoTenant is the bootstrapped demo merchant.
func demoTenant(srv *testenv.Server) tenant {
	return tenant{merchantID: srv.Demo.MerchantID, key: srv.Demo.SecretKey, profileID: srv.Demo.ProfileID}
}

// newTenant creates a merchant (with its default profile) and a key.
func newTenant(t testing.TB, srv *testenv.Server, merchantID string) tenant {
	t.Helper()
	admin := tenancy.WithPrincipal(context.Background(), tenancy.Principal{Kind: tenancy.KindAdmin})
	acct, err := srv.Merchants.CreateMerchantAccount(admin, merchant.MerchantAccountInput{MerchantID: merchantID})
	if err != nil {
		t.Fatal(err)
	}
	ctx := merchantCtx(acct.Merchant.ID)
	_, key, err := srv.Merchants.CreateAPIKey(ctx, merchant.APIKeyInput{Name: "k"})
	if err != nil {
		t.Fatal(err)
	}
	prof, err := srv.Store.Client.Profile.Query().Where(profile.IsDefault(true)).Only(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return tenant{merchantID: acct.Merchant.ID, key: key, profileID: prof.ID}
}

func merchantCtx(merchantID string) context.Context {
	return tenancy.ForMerchant(tenancy.System(context.Background()), merchantID)
}

// world is every kind of row of one merchant, written straight through ent
// with created_at one minute apart (in the past), so each connection's
// order is known. Slices are oldest first.
type world struct {
	tenant
	otherProfileID string
	customers      []*ent.Customer
	payments       []*ent.PaymentIntent
	attempts       []*ent.PaymentAttempt
	captures       []*ent.Capture
	refunds        []*ent.Refund
	disputes       []*ent.Dispute
	incs           []*ent.IncrementalAuthorization
	mandates       []*ent.Mandate
	methods        []*ent.PaymentMethod
	mcas           []*ent.MerchantConnectorAccount
	events         []*ent.Event
	deliveries     []*ent.EventDeliveryAttempt
	apiKeys        []*ent.APIKey
}

// seedWorld writes: 3 customers, 8 payments of different statuses,
// currencies, connectors, amounts, customers, references, methods and card
// networks (payment 0 has 3 refunds and 3 events, each event 2 delivery
// attempts), 3 connector accounts, 2 mandates, a payment method, a second
// profile and an API key beside the merchant's own.
func seedWorld(t testing.TB, srv *testenv.Server, tn tenant) *world {
	t.Helper()
	ctx := merchantCtx(tn.merchantID)
	c := srv.Store.Client
	w := &world{tenant: tn}
	clock := time.Now().UTC().Add(-24 * time.Hour).Truncate(time.Second)
	next := func() time.Time { clock = clock.Add(time.Minute); return clock }
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	prof, err := srv.Merchants.CreateProfile(ctx, merchant.ProfileInput{})
	must(err)
	w.otherProfileID = prof.ID

	for i, name := range []string{"Ada", "Grace", "Linus"} {
		at := next()
		cu, err := c.Customer.Create().SetCustomerID(fmt.Sprintf("cust_%s_%d", tn.merchantID, i)).SetName(name).
			SetCreatedAt(at).SetModifiedAt(at).Save(ctx)
		must(err)
		w.customers = append(w.customers, cu)
	}
	for i, conn := range []string{"stripe_test", "adyen_test", "checkout"} {
		at := next()
		m, err := c.MerchantConnectorAccount.Create().SetProfileID(tn.profileID).
			SetConnectorType("payment_processor").SetConnectorName(conn).SetConnectorLabel(fmt.Sprintf("seed_%d", i)).
			SetCreatedAt(at).SetModifiedAt(at).Save(ctx)
		must(err)
		w.mcas = append(w.mcas, m)
	}
	type spec struct {
		status   paymentintent.Status
		currency string
		mca      int // index into w.mcas, -1 for none
		customer int // index into w.customers, -1 for none
		method   string
		network  string
		profile  string
	}
	specs := []spec{
		{paymentintent.StatusSucceeded, "USD", 0, 0, "card", "Visa", tn.profileID},
		{paymentintent.StatusRequiresCapture, "USD", 0, 1, "card", "Mastercard", tn.profileID},
		{paymentintent.StatusFailed, "EUR", 1, 0, "card", "Visa", tn.profileID},
		{paymentintent.StatusRequiresPaymentMethod, "EUR", -1, -1, "", "", tn.profileID},
		{paymentintent.StatusSucceeded, "JPY", 1, 2, "upi", "", tn.profileID},
		{paymentintent.StatusCancelled, "USD", 2, -1, "card", "AmericanExpress", tn.profileID},
		{paymentintent.StatusSucceeded, "KWD", 0, 0, "card", "Visa", prof.ID},
		{paymentintent.StatusProcessing, "USD", 2, 1, "card", "Mastercard", tn.profileID},
	}
	for i, s := range specs {
		at := next()
		id := ids.New(ids.Payment)
		pc := c.PaymentIntent.Create().SetID(id).SetPaymentID(id).SetProfileID(s.profile).
			SetAmount(int64(1000 * (i + 1))).SetCurrency(schematype.Currency(s.currency)).SetStatus(s.status).
			SetClientSecret(ids.ClientSecret(id)).SetExpiresOn(at.Add(15 * time.Minute)).
			SetMerchantReferenceID(fmt.Sprintf("order-%d", i)).SetCreatedAt(at).SetModifiedAt(at)
		if s.mca >= 0 {
			pc.SetConnector(w.mcas[s.mca].ConnectorName).SetMerchantConnectorID(w.mcas[s.mca].ID)
		}
		if s.customer >= 0 {
			pc.SetCustomerID(w.customers[s.customer].ID)
		}
		if s.method != "" {
			pc.SetPaymentMethod(s.method)
		}
		if s.network != "" {
			pc.SetCardNetwork(s.network)
		}
		pi, err := pc.Save(ctx)
		must(err)
		w.payments = append(w.payments, pi)
	}
	usd := schematype.Currency("USD")
	// Payment 0: captured twice, refunded three times, disputed, its
	// authorization raised once, and three events each delivered twice.
	p0 := w.payments[0]
	at := next()
	att, err := c.PaymentAttempt.Create().SetPaymentIntentID(p0.ID).SetStatus("charged").SetAmount(p0.Amount).
		SetNetAmount(p0.Amount).SetCurrency(usd).SetConnector("stripe_test").SetCreatedAt(at).SetModifiedAt(at).Save(ctx)
	must(err)
	w.attempts = append(w.attempts, att)
	for seq := 1; seq <= 2; seq++ {
		at := next()
		cp, err := c.Capture.Create().SetPaymentIntentID(p0.ID).SetAuthorizedAttemptID(att.ID).SetStatus("charged").
			SetAmount(500).SetCurrency(usd).SetCaptureSequence(seq).SetCreatedAt(at).SetModifiedAt(at).Save(ctx)
		must(err)
		w.captures = append(w.captures, cp)
	}
	for i, status := range []string{"succeeded", "failed", "pending"} {
		at := next()
		rid := ids.New(ids.Refund)
		rf, err := c.Refund.Create().SetID(rid).SetRefundID(rid).SetPaymentIntentID(p0.ID).SetAttemptID(att.ID).
			SetProfileID(p0.ProfileID).SetConnector("stripe_test").SetAmount(int64(100 * (i + 1))).SetCurrency(usd).
			SetStatus(refundStatus(status)).SetCreatedAt(at).SetModifiedAt(at).Save(ctx)
		must(err)
		w.refunds = append(w.refunds, rf)
	}
	for i := 0; i < 2; i++ {
		at := next()
		dp, err := c.Dispute.Create().SetPaymentIntentID(w.payments[i].ID).SetAttemptID(att.ID).SetProfileID(tn.profileID).
			SetAmount(w.payments[i].Amount).SetCurrency(usd).SetConnector("stripe_test").SetConnectorStatus("needs_response").
			SetConnectorDisputeID(fmt.Sprintf("cd_%d", i)).SetCreatedAt(at).SetModifiedAt(at).Save(ctx)
		must(err)
		w.disputes = append(w.disputes, dp)
	}
	at = next()
	inc, err := c.IncrementalAuthorization.Create().SetPaymentIntentID(p0.ID).SetAttemptID(att.ID).SetAmount(200).
		SetPreviouslyAuthorizedAmount(p0.Amount).SetStatus("success").SetCreatedAt(at).SetModifiedAt(at).Save(ctx)
	must(err)
	w.incs = append(w.incs, inc)
	for i, et := range []string{"payment_authorized", "payment_succeeded", "refund_succeeded"} {
		at := next()
		class := "payments"
		if et == "refund_succeeded" {
			class = "refunds"
		}
		ev, err := c.Event.Create().SetProfileID(p0.ProfileID).SetObjectID(p0.PaymentID).SetPaymentIntentID(p0.ID).
			SetEventType(eventType(et)).SetEventClass(eventClass(class)).SetIdempotentEventID(fmt.Sprintf("%s_%d", p0.ID, i)).
			SetContent("{}").SetIsDelivered(i != 0).SetCreatedAt(at).SetModifiedAt(at).Save(ctx)
		must(err)
		w.events = append(w.events, ev)
		for k, kind := range []string{"initial_attempt", "manual_retry"} {
			at := next()
			initial := ev.ID
			da, err := c.EventDeliveryAttempt.Create().SetEventID(ev.ID).SetDeliveryAttempt(deliveryKind(kind)).
				SetInitialAttemptID(initial).SetRequest(&schematype.DeliveryRequest{Body: "{}"}).
				SetIsDeliverySuccessful(k == 1).SetResponseStatusCode(200 + 300*(1-k)).SetCreatedAt(at).SetModifiedAt(at).Save(ctx)
			must(err)
			w.deliveries = append(w.deliveries, da)
		}
	}
	for i, status := range []string{"active", "revoked"} {
		at := next()
		m, err := c.Mandate.Create().SetCustomerID(w.customers[i].ID).SetMandateType("multi_use").
			SetStatus(mandateStatus(status)).SetCreatedAt(at).SetModifiedAt(at).Save(ctx)
		must(err)
		w.mandates = append(w.mandates, m)
	}
	at = next()
	pm, err := c.PaymentMethod.Create().SetCustomerID(w.customers[0].ID).SetPaymentMethod("card").
		SetCreatedAt(at).SetModifiedAt(at).Save(ctx)
	must(err)
	w.methods = append(w.methods, pm)
	k, _, err := srv.Merchants.CreateAPIKey(ctx, merchant.APIKeyInput{Name: "second"})
	must(err)
	w.apiKeys = append(w.apiKeys, k)
	return w
}

func refundStatus(s string) refund.Status  { return refund.Status(s) }
func eventType(s string) event.EventType   { return event.EventType(s) }
func eventClass(s string) event.EventClass { return event.EventClass(s) }
func deliveryKind(s string) eventdeliveryattempt.DeliveryAttempt {
	return eventdeliveryattempt.DeliveryAttempt(s)
}
func mandateStatus(s string) mandate.Status { return mandate.Status(s) }

// idsOf lists the rows' ids, newest first.
func idsOf[T any](rows []T, id func(T) string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[len(rows)-1-i] = id(r)
	}
	return out
}
