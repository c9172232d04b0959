package graph_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"switchyard/ent/paymentintent"
	"switchyard/graph/model"
	"switchyard/internal/idempotency"
	"switchyard/internal/ids"
	"switchyard/internal/testenv"
)

func cardInput(number string) map[string]any {
	return map[string]any{"card": map[string]any{
		"cardNumber": number, "cardExpMonth": "12", "cardExpYear": strconv.Itoa(time.Now().Year() + 3),
		"cardCvc": "123", "cardHolderName": "Jane Doe",
	}}
}

// paymentOut is what the tests read of a payment.
type paymentOut struct {
	ID, PaymentID, Status, DisplayAmount string
	Amount, AmountCaptured               int
	Description                          *string
	Customer                             *struct{ CustomerID string }
	Attempts                             []struct{ Status string }
	Captures                             []struct{ Amount int }
	ConnectorAccount                     *struct{ ConnectorName string }
	Refunds                              struct{ TotalCount int }
}

const paymentFields = `id paymentID status amount amountCaptured displayAmount description customer { customerID }
	attempts { status } captures { amount } connectorAccount { connectorName } refunds(first: 5) { totalCount }`

type paymentPayload struct {
	Payment  paymentOut
	Replayed bool
}

// TestPaymentMutations: create, update, confirm, capture, refund and
// cancel through GraphQL, with the domain's validations and codes.
func TestPaymentMutations(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	c := newGQL(t, srv.URL, srv.Demo.SecretKey)
	mutate := func(field, args string, vars map[string]any) paymentPayload {
		t.Helper()
		var out map[string]paymentPayload
		c.must(fmt.Sprintf(`mutation%s { %s { payment { %s } replayed } }`, varDecl(vars), field+args, paymentFields), vars, &out)
		return out[field]
	}

	created := mutate("createPayment", `(input: {amount: 1000, currency: "USD", captureMethod: "manual", customerID: "cus_gql",
		customer: {name: "Jane", email: "jane@example.com"}, description: "first", merchantReferenceID: "gql-1"})`, nil)
	p := created.Payment
	if p.Status != "requires_payment_method" || p.Amount != 1000 || p.DisplayAmount != "USD 10.00" || p.Customer == nil ||
		p.Customer.CustomerID != "cus_gql" || created.Replayed {
		t.Fatalf("created: %+v", created)
	}
	id := p.PaymentID
	p = mutate("updatePayment", fmt.Sprintf(`(id: %q, input: {amount: 1500, description: "updated"})`, id), nil).Payment
	if p.Amount != 1500 || p.Description == nil || *p.Description != "updated" {
		t.Fatalf("updated: %+v", p)
	}
	p = mutate("confirmPayment", fmt.Sprintf(`(id: %q, input: {paymentMethod: "card", paymentMethodData: $pm})`, id),
		map[string]any{"pm": cardInput("4242424242424242")}).Payment
	if p.Status != "requires_capture" || len(p.Attempts) != 1 || p.ConnectorAccount == nil {
		t.Fatalf("confirmed: %+v", p)
	}
	p = mutate("capturePayment", fmt.Sprintf(`(id: %q, input: {amountToCapture: 1500})`, id), nil).Payment
	if p.Status != "succeeded" || p.AmountCaptured != 1500 || len(p.Captures) != 1 {
		t.Fatalf("captured: %+v", p)
	}
	var refund struct {
		CreateRefund struct {
			Refund struct {
				RefundID, Status, DisplayAmount string
				Payment                         struct{ PaymentID string }
			}
		}
	}
	c.must(fmt.Sprintf(`mutation { createRefund(input: {paymentID: %q, amount: 500, reason: "damaged"}) {
		refund { refundID status displayAmount payment { paymentID } } } }`, id), nil, &refund)
	if r := refund.CreateRefund.Refund; r.Status != "succeeded" || r.DisplayAmount != "USD 5.00" || r.Payment.PaymentID != id {
		t.Fatalf("refund: %+v", r)
	}

	// Create and confirm at once; a declined card fails the payment, not the call.
	p = mutate("createPayment", `(input: {amount: 2500, currency: "EUR", confirm: true, paymentMethod: "card", paymentMethodData: $pm})`,
		map[string]any{"pm": cardInput("4242424242424242")}).Payment
	if p.Status != "succeeded" || p.AmountCaptured != 2500 {
		t.Fatalf("create+confirm: %+v", p)
	}
	succeeded := p.PaymentID
	p = mutate("createPayment", `(input: {amount: 2500, currency: "EUR", confirm: true, paymentMethodData: $pm})`,
		map[string]any{"pm": cardInput("4000000000000002")}).Payment
	if p.Status != "failed" {
		t.Fatalf("declined card: %+v", p)
	}
	p = mutate("createPayment", `(input: {amount: 300, currency: "JPY"})`, nil).Payment
	if p.DisplayAmount != "JPY 300" {
		t.Fatalf("JPY: %+v", p)
	}
	p = mutate("cancelPayment", fmt.Sprintf(`(id: %q, input: {cancellationReason: "duplicate"})`, p.PaymentID), nil).Payment
	if p.Status != "cancelled" {
		t.Fatalf("cancelled: %+v", p)
	}

	for _, tc := range []struct{ name, code, query string }{
		{"unknown currency", "IR_07", `mutation { createPayment(input: {amount: 100, currency: "XXX"}) { payment { id } } }`},
		{"zero amount", "IR_07", `mutation { createPayment(input: {amount: 0, currency: "USD"}) { payment { id } } }`},
		{"amount missing (shape)", "IR_06", `mutation { createPayment(input: {currency: "USD"}) { payment { id } } }`},
		{"amount of the wrong type (shape)", "IR_06", `mutation { createPayment(input: {amount: "ten", currency: "USD"}) { payment { id } } }`},
		{"capture method", "IR_07", `mutation { createPayment(input: {amount: 100, currency: "USD", captureMethod: "later"}) { payment { id } } }`},
		{"scheduled capture", "IR_20", `mutation { createPayment(input: {amount: 100, currency: "USD", captureMethod: "scheduled"}) { payment { id } } }`},
		{"customer details without an id, too long", "IR_07", `mutation { createPayment(input: {amount: 100, currency: "USD", customer: {name: "` + strings.Repeat("x", 256) + `"}}) { payment { id } } }`},
		{"unknown billing member", "IR_06", `mutation { createPayment(input: {amount: 100, currency: "USD", billing: {street: "x"}}) { payment { id } } }`},
		{"two payment methods", "IR_07", `mutation { createPayment(input: {amount: 100, currency: "USD", paymentMethodData: {wallet: {paypal_redirect: {}}, payLater: {klarna_redirect: {}}}}) { payment { id } } }`},
		{"bad card number", "IR_06", `mutation { createPayment(input: {amount: 100, currency: "USD", confirm: true, paymentMethodData: {card: {cardNumber: "4242424242424241", cardExpMonth: "12", cardExpYear: "2040", cardCvc: "123"}}}) { payment { id } } }`},
		{"duplicate merchant reference", "HE_01", `mutation { createPayment(input: {amount: 100, currency: "USD", merchantReferenceID: "gql-1"}) { payment { id } } }`},
		{"update a succeeded payment", "IR_14", fmt.Sprintf(`mutation { updatePayment(id: %q, input: {amount: 5}) { payment { id } } }`, succeeded)},
		{"confirm an unknown payment", "HE_02", `mutation { confirmPayment(id: "pay_unknown") { payment { id } } }`},
		{"capture a succeeded payment", "IR_14", fmt.Sprintf(`mutation { capturePayment(id: %q) { payment { id } } }`, succeeded)},
		{"cancel a succeeded payment", "IR_14", fmt.Sprintf(`mutation { cancelPayment(id: %q) { payment { id } } }`, succeeded)},
		{"refund more than captured", "IR_13", fmt.Sprintf(`mutation { createRefund(input: {paymentID: %q, amount: 999999}) { refund { id } } }`, succeeded)},
		{"refund an unknown payment", "HE_02", `mutation { createRefund(input: {paymentID: "pay_unknown"}) { refund { id } } }`},
		{"refund without a payment id", "IR_04", `mutation { createRefund(input: {paymentID: ""}) { refund { id } } }`},
	} {
		t.Run(tc.name, func(t *testing.T) { c.on(t).fails(tc.code, tc.query, nil) })
	}

	// The admin key acts as the merchant of X-Merchant-Id, and needs one.
	admin := newGQL(t, srv.URL, srv.Config.AdminAPIKey)
	var out struct{ CreatePayment paymentPayload }
	admin.with("X-Merchant-Id", srv.Demo.MerchantID).must(`mutation { createPayment(input: {amount: 100, currency: "USD"}) { payment { paymentID status } } }`, nil, &out)
	if out.CreatePayment.Payment.Status != "requires_payment_method" {
		t.Fatalf("admin create: %+v", out)
	}
	e := admin.fails("IR_04", `mutation { createPayment(input: {amount: 100, currency: "USD"}) { payment { id } } }`, nil)
	if e.Extensions["field"] != "X-Merchant-Id" {
		t.Fatalf("admin without a merchant: %+v", e)
	}
}

