package netinfobuild

import (
	"bufio"
	"cmp"
	"compress/bzip2"
	"compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ipatlas/ipatlas/internal/netinfo"
	"github.com/osrg/gobgp/v4/pkg/packet/bgp"
	"github.com/osrg/gobgp/v4/pkg/packet/mrt"
)

// MRT (RFC 6396) is read with gobgp: TABLE_DUMP_V2 RIBs (with and without ADD-PATH) through
// mrt.ParseBody, and BGP4MP/BGP4MP_ET UPDATE messages by reading the BGP4MP header here and
// the BGP message with bgp.ParseBGPMessage, so that the AS-number size of the session (2 or 4
// bytes) and ADD-PATH are passed to the parser (mrt.ParseBody does not). The legacy
// TABLE_DUMP type, which gobgp does not read, and every other type are counted and skipped.

// maxMRTRecord bounds one MRT record; BGP messages are at most 64 KiB and RIB records of a
// full table stay well under 1 MiB.
const maxMRTRecord = 16 << 20

// maxMRTFile bounds the decompressed size of one MRT file, and so the time spent on it.
// What lies past it is not read; the build says so.
const maxMRTFile = 4 << 30

// route is one observed path to a prefix: who saw it, and the AS path with prepending
// removed, origin last.
type route struct {
	Prefix netip.Prefix
	Peer   peer
	Path   []uint32
}

// peer identifies a BGP session of a collector.
type peer struct {
	AS   uint32
	Addr netip.Addr
}

// mrtStats counts what the MRT files held.
type mrtStats struct {
	Files       int
	Records     int // MRT records read
	Routes      int // paths kept
	Unsupported int // records of types not read (TABLE_DUMP, state changes, ...)
	Malformed   int // records or attributes that did not parse
	NoPath      int // announcements without a usable AS path (empty, AS_SET, loop)
	Newest      time.Time
	NotMRT      []string // files left out: they do not start with an MRT record of a known type
	Cut         []string // files read only up to maxMRTFile bytes, decompressed
}

// fileWarnings says which files were left out, or read in part.
func (st mrtStats) fileWarnings() []string {
	var out []string
	if len(st.NotMRT) > 0 {
		out = append(out, fmt.Sprintf("left out %s not starting with an MRT record of a known type: %s", nFiles(len(st.NotMRT)), someNames(st.NotMRT)))
	}
	if len(st.Cut) > 0 {
		out = append(out, fmt.Sprintf("read %s only up to %s (decompressed), so later records are missing: %s", nFiles(len(st.Cut)), byteSize(maxMRTFile), someNames(st.Cut)))
	}
	return out
}

// nFiles counts files for a warning: "1 file", "2 files".
func nFiles(n int) string {
	if n == 1 {
		return "1 file"
	}
	return fmt.Sprintf("%d files", n)
}

