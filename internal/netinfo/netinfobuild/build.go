// Package netinfobuild builds the netinfo section of a snapshot from the upstream sources:
// the GeoLite2 ASN and Country databases of the geolite2 npm package (required), and, when
// mirrored, IANA's XML registries, the RIR delegated statistics files, Team Cymru's full
// bogon lists, an AS names list and MRT routing dumps. Without a mirror, IANA's facts come
// from the table generated into package iana. A missing optional source leaves its fields
// empty, and the report says so; nothing is invented.
//
// Each source format has its own parser over an fs.FS, so tests run them on small fixtures,
// and each is fuzzed. Build joins the parsed rows into a netinfo.Input and returns
// netinfo.Encode of it: the same sources always give the same bytes.
//
// # Where each field comes from
//
//   - Announced networks (bgpPrefix, carriers, organisation): the networks of GeoLite2-ASN,
//     one origin AS each. They are the leaves of MaxMind's search tree, disjoint prefixes that
//     approximate the announced BGP prefixes: a leaf may cover several announcements of one
//     AS or only part of one. More origins of the same prefix (MOAS) are added from the AS
//     paths when those are mirrored.
//   - Registry, registryStatus, registeredCountry: RIR delegated files (per block; the
//     mirror has AFRINIC, APNIC and LACNIC), over IANA's /8 and IPv6 tables (registry and
//     status only) and special-purpose registries (registry "IANA", status "reserved", for
//     the blocks not globally reachable: a reachable one, such as AS112's, is left to the
//     registry that holds it).
//     Where the answering block has no country, the network's registered_country from
//     GeoLite2-Country is used.
//   - isBogon: IANA's special-purpose blocks that are not globally reachable, always; else
//     free space as the newest dated source says: the blocks the RIR files list as
//     available or reserved and Team Cymru's full bogons, unless a newer RIR file allocated
//     the block, a newer full-bogon list no longer lists it, or GeoLite2-ASN, newer than
//     them, has a network announced there; else IANA's reserved space (IPv4 /8s, IPv6
//     outside the blocks allocated to registries), where an announcement alone makes no
//     difference (see freshness.go).
//   - viaCarriers, transitTo: AS paths of MRT dumps (see asPaths); empty without them.
//   - AS organisation: GeoLite2-ASN; the names list's long name where GeoLite2 has none.
//     AS name (handle): the names list. AS registry, country and registration date: RIR
//     files, else the names list's country, and for the registry the RIR whose file lists
//     the AS as available or reserved (assigned since), else IANA's AS-block table.
//     registrationLastChange has no source and stays empty.
package netinfobuild

import (
	"cmp"
	"context"
	"fmt"
	"net/netip"
	"slices"
	"time"

	"github.com/gaissmai/bart"

	"github.com/ipatlas/ipatlas/internal/build"
	"github.com/ipatlas/ipatlas/internal/netinfo"
	"github.com/ipatlas/ipatlas/internal/netinfo/internal/iana"
	"github.com/ipatlas/ipatlas/internal/netinfo/internal/rirstats"
)

// Source names, as the catalogue knows them.
const (
	srcGeoLite    = "geolite2"
	srcIANA       = "iana-registries"
	srcRIR        = "rir-delegated"
	srcFullBogons = "cymru-fullbogons"
	srcASNames    = "asn-names"
	srcMRT        = "mrt-samples"
)

// SectionName is the name of the snapshot section Build makes.
const SectionName = "netinfo"

// Section returns the build.Section that builds the netinfo section.
func Section() build.Section {
	return build.Section{Name: SectionName, Needs: Needs(), Build: Build}
}

// Needs returns every source Build reads, the required one first.
func Needs() []string {
	return []string{srcGeoLite, srcIANA, srcRIR, srcFullBogons, srcASNames, srcMRT}
}