// varDecl declares the variables a test mutation uses (all payment method data).
func varDecl(vars map[string]any) string {
	if len(vars) == 0 {
		return ""
	}
	var decl []string
	for k := range vars {
		decl = append(decl, "$"+k+": PaymentMethodDataInput")
	}
	return "(" + strings.Join(decl, ", ") + ")"
}

// TestIdempotentMutations: a key replays the stored result, refuses other
// input (IR_06, REST's 422) and a call still running (IR_16, REST's 409),
// stores client errors, and is scoped to the merchant.
func TestIdempotentMutations(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	c := newGQL(t, srv.URL, srv.Demo.SecretKey)
	// Keys are unique to the run: the tests may share one Redis, and the
	// demo merchant's id is the same in every test database.
	run := ids.Base62(10)
	const create = `mutation($key: String, $ref: String) { createPayment(input: {amount: 700, currency: "USD", merchantReferenceID: $ref},
		idempotencyKey: $key) { payment { id paymentID status amount } replayed } }`
	var first, again struct{ CreatePayment paymentPayload }
	c.must(create, map[string]any{"key": "order-1-" + run, "ref": "idem-1"}, &first)
	c.must(create, map[string]any{"key": "order-1-" + run, "ref": "idem-1"}, &again)
	if first.CreatePayment.Replayed || !again.CreatePayment.Replayed || again.CreatePayment.Payment.PaymentID != first.CreatePayment.Payment.PaymentID ||
		again.CreatePayment.Payment.Amount != 700 {
		t.Fatalf("first %+v, replay %+v", first, again)
	}
	n, err := srv.Store.Client.PaymentIntent.Query().Where(paymentintent.MerchantReferenceID("idem-1")).Count(merchantCtx(srv.Demo.MerchantID))
	if err != nil || n != 1 {
		t.Fatalf("%d payments for one key (%v)", n, err)
	}
	e := c.fails("IR_06", create, map[string]any{"key": "order-1-" + run, "ref": "idem-2"})
	if !strings.Contains(e.Message, "different request") || e.Extensions["field"] != "idempotencyKey" {
		t.Fatalf("mismatch: %+v", e)
	}
	// Another mutation under the same key is a mismatch too.
	c.fails("IR_06", fmt.Sprintf(`mutation { cancelPayment(id: %q, idempotencyKey: %q) { payment { id } } }`, first.CreatePayment.Payment.PaymentID, "order-1-"+run), nil)
	// Keys are per merchant: another merchant's same key is its own.
	other := newTenant(t, srv, "merchant_idem_other")
	var theirs struct{ CreatePayment paymentPayload }
	newGQL(t, srv.URL, other.key).must(create, map[string]any{"key": "order-1-" + run, "ref": "idem-1"}, &theirs)
	if theirs.CreatePayment.Replayed || theirs.CreatePayment.Payment.PaymentID == first.CreatePayment.Payment.PaymentID {
		t.Fatalf("another merchant's key replayed ours: %+v", theirs)
	}
	// A client error is stored and replayed.
	bad := `mutation { createPayment(input: {amount: 5, currency: "XXX"}, idempotencyKey: "bad-` + run + `") { payment { id } } }`
	c.fails("IR_07", bad, nil)
	c.fails("IR_07", bad, nil)
	// An invalid key is refused before anything runs.
	c.fails("IR_07", `mutation { createPayment(input: {amount: 5, currency: "USD"}, idempotencyKey: "") { payment { id } } }`, nil)

	// In flight: another call holds the key.
	var cancel struct{ CreatePayment paymentPayload }
	c.must(`mutation { createPayment(input: {amount: 900, currency: "USD"}) { payment { paymentID } } }`, nil, &cancel)
	pid := cancel.CreatePayment.Payment.PaymentID
	args, _ := json.Marshal(map[string]any{"id": pid, "input": &model.CancelPaymentInput{}})
	idem := idempotency.New(srv.Redis.Client, srv.Box)
	lease, _, err := idem.Begin(context.Background(), srv.Demo.MerchantID, "cancel-"+run,
		idem.Fingerprint("graphql cancelPayment", args))
	if err != nil || lease == nil {
		t.Fatalf("take the key: %v", err)
	}
	cancelQ := fmt.Sprintf(`mutation { cancelPayment(id: %q, idempotencyKey: %q) { payment { status } replayed } }`, pid, "cancel-"+run)
	c.fails("IR_16", cancelQ, nil)
	_ = lease.Release(context.Background())
	var done struct{ CancelPayment paymentPayload }
	c.must(cancelQ, nil, &done)
	c.must(cancelQ, nil, &done)
	if done.CancelPayment.Payment.Status != "cancelled" || !done.CancelPayment.Replayed {
		t.Fatalf("cancel replay: %+v", done)
	}
}