// byteSize writes a size in the largest binary unit that divides it ("4 GiB"), so that a
// limit reads as it was set rather than as ten digits.
func byteSize(n int64) string {
	for _, u := range []struct {
		name string
		size int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.size && n%u.size == 0 {
			return fmt.Sprintf("%d %s", n/u.size, u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// someNames lists the first few names, for a warning that stays one line.
func someNames(names []string) string {
	const show = 5
	if len(names) <= show {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:show], ", "), len(names)-show)
}

// parseMRT reads every MRT file in fsys (gzip and bzip2 compression are recognised by
// their magic numbers; files that are not MRT are left out, and listed in NotMRT) and
// calls yield for each route.
func parseMRT(ctx context.Context, fsys fs.FS, yield func(route)) (mrtStats, error) {
	names, err := files(fsys, func(base string) bool {
		return !strings.HasSuffix(base, ".md") && !strings.HasSuffix(base, ".txt") && !strings.HasPrefix(base, ".")
	})
	if err != nil {
		return mrtStats{}, err
	}
	var st mrtStats
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		f, err := fsys.Open(name)
		if err != nil {
			return st, err
		}
		read, err := readMRT(f, maxMRTFile, &st, yield)
		f.Close()
		if err != nil {
			return st, fmt.Errorf("%s: %w", name, err)
		}
		switch read {
		case notMRT:
			st.NotMRT = append(st.NotMRT, name)
		case mrtCut:
			st.Cut = append(st.Cut, name)
			st.Files++
		default:
			st.Files++
		}
	}
	if st.Files == 0 {
		return st, errors.New("no MRT files")
	}
	return st, nil
}

// mrtRead is what readMRT made of a stream.
type mrtRead int

const (
	notMRT   mrtRead = iota // it does not start with an MRT record of a known type: nothing read
	mrtWhole                // read to its end
	mrtCut                  // longer than the limit: read up to it
)

// readMRT reads one possibly compressed MRT stream, up to limit bytes decompressed.
func readMRT(r io.Reader, limit int64, st *mrtStats, yield func(route)) (mrtRead, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	magic, _ := br.Peek(3)
	var in io.Reader = br
	switch {
	case len(magic) >= 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		zr, err := gzip.NewReader(br)
		if errors.Is(err, gzip.ErrHeader) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			// The magic number, then a gzip header cut short (a download cut in its first
			// bytes) or broken: not an MRT stream either, so named and left out like any
			// other file that is not MRT, rather than failing the update. A corrupt tail
			// past a good header is read below, up to the damage, and counted as malformed.
			return notMRT, nil
		}
		if err != nil {
			return notMRT, err // reading the file failed
		}
		defer zr.Close()
		in = zr
	case len(magic) == 3 && string(magic) == "BZh":
		in = bzip2.NewReader(br)
	}
	lr := &io.LimitedReader{R: in, N: limit}
	sc := bufio.NewScanner(lr)
	sc.Buffer(make([]byte, 0, 1<<16), maxMRTRecord)
	sc.Split(splitMRT)
	d := mrtDecoder{st: st, yield: yield}
	first := true
	for sc.Scan() {
		rec := sc.Bytes()
		h, err := mrt.ParseHeader(rec) // reads 12 bytes, 16 for the _ET types
		if first {
			if err != nil || !knownType(h.Type) {
				return notMRT, nil
			}
			first = false
		}
		if err != nil {
			st.Malformed++
			continue
		}
		st.Records++
		if t := time.Unix(int64(h.Timestamp), 0).UTC(); t.After(st.Newest) {
			st.Newest = t
		}
		d.record(h, rec[mrt.MRT_COMMON_HEADER_LEN:])
	}
	// A byte past the limit means the stream was cut there; a LimitedReader alone ends
	// as if the stream did.
	cut := false
	if lr.N == 0 {
		var one [1]byte
		_, err := io.ReadFull(in, one[:])
		cut = err == nil
	}
	if err := sc.Err(); err != nil && !first {
		// A truncated or corrupt tail: keep what was read, count the rest as malformed,
		// unless it is the record the limit cut through.
		if !cut || !errors.Is(err, errTruncated) {
			st.Malformed++
		}
	}
	switch {
	case first:
		return notMRT, nil
	case cut:
		return mrtCut, nil
	}
	return mrtWhole, nil
}

// errTruncated reports an MRT stream that ends inside a record.
var errTruncated = errors.New("truncated MRT record")

// splitMRT is a bufio.SplitFunc that returns one MRT record (common header and body) at a
// time. Unlike mrt.SplitMrt it looks only at the bytes it was given.
func splitMRT(data []byte, atEOF bool) (int, []byte, error) {
	if len(data) < mrt.MRT_COMMON_HEADER_LEN {
		if atEOF && len(data) > 0 {
			return 0, nil, errTruncated
		}
		return 0, nil, nil
	}
	n := uint64(mrt.MRT_COMMON_HEADER_LEN) + uint64(binary.BigEndian.Uint32(data[8:12]))
	if n > maxMRTRecord {
		return 0, nil, fmt.Errorf("MRT record of %d bytes", n)
	}
	if uint64(len(data)) < n {
		if atEOF {
			return 0, nil, errTruncated
		}
		return 0, nil, nil
	}
	return int(n), data[:n], nil
}

func knownType(t mrt.MRTType) bool {
	switch t {
	case mrt.TABLE_DUMP, mrt.TABLE_DUMPv2, mrt.BGP4MP, mrt.BGP4MP_ET:
		return true
	}
	return false
}

// mrtDecoder turns MRT records into routes; it keeps the peer table of TABLE_DUMP_V2.
type mrtDecoder struct {
	st    *mrtStats
	yield func(route)
	peers []peer
}

func (d *mrtDecoder) record(h *mrt.MRTHeader, body []byte) {
	switch h.Type {
	case mrt.TABLE_DUMPv2:
		d.tableDump(h, body)
	case mrt.BGP4MP, mrt.BGP4MP_ET:
		if h.Type == mrt.BGP4MP_ET {
			if len(body) < 4 {
				d.st.Malformed++
				return
			}
			body = body[4:] // microseconds
		}
		d.bgp4mp(mrt.MRTSubTypeBGP4MP(h.SubType), body)
	default:
		d.st.Unsupported++
	}
}

