package rest

import (
	"context"
	"net/http"
	"time"
)

// Checker is a dependency readiness can probe.
type Checker interface {
	Ping(ctx context.Context) error
}

// healthHandler answers liveness: the process serves requests.
func healthHandler(w http.ResponseWriter, _ *http.Request) {
	WriteJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// readyHandler checks every dependency (database, Redis) with a short
// timeout and answers 503 naming the ones that are down.
func readyHandler(checks map[string]Checker) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		type result struct {
			name string
			err  error
		}
		results := make(chan result, len(checks))
		for name, c := range checks {
			go func() { results <- result{name, c.Ping(ctx)} }()
		}
		body := map[string]any{}
		status := http.StatusOK
		components := map[string]string{}
		for range checks {
			res := <-results
			if res.err != nil {
				status = http.StatusServiceUnavailable
				components[res.name] = "down: " + res.err.Error()
			} else {
				components[res.name] = "ok"
			}
		}
		body["components"] = components
		if status == http.StatusOK {
			body["status"] = "ready"
		} else {
			body["status"] = "unavailable"
			body["reason"] = "a dependency is down"
		}
		WriteJSON(w, status, body)
	}
}
