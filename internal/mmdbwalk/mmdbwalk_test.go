package mmdbwalk_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"net"
	"net/netip"
	"slices"
	"strings"
	"testing"

	"github.com/maxmind/mmdbwriter"
	"github.com/maxmind/mmdbwriter/mmdbtype"
	"github.com/oschwald/maxminddb-golang/v2"

	"github.com/ipatlas/ipatlas/internal/build/buildtest"
	"github.com/ipatlas/ipatlas/internal/mmdbwalk"
	"github.com/ipatlas/ipatlas/internal/mmdbwalk/mmdbwalktest"
)

// walk returns the prefixes Networks yields before it stops, and its first error. It gives
// up after bound networks, so that a broken limit fails the test rather than the machine.
func walk(t *testing.T, r *maxminddb.Reader, bound int, opts ...maxminddb.NetworksOption) ([]netip.Prefix, error) {
	t.Helper()
	var out []netip.Prefix
	for res, err := range mmdbwalk.Networks(r, opts...) {
		if err != nil {
			return out, err
		}
		if out = append(out, res.Prefix()); len(out) > bound {
			return out, errRunaway
		}
	}
	return out, nil
}

var errRunaway = errors.New("the walk went on past the test's bound")

// TestNetworksChain walks the crafted chains: n nodes yield 2^(n-1)+1 networks (the paths to
// the second record, and the one path to the first that is not an IPv4 alias), which the
// limit of 2n+2 allows up to n = 4 and stops from n = 5 on, after exactly limit networks.
func TestNetworksChain(t *testing.T) {
	tests := []struct {
		nodes    int
		networks int // yielded before the end or the error
		tooMany  bool
	}{
		{nodes: 1, networks: 2},
		{nodes: 2, networks: 3},
		{nodes: 4, networks: 9},
		{nodes: 5, networks: 12, tooMany: true},
		{nodes: 40, networks: 82, tooMany: true},
	}
	for _, tt := range tests {
		r, err := maxminddb.OpenBytes(mmdbwalktest.Chain(tt.nodes, "GeoLite2-ASN"))
		if err != nil {
			t.Fatalf("%d nodes: %v", tt.nodes, err)
		}
		for _, opts := range [][]maxminddb.NetworksOption{nil, {maxminddb.IncludeNetworksWithoutData()}} {
			got, err := walk(t, r, 1000, opts...)
			if len(got) != tt.networks || errors.Is(err, mmdbwalk.ErrTooManyNetworks) != tt.tooMany {
				t.Errorf("%d nodes: %d networks, error %v; want %d, too many %v", tt.nodes, len(got), err, tt.networks, tt.tooMany)
			}
			if err != nil && !tt.tooMany {
				t.Errorf("%d nodes: %v", tt.nodes, err)
			}
		}
	}
}

