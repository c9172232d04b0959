// Package archtest holds the repository's structural tests: the direction
// of imports between the domain packages and the front doors, and the
// README's package map, which must name exactly the packages there are. It
// has no code of its own; its tests read `go list` and README.md.
package archtest
