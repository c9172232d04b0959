package graph

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"reflect"

	"switchyard/ent"
	"switchyard/graph/model"
	"switchyard/internal/tenancy"
	"switchyard/payments"
	"switchyard/payments/connector"
	"switchyard/payments/errs"
	"switchyard/payments/files"
	"switchyard/payments/merchant"
)

// The mutations: each maps its input as rest/ maps the REST body, calls the
// same payments operation, and runs under its idempotency key (see
// idempotency.go). The checks REST makes in its handlers are made here too,
// with the same codes.

// merchantPrincipal is the caller of an operation on a merchant's data: a
// merchant key, or the admin key with X-Merchant-Id (IR_04 without it), as
// REST's routes without a merchant in the path require.
func merchantPrincipal(ctx context.Context) (tenancy.Principal, error) {
	p, ok := tenancy.FromContext(ctx)
	if !ok {
		return p, errs.Unauthorized()
	}
	if p.MerchantID == "" {
		return p, errs.MissingField("X-Merchant-Id")
	}
	return p, nil
}

// reread loads a row the domain wrote in a transaction again, through the
// client, so its nested fields can be resolved after the commit.
func reread[T any](ctx context.Context, get func(context.Context, string) (*T, error), id string) (*T, error) {
	row, err := get(ctx, id)
	if err != nil {
		return nil, errs.Internal(err)
	}
	return row, nil
}

// restore is a replayed result: the stored snapshot over the row as it is
// now. A row that is gone since (deleted, or the key outlived the data) is
// not found.
func restore[T any](ctx context.Context, get func(context.Context, string) (*T, error), id string, snap *T, resource string) (*T, error) {
	fresh, err := get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, errs.NotFound(resource)
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	return overlay(fresh, snap)
}

// merchantRow is the row a merchant's mutation answers with: how to read
// it by id and what to call it when it is gone. P is the mutation's
// payload.
type merchantRow[T, P any] struct {
	get      func(context.Context, string) (*T, error)
	resource string
}

func rowsOf[P, T any](get func(context.Context, string) (*T, error), resource string) merchantRow[T, P] {
	return merchantRow[T, P]{get: get, resource: resource}
}

// payload is the row's payload: gqlgen generates each row mutation's as
// the row (the member of its type) and Replayed.
func (merchantRow[T, P]) payload(row *T, replayed bool) *P {
	p := new(P)
	v := reflect.ValueOf(p).Elem()
	for i := range v.NumField() {
		switch f := v.Field(i); {
		case f.Type() == reflect.TypeFor[*T]():
			f.Set(reflect.ValueOf(row))
		case v.Type().Field(i).Name == "Replayed":
			f.SetBool(replayed)
		}
	}
	return p
}

// entID is an ent row's id: every table's is its string ID.
func entID[T any](row *T) string {
	return reflect.ValueOf(row).Elem().FieldByName("ID").String()
}

// mutateMerchantRow runs op, a merchant's change to one row, under its
// idempotency key and answers the row's payload; a replay lays the stored
// snapshot over the row as it is now (restore).
func mutateMerchantRow[T, P any](ctx context.Context, r *Resolver, name string, key *string, args any,
	row merchantRow[T, P], op func(context.Context) (*T, error)) (*P, error) {
	res, replayed, err := idempotent(ctx, r, name, key, args, func(ctx context.Context) (*T, error) {
		if _, err := merchantPrincipal(ctx); err != nil {
			return nil, err
		}
		return op(ctx)
	}, func(ctx context.Context, snap *T) (*T, error) {
		return restore(ctx, row.get, entID(snap), snap, row.resource)
	})
	if err != nil {
		return nil, err
	}
	return row.payload(res, replayed), nil
}

// mutateAndReread is mutateMerchantRow for an operation that answers a
// value naming the row it wrote (idOf reads its id): the row is read again
// after the commit (reread), not bound to the operation's transaction.
func mutateAndReread[T, P, V any](ctx context.Context, r *Resolver, name string, key *string, args any,
	row merchantRow[T, P], op func(context.Context) (V, error), idOf func(V) string) (*P, error) {
	return mutateMerchantRow(ctx, r, name, key, args, row, func(ctx context.Context) (*T, error) {
		v, err := op(ctx)
		if err != nil {
			return nil, err
		}
		return reread(ctx, row.get, idOf(v))
	})
}