func (d *mrtDecoder) tableDump(h *mrt.MRTHeader, body []byte) {
	switch mrt.MRTSubTypeTableDumpv2(h.SubType) {
	case mrt.PEER_INDEX_TABLE, mrt.RIB_IPV4_UNICAST, mrt.RIB_IPV6_UNICAST,
		mrt.RIB_IPV4_UNICAST_ADDPATH, mrt.RIB_IPV6_UNICAST_ADDPATH:
	case mrt.RIB_GENERIC, mrt.RIB_GENERIC_ADDPATH:
		// Sequence number, AFI, SAFI: every SAFI but unicast is skipped (multicast like
		// RIB_IPV4_MULTICAST, and also MPLS, VPN, flowspec, ...), as only unicast routes
		// say who originates an address. The SAFI is checked here because gobgp's Rib
		// does not keep the family of a generic RIB.
		if len(body) >= 7 && body[6] != bgp.SAFI_UNICAST {
			d.st.Unsupported++
			return
		}
	default:
		d.st.Unsupported++ // multicast RIBs, geo peer tables
		return
	}
	hdr := *h
	hdr.Len = uint32(len(body))
	msg, err := mrt.ParseBody(body, &hdr)
	if err != nil {
		if mrt.MRTSubTypeTableDumpv2(h.SubType) == mrt.PEER_INDEX_TABLE {
			// RIB entries index the latest table (RFC 6396 4.3): kept, the one before would
			// credit them to other peers. Without a table they count as malformed.
			d.peers = d.peers[:0]
		}
		d.st.Malformed++
		return
	}
	switch b := msg.Body.(type) {
	case *mrt.PeerIndexTable:
		d.peers = d.peers[:0]
		for _, p := range b.Peers {
			d.peers = append(d.peers, peer{p.AS, p.IpAddress})
		}
	case *mrt.Rib:
		prefix, ok := nlriPrefix(b.Prefix)
		if !ok {
			d.st.Unsupported++
			return
		}
		for _, e := range b.Entries {
			if int(e.PeerIndex) >= len(d.peers) {
				d.st.Malformed++
				continue
			}
			d.announce(prefix, d.peers[e.PeerIndex], e.PathAttributes, true)
		}
	default:
		d.st.Unsupported++
	}
}

// bgp4mp reads a BGP4MP message record (RFC 6396 4.4): peer AS, local AS (2 or 4 bytes),
// interface index, address family, peer and local addresses, then a BGP message.
func (d *mrtDecoder) bgp4mp(sub mrt.MRTSubTypeBGP4MP, body []byte) {
	var as4, addPath bool
	switch sub {
	case mrt.MESSAGE, mrt.MESSAGE_LOCAL:
	case mrt.MESSAGE_AS4, mrt.MESSAGE_AS4_LOCAL:
		as4 = true
	case mrt.MESSAGE_ADDPATH, mrt.MESSAGE_LOCAL_ADDPATH:
		addPath = true
	case mrt.MESSAGE_AS4_ADDPATH, mrt.MESSAGE_AS4_LOCAL_ADDPATH:
		as4, addPath = true, true
	default:
		d.st.Unsupported++ // state changes
		return
	}
	asLen := 2
	if as4 {
		asLen = 4
	}
	if len(body) < 2*asLen+4 {
		d.st.Malformed++
		return
	}
	var p peer
	if as4 {
		p.AS = binary.BigEndian.Uint32(body)
	} else {
		p.AS = uint32(binary.BigEndian.Uint16(body))
	}
	body = body[2*asLen+2:] // peer AS, local AS, interface index
	afi := binary.BigEndian.Uint16(body)
	body = body[2:]
	addrLen := 4
	switch afi {
	case bgp.AFI_IP:
	case bgp.AFI_IP6:
		addrLen = 16
	default:
		d.st.Malformed++
		return
	}
	if len(body) < 2*addrLen {
		d.st.Malformed++
		return
	}
	p.Addr, _ = netip.AddrFromSlice(body[:addrLen])
	body = body[2*addrLen:]

	opt := &bgp.MarshallingOption{Use2ByteAS: !as4}
	if addPath {
		opt.AddPath = map[bgp.Family]bgp.BGPAddPathMode{bgp.RF_IPv4_UC: bgp.BGP_ADD_PATH_RECEIVE, bgp.RF_IPv6_UC: bgp.BGP_ADD_PATH_RECEIVE}
	}
	msg, err := bgp.ParseBGPMessage(body, opt)
	if err != nil {
		d.st.Malformed++
		return
	}
	u, ok := msg.Body.(*bgp.BGPUpdate)
	if !ok {
		d.st.Unsupported++ // OPEN, KEEPALIVE, NOTIFICATION
		return
	}
	var prefixes []netip.Prefix
	for _, n := range u.NLRI {
		if pfx, ok := nlriPrefix(n.NLRI); ok {
			prefixes = append(prefixes, pfx)
		}
	}
	for _, a := range u.PathAttributes {
		if mp, ok := a.(*bgp.PathAttributeMpReachNLRI); ok && mp.SAFI == bgp.SAFI_UNICAST {
			for _, n := range mp.Value {
				if pfx, ok := nlriPrefix(n.NLRI); ok {
					prefixes = append(prefixes, pfx)
				}
			}
		}
	}
	for _, pfx := range prefixes {
		d.announce(pfx, p, u.PathAttributes, as4)
	}
}