// Priorities of the blocks, see netinfo.RegistryBlock.
const (
	prioIANASpace   = 0
	prioIANASpecial = 1
	prioRIRFree     = 3 // available, reserved
	prioRIRUsed     = 4 // allocated, assigned

	// prioBogon is the priority of every bogon block: resolveBogons makes them disjoint.
	prioBogon = 0
)

// Build reads the sources and returns the netinfo section payload. It fails if geolite2 is
// missing or any available source does not parse; what each source gave, and why a field
// stays empty, goes to rep. It can be used directly as a build.Section's Build.
func Build(ctx context.Context, src build.Sources, rep *build.Report) ([]byte, error) {
	return buildSection(ctx, src, rep)
}

// reporter is the part of *build.Report that Build uses; tests record into a fake.
type reporter interface {
	Count(source, what string, n int)
	DataDate(source string, t time.Time)
	Warnf(source, format string, args ...any)
}

func buildSection(ctx context.Context, src build.Sources, rep reporter) ([]byte, error) {
	in, err := input(ctx, src, rep)
	if err != nil {
		return nil, err
	}
	b, err := netinfo.Encode(in)
	if err != nil {
		return nil, fmt.Errorf("netinfobuild: %w", err)
	}
	return b, nil
}

// input gathers the netinfo.Input from the sources.
func input(ctx context.Context, src build.Sources, rep reporter) (netinfo.Input, error) {
	var in netinfo.Input
	geo, ok := src.Source(srcGeoLite)
	if !ok {
		return in, fmt.Errorf("netinfobuild: missing required source %s", srcGeoLite)
	}
	asnDB, err := parseGeoLiteASN(ctx, geo)
	if err != nil {
		return in, fmt.Errorf("netinfobuild: %s: %w", srcGeoLite, err)
	}
	rep.DataDate(srcGeoLite, asnDB.Built)
	countries, err := openGeoLiteCountry(geo)
	if err != nil {
		rep.Warnf(srcGeoLite, "no GeoLite2-Country database (%v): networks have no registered country of their own", err)
	} else {
		rep.DataDate(srcGeoLite, countries.Built)
	}

	// IANA: the mirrored XML, else the built-in table.
	facts := iana.Builtin()
	if fsys, ok := src.Source(srcIANA); ok {
		rirFS, _ := src.Source(srcRIR)
		if facts, err = iana.Parse(fsys, rirFS); err != nil {
			return in, fmt.Errorf("netinfobuild: %s: %w", srcIANA, err)
		}
		in.Sources.IANAXML = true
		if t, err := time.Parse(time.DateOnly, facts.XMLUpdated); err == nil {
			rep.DataDate(srcIANA, t)
		}
		rep.Count(srcIANA, "address blocks", len(facts.Space))
		rep.Count(srcIANA, "special-purpose blocks", len(facts.Special))
	} else {
		rep.Warnf(srcIANA, "not mirrored: IANA's registries come from the built-in table of %s (AS blocks %s)", facts.XMLUpdated, facts.ASNUpdated)
	}
	verdicts := addIANA(&in, facts) // on free and used space, resolved by resolveBogons

	// RIR statistics.
	var asnRows, asnPools []asnRow
	if fsys, ok := src.Source(srcRIR); ok {
		d, err := parseRIRDelegated(fsys)
		if err != nil {
			return in, fmt.Errorf("netinfobuild: %s: %w", srcRIR, err)
		}
		in.Sources.RIRStats = true
		verdicts = append(verdicts, addRIR(&in, d)...)
		asnRows, asnPools = d.ASNs, d.ASNPools
		for _, f := range d.Files {
			rep.Count(srcRIR, f.Registry+" records", f.Records)
			if f.Skipped > 0 {
				rep.Warnf(srcRIR, "%s: %d lines skipped", f.Name, f.Skipped)
			}
			if msg := rirstats.CountMismatch(f.Lines, f.Declared); msg != "" {
				rep.Warnf(srcRIR, "%s: %s", f.Name, msg)
			}
			if t, err := time.Parse(time.DateOnly, f.Date); err == nil {
				rep.DataDate(srcRIR, t)
			}
		}
		rep.Count(srcRIR, "address blocks", len(d.Blocks))
		rep.Count(srcRIR, "AS blocks", len(d.ASNs))
	} else {
		rep.Warnf(srcRIR, "not mirrored: registry and status come from IANA's tables only; registeredCountry from GeoLite2; AS registration dates stay empty")
	}

	// Full bogons.
	if fsys, ok := src.Source(srcFullBogons); ok {
		fb, err := parseFullBogons(fsys)
		if err != nil {
			return in, fmt.Errorf("netinfobuild: %s: %w", srcFullBogons, err)
		}
		in.Sources.FullBogons = true
		verdicts = append(verdicts, fullBogonVerdicts(fb, facts)...)
		prefixes := 0
		for _, l := range fb.Lists {
			prefixes += len(l.Prefixes)
			rep.DataDate(srcFullBogons, l.Updated)
		}
		rep.Count(srcFullBogons, "prefixes", prefixes)
		if fb.Skipped > 0 {
			rep.Warnf(srcFullBogons, "%d lines skipped", fb.Skipped)
		}
	} else {
		rep.Warnf(srcFullBogons, "not mirrored: unallocated space is a bogon only where IANA's tables or the RIR files say so")
	}

	// AS names.
	var names asNames
	if fsys, ok := src.Source(srcASNames); ok {
		if names, err = parseASNames(fsys); err != nil {
			return in, fmt.Errorf("netinfobuild: %s: %w", srcASNames, err)
		}
		in.Sources.ASNames = true
		rep.Count(srcASNames, "names", len(names.Names))
		if t, err := time.Parse(time.DateOnly, names.Date); err == nil {
			rep.DataDate(srcASNames, t)
		}
	} else {
		rep.Warnf(srcASNames, "not mirrored: AS names (handles) stay empty")
	}

	// AS paths, and the transit they show (provider → customers).
	paths := newASPaths()
	var transitTo map[uint32][]uint32
	if fsys, ok := src.Source(srcMRT); ok {
		st, err := parseMRT(ctx, fsys, paths.add)
		if err != nil {
			return in, fmt.Errorf("netinfobuild: %s: %w", srcMRT, err)
		}
		in.Sources.ASPaths = true
		rep.Count(srcMRT, "files", st.Files)
		rep.Count(srcMRT, "records", st.Records)
		rep.Count(srcMRT, "routes", st.Routes)
		rep.Count(srcMRT, "prefixes", len(paths.byPrefix))
		rep.DataDate(srcMRT, st.Newest)
		var tier1 map[uint32]bool
		transitTo, tier1 = paths.relations()
		rep.Count(srcMRT, "transit-free clique", len(tier1))
		if st.Unsupported+st.Malformed+st.NoPath+paths.Leaks > 0 {
			rep.Warnf(srcMRT, "skipped %d records of unsupported types, %d malformed records, %d announcements without a usable AS path, %d through a private or reserved AS number",
				st.Unsupported, st.Malformed, st.NoPath, paths.Leaks)
		}
		for _, w := range st.fileWarnings() {
			rep.Warnf(srcMRT, "%s", w)
		}
	} else {
		rep.Warnf(srcMRT, "not mirrored: no AS paths, so viaCarriers, transitTo and totalTransitTo stay empty")
	}

	nets, err := addNetworks(ctx, &in, asnDB, countries, paths)
	if err != nil {
		return in, fmt.Errorf("netinfobuild: %w", err)
	}
	rep.Count(srcGeoLite, "networks", nets)
	if spared := resolveBogons(&in, verdicts, facts, asnDB.Built); spared > 0 {
		rep.Count(srcGeoLite, "networks not bogons for being newer than the lists that call their space free", spared)
	}
	if in.Sources.ASPaths {
		matched := 0
		for _, n := range in.Networks {
			if len(n.ViaCarriers) > 0 {
				matched++
			}
		}
		rep.Count(srcMRT, "networks with via carriers", matched)
	}
	in.ASes = asRecords(in.Networks, asnDB, names, asnRows, poolBlocks(asnPools), slices.Clone(facts.ASNs), transitTo)
	rep.Count(srcGeoLite, "ASes", countASNs(asnDB))
	return in, nil
}

