// Package model holds the GraphQL types that are not ent entities; gqlgen
// writes them to models_gen.go when the hand-written schema declares any.
package model
