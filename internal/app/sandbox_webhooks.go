package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"switchyard/internal/tenancy"
	"switchyard/payments/connector"
)

// sandboxWebhookLease is how long a claimed sandbox webhook waits before
// another pass tries it again, when its delivery did not finish.
const sandboxWebhookLease = 30 * time.Second

var sandboxWebhookClient = &http.Client{Timeout: 10 * time.Second}

// DeliverSandboxWebhooks is one pass of the sandbox connector's webhook
// sender: it posts the simulator's due webhooks (connector.WebhookOutbox)
// to this server's own POST /webhooks/{merchant_id}/{merchant_connector_id},
// signed with the account's merchant secret, as a real connector posts to
// the URL it was given. A webhook leaves the outbox once it is answered
// below 500 (a 4xx will not get better by trying again) or when its account
// has no webhook secret; otherwise it is tried again after its lease. It
// returns how many were answered.
func (a *App) DeliverSandboxWebhooks(ctx context.Context) (int, error) {
	claimed, err := a.simWebhooks.Claim(ctx, 50, sandboxWebhookLease)
	delivered := 0
	for _, c := range claimed {
		var w connector.SandboxWebhook
		if json.Unmarshal(c.Webhook, &w) != nil {
			err = errors.Join(err, a.simWebhooks.Done(ctx, c))
			continue
		}
		done, derr := a.deliverSandboxWebhook(ctx, w)
		if derr != nil {
			err = errors.Join(err, derr)
			continue
		}
		if done {
			delivered++
		}
		err = errors.Join(err, a.simWebhooks.Done(ctx, c))
	}
	return delivered, err
}

// deliverSandboxWebhook posts w; delivered is false for an account with no
// webhook secret (nothing is sent). An error leaves w to be tried again.
func (a *App) deliverSandboxWebhook(ctx context.Context, w connector.SandboxWebhook) (delivered bool, err error) {
	merchantID, secret, ok, err := a.Connectors.WebhookTarget(tenancy.System(ctx), w.AccountID)
	if err != nil || !ok {
		return false, err
	}
	body, err := json.Marshal(w.Event)
	if err != nil {
		return false, err
	}
	target := strings.TrimRight(a.Config.PublicURL, "/") + "/webhooks/" + url.PathEscape(merchantID) + "/" + url.PathEscape(w.AccountID)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return false, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(connector.WebhookSignatureHeader, connector.SignWebhook(secret, body))
	resp, err := sandboxWebhookClient.Do(req)
	if err != nil {
		return false, err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	_ = resp.Body.Close()
	if resp.StatusCode >= 500 {
		return false, errors.New("sandbox webhook to " + target + ": " + resp.Status)
	}
	return true, nil
}

// sendSandboxWebhooks runs DeliverSandboxWebhooks a few times a second
// until ctx ends.
func (a *App) sendSandboxWebhooks(ctx context.Context) {
	runEvery(ctx, 500*time.Millisecond, func(ctx context.Context) {
		_, err := a.DeliverSandboxWebhooks(ctx)
		a.warnPass(ctx, "sandbox webhooks", err)
	})
}
