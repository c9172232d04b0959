//go:build ignore

package main

import (
	"log"

	"entgo.io/contrib/entgql"
	"entgo.io/ent/entc"
	"entgo.io/ent/entc/gen"
)

func main() {
	ex, err := entgql.NewExtension(
		entgql.WithConfigPath("../gqlgen.yml"),
		entgql.WithSchemaGenerator(),
		entgql.WithSchemaPath("../graph/ent.graphql"),
		entgql.WithWhereInputs(true),
		entgql.WithNodeDescriptor(true),
	)
	if err != nil {
		log.Fatalf("creating entgql extension: %v", err)
	}
	err = entc.Generate("./schema", &gen.Config{
		Features: []gen.Feature{
			gen.FeatureIntercept,
			gen.FeatureVersionedMigration,
			gen.FeatureLock,
			gen.FeatureNamedEdges,
			gen.FeatureUpsert,
			gen.FeatureExecQuery,
			gen.FeatureModifier,
		},
	}, entc.Extensions(ex), entc.TemplateFiles("template/money.tmpl"))
	if err != nil {
		log.Fatalf("running ent codegen: %v", err)
	}
}
