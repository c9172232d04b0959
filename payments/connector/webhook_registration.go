package connector

import (
	"context"
	"maps"

	"switchyard/ent"
	"switchyard/payments/txn"
)

// SandboxWebhooksMember is the sandbox object's member that makes the
// simulator send the account's webhooks to Switchyard: what registering a
// connector webhook (POST /account/{account_id}/webhooks/{mca_id}) turns on.
const SandboxWebhooksMember = "webhooks"

// RegisterWebhooks records on one of the caller's connector accounts that
// its connector sends its webhooks (metadata.sandbox.webhooks true; the
// account's other metadata is kept), and returns the account. Any other
// id, foreign or unknown, is HE_02. Registering again changes nothing.
func (s *Service) RegisterWebhooks(ctx context.Context, id string) (*ent.MerchantConnectorAccount, error) {
	var row *ent.MerchantConnectorAccount
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		cur, err := s.lockAccount(ctx, tx, id)
		if err != nil {
			return err
		}
		metadata := maps.Clone(cur.Metadata)
		if metadata == nil {
			metadata = map[string]any{}
		}
		sandbox, _ := metadata[SandboxMetadataKey].(map[string]any)
		sandbox = maps.Clone(sandbox)
		if sandbox == nil {
			sandbox = map[string]any{}
		}
		sandbox[SandboxWebhooksMember] = true
		metadata[SandboxMetadataKey] = sandbox
		row, err = cur.Update().SetMetadata(metadata).Save(ctx)
		return txn.ErrorOrNil(err, "merchant connector account")
	})
	return row, err
}
