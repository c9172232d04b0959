package connector

import (
	_ "embed"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// connectorNamesFile is Hyperswitch's closed list of connector_name values,
// one a line (its connector_names.txt).
//
//go:embed connector_names.txt
var connectorNamesFile string

// names and nameSet are the list, read once; as variables (not an init
// function) they are ready before any package variable that uses them.
var names, nameSet = readNames(connectorNamesFile)

func readNames(file string) ([]string, map[string]struct{}) {
	var names []string
	nameSet := map[string]struct{}{}
	for _, line := range strings.Split(file, "\n") {
		n := strings.TrimSpace(line)
		if n == "" || strings.HasPrefix(n, "#") {
			continue
		}
		if _, dup := nameSet[n]; dup {
			continue
		}
		nameSet[n] = struct{}{}
		names = append(names, n)
	}
	slices.Sort(names)
	return names, nameSet
}

// Names returns every valid connector_name, sorted. The slice is the
// caller's.
func Names() []string { return slices.Clone(names) }

// Known reports whether name is a valid connector_name (exact, lowercase
// match).
func Known(name string) bool {
	_, ok := nameSet[name]
	return ok
}

// ErrUnknownConnector is matched (errors.Is) by the error For returns for a
// name outside the list.
var ErrUnknownConnector = errors.New("unknown connector")

// UnknownConnectorError is the error For returns for a name outside the list.
type UnknownConnectorError struct{ Name string }

func (e *UnknownConnectorError) Error() string {
	return fmt.Sprintf("connector: unknown connector name %q", e.Name)
}

// Is makes errors.Is(err, ErrUnknownConnector) hold.
func (e *UnknownConnectorError) Is(target error) bool { return target == ErrUnknownConnector }

// Registry resolves a connector_name to its Connector. Only the sandbox
// environment exists: there, every known name is served by one sandbox
// connector (the Simulator).
type Registry struct {
	sandbox Connector
}

// NewRegistry returns a sandbox registry serving every known name with
// sandbox; nil means a new Simulator.
func NewRegistry(sandbox Connector) *Registry {
	if sandbox == nil {
		sandbox = NewSimulator()
	}
	return &Registry{sandbox: sandbox}
}

// For returns the connector for name, or an *UnknownConnectorError.
func (r *Registry) For(name string) (Connector, error) {
	if !Known(name) {
		return nil, &UnknownConnectorError{Name: name}
	}
	return r.sandbox, nil
}

var defaultRegistry = NewRegistry(nil)

// For resolves name with the default sandbox registry (a Simulator on the
// wall clock).
func For(name string) (Connector, error) { return defaultRegistry.For(name) }
