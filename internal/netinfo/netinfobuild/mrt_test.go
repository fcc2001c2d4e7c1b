package netinfobuild

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"flag"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ipatlas/ipatlas/internal/netinfo"
	"github.com/osrg/gobgp/v4/pkg/packet/bgp"
	"github.com/osrg/gobgp/v4/pkg/packet/mrt"

	"github.com/ipatlas/ipatlas/internal/build/buildtest"
)

var update = flag.Bool("update", false, "rewrite testdata/mrt/constructed.mrt from the paths in constructedPaths")

// The constructed topology. Tier 1 ASes 1 and 2 peer; 10, 20, 40 and 50 are customers of 1,
// 30 of 2; 100 (a collector peer) and 65010 are customers of 10, 200 and 65011 of 20, 300
// of 30, 400 of 40, 500 of 50. Collector peers 100, 300 and 30 see these paths (peer first,
// origin last); 200 prepends itself.
var constructedPaths = []struct {
	peer   uint32
	prefix string
	path   []uint32
}{
	{100, "198.51.100.0/24", []uint32{100, 10, 1, 20, 200, 200, 200}},
	{100, "203.0.113.0/24", []uint32{100, 10, 1, 2, 30, 300}},
	{300, "198.51.100.0/24", []uint32{300, 30, 2, 1, 20, 200}},
	{30, "198.51.100.0/24", []uint32{30, 2, 1, 20, 200}},
	{30, "2001:db8:200::/48", []uint32{30, 2, 1, 20, 200}},
	{100, "2001:db8:200::/48", []uint32{100, 10, 1, 20, 200}},
	{300, "203.0.113.0/24", []uint32{300}}, // the peer originates it: no via carrier
	{100, "192.0.2.0/24", []uint32{100, 10, 65010}},
	{300, "192.0.2.0/24", []uint32{300, 30, 2, 1, 20, 65011}}, // a second origin (MOAS)
	{100, "198.18.40.0/24", []uint32{100, 10, 1, 40, 400}},
	{100, "198.18.50.0/24", []uint32{100, 10, 1, 50, 500}},
}

// writeConstructed writes constructedPaths as an MRT stream with gobgp: a TABLE_DUMP_V2
// peer index table and RIBs (IPv6 as RIB_GENERIC: gobgp's writer adds AFI/SAFI to IPv6
// RIBs, which only RIB_GENERIC has), then one BGP4MP MESSAGE on a 2-byte session whose
// AS_PATH carries AS_TRANS and whose AS4_PATH restores AS 4200000001.
func writeConstructed(tb testing.TB) []byte {
	tb.Helper()
	var buf bytes.Buffer
	ts := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	write := func(t mrt.MRTType, sub mrt.MRTSubTyper, body mrt.Body) {
		m, err := mrt.NewMRTMessage(ts, t, sub, body)
		if err != nil {
			tb.Fatal(err)
		}
		b, err := m.Serialize()
		if err != nil {
			tb.Fatal(err)
		}
		buf.Write(b)
	}
	peerASes := []uint32{100, 300, 30}
	var peers []*mrt.Peer
	for i, as := range peerASes {
		peers = append(peers, mrt.NewPeer(netip.AddrFrom4([4]byte{10, 0, 0, byte(i + 1)}), netip.AddrFrom4([4]byte{192, 0, 2, byte(i + 1)}), as, true))
	}
	write(mrt.TABLE_DUMPv2, mrt.PEER_INDEX_TABLE, mrt.NewPeerIndexTable(netip.MustParseAddr("10.0.0.254"), "test", peers))

	var prefixes []string
	for _, c := range constructedPaths {
		if !slices.Contains(prefixes, c.prefix) {
			prefixes = append(prefixes, c.prefix)
		}
	}
	for seq, pfx := range prefixes {
		var entries []*mrt.RibEntry
		for _, c := range constructedPaths {
			if c.prefix != pfx {
				continue
			}
			attrs := []bgp.PathAttributeInterface{
				bgp.NewPathAttributeOrigin(0),
				bgp.NewPathAttributeAsPath([]bgp.AsPathParamInterface{bgp.NewAs4PathParam(bgp.BGP_ASPATH_ATTR_TYPE_SEQ, c.path)}),
			}
			entries = append(entries, mrt.NewRibEntry(uint16(slices.Index(peerASes, c.peer)), uint32(ts.Unix()), 0, attrs, false))
		}
		p := netip.MustParsePrefix(pfx)
		nlri, err := bgp.NewIPAddrPrefix(p)
		if err != nil {
			tb.Fatal(err)
		}
		if p.Addr().Is4() {
			write(mrt.TABLE_DUMPv2, mrt.RIB_IPV4_UNICAST, mrt.NewRib(uint32(seq), bgp.RF_IPv4_UC, nlri, entries))
		} else {
			write(mrt.TABLE_DUMPv2, mrt.RIB_GENERIC, mrt.NewRib(uint32(seq), bgp.RF_IPv6_UC, nlri, entries))
		}
	}

	// BGP4MP on a 2-byte session: AS_PATH 100 10 23456, AS4_PATH 4200000001.
	nlri, err := bgp.NewIPAddrPrefix(netip.MustParsePrefix("100.64.0.0/24"))
	if err != nil {
		tb.Fatal(err)
	}
	nh, err := bgp.NewPathAttributeNextHop(netip.MustParseAddr("192.0.2.1"))
	if err != nil {
		tb.Fatal(err)
	}
	update := bgp.NewBGPUpdateMessage(nil, []bgp.PathAttributeInterface{
		bgp.NewPathAttributeOrigin(0),
		bgp.NewPathAttributeAsPath([]bgp.AsPathParamInterface{bgp.NewAsPathParam(bgp.BGP_ASPATH_ATTR_TYPE_SEQ, []uint16{100, 10, 23456})}),
		nh,
		bgp.NewPathAttributeAs4Path([]*bgp.As4PathParam{bgp.NewAs4PathParam(bgp.BGP_ASPATH_ATTR_TYPE_SEQ, []uint32{4200000001})}),
	}, []bgp.PathNLRI{{NLRI: nlri}})
	msg, err := mrt.NewBGP4MPMessage(100, 65000, 0, netip.MustParseAddr("192.0.2.1"), netip.MustParseAddr("192.0.2.254"), false, update)
	if err != nil {
		tb.Fatal(err)
	}
	write(mrt.BGP4MP, mrt.MESSAGE, msg)
	return buf.Bytes()
}