func nlriPrefix(n bgp.NLRI) (netip.Prefix, bool) {
	x, ok := n.(*bgp.IPAddrPrefix)
	if !ok || !x.Prefix.IsValid() {
		return netip.Prefix{}, false
	}
	p := x.Prefix.Masked()
	if p.Addr().Is4In6() {
		return netip.Prefix{}, false
	}
	return p, true
}

// announce yields the route for prefix if its attributes hold a usable AS path.
func (d *mrtDecoder) announce(prefix netip.Prefix, p peer, attrs []bgp.PathAttributeInterface, as4 bool) {
	path, ok := asPath(attrs, as4)
	if !ok {
		d.st.NoPath++
		return
	}
	d.st.Routes++
	d.yield(route{Prefix: prefix, Peer: p, Path: path})
}

// asPath returns the AS path of attrs as one sequence, origin last, with prepending
// removed. On a 2-byte session the AS4_PATH attribute restores the 4-byte numbers (RFC 6793
// 4.2.3). Confederation segments are dropped (they are internal to the announcing AS). A
// path with an AS_SET, a loop or no AS is not usable.
func asPath(attrs []bgp.PathAttributeInterface, as4 bool) ([]uint32, bool) {
	var seq, seq4 []uint32
	var have4 bool
	for _, a := range attrs {
		switch x := a.(type) {
		case *bgp.PathAttributeAsPath:
			for _, s := range x.Value {
				switch s.GetType() {
				case bgp.BGP_ASPATH_ATTR_TYPE_SEQ:
					seq = append(seq, s.GetAS()...)
				case bgp.BGP_ASPATH_ATTR_TYPE_SET:
					return nil, false
				}
			}
		case *bgp.PathAttributeAs4Path:
			have4 = true
			for _, s := range x.Value {
				switch s.Type {
				case bgp.BGP_ASPATH_ATTR_TYPE_SEQ:
					seq4 = append(seq4, s.AS...)
				case bgp.BGP_ASPATH_ATTR_TYPE_SET:
					return nil, false
				}
			}
		}
	}
	if !as4 && have4 && len(seq4) <= len(seq) {
		seq = append(seq[:len(seq)-len(seq4):len(seq)-len(seq4)], seq4...)
	}
	out := seq[:0:0]
	for _, as := range seq {
		if len(out) > 0 && out[len(out)-1] == as {
			continue // prepending
		}
		if slices.Contains(out, as) {
			return nil, false // a loop
		}
		out = append(out, as)
	}
	return out, len(out) > 0
}

// asPaths aggregates routes into what netinfo stores: per prefix, the origins and the ASes
// seen just before each origin, counted by the peers that saw them; and the transit edges
// between ASes.
type asPaths struct {
	// byPrefix: prefix → origin → via AS (0: the origin was the peer itself) → peers.
	byPrefix map[netip.Prefix]map[uint32]map[uint32]map[peer]bool
	paths    map[string][]uint32 // distinct paths, keyed by their text
	// Leaks counts the routes left out because their path holds a special-purpose AS number
	// (private use, documentation, reserved): networks filter such routes, and no registry
	// describes those ASes.
	Leaks int
}

func newASPaths() *asPaths {
	return &asPaths{byPrefix: map[netip.Prefix]map[uint32]map[uint32]map[peer]bool{}, paths: map[string][]uint32{}}
}