// overlay puts a stored snapshot over the row as it is now: the replay shows
// the snapshot, and the row's client resolves its nested fields.
func overlay[T any](fresh, snapshot *T) (*T, error) {
	raw, err := json.Marshal(snapshot)
	if err != nil {
		return nil, errs.Internal(err)
	}
	if err := json.Unmarshal(raw, fresh); err != nil {
		return nil, errs.Internal(err)
	}
	return fresh, nil
}

// reading is op over the domain's reading of a mutation's input: an input
// read refuses is the operation's answer (stored under its key), as a REST
// body's is.
func reading[I, D, V any](in I, read func(I) (D, error), op func(context.Context, D) (V, error)) func(context.Context) (V, error) {
	return func(ctx context.Context) (V, error) {
		d, err := read(in)
		if err != nil {
			var zero V
			return zero, err
		}
		return op(ctx, d)
	}
}

// inputOrEmpty is an optional input, empty when absent.
func inputOrEmpty[T any](in *T) *T {
	if in == nil {
		return new(T)
	}
	return in
}

// paymentMutation runs a payment operation under its key and answers the
// payment as the operation left it.
func (r *Resolver) paymentMutation(ctx context.Context, name string, key *string, args any,
	op func(context.Context) (*payments.PaymentView, error)) (*model.PaymentPayload, error) {
	paymentRows := rowsOf[model.PaymentPayload](r.client.PaymentIntent.Get, "Payment")
	return mutateMerchantRow(ctx, r, name, key, args, paymentRows, func(ctx context.Context) (*ent.PaymentIntent, error) {
		v, err := op(ctx)
		if err != nil {
			return nil, err
		}
		return v.Intent, nil
	})
}

func (r *Resolver) createPayment(ctx context.Context, in model.PaymentRequest, key *string) (*model.PaymentPayload, error) {
	return r.paymentMutation(ctx, "createPayment", key, map[string]any{"input": in}, func(ctx context.Context) (*payments.PaymentView, error) {
		amount, currency, err := payments.RequireAmount(in.Amount, in.Currency, "amount", "currency")
		if err != nil {
			return nil, err
		}
		f, err := paymentFields(&in)
		if err != nil {
			return nil, err
		}
		return r.svc.CreatePayment(ctx, payments.PaymentInput{
			PaymentID: in.PaymentID, ProfileID: in.ProfileID, Amount: amount, Currency: currency,
			Confirm: in.Confirm != nil && *in.Confirm, PaymentFields: f, Idempotency: idempotencyRef(ctx),
		})
	})
}

func (r *Resolver) updatePayment(ctx context.Context, id string, in model.PaymentRequest, key *string) (*model.PaymentPayload, error) {
	args := map[string]any{"id": id, "input": in}
	return r.paymentMutation(ctx, "updatePayment", key, args, reading(&in, paymentFields, func(ctx context.Context, f payments.PaymentFields) (*payments.PaymentView, error) {
		return r.svc.UpdatePayment(ctx, id, payments.PaymentPatch{Amount: in.Amount, Currency: in.Currency,
			PaymentFields: f, Confirm: in.Confirm != nil && *in.Confirm})
	}))
}

func (r *Resolver) confirmPayment(ctx context.Context, id string, in *model.PaymentRequest, key *string) (*model.PaymentPayload, error) {
	in = inputOrEmpty(in)
	args := map[string]any{"id": id, "input": in}
	return r.paymentMutation(ctx, "confirmPayment", key, args, reading(in, paymentFields, func(ctx context.Context, f payments.PaymentFields) (*payments.PaymentView, error) {
		return r.svc.ConfirmPayment(ctx, id, payments.ConfirmInput{PaymentFields: f})
	}))
}

func (r *Resolver) capturePayment(ctx context.Context, id string, in *payments.CaptureInput, key *string) (*model.PaymentPayload, error) {
	in = inputOrEmpty(in)
	return r.paymentMutation(ctx, "capturePayment", key, map[string]any{"id": id, "input": in}, func(ctx context.Context) (*payments.PaymentView, error) {
		return r.svc.CapturePayment(ctx, id, *in)
	})
}

func (r *Resolver) cancelPayment(ctx context.Context, id string, in *model.CancelPaymentInput, key *string) (*model.PaymentPayload, error) {
	in = inputOrEmpty(in)
	return r.paymentMutation(ctx, "cancelPayment", key, map[string]any{"id": id, "input": in}, func(ctx context.Context) (*payments.PaymentView, error) {
		return r.svc.CancelPayment(ctx, id, in.CancellationReason)
	})
}