// addIANA adds IANA's address space and special-purpose blocks to in's registry and
// returns their verdicts on free space.
func addIANA(in *netinfo.Input, f iana.Facts) []verdict {
	vs := make([]verdict, 0, len(f.Space)+len(f.Special))
	for _, s := range f.Space {
		first, last := s.Prefix.Addr(), netinfo.LastAddr(s.Prefix)
		in.Registry = append(in.Registry, netinfo.RegistryBlock{First: first, Last: last, Registry: s.Registry, Status: s.Status, Priority: prioIANASpace})
		vs = append(vs, verdict{first: first, last: last, bogon: s.Bogon, kind: kindIANA, bits: s.Prefix.Bits()})
	}
	for _, s := range f.Special {
		if s.Prefix.Addr().Is4In6() {
			continue // IPv4-mapped space: lookups unmap it first
		}
		first, last := s.Prefix.Addr(), netinfo.LastAddr(s.Prefix)
		if !s.Reachable {
			// A globally reachable block is someone's network (AS112's 2620:4f:8000::/48 in
			// ARIN's 2620::/23): the registries say whose. Only its bogon verdict is IANA's.
			in.Registry = append(in.Registry, netinfo.RegistryBlock{First: first, Last: last, Registry: "IANA", Status: "reserved", Priority: prioIANASpecial})
		}
		vs = append(vs, verdict{first: first, last: last, bogon: !s.Reachable, kind: kindSpecial, bits: s.Prefix.Bits()})
	}
	return vs
}

