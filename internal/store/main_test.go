package store_test

import (
	"testing"

	"switchyard/internal/testenv"
)

// TestMain names the tests skipped without MariaDB (testenv.Main).
func TestMain(m *testing.M) { testenv.Main(m) }
