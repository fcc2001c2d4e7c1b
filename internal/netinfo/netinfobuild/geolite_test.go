package netinfobuild

import (
	"context"
	"errors"
	"testing"
	"testing/fstest"
	"time"

	"github.com/ipatlas/ipatlas/internal/mmdbwalk"
	"github.com/ipatlas/ipatlas/internal/mmdbwalk/mmdbwalktest"
)

// TestGeoLiteCraftedTree reads an ASN database whose 40-node search tree yields 2^39
// networks. Walking it must fail once the networks outnumber what the nodes allow, not run
// until the deadline with the networks piling up. (The country database is only looked up,
// and a lookup ends after at most 128 nodes whatever the code does, so the same tree there
// would test nothing.)
func TestGeoLiteCraftedTree(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	fsys := fstest.MapFS{asnMMDB: {Data: mmdbwalktest.Chain(40, "GeoLite2-ASN")}}
	if _, err := parseGeoLiteASN(ctx, fsys); !errors.Is(err, mmdbwalk.ErrTooManyNetworks) {
		t.Errorf("ASN: error %v, want %v", err, mmdbwalk.ErrTooManyNetworks)
	}
}
