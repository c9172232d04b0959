// Package ent holds the code ent and entgql generate from ./schema. Nothing
// here is edited by hand; run `go generate ./...` after changing a schema.
package ent

//go:generate go run -mod=mod entc.go