// TestNetworksValid checks, on trees the MaxMind writer builds (IPv6 with the IPv4 subtree
// aliased, and IPv4), that Networks yields what the reader yields, and that a valid tree
// stays within nodeCount+1, half the limit.
func TestNetworksValid(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, ipVersion := range []int{4, 6} {
		for _, inserts := range []int{0, 1, 2000} {
			w, err := mmdbwriter.New(mmdbwriter.Options{DatabaseType: "test", IPVersion: ipVersion, RecordSize: 24, IncludeReservedNetworks: true})
			if err != nil {
				t.Fatal(err)
			}
			for i := range inserts {
				var a netip.Addr
				if ipVersion == 6 && i%2 == 0 {
					var b [16]byte
					b[0] = 0x24 // clear of the IPv4 aliases (2001::/32, 2002::/16)
					for j := 1; j < 16; j++ {
						b[j] = byte(rnd.Uint32())
					}
					a = netip.AddrFrom16(b)
				} else {
					a = netip.AddrFrom4([4]byte{byte(1 + rnd.IntN(222)), byte(rnd.Uint32()), byte(rnd.Uint32()), 0})
				}
				p := netip.PrefixFrom(a, 8+rnd.IntN(a.BitLen()-8)).Masked()
				ipNet := &net.IPNet{IP: p.Addr().AsSlice(), Mask: net.CIDRMask(p.Bits(), p.Addr().BitLen())}
				if err := w.Insert(ipNet, mmdbtype.Uint32(i)); err != nil {
					t.Fatal(err)
				}
			}
			var buf bytes.Buffer
			if _, err := w.WriteTo(&buf); err != nil {
				t.Fatal(err)
			}
			r, err := maxminddb.OpenBytes(buf.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			for _, opts := range [][]maxminddb.NetworksOption{nil, {maxminddb.IncludeNetworksWithoutData()}} {
				got, err := walk(t, r, 1<<20, opts...)
				if err != nil {
					t.Fatalf("IPv%d, %d inserts: %v", ipVersion, inserts, err)
				}
				var want []netip.Prefix
				for res := range r.Networks(opts...) {
					want = append(want, res.Prefix())
				}
				if !slices.Equal(got, want) {
					t.Errorf("IPv%d, %d inserts: %d networks, the reader %d", ipVersion, inserts, len(got), len(want))
				}
				if uint(len(got)) > r.Metadata.NodeCount+1 {
					t.Errorf("IPv%d, %d inserts: %d networks from %d nodes", ipVersion, inserts, len(got), r.Metadata.NodeCount)
				}
			}
		}
	}
}

// TestNetworksStops checks that Networks stops when the loop breaks, as range-over-func
// requires (a yield after false panics).
func TestNetworksStops(t *testing.T) {
	r, err := maxminddb.OpenBytes(mmdbwalktest.Chain(40, "GeoLite2-ASN"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for range mmdbwalk.Networks(r) {
		if n++; n == 3 {
			break
		}
	}
	if n != 3 {
		t.Errorf("%d networks", n)
	}
}

// FuzzNetworks checks that whatever the bytes, a walk ends within the limit.
func FuzzNetworks(f *testing.F) {
	f.Add(mmdbwalktest.Chain(40, "GeoLite2-ASN"))
	f.Add(mmdbwalktest.Chain(5, "GeoLite2-City"))
	f.Add(mmdbwalktest.Chain(1, "GeoLite2-Country"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := maxminddb.OpenBytes(b)
		if err != nil {
			return
		}
		for _, opts := range [][]maxminddb.NetworksOption{nil, {maxminddb.IncludeNetworksWithoutData()}} {
			limit, n := mmdbwalk.Limit(r.Metadata.NodeCount), uint64(0)
			for _, err := range mmdbwalk.Networks(r, opts...) {
				if errors.Is(err, mmdbwalk.ErrTooManyNetworks) && n != limit {
					t.Fatalf("stopped after %d networks, limit %d", n, limit)
				}
				if err != nil {
					break
				}
				if n++; n > limit {
					t.Fatalf("more than %d networks", limit)
				}
			}
		}
	})
}

// TestRealDatabases checks that the GeoLite2 databases the build reads stay within
// nodeCount+1 networks, half the limit.
func TestRealDatabases(t *testing.T) {
	src := buildtest.Sources(t, "geolite2", "geolite2-city")
	for _, db := range []struct{ source, name string }{
		{"geolite2", "dbs/GeoLite2-ASN.mmdb"},
		{"geolite2", "dbs/GeoLite2-Country.mmdb"},
		{"geolite2", "dbs/GeoLite2-City.mmdb"},
		{"geolite2-city", "GeoLite2-City.mmdb.gz"},
	} {
		fsys, _ := src.Source(db.source)
		b, err := fs.ReadFile(fsys, db.name)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(db.name, ".gz") {
			zr, err := gzip.NewReader(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			if b, err = io.ReadAll(zr); err != nil {
				t.Fatal(err)
			}
		}
		r, err := maxminddb.OpenBytes(b)
		if err != nil {
			t.Fatal(err)
		}
		got, err := walk(t, r, 1<<24, maxminddb.IncludeNetworksWithoutData())
		if err != nil {
			t.Fatalf("%s %s: %v", db.source, db.name, err)
		}
		t.Logf("%s %s: %d networks from %d nodes", db.source, db.name, len(got), r.Metadata.NodeCount)
		if uint(len(got)) > r.Metadata.NodeCount+1 {
			t.Errorf("%s %s: %d networks from %d nodes", db.source, db.name, len(got), r.Metadata.NodeCount)
		}
	}
}