func (r *Resolver) createRefund(ctx context.Context, in payments.RefundInput, key *string) (*model.RefundPayload, error) {
	refunds := rowsOf[model.RefundPayload](r.client.Refund.Get, "Refund")
	return mutateAndReread(ctx, r, "createRefund", key, map[string]any{"input": in}, refunds, func(ctx context.Context) (*ent.Refund, error) {
		return r.svc.CreateRefund(ctx, in)
	}, entID)
}

// connectorMutation runs a connector account operation under its key; the
// payload is the account's row (its credentials are shown masked by
// connectorAccountDetails).
func (r *Resolver) connectorMutation(ctx context.Context, name string, key *string, args any,
	op func(context.Context) (*connector.AccountView, error)) (*model.ConnectorAccountPayload, error) {
	accounts := rowsOf[model.ConnectorAccountPayload](r.client.MerchantConnectorAccount.Get, "Merchant connector account")
	return mutateAndReread(ctx, r, name, key, args, accounts, op, func(v *connector.AccountView) string { return v.ID })
}

func (r *Resolver) createConnectorAccount(ctx context.Context, in model.ConnectorAccountRequest, key *string) (*model.ConnectorAccountPayload, error) {
	return r.connectorMutation(ctx, "createConnectorAccount", key, map[string]any{"input": in}, reading(&in, connectorFieldsOf, func(ctx context.Context, f connector.AccountFields) (*connector.AccountView, error) {
		create := connector.AccountInput{AccountFields: f, ProfileID: in.ProfileID,
			BusinessLabel: in.BusinessLabel, BusinessSubLabel: in.BusinessSubLabel}
		if in.ConnectorName != nil {
			create.ConnectorName = connector.Name(*in.ConnectorName)
		}
		if in.BusinessCountry != nil {
			c := connector.Country(*in.BusinessCountry)
			create.BusinessCountry = &c
		}
		return r.connectors.CreateAccount(ctx, create)
	}))
}

func (r *Resolver) updateConnectorAccount(ctx context.Context, id string, in model.ConnectorAccountRequest, key *string) (*model.ConnectorAccountPayload, error) {
	args := map[string]any{"id": id, "input": in}
	return r.connectorMutation(ctx, "updateConnectorAccount", key, args, reading(&in, connectorFieldsOf, func(ctx context.Context, f connector.AccountFields) (*connector.AccountView, error) {
		return r.connectors.UpdateAccount(ctx, id, connector.AccountPatch{AccountFields: f})
	}))
}

// createdKey is createApiKey's stored result: a replay returns the same
// key, as a REST replay returns the same body.
type createdKey struct {
	APIKey *ent.APIKey `json:"apiKey"`
	Key    string      `json:"key"`
}

// The API key mutations run for admins' and developers' sessions and for
// the admin key, never for a merchant's secret key: the schema says so
// (@hasRole(keys: ADMIN_KEY)) and the directive checks it.

func (r *Resolver) createAPIKey(ctx context.Context, in model.CreateAPIKeyInput, key *string) (*model.CreateAPIKeyPayload, error) {
	res, replayed, err := idempotent(ctx, r, "createApiKey", key, map[string]any{"input": in}, func(ctx context.Context) (*createdKey, error) {
		if _, err := merchantPrincipal(ctx); err != nil {
			return nil, err
		}
		expiresAt, err := expiration(in.Expiration)
		if err != nil {
			return nil, err
		}
		k, plain, err := r.merchants.CreateAPIKey(ctx, merchant.APIKeyInput{Name: in.Name, Description: in.Description, ExpiresAt: expiresAt})
		if err != nil {
			return nil, err
		}
		return &createdKey{APIKey: k, Key: plain}, nil
	}, func(ctx context.Context, snap *createdKey) (*createdKey, error) {
		k, err := restore(ctx, r.client.APIKey.Get, snap.APIKey.ID, snap.APIKey, "API Key")
		if err != nil {
			return nil, err
		}
		snap.APIKey = k
		return snap, nil
	})
	if err != nil {
		return nil, err
	}
	return &model.CreateAPIKeyPayload{APIKey: res.APIKey, Key: res.Key, Replayed: replayed}, nil
}

func (r *Resolver) revokeAPIKey(ctx context.Context, id string, key *string) (*model.APIKeyPayload, error) {
	apiKeys := rowsOf[model.APIKeyPayload](r.client.APIKey.Get, "API Key")
	return mutateMerchantRow(ctx, r, "revokeApiKey", key, map[string]any{"id": id}, apiKeys, func(ctx context.Context) (*ent.APIKey, error) {
		return r.merchants.RevokeAPIKey(ctx, id)
	})
}

