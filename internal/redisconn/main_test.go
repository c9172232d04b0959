package redisconn_test

import (
	"testing"

	"switchyard/internal/testenv"
)

// TestMain empties the test Redis database and names the skipped tests.
func TestMain(m *testing.M) { testenv.Main(m) }