// TestMutationsRedisDown: with the key store down, a mutation that carries
// an idempotency key is refused (HE_00, REST's 503) and changes nothing.
func TestMutationsRedisDown(t *testing.T) {
	redis := testenv.StartRedis(t)
	cfg := testenv.Config(t, testenv.Database(t))
	cfg.RedisURL = redis.URL()
	cfg.RedisEmbedded = false
	srv := testenv.NewServerWith(t, cfg, slog.New(slog.NewJSONHandler(io.Discard, nil)))
	c := newGQL(t, srv.URL, srv.Demo.SecretKey)
	c.must(`mutation { createPayment(input: {amount: 100, currency: "USD"}, idempotencyKey: "up-`+ids.Base62(10)+`") { payment { id } } }`, nil, nil)
	redis.Stop()
	e := c.fails("HE_00", `mutation { createPayment(input: {amount: 100, currency: "USD", merchantReferenceID: "down"}, idempotencyKey: "down") { payment { id } } }`, nil)
	if !strings.Contains(e.Message, "unavailable") || e.Extensions["type"] != "api" {
		t.Fatalf("Redis down: %+v", e)
	}
	n, err := srv.Store.Client.PaymentIntent.Query().Where(paymentintent.MerchantReferenceID("down")).Count(merchantCtx(srv.Demo.MerchantID))
	if err != nil || n != 0 {
		t.Fatalf("%d payments written with the key store down (%v)", n, err)
	}
}