// TestMRTFixtureCurrent checks testdata/mrt/constructed.mrt against writeConstructed;
// go test -run TestMRTFixtureCurrent -update rewrites it.
func TestMRTFixtureCurrent(t *testing.T) {
	want := writeConstructed(t)
	name := filepath.Join("testdata", "mrt", "constructed.mrt")
	if *update {
		if err := os.WriteFile(name, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale; rerun with -update", name)
	}
}

func TestMRTConstructed(t *testing.T) {
	raw := writeConstructed(t)
	gz := gzipped(raw)
	// The same dump plain, gzipped, and next to a file that is not MRT.
	fsys := fstest.MapFS{
		"a/rib.mrt":    {Data: raw},
		"b/rib.mrt.gz": {Data: gz},
		"README":       {Data: []byte("not an MRT file\n")},
	}
	paths := newASPaths()
	var routes []route
	st, err := parseMRT(context.Background(), fsys, func(r route) { routes = append(routes, r); paths.add(r) })
	if err != nil {
		t.Fatal(err)
	}
	if st.Files != 2 || st.Routes != 2*(len(constructedPaths)+1) || st.Malformed != 0 || st.NoPath != 0 {
		t.Errorf("stats %+v", st)
	}
	if got, want := st.Newest, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC); !got.Equal(want) {
		t.Errorf("newest %v, want %v", got, want)
	}
	// Prepending is removed; the AS4_PATH restores the 4-byte origin.
	wantRoutes := []route{}
	peerAddr := map[uint32]netip.Addr{100: netip.MustParseAddr("192.0.2.1"), 300: netip.MustParseAddr("192.0.2.2"), 30: netip.MustParseAddr("192.0.2.3")}
	for _, pfx := range []string{"198.51.100.0/24", "203.0.113.0/24", "2001:db8:200::/48", "192.0.2.0/24", "198.18.40.0/24", "198.18.50.0/24"} {
		for _, c := range constructedPaths {
			if c.prefix == pfx {
				wantRoutes = append(wantRoutes, route{netip.MustParsePrefix(pfx), peer{c.peer, peerAddr[c.peer]}, slices.Compact(slices.Clone(c.path))})
			}
		}
	}
	wantRoutes = append(wantRoutes, route{netip.MustParsePrefix("100.64.0.0/24"), peer{100, netip.MustParseAddr("192.0.2.1")}, []uint32{100, 10, 4200000001}})
	if diff := cmp.Diff(slices.Concat(wantRoutes, wantRoutes), routes, cmp.Comparer(func(a, b netip.Prefix) bool { return a == b }), cmp.Comparer(func(a, b netip.Addr) bool { return a == b })); diff != "" {
		t.Errorf("routes (-want +got):\n%s", diff)
	}

	// Via carriers: 20 before origin 200, seen by all three peers.
	if got := paths.via(netip.MustParsePrefix("198.51.100.0/24"), 200, 5); !slices.Equal(got, []uint32{20}) {
		t.Errorf("via 198.51.100.0/24 = %v", got)
	}
	if got := paths.via(netip.MustParsePrefix("203.0.113.0/24"), 300, 5); !slices.Equal(got, []uint32{30}) {
		t.Errorf("via 203.0.113.0/24 = %v (the route originated by the peer itself has none)", got)
	}
	// Routes through private AS numbers (65010, 65011, 4200000001) parse, as above, and are
	// then left out as leaks.
	leaks := 0
	for _, r := range routes {
		if slices.ContainsFunc(r.Path, func(as uint32) bool { _, s := netinfo.SpecialASN(as); return s }) {
			leaks++
		}
	}
	if leaks == 0 || paths.Leaks != leaks {
		t.Errorf("%d leaks counted, want %d (and some)", paths.Leaks, leaks)
	}
	if got := paths.origins(netip.MustParsePrefix("192.0.2.0/24")); len(got) != 0 {
		t.Errorf("origins 192.0.2.0/24 = %v, want none: its origins are private AS numbers", got)
	}
	// Transit by Gao's heuristic alone (no clique; TestCliqueTransit has one): AS 1 has
	// the most neighbours (2, 10, 20, 40, 50) and tops every path through it, AS 10 the
	// paths that stay below it; the 1-2 peering shows as transit from 1.
	want := map[uint32][]uint32{
		1:  {2, 10, 20, 40, 50},
		2:  {30},
		10: {100},
		20: {200},
		30: {300},
		40: {400},
		50: {500},
	}
	if diff := cmp.Diff(want, paths.transit(paths.links(), nil)); diff != "" {
		t.Errorf("transit (-want +got):\n%s", diff)
	}
}