// addRIR adds the RIR blocks to in's registry and returns their verdicts, dated by their
// files: available and reserved blocks are free space (reserved ones are held back, for a
// holder's growth or for exchange points, and handed to no network yet), allocated and
// assigned ones are in use.
func addRIR(in *netinfo.Input, d rirData) []verdict {
	vs := make([]verdict, 0, len(d.Blocks))
	for _, b := range d.Blocks {
		free := b.Status == "available" || b.Status == "reserved"
		prio := uint8(prioRIRUsed)
		if free {
			prio = prioRIRFree
		}
		in.Registry = append(in.Registry, netinfo.RegistryBlock{First: b.First, Last: b.Last, Registry: b.Registry, Status: b.Status, Country: b.Country, Priority: prio})
		vs = append(vs, verdict{first: b.First, last: b.Last, bogon: free, date: b.FileDate, kind: kindRIR})
	}
	return vs
}

// fullBogonVerdicts returns the verdicts of the full-bogon lists, each dated by its own
// header: a list's prefixes are free, and, since a list is meant to be complete, the rest
// of the space IANA gave out in the list's family is in use.
func fullBogonVerdicts(fb fullBogons, facts iana.Facts) []verdict {
	var vs []verdict
	for _, l := range fb.Lists {
		date := l.Updated.UTC().Format(time.DateOnly)
		var has4, has6 bool
		for _, p := range l.Prefixes {
			vs = append(vs, verdict{first: p.Addr(), last: netinfo.LastAddr(p), bogon: true, date: date, kind: kindFullBogons})
			has4, has6 = has4 || p.Addr().Is4(), has6 || p.Addr().Is6()
		}
		for _, s := range facts.Space {
			if !s.Bogon && (s.Prefix.Addr().Is4() && has4 || s.Prefix.Addr().Is6() && has6) {
				vs = append(vs, verdict{first: s.Prefix.Addr(), last: netinfo.LastAddr(s.Prefix), date: date, kind: kindFullBogons})
			}
		}
	}
	return vs
}