// TestAccountMutations: connector accounts, API keys, webhook settings and
// a manual webhook retry.
func TestAccountMutations(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	c := newGQL(t, srv.URL, srv.Demo.SecretKey)
	admin := newGQL(t, srv.URL, srv.Config.AdminAPIKey).with("X-Merchant-Id", srv.Demo.MerchantID)

	t.Run("connector accounts", func(t *testing.T) {
		c := c.on(t)
		var out struct {
			CreateConnectorAccount struct {
				ConnectorAccount struct {
					ID, ConnectorName, ConnectorLabel string
					ConnectorAccountDetails           map[string]string
					Metadata                          map[string]any
					PaymentMethodsEnabled             []map[string]any
				}
			}
		}
		c.must(`mutation { createConnectorAccount(input: {connectorType: "payment_processor", connectorName: "adyen",
			connectorLabel: "gql_adyen", connectorAccountDetails: {auth_type: "BodyKey", api_key: "sk_live_abcdef123456", key1: "merchant_account_x"},
			metadata: {region: "eu"}, paymentMethodsEnabled: [{payment_method: "card"}]}) {
			connectorAccount { id connectorName connectorLabel connectorAccountDetails metadata paymentMethodsEnabled } } }`, nil, &out)
		ca := out.CreateConnectorAccount.ConnectorAccount
		// The dashboard reads the list back to edit it: an update replaces it whole.
		if pme := ca.PaymentMethodsEnabled; len(pme) != 1 || pme[0]["payment_method"] != "card" {
			t.Fatalf("paymentMethodsEnabled: %v", pme)
		}
		key := ca.ConnectorAccountDetails["api_key"]
		if ca.ConnectorName != "adyen" || ca.ConnectorLabel != "gql_adyen" || strings.Contains(key, "abcdef") ||
			!strings.HasPrefix(key, "sk") || !strings.HasSuffix(key, "56") || ca.Metadata["region"] != "eu" {
			t.Fatalf("created: %+v", ca)
		}
		var upd struct {
			UpdateConnectorAccount struct {
				ConnectorAccount struct {
					Disabled              bool
					ConnectorLabel        string
					PaymentMethodsEnabled []map[string]any
				}
			}
		}
		c.must(fmt.Sprintf(`mutation { updateConnectorAccount(id: %q, input: {connectorType: "payment_processor", disabled: true, connectorLabel: "renamed",
			paymentMethodsEnabled: [{payment_method: "wallet", payment_method_types: [{payment_method_type: "paypal"}]}]}) {
			connectorAccount { disabled connectorLabel paymentMethodsEnabled } } }`, ca.ID), nil, &upd)
		if u := upd.UpdateConnectorAccount.ConnectorAccount; !u.Disabled || u.ConnectorLabel != "renamed" ||
			len(u.PaymentMethodsEnabled) != 1 || u.PaymentMethodsEnabled[0]["payment_method"] != "wallet" ||
			!strings.Contains(fmt.Sprint(u.PaymentMethodsEnabled[0]["payment_method_types"]), "paypal") {
			t.Fatalf("updated: %+v", u)
		}
		for _, tc := range []struct{ name, code, query string }{
			{"unknown connector", "IR_07", `mutation { createConnectorAccount(input: {connectorType: "payment_processor", connectorName: "stripey"}) { connectorAccount { id } } }`},
			{"unknown connector type", "IR_07", `mutation { createConnectorAccount(input: {connectorType: "surcharge_processor", connectorName: "stripe"}) { connectorAccount { id } } }`},
			{"duplicate label", "HE_01", `mutation { createConnectorAccount(input: {connectorType: "payment_processor", connectorName: "stripe", connectorLabel: "renamed"}) { connectorAccount { id } } }`},
			{"credential over 500 characters", "IR_07", `mutation { createConnectorAccount(input: {connectorType: "payment_processor", connectorName: "stripe", connectorAccountDetails: {auth_type: "HeaderKey", api_key: "` + strings.Repeat("k", 501) + `"}}) { connectorAccount { id } } }`},
			{"unknown profile", "HE_02", `mutation { createConnectorAccount(input: {connectorType: "payment_processor", connectorName: "stripe", profileID: "pro_unknown"}) { connectorAccount { id } } }`},
			{"update an unknown account", "HE_02", `mutation { updateConnectorAccount(id: "mca_unknown", input: {connectorType: "payment_processor"}) { connectorAccount { id } } }`},
		} {
			t.Run(tc.name, func(t *testing.T) { c.on(t).fails(tc.code, tc.query, nil) })
		}
	})

	t.Run("api keys", func(t *testing.T) {
		c, admin := c.on(t), admin.on(t)
		key := "key-" + ids.Base62(10) // unique to the run: the tests may share one Redis
		create := `mutation { createApiKey(input: {name: "dashboard", description: "for the team", expiration: "never"}, idempotencyKey: "` + key + `") {
			apiKey { id name prefix } key replayed } }`
		c.fails("IR_22", strings.Replace(create, `, idempotencyKey: "`+key+`"`, "", 1), nil) // a merchant's key is not the admin key
		var out, again struct {
			CreateAPIKey struct {
				APIKey   struct{ ID, Name, Prefix string }
				Key      string
				Replayed bool
			}
		}
		admin.must(create, nil, &out)
		admin.must(create, nil, &again)
		k := out.CreateAPIKey
		if !strings.HasPrefix(k.Key, "snd_") || !strings.HasPrefix(k.Key, k.APIKey.Prefix) || k.APIKey.Name != "dashboard" ||
			!again.CreateAPIKey.Replayed || again.CreateAPIKey.Key != k.Key {
			t.Fatalf("created %+v, replayed %+v", out, again)
		}
		var v struct {
			Viewer struct{ KeyID, KeyKind string }
		}
		newGQL(t, srv.URL, k.Key).must(`{ viewer { keyID keyKind } }`, nil, &v)
		if v.Viewer.KeyID != k.APIKey.ID || v.Viewer.KeyKind != "MERCHANT" {
			t.Fatalf("viewer with the new key: %+v", v)
		}
		var rev struct {
			RevokeAPIKey struct{ APIKey struct{ RevokedAt *string } }
		}
		admin.must(fmt.Sprintf(`mutation { revokeApiKey(id: %q) { apiKey { revokedAt } } }`, k.APIKey.ID), nil, &rev)
		if rev.RevokeAPIKey.APIKey.RevokedAt == nil {
			t.Fatalf("revoked: %+v", rev)
		}
		if r := newGQL(t, srv.URL, k.Key).do(`{ viewer { keyID } }`, nil); r.Status != http.StatusUnauthorized || r.code() != "IR_01" {
			t.Fatalf("revoked key: %d %s", r.Status, r.Raw)
		}
		admin.fails("HE_02", fmt.Sprintf(`mutation { revokeApiKey(id: %q) { apiKey { id } } }`, k.APIKey.ID), nil)
		c.fails("IR_22", fmt.Sprintf(`mutation { revokeApiKey(id: %q) { apiKey { id } } }`, k.APIKey.ID), nil)
		admin.fails("IR_07", `mutation { createApiKey(input: {name: "x", expiration: "tomorrow"}) { key } }`, nil)
		admin.fails("IR_07", `mutation { createApiKey(input: {name: "x", expiration: "2001-01-01T00:00:00Z"}) { key } }`, nil)
		admin.fails("IR_04", `mutation { createApiKey(input: {name: "", expiration: "never"}) { key } }`, nil)
		newGQL(t, srv.URL, srv.Config.AdminAPIKey).fails("IR_04", `mutation { createApiKey(input: {name: "x", expiration: "never"}) { key } }`, nil)
	})

	t.Run("webhook settings and retry", func(t *testing.T) {
		c := c.on(t)
		var hits atomic.Int32
		recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hits.Add(1)
			w.WriteHeader(http.StatusOK)
		}))
		t.Cleanup(recv.Close)
		var out struct {
			UpdateProfileWebhookSettings struct {
				Profile struct {
					ID              string
					WebhookSettings struct {
						WebhookURL             *string
						DeliveryEnabled        bool
						PaymentStatusesEnabled []string
						EnabledEventTypes      []string
						HasWebhookPassword     bool
					}
				}
			}
		}
		const settings = `webhookSettings { webhookURL deliveryEnabled paymentStatusesEnabled enabledEventTypes hasWebhookPassword }`
		c.must(fmt.Sprintf(`mutation { updateProfileWebhookSettings(profileID: %q, input: {webhookURL: %q, deliveryEnabled: false,
			paymentStatusesEnabled: ["succeeded", "failed"], enabledEventTypes: ["payment_succeeded"], webhookPassword: "s3cret"}) {
			profile { id %s } } }`, srv.Demo.ProfileID, recv.URL+"/hooks", settings), nil, &out)
		s := out.UpdateProfileWebhookSettings.Profile.WebhookSettings
		if s.WebhookURL == nil || *s.WebhookURL != recv.URL+"/hooks" || s.DeliveryEnabled || len(s.PaymentStatusesEnabled) != 2 ||
			len(s.EnabledEventTypes) != 1 || !s.HasWebhookPassword {
			t.Fatalf("settings: %+v", s)
		}
		// Absent members keep their value.
		c.must(fmt.Sprintf(`mutation { updateProfileWebhookSettings(profileID: %q, input: {deliveryEnabled: true}) { profile { id %s } } }`,
			srv.Demo.ProfileID, settings), nil, &out)
		if s := out.UpdateProfileWebhookSettings.Profile.WebhookSettings; !s.DeliveryEnabled || s.WebhookURL == nil || len(s.PaymentStatusesEnabled) != 2 {
			t.Fatalf("merged settings: %+v", s)
		}
		for _, tc := range []struct{ name, code, input string }{
			{"not an http URL", "IR_07", `{webhookURL: "ftp://example.com"}`},
			{"unknown status", "IR_07", `{paymentStatusesEnabled: ["paid"]}`},
			{"unknown event type", "IR_07", `{enabledEventTypes: ["payment_paid"]}`},
		} {
			t.Run(tc.name, func(t *testing.T) {
				c.fails(tc.code, fmt.Sprintf(`mutation { updateProfileWebhookSettings(profileID: %q, input: %s) { profile { id } } }`, srv.Demo.ProfileID, tc.input), nil)
			})
		}
		c.fails("HE_02", `mutation { updateProfileWebhookSettings(profileID: "pro_unknown", input: {deliveryEnabled: true}) { profile { id } } }`, nil)

		// A payment writes its event; the merchant retries its delivery.
		var pay struct{ CreatePayment paymentPayload }
		c.must(`mutation($pm: PaymentMethodDataInput) { createPayment(input: {amount: 100, currency: "USD", confirm: true, paymentMethodData: $pm}) { payment { paymentID status } } }`,
			map[string]any{"pm": cardInput("4242424242424242")}, &pay)
		var evs struct {
			Payment struct {
				Events struct {
					Edges []struct {
						Node struct{ ID, EventType string }
					}
				}
			}
		}
		c.must(fmt.Sprintf(`{ payment(id: %q) { events(first: 5) { edges { node { id eventType } } } } }`, pay.CreatePayment.Payment.PaymentID), nil, &evs)
		if len(evs.Payment.Events.Edges) != 1 || evs.Payment.Events.Edges[0].Node.EventType != "payment_succeeded" {
			t.Fatalf("events of the payment: %+v", evs)
		}
		evID := evs.Payment.Events.Edges[0].Node.ID
		const retry = `mutation($id: ID!) { retryWebhookDelivery(eventID: $id) { deliveryAttempt { eventID deliveryAttempt isDeliverySuccessful responseStatusCode } } }`
		var att struct {
			RetryWebhookDelivery struct {
				DeliveryAttempt struct {
					EventID, DeliveryAttempt string
					IsDeliverySuccessful     bool
					ResponseStatusCode       int
				}
			}
		}
		before := hits.Load()
		c.must(retry, map[string]any{"id": evID}, &att)
		if a := att.RetryWebhookDelivery.DeliveryAttempt; a.EventID != evID || a.DeliveryAttempt != "manual_retry" ||
			!a.IsDeliverySuccessful || a.ResponseStatusCode != 200 || hits.Load() != before+1 {
			t.Fatalf("retry: %+v (%d hits)", a, hits.Load()-before)
		}
		newGQL(t, srv.URL, srv.Config.AdminAPIKey).must(retry, map[string]any{"id": evID}, &att) // the platform admin may too
		c.fails("HE_02", retry, map[string]any{"id": "evt_unknown"})
	})
}

