package redisconn

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/redis/go-redis/v9"
)

// slogLogger sends go-redis's own messages (dial failures, pool notices)
// through slog, so the process writes only JSON lines.
type slogLogger struct{ log *slog.Logger }

func (l slogLogger) Printf(ctx context.Context, format string, v ...any) {
	l.log.WarnContext(ctx, fmt.Sprintf(format, v...), "component", "go-redis")
}

// UseLogger routes go-redis's messages to log. go-redis keeps one global
// logger, so this is process-wide.
func UseLogger(log *slog.Logger) { redis.SetLogger(slogLogger{log}) }
