package ipgeobuild

import (
	"context"
	"errors"
	"testing"
	"testing/fstest"
	"time"

	"github.com/ipatlas/ipatlas/internal/mmdbwalk"
	"github.com/ipatlas/ipatlas/internal/mmdbwalk/mmdbwalktest"
)

// TestReadMMDBCraftedTree reads a database whose 40-node search tree yields 2^39 networks:
// the walk must fail once the networks outnumber what the nodes allow, not run until the
// deadline with the leaves piling up.
func TestReadMMDBCraftedTree(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err := readMMDB(ctx, fstest.MapFS{mmdbName: {Data: mmdbwalktest.Chain(40, "GeoLite2-City")}})
	if !errors.Is(err, mmdbwalk.ErrTooManyNetworks) {
		t.Errorf("error %v, want %v", err, mmdbwalk.ErrTooManyNetworks)
	}
}
