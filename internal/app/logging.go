package app

import (
	"context"
	"io"
	"log/slog"

	"switchyard/internal/requestid"
)

func withRequestID(ctx context.Context, id string) context.Context {
	return requestid.With(ctx, id)
}

// RequestID returns the request id of ctx, if any.
func RequestID(ctx context.Context) string { return requestid.From(ctx) }

// NewLogger returns the JSON logger; every record made with a request's
// context carries its request_id.
func NewLogger(w io.Writer, level slog.Level) *slog.Logger {
	return slog.New(requestIDHandler{slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level})})
}

type requestIDHandler struct{ slog.Handler }

func (h requestIDHandler) Handle(ctx context.Context, r slog.Record) error {
	if id := RequestID(ctx); id != "" {
		r.AddAttrs(slog.String("request_id", id))
	}
	return h.Handler.Handle(ctx, r)
}

func (h requestIDHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return requestIDHandler{h.Handler.WithAttrs(attrs)}
}

func (h requestIDHandler) WithGroup(name string) slog.Handler {
	return requestIDHandler{h.Handler.WithGroup(name)}
}