// resolveBogons adds to in the bogon blocks that the verdicts and in's networks, announced
// as of routed, decide, and returns how many networks the lists older than them would have
// made bogons.
func resolveBogons(in *netinfo.Input, verdicts []verdict, facts iana.Facts, routed time.Time) (spared int) {
	verdicts = append(verdicts, routedVerdicts(in.Networks, verdicts, ianaReserved(facts), routed.UTC().Format(time.DateOnly))...)
	blocks, spared := resolveVerdicts(verdicts, prioBogon)
	in.Bogons = append(in.Bogons, blocks...)
	return spared
}

// ianaReserved returns a test of whether IANA has not given a prefix out: the most specific
// of IANA's address-space blocks holding it is reserved (2000::/3 is, around the blocks
// IANA allocated to registries). Of two blocks with one prefix, reserved wins, as in
// netinfo's own bogon table.
func ianaReserved(facts iana.Facts) func(netip.Prefix) bool {
	var space bart.Table[bool]
	for _, s := range facts.Space {
		space.Modify(s.Prefix.Masked(), func(old bool, _ bool) (bool, bool) { return old || s.Bogon, false })
	}
	return func(p netip.Prefix) bool {
		_, bogon, _ := space.LookupPrefixLPM(p)
		return bogon
	}
}

// poolBlocks returns the AS blocks an RIR holds but has not handed out, as IANA's blocks
// are given: they name the registry of an AS the RIR assigned after its file was written.
// They are sorted and disjoint: of overlapping blocks (two files of one RIR), the first.
func poolBlocks(rows []asnRow) []iana.ASNBlock {
	out := make([]iana.ASNBlock, 0, len(rows))
	for _, r := range rows {
		out = append(out, iana.ASNBlock{First: r.First, Last: r.Last, Registry: r.Registry})
	}
	slices.SortStableFunc(out, compareASNBlocks)
	kept := out[:0]
	for _, b := range out {
		if n := len(kept); n == 0 || b.First > kept[n-1].Last {
			kept = append(kept, b)
		}
	}
	return kept
}

// addNetworks adds the GeoLite2 networks with their registered country and, from the AS
// paths, further origins and via carriers. It returns the number added.
func addNetworks(ctx context.Context, in *netinfo.Input, asnDB asnDB, countries *countryDB, paths *asPaths) (int, error) {
	covering := mrtPrefixes(paths)
	in.Networks = make([]netinfo.Announced, 0, len(asnDB.Networks))
	for i, n := range asnDB.Networks {
		if i%(1<<16) == 0 {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
		}
		a := netinfo.Announced{Prefix: n.Prefix, Carriers: []uint32{n.ASN}, Organisation: n.Org}
		if !validText(a.Organisation) {
			a.Organisation = ""
		}
		if countries != nil {
			cc, err := countries.registered(n.Prefix.Addr())
			if err != nil {
				return 0, fmt.Errorf("%s: %s: %w", countryMMDB, n.Prefix, err)
			}
			a.Country = cc
		}
		if p, ok := covering(n.Prefix); ok {
			// The dumps' other origins of the same prefix are carriers too (a prefix
			// announced by several ASes), but only where the dumps also name the ASN
			// source's origin: dumps that name other origins only describe the prefix at
			// another time (the public samples are years older than the ASN source), and
			// their origins would be stale carriers, counted in those ASes' totals and ranks.
			if p == n.Prefix && slices.Contains(paths.origins(p), n.ASN) {
				for _, o := range paths.origins(p) {
					if !slices.Contains(a.Carriers, o) && len(a.Carriers) < netinfo.MaxCarriers {
						a.Carriers = append(a.Carriers, o)
					}
				}
			}
			a.ViaCarriers = paths.via(p, n.ASN, netinfo.MaxViaCarriers)
		}
		in.Networks = append(in.Networks, a)
	}
	return len(in.Networks), nil
}