// rolledKey is rollApiKey's stored result: a replay returns the same new
// key, as createApiKey's does.
type rolledKey struct {
	createdKey
	Previous *ent.APIKey `json:"previous"`
}

func (r *Resolver) rollAPIKey(ctx context.Context, id string, graceSeconds int, key *string) (*model.RollAPIKeyPayload, error) {
	args := map[string]any{"id": id, "gracePeriodSeconds": graceSeconds}
	res, replayed, err := idempotent(ctx, r, "rollApiKey", key, args, func(ctx context.Context) (*rolledKey, error) {
		if _, err := merchantPrincipal(ctx); err != nil {
			return nil, err
		}
		k, plain, prev, err := r.merchants.RollAPIKey(ctx, merchant.RollAPIKeyInput{KeyID: id, GracePeriodSeconds: graceSeconds})
		if err != nil {
			return nil, err
		}
		return &rolledKey{createdKey: createdKey{APIKey: k, Key: plain}, Previous: prev}, nil
	}, func(ctx context.Context, snap *rolledKey) (*rolledKey, error) {
		k, err := restore(ctx, r.client.APIKey.Get, snap.APIKey.ID, snap.APIKey, "API Key")
		if err != nil {
			return nil, err
		}
		prev, err := restore(ctx, r.client.APIKey.Get, snap.Previous.ID, snap.Previous, "API Key")
		if err != nil {
			return nil, err
		}
		snap.APIKey, snap.Previous = k, prev
		return snap, nil
	})
	if err != nil {
		return nil, err
	}
	return &model.RollAPIKeyPayload{APIKey: res.APIKey, Key: res.Key, Previous: res.Previous, Replayed: replayed}, nil
}

// profileRows are the profiles the profile mutations answer with, read
// again after the commit.
func (r *Resolver) profileRows() merchantRow[ent.Profile, model.ProfilePayload] {
	return rowsOf[model.ProfilePayload](r.client.Profile.Get, "Business profile")
}

// createProfile makes a profile through REST's operation (its name rules,
// its HE_01 for a name in use).
func (r *Resolver) createProfile(ctx context.Context, in model.CreateProfileInput, key *string) (*model.ProfilePayload, error) {
	return mutateAndReread(ctx, r, "createProfile", key, map[string]any{"input": in}, r.profileRows(), func(ctx context.Context) (*merchant.ProfileView, error) {
		create := merchant.ProfileInput{ProfileName: in.ProfileName, ReturnURL: in.ReturnURL}
		if in.WebhookSettings != nil {
			create.WebhookDetails = in.WebhookSettings.Details()
		}
		return r.merchants.CreateProfile(ctx, create)
	}, func(v *merchant.ProfileView) string { return v.ID })
}

func (r *Resolver) updateProfileWebhookSettings(ctx context.Context, profileID string, in merchant.WebhookSettingsPatch, key *string) (*model.ProfilePayload, error) {
	args := map[string]any{"profileID": profileID, "input": in}
	return mutateAndReread(ctx, r, "updateProfileWebhookSettings", key, args, r.profileRows(), func(ctx context.Context) (*ent.Profile, error) {
		return r.merchants.UpdateProfileWebhookSettings(ctx, profileID, in)
	}, entID)
}

func (r *Resolver) retryWebhookDelivery(ctx context.Context, eventID string, key *string) (*model.DeliveryAttemptPayload, error) {
	att, replayed, err := idempotent(ctx, r, "retryWebhookDelivery", key, map[string]any{"eventID": eventID}, func(ctx context.Context) (*ent.EventDeliveryAttempt, error) {
		if _, ok := tenancy.FromContext(ctx); !ok {
			return nil, errs.Unauthorized()
		}
		// A merchant's own events only (tenancy scopes the read: another
		// merchant's, or another profile's, is not found); the admin key
		// reaches any.
		ev, err := r.events.GetEvent(ctx, eventID)
		if err != nil {
			return nil, err
		}
		if r.webhooks == nil {
			return nil, errs.Unavailable("webhook delivery")
		}
		a, err := r.webhooks.Retry(ctx, ev.ID)
		if err != nil {
			if _, ok := errs.As(err); ok {
				return nil, err
			}
			return nil, errs.InvalidValue("event_id", "the event cannot be sent: %v", err)
		}
		return reread(ctx, r.client.EventDeliveryAttempt.Get, a.ID)
	}, func(ctx context.Context, snap *ent.EventDeliveryAttempt) (*ent.EventDeliveryAttempt, error) {
		return restore(ctx, r.client.EventDeliveryAttempt.Get, snap.ID, snap, "Event delivery attempt")
	})
	if err != nil {
		return nil, err
	}
	return &model.DeliveryAttemptPayload{DeliveryAttempt: att, Replayed: replayed}, nil
}

