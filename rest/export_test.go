package rest

// ClientSettableMembers are the members a publishable key may send to
// confirm, for the test that walks each of them.
func ClientSettableMembers() map[string]bool { return clientSettable }
