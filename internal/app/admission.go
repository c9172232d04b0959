package app

import (
	"context"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"switchyard/graph"
	"switchyard/payments/errs"
	"switchyard/rest"
)

// admission bounds the requests the server works on at once. An open
// connection costs little (a goroutine and its buffers), but a request being
// worked on holds its rows, its answer and its goroutines, and under load
// mostly holds them while it waits for a database connection: with 1,000
// clients the server's memory grew with the clients, not with the work the
// database can do. Past the bound a request waits here, holding only its
// headers, and requests are taken in arrival order; one that waits longer
// than maxWait is answered 503 with nothing done. Health and metrics are
// never held, so probes see the server as it is.
type admission struct {
	slots   chan struct{}
	maxWait time.Duration
	active  prometheus.Gauge
	waiting prometheus.Gauge
}

func newAdmission(limit int, maxWait time.Duration, reg prometheus.Registerer) *admission {
	a := &admission{
		slots:   make(chan struct{}, limit),
		maxWait: maxWait,
		active: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "switchyard_http_requests_active",
			Help: "Requests being worked on (at most SWITCHYARD_MAX_ACTIVE_REQUESTS).",
		}),
		waiting: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "switchyard_http_requests_waiting",
			Help: "Requests waiting for their turn.",
		}),
	}
	reg.MustRegister(a.active, a.waiting)
	return a
}

// unheld are the paths admission lets through at once.
var unheld = map[string]bool{"/health": true, "/health/ready": true, "/metrics": true}

func (a *admission) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if unheld[r.URL.Path] || graph.IsWebsocketUpgrade(r) {
			// A websocket lives as long as its page: the live limits
			// bound it (graph/live.go), not a request's slot.
			next.ServeHTTP(w, r)
			return
		}
		select {
		case a.slots <- struct{}{}:
		default:
			if !a.wait(r.Context()) {
				// Nothing was done: the client may send the request again.
				w.Header().Set("Retry-After", "1")
				rest.WriteError(w, r, errs.Unavailable("The server"))
				return
			}
		}
		a.active.Inc()
		defer func() {
			a.active.Dec()
			<-a.slots
		}()
		next.ServeHTTP(w, r)
	})
}

// wait queues for a slot (a channel's senders are served in order) until
// maxWait or the client goes away.
func (a *admission) wait(ctx context.Context) bool {
	a.waiting.Inc()
	defer a.waiting.Dec()
	t := time.NewTimer(a.maxWait)
	defer t.Stop()
	select {
	case a.slots <- struct{}{}:
		return true
	case <-t.C:
		return false
	case <-ctx.Done():
		return false
	}
}
