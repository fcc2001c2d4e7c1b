package netinfo_test

import (
	"net/netip"
	"testing"

	"github.com/ipatlas/ipatlas/internal/netinfo"
	"github.com/ipatlas/ipatlas/internal/netinfo/netinfotest"
)

// FuzzDecode feeds Decode corrupted sections: it must fail cleanly or give a DB that answers
// every query without panicking.
func FuzzDecode(f *testing.F) {
	for _, in := range []netinfo.Input{fixture(), netinfotest.Synthetic(1, 40), {}} {
		b, err := netinfo.Encode(in)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("ipatlas-netinfo\x00\x01\x00\x01\x00\x01\x21\x00\x00\x00")) // ::/0 registry piece
	f.Add([]byte("ipatlas-netinfo\x00\x02"))
	f.Fuzz(func(t *testing.T, b []byte) {
		db, err := netinfo.Decode(b)
		if err != nil {
			return
		}
		for _, a := range []string{"0.0.0.0", "8.8.8.8", "255.255.255.255", "::", "2001:db8::1", "ffff::"} {
			db.Lookup(netip.MustParseAddr(a))
		}
		for _, asn := range []uint32{0, 1, 15169, 1<<32 - 1} {
			db.AS(asn)
		}
		for _, p := range []string{"0.0.0.0/0", "8.0.0.0/8", "::/0", "2000::/3"} {
			if _, err := db.Within(netip.MustParsePrefix(p), netinfo.WithinOptions{DepthLimit: netinfo.MaxDepthLimit, BogonsOnly: len(b)%2 == 0}); err != nil {
				t.Fatal(err)
			}
		}
		db.Info()
	})
}
