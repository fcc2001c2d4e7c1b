package netinfobuild

import (
	"context"
	"errors"
	"net/netip"
	"testing"
	"testing/fstest"
	"time"

	"github.com/ipatlas/ipatlas/internal/mmdbwalk"
	"github.com/ipatlas/ipatlas/internal/mmdbwalk/mmdbwalktest"
)

// TestGeoLiteCraftedTree reads databases whose 40-node search tree yields 2^39 networks.
// Walking the ASN database must fail once the networks outnumber what the nodes allow, not
// run until the deadline with the networks piling up. The country database is only looked
// up, address by address, and a lookup ends after at most 128 nodes whatever the tree.
func TestGeoLiteCraftedTree(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	fsys := fstest.MapFS{
		asnMMDB:     {Data: mmdbwalktest.Chain(40, "GeoLite2-ASN")},
		countryMMDB: {Data: mmdbwalktest.Chain(40, "GeoLite2-Country")},
	}
	if _, err := parseGeoLiteASN(ctx, fsys); !errors.Is(err, mmdbwalk.ErrTooManyNetworks) {
		t.Errorf("ASN: error %v, want %v", err, mmdbwalk.ErrTooManyNetworks)
	}
	c, err := openGeoLiteCountry(fsys)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []string{"1.2.3.4", "::", "ffff::1", "8000::"} {
		if cc, err := c.registered(netip.MustParseAddr(a)); err != nil || cc != "" {
			t.Errorf("country of %s: %q, %v; want none", a, cc, err)
		}
	}
}