func TestASPath(t *testing.T) {
	seq := func(as ...uint32) bgp.AsPathParamInterface {
		return bgp.NewAs4PathParam(bgp.BGP_ASPATH_ATTR_TYPE_SEQ, as)
	}
	set := func(as ...uint32) bgp.AsPathParamInterface {
		return bgp.NewAs4PathParam(bgp.BGP_ASPATH_ATTR_TYPE_SET, as)
	}
	confed := func(as ...uint32) bgp.AsPathParamInterface {
		return bgp.NewAs4PathParam(bgp.BGP_ASPATH_ATTR_TYPE_CONFED_SEQ, as)
	}
	tests := []struct {
		name string
		segs []bgp.AsPathParamInterface
		want []uint32
		ok   bool
	}{
		{"plain", []bgp.AsPathParamInterface{seq(1, 2, 3)}, []uint32{1, 2, 3}, true},
		{"prepending", []bgp.AsPathParamInterface{seq(1, 1, 2, 3, 3, 3)}, []uint32{1, 2, 3}, true},
		{"two segments", []bgp.AsPathParamInterface{seq(1, 2), seq(2, 3)}, []uint32{1, 2, 3}, true},
		{"confederation dropped", []bgp.AsPathParamInterface{confed(64512, 64513), seq(1, 2)}, []uint32{1, 2}, true},
		{"set", []bgp.AsPathParamInterface{seq(1, 2), set(3, 4)}, nil, false},
		{"loop", []bgp.AsPathParamInterface{seq(1, 2, 1, 3)}, nil, false},
		{"empty", nil, nil, false},
	}
	for _, tc := range tests {
		got, ok := asPath([]bgp.PathAttributeInterface{bgp.NewPathAttributeAsPath(tc.segs)}, true)
		if ok != tc.ok || !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v %v, want %v %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

// TestMRTSamples reads the mrtparse and RIPE RIS samples of the mirror: BIRD, Quagga and
// OpenBGPD dumps, TABLE_DUMP_V2 with and without ADD-PATH, BGP4MP on 2- and 4-byte sessions.
func TestMRTSamples(t *testing.T) {
	src := buildtest.Sources(t, srcMRT)
	fsys, _ := src.Source(srcMRT)
	paths := newASPaths()
	var lab []uint32 // origins of BIRD's ADD-PATH TABLE_DUMP_V2 sample (private ASNs of the lab)
	st, err := parseMRT(context.Background(), fsys, func(r route) {
		if r.Prefix == netip.MustParsePrefix("172.17.0.0/24") {
			lab = append(lab, r.Path[len(r.Path)-1])
		}
		paths.add(r)
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v; %d prefixes, %d distinct paths", st, len(paths.byPrefix), len(paths.paths))
	if st.Files < 10 || st.Routes < 5000 || len(paths.byPrefix) < 2000 {
		t.Errorf("too little read: %+v", st)
	}
	// The 2010 RIS file: 117.200.208.0/20 originated by AS9829 (BSNL) via AS1239 (Sprint).
	if got := paths.via(netip.MustParsePrefix("117.200.208.0/20"), 9829, 5); !slices.Contains(got, 1239) {
		t.Errorf("via 117.200.208.0/20 = %v, want 1239 among them", got)
	}
	// The lab's routes parse, and are then left out as leaks of private AS numbers.
	if !slices.Contains(lab, 64512) {
		t.Errorf("origins parsed for 172.17.0.0/24 = %v, want 64512 among them", lab)
	}
	if got := paths.origins(netip.MustParsePrefix("172.17.0.0/24")); len(got) != 0 || paths.Leaks == 0 {
		t.Errorf("origins of 172.17.0.0/24 = %v with %d leaks; want none, the routes counted as leaks", got, paths.Leaks)
	}
}

// Hand-written TABLE_DUMP_V2 records (RFC 6396 4.3), for the cases gobgp's writer cannot
// produce: multicast generic RIBs, broken peer tables.

// mrtRecord returns an MRT record of the given type and subtype.
func mrtRecord(typ mrt.MRTType, sub uint16, body []byte) []byte {
	b := binary.BigEndian.AppendUint32(nil, 1700000000)
	b = binary.BigEndian.AppendUint16(b, uint16(typ))
	b = binary.BigEndian.AppendUint16(b, sub)
	b = binary.BigEndian.AppendUint32(b, uint32(len(body)))
	return append(b, body...)
}

// peerIndexTable returns a PEER_INDEX_TABLE record of IPv4 peers with 4-byte AS numbers;
// peer i has address 192.0.2.i.
func peerIndexTable(ases ...uint32) []byte {
	b := []byte{10, 0, 0, 1, 0, 0} // collector id, empty view name
	b = binary.BigEndian.AppendUint16(b, uint16(len(ases)))
	for i, as := range ases {
		b = append(b, 0x02, 10, 0, 0, byte(i), 192, 0, 2, byte(i)) // type: IPv4, AS4; BGP id; address
		b = binary.BigEndian.AppendUint32(b, as)
	}
	return mrtRecord(mrt.TABLE_DUMPv2, uint16(mrt.PEER_INDEX_TABLE), b)
}

// brokenPeerIndexTable declares two peers and holds one and a half.
var brokenPeerIndexTable = func() []byte {
	b := peerIndexTable(174, 1299)
	b = b[:len(b)-3]
	binary.BigEndian.PutUint32(b[8:], uint32(len(b)-mrt.MRT_COMMON_HEADER_LEN))
	return b
}()

// ribRecord returns a RIB record for 198.51.100.0/24 with one entry, from peer index peer
// with the AS path path. A generic RIB (RIB_GENERIC) is given AFI 1 and safi.
func ribRecord(sub mrt.MRTSubTypeTableDumpv2, safi uint8, peer uint16, path ...uint32) []byte {
	b := binary.BigEndian.AppendUint32(nil, 0) // sequence number
	if sub == mrt.RIB_GENERIC {
		b = append(b, 0, 1, safi)
	}
	b = append(b, 24, 198, 51, 100)
	b = binary.BigEndian.AppendUint16(b, 1) // entry count
	attr := []byte{0x40, 2, byte(2 + 4*len(path)), bgp.BGP_ASPATH_ATTR_TYPE_SEQ, byte(len(path))}
	for _, as := range path {
		attr = binary.BigEndian.AppendUint32(attr, as)
	}
	b = binary.BigEndian.AppendUint16(b, peer)
	b = binary.BigEndian.AppendUint32(b, 1700000000) // originated time
	b = binary.BigEndian.AppendUint16(b, uint16(len(attr)))
	return mrtRecord(mrt.TABLE_DUMPv2, uint16(sub), append(b, attr...))
}

// TestMRTRecords reads hand-written TABLE_DUMP_V2 streams record by record.
func TestMRTRecords(t *testing.T) {
	tests := []struct {
		name    string
		records [][]byte
		routes  []uint32 // peer AS of each route
		want    mrtStats // Unsupported and Malformed
	}{
		{"unicast", [][]byte{peerIndexTable(64496), ribRecord(mrt.RIB_IPV4_UNICAST, 0, 0, 64496, 15169)},
			[]uint32{64496}, mrtStats{}},
		{"generic unicast", [][]byte{peerIndexTable(64496), ribRecord(mrt.RIB_GENERIC, bgp.SAFI_UNICAST, 0, 64496, 15169)},
			[]uint32{64496}, mrtStats{}},
		{"multicast", [][]byte{peerIndexTable(64496), ribRecord(mrt.RIB_IPV4_MULTICAST, 0, 0, 64496, 15169)},
			nil, mrtStats{Unsupported: 1}},
		{"generic multicast", [][]byte{peerIndexTable(64496), ribRecord(mrt.RIB_GENERIC, bgp.SAFI_MULTICAST, 0, 64496, 15169)},
			nil, mrtStats{Unsupported: 1}},
		{"no peer table", [][]byte{ribRecord(mrt.RIB_IPV4_UNICAST, 0, 0, 64496, 15169)},
			nil, mrtStats{Malformed: 1}},
		{"second table", [][]byte{peerIndexTable(64496, 3356), peerIndexTable(174, 1299), ribRecord(mrt.RIB_IPV4_UNICAST, 0, 1, 1299, 15169)},
			[]uint32{1299}, mrtStats{}},
		// The broken table leaves none: its entries would have gone to 3356.
		{"broken second table", [][]byte{peerIndexTable(64496, 3356), brokenPeerIndexTable, ribRecord(mrt.RIB_IPV4_UNICAST, 0, 1, 1299, 15169)},
			nil, mrtStats{Malformed: 2}},
		{"broken, then whole", [][]byte{peerIndexTable(64496, 3356), brokenPeerIndexTable, peerIndexTable(174, 1299), ribRecord(mrt.RIB_IPV4_UNICAST, 0, 1, 1299, 15169)},
			[]uint32{1299}, mrtStats{Malformed: 1}},
	}
	for _, tt := range tests {
		var st mrtStats
		var routes []uint32
		read, err := readMRT(bytes.NewReader(bytes.Join(tt.records, nil)), maxMRTFile, &st, func(r route) {
			if r.Prefix != netip.MustParsePrefix("198.51.100.0/24") || r.Path[0] != r.Peer.AS {
				t.Errorf("%s: route %+v", tt.name, r)
			}
			routes = append(routes, r.Peer.AS)
		})
		if read != mrtWhole || err != nil {
			t.Errorf("%s: %v, %v", tt.name, read, err)
		}
		if !slices.Equal(routes, tt.routes) || st.Unsupported != tt.want.Unsupported || st.Malformed != tt.want.Malformed {
			t.Errorf("%s: routes from peers %v, %d unsupported, %d malformed; want %v, %d, %d",
				tt.name, routes, st.Unsupported, st.Malformed, tt.routes, tt.want.Unsupported, tt.want.Malformed)
		}
	}
}

// TestReadMRTLimit reads the constructed dump, plain and gzipped, up to limits around its
// length: a stream longer than the limit is reported cut, not read as if it ended there,
// and the record the limit cuts through is not counted as malformed.
func TestReadMRTLimit(t *testing.T) {
	raw := writeConstructed(t)
	gz := gzipped(raw)
	peerTable := int64(mrt.MRT_COMMON_HEADER_LEN) + int64(binary.BigEndian.Uint32(raw[8:12]))
	all := len(constructedPaths) + 1 // the RIB routes and the BGP4MP one, last
	tests := []struct {
		name      string
		data      []byte
		limit     int64
		want      mrtRead
		routes    int
		malformed int
	}{
		{"plain, to the byte", raw, int64(len(raw)), mrtWhole, all, 0},
		{"plain, a byte to spare", raw, int64(len(raw)) + 1, mrtWhole, all, 0},
		{"plain, a byte short", raw, int64(len(raw)) - 1, mrtCut, all - 1, 0},
		{"plain, after the peer table", raw, peerTable, mrtCut, 0, 0},
		{"gzip, to the byte", gz, int64(len(raw)), mrtWhole, all, 0},
		{"gzip, a byte short", gz, int64(len(raw)) - 1, mrtCut, all - 1, 0},
		{"truncated", raw[:len(raw)-1], maxMRTFile, mrtWhole, all - 1, 1},
	}
	for _, tt := range tests {
		var st mrtStats
		got, err := readMRT(bytes.NewReader(tt.data), tt.limit, &st, func(route) {})
		if err != nil || got != tt.want || st.Routes != tt.routes || st.Malformed != tt.malformed {
			t.Errorf("%s: %v, %v, %d routes, %d malformed; want %v, %d, %d", tt.name, got, err, st.Routes, st.Malformed, tt.want, tt.routes, tt.malformed)
		}
	}
}

// TestParseMRTNotMRT checks that files which are not MRT dumps are listed, and the build
// told, rather than passed over.
func TestParseMRTNotMRT(t *testing.T) {
	raw := writeConstructed(t)
	gz := gzipped(raw)
	fsys := fstest.MapFS{
		"rib.mrt":  {Data: raw},
		"junk.bin": {Data: slices.Concat(mrtRecord(99, 0, nil), peerIndexTable(64496))},
		"empty":    {},
		"notes.md": {Data: []byte("# about these dumps\n")}, // documentation: not listed
		// The gzip magic, then a header that breaks off (1f 8b 00 'x'): a download cut in
		// its first bytes. Left out and named, not a failed update.
		"head.gz": {Data: []byte{0x1f, 0x8b, 0x00, 'x'}},
		// Only the magic: the header ends at once.
		"magic.gz": {Data: []byte{0x1f, 0x8b}},
		// A whole 10-byte header with compression method 0: gzip.ErrHeader.
		"method.gz": {Data: []byte{0x1f, 0x8b, 0, 0, 0, 0, 0, 0, 0, 0xff, 'x'}},
		// A good gzip header and a corrupt tail: read up to the damage, and counted.
		"tail.gz": {Data: gz[:len(gz)-8]},
	}
	st, err := parseMRT(context.Background(), fsys, func(route) {})
	if err != nil {
		t.Fatal(err)
	}
	if st.Files != 2 || !slices.Equal(st.NotMRT, []string{"empty", "head.gz", "junk.bin", "magic.gz", "method.gz"}) || len(st.Cut) != 0 || st.Malformed != 1 {
		t.Errorf("%d files, not MRT %q, cut %q, %d malformed", st.Files, st.NotMRT, st.Cut, st.Malformed)
	}
	want := []string{"left out 5 files not starting with an MRT record of a known type: empty, head.gz, junk.bin, magic.gz, method.gz"}
	if got := st.fileWarnings(); !slices.Equal(got, want) {
		t.Errorf("warnings %q, want %q", got, want)
	}
}

func TestMRTFileWarnings(t *testing.T) {
	tests := []struct {
		st   mrtStats
		want []string
	}{
		{mrtStats{Files: 3}, nil},
		{mrtStats{Cut: []string{"bview.gz"}}, []string{"read 1 file only up to 4 GiB (decompressed), so later records are missing: bview.gz"}},
		{mrtStats{NotMRT: []string{"junk.bin"}}, []string{"left out 1 file not starting with an MRT record of a known type: junk.bin"}},
		{mrtStats{NotMRT: []string{"a", "b", "c", "d", "e", "f", "g"}, Cut: []string{"x", "y"}}, []string{
			"left out 7 files not starting with an MRT record of a known type: a, b, c, d, e and 2 more",
			"read 2 files only up to 4 GiB (decompressed), so later records are missing: x, y",
		}},
	}
	for _, tt := range tests {
		if got := tt.st.fileWarnings(); !slices.Equal(got, tt.want) {
			t.Errorf("%+v: %q, want %q", tt.st, got, tt.want)
		}
	}
}

// TestByteSize: a size is written in the largest binary unit that divides it.
func TestByteSize(t *testing.T) {
	for n, want := range map[int64]string{
		4 << 30: "4 GiB", 3 << 29: "1536 MiB", 64 << 10: "64 KiB", 1000: "1000 bytes", 0: "0 bytes", 1<<30 + 1: "1073741825 bytes",
	} {
		if got := byteSize(n); got != want {
			t.Errorf("byteSize(%d) = %q, want %q", n, got, want)
		}
	}
}

// gzipped returns b compressed with gzip.
func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}
