package netinfobuild

import (
	"context"
	"net/netip"
	"slices"
	"testing"

	"github.com/ipatlas/ipatlas/internal/netinfo"
)

// The dumps' origins join a network's carriers only where the dumps also name the ASN
// source's origin (a prefix several ASes announce); dumps that name another origin only are
// of another time, and their origin is no carrier (the public samples are from 2010–2017).
func TestCarriersFromDumps(t *testing.T) {
	moas := netip.MustParsePrefix("198.51.100.0/24")
	stale := netip.MustParsePrefix("203.0.113.0/24")
	paths := newASPaths()
	p1 := peer{AS: 100, Addr: netip.MustParseAddr("192.0.2.1")}
	p2 := peer{AS: 300, Addr: netip.MustParseAddr("192.0.2.3")}
	for _, r := range []route{
		{Prefix: moas, Peer: p1, Path: []uint32{100, 10, 1, 20, 200}},
		{Prefix: moas, Peer: p2, Path: []uint32{300, 30, 2, 1, 20, 210}}, // a second origin
		{Prefix: stale, Peer: p1, Path: []uint32{100, 10, 1, 40, 400}},   // not the source's 500
	} {
		paths.add(r)
	}
	var in netinfo.Input
	db := asnDB{Networks: []asnNetwork{{Prefix: moas, ASN: 200}, {Prefix: stale, ASN: 500}}}
	if _, err := addNetworks(context.Background(), &in, db, nil, paths); err != nil {
		t.Fatal(err)
	}
	got := map[netip.Prefix][]uint32{}
	for _, n := range in.Networks {
		got[n.Prefix] = n.Carriers
	}
	if c := got[moas]; len(c) != 2 || c[0] != 200 || !slices.Contains(c, 210) {
		t.Errorf("%s carriers %v, want 200 (the ASN source's) and 210 (the dumps' other origin)", moas, c)
	}
	if c := got[stale]; !slices.Equal(c, []uint32{500}) {
		t.Errorf("%s carriers %v, want only 500: the dumps' 400 is of another time", stale, c)
	}
}
