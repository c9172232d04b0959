package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"switchyard/internal/ids"
)

// BlocklistEntry is one thing a merchant refuses to take payments from
// (Hyperswitch's blocklist): a card BIN (its first 6 digits), an extended
// BIN (its first 8) or a card's keyed fingerprint. It never holds a card
// number: a BIN is at most 8 digits and a fingerprint is a keyed hash.
type BlocklistEntry struct{ ent.Schema }

func (BlocklistEntry) Mixin() []ent.Mixin {
	return []ent.Mixin{Owned{Prefix: ids.BlocklistEntry}, Listed{Query: "blocklistEntries"}}
}

func (BlocklistEntry) Fields() []ent.Field {
	return []ent.Field{
		// fingerprint_id is what is blocked: the BIN, the extended BIN or
		// the fingerprint, as Hyperswitch names the column.
		field.String("fingerprint_id").MaxRuneLen(64).NotEmpty().Immutable(),
		field.Enum("data_kind").Values("payment_method", "card_bin", "extended_card_bin").Immutable(),
		// metadata is what a batch upload's row said of the entry.
		jsonMap("metadata"),
	}
}

func (BlocklistEntry) Indexes() []ent.Index {
	return []ent.Index{
		// One entry per blocked value, and the one lookup a confirm makes.
		index.Fields("merchant_id", "fingerprint_id").Unique(),
		index.Fields("merchant_id", "data_kind", "created_at"),
	}
}

// BlocklistBatchJob is one CSV upload of blocklist entries
// (POST /blocklist/batch) and what became of its rows. Switchyard runs a
// batch as it is uploaded, so a job is recorded already finished.
type BlocklistBatchJob struct{ ent.Schema }

func (BlocklistBatchJob) Mixin() []ent.Mixin {
	return []ent.Mixin{Owned{Prefix: ids.BlocklistBatchJob}}
}

func (BlocklistBatchJob) Fields() []ent.Field {
	return []ent.Field{
		field.Enum("status").Values("initiated", "processing", "completed", "failed"),
		field.Int32("total_rows").NonNegative(),
		field.Int32("succeeded_rows").NonNegative(),
		field.Int32("failed_rows").NonNegative(),
	}
}

func (BlocklistBatchJob) Indexes() []ent.Index { return []ent.Index{keyset()} }

func (BlocklistBatchJob) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// CardIssuer is one name in the global catalogue of card issuers
// (Hyperswitch's /card_issuers): the admin key keeps it, every merchant
// reads it. It belongs to no merchant, so it has no tenant scope.
type CardIssuer struct{ ent.Schema }

func (CardIssuer) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

func (CardIssuer) Fields() []ent.Field {
	return []ent.Field{
		idField(ids.CardIssuer),
		field.String("issuer_name").MaxRuneLen(255).NotEmpty(),
		// name_key, the name upper-cased and trimmed, makes two spellings
		// of one issuer the same entry.
		field.String("name_key").MaxRuneLen(255).NotEmpty().Unique(),
	}
}

func (CardIssuer) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// ProfileAcquirer is one of a profile's acquirer configurations
// (Hyperswitch's profile acquirers, its business_profile's
// acquirer_config_map): what the acquirer calls the merchant, for a card
// network, with its BIN and fraud rate.
type ProfileAcquirer struct{ ent.Schema }

func (ProfileAcquirer) Mixin() []ent.Mixin {
	return []ent.Mixin{Owned{Prefix: ids.ProfileAcquirer}}
}

func (ProfileAcquirer) Fields() []ent.Field {
	return []ent.Field{
		fixedID("profile_id"),
		field.String("acquirer_assigned_merchant_id").MaxRuneLen(255),
		field.String("merchant_name").MaxRuneLen(255),
		field.String("network").MaxRuneLen(64),
		field.String("acquirer_bin").MaxRuneLen(64),
		optString("acquirer_ica", 64),
		field.Float("acquirer_fraud_rate").Optional().Nillable(),
		optString("acquirer_country_code", 2),
		field.Bool("is_default").Default(false),
	}
}

func (ProfileAcquirer) Indexes() []ent.Index {
	return []ent.Index{index.Fields("profile_id", "created_at")}
}

func (ProfileAcquirer) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