// TestPaymentMethodFamilies: the families beyond cards take the same
// payment_method_data through GraphQL as through REST: a bank transfer
// waits with the bank details on its attempt, a bank debit is charged at
// once, a failing gift card fails the payment.
func TestPaymentMethodFamilies(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	c := newGQL(t, srv.URL, srv.Demo.SecretKey)
	type attempt struct {
		Status     string
		ErrorCode  *string
		NextAction map[string]any
	}
	var out struct {
		CreatePayment struct {
			Payment struct {
				Status, PaymentMethod string
				Attempts              []attempt
			}
		}
	}
	pay := func(data string) {
		t.Helper()
		out.CreatePayment.Payment.Attempts = nil
		c.must(`mutation { createPayment(input: {amount: 4200, currency: "EUR", confirm: true, paymentMethodData: `+data+`}) {
			payment { status paymentMethod attempts { status errorCode nextAction } } } }`, nil, &out)
	}
	pay(`{bankTransfer: {sepa_bank_transfer: {country: "DE"}}}`)
	p := out.CreatePayment.Payment
	if p.Status != "requires_customer_action" || p.PaymentMethod != "bank_transfer" || len(p.Attempts) != 1 ||
		p.Attempts[0].NextAction["type"] != "display_bank_transfer_information" {
		t.Fatalf("bank transfer: %+v", p)
	}
	pay(`{bankDebit: {sepa_bank_debit: {iban: "DE89370400440532013000", bank_account_holder_name: "A"}}}`)
	if p := out.CreatePayment.Payment; p.Status != "succeeded" || p.PaymentMethod != "bank_debit" {
		t.Fatalf("bank debit: %+v", p)
	}
	pay(`{giftCard: {givex: {number: "6036280000000000002", cvc: "123"}}}`)
	if p := out.CreatePayment.Payment; p.Status != "failed" || len(p.Attempts) != 1 || p.Attempts[0].ErrorCode == nil ||
		*p.Attempts[0].ErrorCode != "gift_card_declined" {
		t.Fatalf("gift card: %+v", p)
	}
	pay(`{reward: true}`)
	if p := out.CreatePayment.Payment; p.Status != "requires_customer_action" || p.PaymentMethod != "reward" {
		t.Fatalf("reward: %+v", p)
	}
	c.fails("IR_04", `mutation { createPayment(input: {amount: 100, currency: "EUR", confirm: true,
		paymentMethodData: {bankDebit: {sepa_bank_debit: {bank_account_holder_name: "A"}}}}) { payment { id } } }`, nil)
}
