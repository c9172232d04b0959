package filestore_test

import (
	"testing"

	"switchyard/internal/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }
