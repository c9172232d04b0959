package payments

import (
	"context"
	"maps"

	"switchyard/ent"
	"switchyard/ent/paymentintent"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

// metadataUpdatableStates are the states update_metadata takes
// (Hyperswitch's payment_update_metadata: a payment confirmed, waiting on
// its customer or finished; before confirm the payment's own update
// changes its metadata).
var metadataUpdatableStates = []paymentintent.Status{
	paymentintent.StatusSucceeded, paymentintent.StatusFailed, paymentintent.StatusPartiallyCaptured,
	paymentintent.StatusPartiallyCapturedAndCapturable, paymentintent.StatusRequiresCapture,
	paymentintent.StatusRequiresCustomerAction,
}

// MetadataInput is Hyperswitch's PaymentsUpdateMetadataRequest: metadata
// (required) is merged into the payment's, member by member, and so is
// feature_metadata when given.
type MetadataInput struct {
	Metadata        map[string]any
	FeatureMetadata map[string]any
}

// UpdateMetadata merges in.Metadata (and in.FeatureMetadata) into a
// payment's after its authorization. It changes no status and writes no
// event. It returns the payment as written.
func (s *Service) UpdateMetadata(ctx context.Context, paymentID string, in MetadataInput) (*ent.PaymentIntent, error) {
	if in.Metadata == nil {
		return nil, errs.MissingField("metadata")
	}
	var pi *ent.PaymentIntent
	err := s.db.InTx(ctx, func(tx *ent.Tx) (err error) {
		if pi, err = s.lockPayment(ctx, tx, paymentID); err != nil {
			return err
		}
		if !statusIn(pi.Status, metadataUpdatableStates...) {
			return ErrUnexpectedState("updated (metadata)", pi.Status, metadataUpdatableStates)
		}
		upd := pi.Update().SetMetadata(mergedJSON(pi.Metadata, in.Metadata)).AddVersion(1)
		if in.FeatureMetadata != nil {
			upd.SetFeatureMetadata(mergedJSON(pi.FeatureMetadata, in.FeatureMetadata))
		}
		pi, err = upd.Save(ctx)
		return txn.ErrorOrNil(err, "payment")
	})
	if err != nil {
		return nil, err
	}
	return pi.Unwrap(), nil
}

// mergedJSON is old with each member of given set over it (a shallow
// merge: a nested object given replaces the one kept).
func mergedJSON(old, given map[string]any) map[string]any {
	out := make(map[string]any, len(old)+len(given))
	maps.Copy(out, old)
	maps.Copy(out, given)
	return out
}
