package app

import (
	"log/slog"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"switchyard/internal/ids"
	"switchyard/payments/errs"
	"switchyard/rest"
)

// maxBodyBytes bounds every request body.
const maxBodyBytes = 1 << 20

var validRequestID = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,128}$`)

// metrics are the HTTP server's Prometheus series.
type metrics struct {
	requests    *prometheus.CounterVec
	duration    *prometheus.HistogramVec
	connections prometheus.Gauge
}

func newMetrics(reg prometheus.Registerer) *metrics {
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "switchyard_http_requests_total",
			Help: "HTTP requests by route pattern, method and status.",
		}, []string{"route", "method", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "switchyard_http_request_duration_seconds",
			Help:    "HTTP request latency by route pattern.",
			Buckets: prometheus.DefBuckets,
		}, []string{"route", "method"}),
		connections: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "switchyard_http_connections_open",
			Help: "Client connections open, busy or idle (keep-alive).",
		}),
	}
	reg.MustRegister(m.requests, m.duration, m.connections)
	return m
}

// connState counts the server's open connections (http.Server.ConnState):
// each is new once, then closed or hijacked once.
func (m *metrics) connState(_ net.Conn, s http.ConnState) {
	switch s {
	case http.StateNew:
		m.connections.Inc()
	case http.StateClosed, http.StateHijacked:
		m.connections.Dec()
	}
}

// statusWriter remembers the status a handler wrote.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// instrument wraps the whole server: request id (taken from X-Request-Id when
// sane, else made, and always returned as x-request-id), a bounded body,
// panic recovery into the error envelope, a JSON access log and metrics.
func instrument(next http.Handler, log *slog.Logger, m *metrics) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		reqID := r.Header.Get("X-Request-Id")
		if !validRequestID.MatchString(reqID) {
			reqID = ids.New("req")
		}
		w.Header().Set("x-request-id", reqID)
		ctx := withRequestID(r.Context(), reqID)
		r = r.WithContext(ctx)
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, rest.BodyLimit(r, maxBodyBytes))
		}
		sw := &statusWriter{ResponseWriter: w}
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				log.ErrorContext(ctx, "panic", "panic", v)
				if sw.status == 0 {
					rest.WriteError(sw, r, errs.Internal(nil))
				}
			}
			route := r.Pattern
			if route == "" {
				route = "unmatched"
			}
			status := sw.status
			if status == 0 {
				status = http.StatusOK
			}
			elapsed := time.Since(start)
			m.requests.WithLabelValues(route, r.Method, strconv.Itoa(status)).Inc()
			m.duration.WithLabelValues(route, r.Method).Observe(elapsed.Seconds())
			log.LogAttrs(ctx, slog.LevelInfo, "http request",
				slog.String("method", r.Method),
				slog.String("path", r.URL.Path),
				slog.String("route", route),
				slog.Int("status", status),
				slog.Int("bytes", sw.bytes),
				slog.Duration("duration", elapsed),
			)
		}()
		next.ServeHTTP(sw, r)
	})
}
