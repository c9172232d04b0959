package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"

	"switchyard/internal/ids"
)

// File is an uploaded file's metadata (Hyperswitch's file_metadata): the
// bytes live in a file store (payments/files), never in the database;
// store_key names them there.
type File struct{ ent.Schema }

func (File) Mixin() []ent.Mixin { return []ent.Mixin{Owned{Prefix: ids.File}} }

func (File) Fields() []ent.Field {
	return []ent.Field{
		optString("file_name", 255),
		field.String("file_type").MaxRuneLen(255),
		field.Int64("file_size"),
		field.Enum("purpose").Values("dispute_evidence"),
		field.String("store_key").MaxRuneLen(255).Immutable(),
		// evidence_submitted is set when evidence naming the file has been
		// sent to the connector: from then on the file cannot be deleted.
		field.Bool("evidence_submitted").Default(false),
	}
}

// Annotations keep files out of GraphQL: a dispute's evidence names them
// by id, and the bytes are served only by GET /files/{file_id}.
func (File) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
