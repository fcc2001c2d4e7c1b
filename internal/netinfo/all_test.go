package netinfo_test

import (
	"testing"

	"github.com/ipatlas/ipatlas/internal/netinfo"
	"github.com/ipatlas/ipatlas/internal/netinfo/netinfotest"
)

// TestAnnounced: Announced yields every network once, in order, and each agrees with
// Lookup at the prefix's first address whenever no more specific network starts there.
func TestAnnounced(t *testing.T) {
	b, err := netinfo.Encode(netinfotest.Synthetic(7, 2000))
	if err != nil {
		t.Fatal(err)
	}
	db, err := netinfo.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	var prev netinfo.Network
	for net := range db.Announced() {
		if n > 0 && prev.BGPPrefix.Addr().Is4() == net.BGPPrefix.Addr().Is4() &&
			net.BGPPrefix.Addr().Less(prev.BGPPrefix.Addr()) {
			t.Errorf("%v after %v", net.BGPPrefix, prev.BGPPrefix)
		}
		if len(net.Carriers) == 0 && net.Organisation == "" {
			t.Errorf("%v: neither carriers nor organisation", net.BGPPrefix)
		}
		got, ok := db.Lookup(net.BGPPrefix.Addr())
		if ok && got.BGPPrefix == net.BGPPrefix && (got.Organisation != net.Organisation || len(got.Carriers) != len(net.Carriers)) {
			t.Errorf("%v: Announced %+v, Lookup %+v", net.BGPPrefix, net, got)
		}
		prev = net
		n++
	}
	if info := db.Info(); n != info.Networks4+info.Networks6 {
		t.Errorf("Announced yielded %d networks, Info says %d", n, info.Networks4+info.Networks6)
	}
}