func (a *asPaths) add(r route) {
	for _, as := range r.Path {
		if _, special := netinfo.SpecialASN(as); special {
			a.Leaks++
			return
		}
	}
	origin := r.Path[len(r.Path)-1]
	var via uint32
	if len(r.Path) >= 2 {
		via = r.Path[len(r.Path)-2]
	}
	o := a.byPrefix[r.Prefix]
	if o == nil {
		o = map[uint32]map[uint32]map[peer]bool{}
		a.byPrefix[r.Prefix] = o
	}
	v := o[origin]
	if v == nil {
		v = map[uint32]map[peer]bool{}
		o[origin] = v
	}
	if v[via] == nil {
		v[via] = map[peer]bool{}
	}
	v[via][r.Peer] = true
	if len(r.Path) >= 2 {
		var key strings.Builder
		for _, as := range r.Path {
			key.WriteString(strconv.FormatUint(uint64(as), 10))
			key.WriteByte(' ')
		}
		if _, ok := a.paths[key.String()]; !ok {
			a.paths[key.String()] = slices.Clone(r.Path)
		}
	}
}

// valley reports whether an AS that is not a clique member stands between two that are on
// path p.
func valley(p []uint32, tier1 map[uint32]bool) bool {
	outside := false
	for _, as := range p {
		switch {
		case !tier1[as]:
			outside = true
		case outside:
			return true
		}
	}
	return false
}

// origins returns the origins of prefix, most peers first, ties by ASN.
func (a *asPaths) origins(prefix netip.Prefix) []uint32 {
	o := a.byPrefix[prefix]
	peers := func(origin uint32) int {
		n := 0
		for _, ps := range o[origin] {
			n += len(ps)
		}
		return n
	}
	return slices.SortedFunc(maps.Keys(o), func(x, y uint32) int { return cmp.Or(cmp.Compare(peers(y), peers(x)), cmp.Compare(x, y)) })
}

// via returns the ASes seen just before origin on paths to prefix, most peers first, ties
// by ASN, at most limit.
func (a *asPaths) via(prefix netip.Prefix, origin uint32, limit int) []uint32 {
	v := a.byPrefix[prefix][origin]
	var out []uint32
	for as := range v {
		if as != 0 {
			out = append(out, as)
		}
	}
	slices.SortFunc(out, func(x, y uint32) int { return cmp.Or(cmp.Compare(len(v[y]), len(v[x])), cmp.Compare(x, y)) })
	return out[:min(len(out), limit)]
}

// relations returns the transit the distinct paths show (provider → customers) and the
// transit-free clique it was read with (nil when none was found).
func (a *asPaths) relations() (transitTo map[uint32][]uint32, tier1 map[uint32]bool) {
	links := a.links()
	tier1 = a.clique(links)
	return a.transit(links, tier1), tier1
}

// transit infers provider → customer edges from the distinct paths with Gao's degree
// heuristic, links as links gives them, and tier1, the transit-free clique (see clique;
// nil for Gao's heuristic alone). On each path the top is its clique member nearest the observing peer, or
// else the AS with the most distinct neighbours (the first of equals); routes climb from
// the origin to the top through customer → provider links and descend from the top to the
// observing peer through provider → customer links. So right of the top each AS gives
// transit to its right neighbour, and left of it each AS gives transit to its left
// neighbour. No clique member is anyone's customer: the link between two of them is
// peering. A path with another AS between two clique members climbs down and up again,
// which valley-free routing does not do: it is a leak or poisoned, and is left out, as
// CAIDA's algorithm leaves it out. Without a clique, a peering link at the top is reported
// as transit from the AS with more neighbours: the heuristic cannot tell peers apart. It
// returns provider → customers.
func (a *asPaths) transit(links map[uint32]map[uint32]bool, tier1 map[uint32]bool) map[uint32][]uint32 {
	edges := map[uint32]map[uint32]bool{}
	edge := func(provider, customer uint32) {
		if tier1[customer] {
			return
		}
		if edges[provider] == nil {
			edges[provider] = map[uint32]bool{}
		}
		edges[provider][customer] = true
	}
	for _, p := range a.paths {
		top := slices.IndexFunc(p, func(as uint32) bool { return tier1[as] })
		if top >= 0 && valley(p[top:], tier1) {
			continue
		}
		if top < 0 {
			top = 0
			for i := range p {
				if len(links[p[i]]) > len(links[p[top]]) {
					top = i
				}
			}
		}
		for i := 0; i+1 < len(p); i++ {
			if i < top {
				edge(p[i+1], p[i])
			} else {
				edge(p[i], p[i+1])
			}
		}
	}
	out := make(map[uint32][]uint32, len(edges))
	for provider, cs := range edges {
		out[provider] = slices.Sorted(maps.Keys(cs))
	}
	return out
}
