// Package archtest holds the repository's structural tests: the direction
// of imports between the domain packages and the front doors, the package map
// of docs/architecture.md, which must name exactly the packages there are, no
// Hyperswitch code in the domain outside the errors' table, and no long
// function in the domain. It has no code of its own; its tests read
// `go list`, docs/architecture.md and the sources of payments/.
package archtest