func (r *Resolver) acceptDispute(ctx context.Context, id string, key *string) (*model.DisputePayload, error) {
	disputes := rowsOf[model.DisputePayload](r.client.Dispute.Get, "Dispute")
	return mutateMerchantRow(ctx, r, "acceptDispute", key, map[string]any{"id": id}, disputes, func(ctx context.Context) (*ent.Dispute, error) {
		v, err := r.svc.AcceptDispute(ctx, id)
		if err != nil {
			return nil, err
		}
		return v.Dispute, nil
	})
}

// retryFailedWebhookDeliveries makes the caller's merchant's failed
// deliveries due now (webhooks.Worker.RequeueFailed).
func (r *Resolver) retryFailedWebhookDeliveries(ctx context.Context, profileID *string) (*model.RetryFailedDeliveriesPayload, error) {
	if r.webhooks == nil {
		return nil, errs.Unavailable("webhook delivery")
	}
	scope := ""
	if p, _ := tenancy.FromContext(ctx); p.ProfileID != "" {
		scope = p.ProfileID // a key that names a profile reaches that one only
	}
	if profileID != nil {
		if scope != "" && *profileID != scope {
			return nil, errs.NotFound("Business profile")
		}
		if _, err := r.client.Profile.Get(ctx, *profileID); err != nil { // the merchant's own, else not found
			return nil, errs.NotFound("Business profile")
		}
		scope = *profileID
	}
	n, err := r.webhooks.RequeueFailed(ctx, scope)
	if err != nil {
		return nil, errs.Internal(err)
	}
	return &model.RetryFailedDeliveriesPayload{Queued: n}, nil
}

func (r *Resolver) submitDisputeEvidence(ctx context.Context, id string, evidence map[string]any, key *string) (*model.DisputePayload, error) {
	disputes := rowsOf[model.DisputePayload](r.client.Dispute.Get, "Dispute")
	return mutateMerchantRow(ctx, r, "submitDisputeEvidence", key, map[string]any{"id": id, "evidence": evidence}, disputes, func(ctx context.Context) (*ent.Dispute, error) {
		in := payments.EvidenceInput{DisputeID: id, Members: make(map[string]string, len(evidence))}
		for k, v := range evidence {
			s, ok := v.(string)
			if !ok {
				return nil, errs.InvalidValue("evidence."+k, "must be a string")
			}
			in.Members[k] = s
		}
		v, err := r.svc.SubmitEvidence(ctx, in)
		if err != nil {
			return nil, err
		}
		return v.Dispute, nil
	})
}

// maxEvidenceBase64 bounds attachDisputeEvidence's content so the request
// stays inside the server's body limit.
const maxEvidenceBase64 = 700 << 10 * 4 / 3

func (r *Resolver) attachDisputeEvidence(ctx context.Context, id, evidenceType, fileName, fileType, content string, key *string) (*model.DisputePayload, error) {
	disputes := rowsOf[model.DisputePayload](r.client.Dispute.Get, "Dispute")
	args := map[string]any{"id": id, "evidenceType": evidenceType, "fileName": fileName, "fileType": fileType, "contentBase64": content}
	return mutateMerchantRow(ctx, r, "attachDisputeEvidence", key, args, disputes, func(ctx context.Context) (*ent.Dispute, error) {
		if len(content) > maxEvidenceBase64 {
			return nil, errs.InvalidValue("contentBase64", "must be at most 700 KiB of file; upload larger files with PUT /disputes/evidence")
		}
		data, err := base64.StdEncoding.DecodeString(content)
		if err != nil {
			return nil, errs.InvalidValue("contentBase64", "is not base64")
		}
		u := files.Upload{Data: data, Given: true, Name: fileName, Type: fileType, Purpose: files.PurposeDisputeEvidence}
		if _, err := r.svc.AttachEvidence(ctx, id, evidenceType, u); err != nil {
			return nil, err
		}
		v, err := r.svc.GetDispute(ctx, id)
		if err != nil {
			return nil, err
		}
		return v.Dispute, nil
	})
}