// mrtPrefixes returns a function that finds the most specific prefix of the AS paths that
// covers (contains or equals) a given prefix.
func mrtPrefixes(paths *asPaths) func(netip.Prefix) (netip.Prefix, bool) {
	byLen := map[int]map[netip.Prefix]bool{}
	var lens []int
	for p := range paths.byPrefix {
		if byLen[p.Bits()] == nil {
			byLen[p.Bits()] = map[netip.Prefix]bool{}
			lens = append(lens, p.Bits())
		}
		byLen[p.Bits()][p] = true
	}
	slices.Sort(lens)
	slices.Reverse(lens)
	return func(q netip.Prefix) (netip.Prefix, bool) {
		for _, l := range lens {
			if l > q.Bits() {
				continue
			}
			p := netip.PrefixFrom(q.Addr(), l).Masked()
			if byLen[l][p] {
				return p, true
			}
		}
		return netip.Prefix{}, false
	}
}

// asRecords joins what the sources say about each AS: every AS that originates a network,
// is named, has an RIR record or appears on an AS path (transitTo, provider → customers).
func asRecords(nets []netinfo.Announced, asnDB asnDB, names asNames, rows []asnRow, pools, blocks []iana.ASNBlock, transitTo map[uint32][]uint32) []netinfo.ASRecord {
	recs := map[uint32]*netinfo.ASRecord{}
	get := func(asn uint32) *netinfo.ASRecord {
		r := recs[asn]
		if r == nil {
			r = &netinfo.ASRecord{ASN: asn}
			recs[asn] = r
		}
		return r
	}
	for _, n := range asnDB.Networks {
		if r := get(n.ASN); r.Organisation == "" && validText(n.Org) {
			r.Organisation = n.Org
		}
	}
	for _, n := range names.Names {
		r := get(n.ASN)
		r.Name, r.Country = n.Handle, n.Country
		if r.Organisation == "" {
			r.Organisation = n.Name
		}
	}
	for _, row := range rows {
		if uint64(row.Last)-uint64(row.First) >= 1<<16 {
			continue // no RIR hands out such blocks to one holder; a corrupt row
		}
		for asn := uint64(row.First); asn <= uint64(row.Last); asn++ {
			r := get(uint32(asn))
			r.Registry, r.RegistrationDate = row.Registry, row.Date
			if row.Country != "" {
				r.Country = row.Country
			}
		}
	}
	for provider, customers := range transitTo {
		get(provider).TransitTo = customers
		for _, c := range customers {
			get(c)
		}
	}
	for _, n := range nets {
		for _, a := range slices.Concat(n.Carriers, n.ViaCarriers) {
			get(a)
		}
	}
	// Where no RIR file assigned the AS: the registry whose pool holds it (an RIR file's
	// available or reserved rows, for an AS assigned after the file was written), else
	// the one IANA gave its block to.
	slices.SortFunc(pools, compareASNBlocks)
	slices.SortFunc(blocks, compareASNBlocks)
	out := make([]netinfo.ASRecord, 0, len(recs))
	for _, r := range recs {
		if r.Registry == "" {
			r.Registry = cmp.Or(blockRegistry(pools, r.ASN), blockRegistry(blocks, r.ASN))
		}
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b netinfo.ASRecord) int { return cmp.Compare(a.ASN, b.ASN) })
	return out
}

func countASNs(db asnDB) int {
	seen := map[uint32]bool{}
	for _, n := range db.Networks {
		seen[n.ASN] = true
	}
	return len(seen)
}

func compareASNBlocks(a, b iana.ASNBlock) int { return cmp.Compare(a.First, b.First) }

// blockRegistry returns the registry of the block holding asn among disjoint blocks sorted
// by First, or "".
func blockRegistry(blocks []iana.ASNBlock, asn uint32) string {
	i, _ := slices.BinarySearchFunc(blocks, asn, func(b iana.ASNBlock, asn uint32) int {
		switch {
		case b.Last < asn:
			return -1
		case b.First > asn:
			return 1
		}
		return 0
	})
	if i < len(blocks) && blocks[i].First <= asn && asn <= blocks[i].Last {
		return blocks[i].Registry
	}
	return ""
}
