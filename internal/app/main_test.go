package app_test

import (
	"testing"

	"switchyard/internal/testenv"
)

// TestMain empties the test Redis database the tests used (testenv.Main).
func TestMain(m *testing.M) { testenv.Main(m) }
