// Package riskbuild builds the risk section of a snapshot from the public address lists:
// Tor relay and exit lists (tor), the X4BNet VPN and datacenter lists with their ASN lists
// (x4bnet-lists-vpn), ipcat's datacenter ranges (ipcat-datacenters), cloud and service
// providers' published ranges (cloud-ipranges), the ipsum blocklist aggregate (ipsum) and
// Spamhaus DROP/DROPv6 (spamhaus-drop). Every source is optional: a missing one leaves its
// flags false, and with none at all the section is valid and empty, so that user risk rates on
// the network facts alone (bogon and reachability). Nothing is invented.
//
// Each file format has its own small parser over the file's bytes, fuzzed, so tests run them
// on literals and on the fixtures in testdata. Build turns the parsed rows into risk.Data and
// returns risk.Encode of it.
//
// # Lists
//
//	list name                      kind           file(s)
//	tor/exit-addresses             tor-exit       exit-addresses*        (ExitAddress lines)
//	tor/torbulkexitlist            tor-exit       torbulkexitlist*       (one IP a line)
//	tor/onionoo-exits              tor-exit       onionoo-exits.csv      (fingerprint,ipaddr,port)
//	tor/onionoo-relays             tor-relay      onionoo-all-relays.csv
//	tor/doodad-exits               tor-exit       doodad-exit-nodes.txt  (one IP a line)
//	tor/doodad-guards              tor-relay      doodad-guard-nodes.txt
//	tor/doodad-relays              tor-relay      doodad-relay-nodes.txt
//	x4bnet-lists-vpn/vpn           vpn            vpn-ipv4.txt, vpn-ipv6.txt (CIDR a line)
//	x4bnet-lists-vpn/datacenter    datacenter     datacenter-ipv4.txt, datacenter-ipv6.txt
//	x4bnet-lists-vpn/datacenter-asn  (ASN list)   datacenter-ASN.txt     ("AS123 # name")
//	x4bnet-lists-vpn/vpn-asn         (ASN list)   vpn-ASN.txt
//	ipcat-datacenters              datacenter     datacenters.csv        (start,end,provider,url), one list per provider
//	cloud-ipranges/<dir>           cloud          <dir>/ipv4_merged.txt, <dir>/ipv6_merged.txt;
//	                               vpn for protonvpn, private-relay for apple-proxy; all/ (the union) is skipped
//	ipsum                          blocklist      ipsum.txt (IP<TAB>count), one list per count
//	spamhaus-drop                  drop           drop*.txt, dropv6*.txt ("CIDR ; SBLnnn") or drop_v4/v6.json
//
// The X4BNet and Tor files are also found under their upstream paths (output/vpn/ipv4.txt,
// input/datacenter/ASN.txt, latest.exits.csv, ...). Where a pattern matches several files
// (dated copies such as exit-addresses-20240312.txt), the lexically last, i.e. newest, is read.
//
// # Dates
//
// Each list's date comes from the data where the data carries one: exit-addresses (the newest
// Published, LastStatus or ExitAddress time), ipsum ("# Last update:") and DROP
// ("; Last-Modified:", else the date in the title line). The other files carry no date; their
// date comes from the PROVENANCE.md of the mirror folder (see provenanceDate): the data-date
// column of the Tor table, X4BNet's "Data date", ipcat's "last changed" date of the data file,
// and the commit date for cloud-ipranges. Each source's newest list date is reported with
// Report.DataDate; a list more than a year older than the newest list of the build is named in
// a warning, since it may flag addresses that have moved on.
//
// # Special-purpose space
//
// The lists that say who holds a block (cloud, datacenter, VPN and Private Relay lists) lose
// the parts of their ranges in IANA's special-purpose blocks that no provider holds: the ones
// not globally reachable, and 6to4 and Teredo (see unownedSpace). The blocks come from the
// iana-registries mirror, read by netinfobuild's parser, else from its built-in table. Each
// trimmed list is named in a warning and each source counts ranges-in-special-purpose-space.
package riskbuild

import (
	"cmp"
	"context"
	"fmt"
	"io/fs"
	"maps"
	"net/netip"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/ipatlas/ipatlas/internal/build"
	"github.com/ipatlas/ipatlas/internal/netinfo/netinfobuild"
	"github.com/ipatlas/ipatlas/internal/risk"
)

// SectionName is the name of the risk section in the snapshot.
const SectionName = "risk"

// Source names, as the catalogue knows them.
const (
	srcTor    = "tor"
	srcX4BNet = "x4bnet-lists-vpn"
	srcIpcat  = "ipcat-datacenters"
	srcCloud  = "cloud-ipranges"
	srcIpsum  = "ipsum"
	srcDrop   = "spamhaus-drop"
)

// staleAfter is how much older than the newest list a list may be before a warning names it.
const staleAfter = 365 * 24 * time.Hour

// Needs returns every source Build reads. All of them are optional.
func Needs() []string {
	return []string{srcTor, srcX4BNet, srcIpcat, srcCloud, srcIpsum, srcDrop, netinfobuild.SourceIANA}
}

// Section returns the risk section's builder for build.Options.Sections.
func Section() build.Section {
	return build.Section{Name: SectionName, Needs: Needs(), Build: Build}
}

// Build reads the available sources and returns the risk section payload (risk.Encode). It
// records counts and data dates in rep and warns about skipped lines, missing files and
// stale lists. It fails only if an available source is unreadable (more than 1% bad lines).
func Build(ctx context.Context, src build.Sources, rep *build.Report) ([]byte, error) {
	return buildSection(ctx, src, rep)
}

// reporter is the part of *build.Report that the builder uses, so tests can record it.
type reporter interface {
	Count(source, what string, n int)
	DataDate(source string, t time.Time)
	Warnf(source, format string, args ...any)
}

func buildSection(ctx context.Context, src build.Sources, rep reporter) ([]byte, error) {
	d, err := gather(ctx, src, rep)
	if err != nil {
		return nil, err
	}
	b, err := risk.Encode(d)
	if err != nil {
		return nil, fmt.Errorf("riskbuild: %w", err)
	}
	return b, nil
}

// gather parses every available source into risk.Data.
func gather(ctx context.Context, src build.Sources, rep reporter) (risk.Data, error) {
	var d risk.Data
	readers := []struct {
		name string
		read func(folder, *risk.Data) error
	}{
		{srcTor, readTor},
		{srcX4BNet, readX4BNet},
		{srcIpcat, readIpcat},
		{srcCloud, readCloud},
		{srcIpsum, readIpsum},
		{srcDrop, readDrop},
	}
	for _, r := range readers {
		if err := ctx.Err(); err != nil {
			return risk.Data{}, err
		}
		fsys, ok := src.Source(r.name)
		if !ok {
			continue // the pipeline has already warned that an optional source is missing
		}
		f := folder{name: r.name, fsys: fsys, rep: rep}
		f.prov, _ = fs.ReadFile(fsys, "PROVENANCE.md")
		if err := r.read(f, &d); err != nil {
			return risk.Data{}, fmt.Errorf("riskbuild: %s: %w", r.name, err)
		}
	}
	if len(d.Lists) == 0 && len(d.ASNLists) == 0 {
		rep.Warnf(SectionName, "no risk lists available; user risk rates on network facts alone (bogon, reachability)")
	}
	special, err := netinfobuild.SpecialBlocks(src)
	if err != nil {
		return risk.Data{}, fmt.Errorf("riskbuild: %w", err)
	}
	d.Lists = dropUnowned(d.Lists, unownedSpace(special), rep)
	d.Lists = dropSuperseded(d.Lists, rep)
	warnStale(d, rep)
	return d, nil
}

// supersededKinds are the kinds each of whose lists names the whole set as of its date:
// the Tor network's exits, which churn within months. (Not KindTorRelay: a list of guards
// is a part of the relays, so a newer one says nothing of the others.)
var supersededKinds = []risk.Kind{risk.KindTorExit}

// dropSuperseded removes the lists of supersededKinds that are more than staleAfter older
// than the newest list of their kind, and names each in a warning: an address only they
// hold (the shared mirror's Tor exit lists of 2024-03 hold 561 that no Tor list of 2026
// has) left the Tor network long ago, and would otherwise be rated High risk as a Tor exit.
func dropSuperseded(lists []risk.List, rep reporter) []risk.List {
	newest := map[risk.Kind]risk.List{}
	for _, l := range lists {
		if slices.Contains(supersededKinds, l.Kind) && l.Date.After(newest[l.Kind].Date) {
			newest[l.Kind] = l
		}
	}
	return slices.DeleteFunc(lists, func(l risk.List) bool {
		n, ok := newest[l.Kind]
		if !ok || l.Date.IsZero() || n.Date.Sub(l.Date) <= staleAfter {
			return false
		}
		source, _, _ := strings.Cut(l.Name, "/")
		rep.Warnf(source, "list %s (%s) is not used: %s, a list of all %s relays too, is more than a year newer (%s)",
			l.Name, l.Date.Format(time.DateOnly), n.Name, l.Kind, n.Date.Format(time.DateOnly))
		return true
	})
}

// folder is one available source with what every reader needs.
type folder struct {
	name string
	fsys fs.FS
	rep  reporter
	prov []byte // PROVENANCE.md, nil if none
}

// find returns the lexically last file matching one of the patterns, or "" if none does.
func (f folder) find(patterns ...string) (string, error) {
	var best string
	for _, p := range patterns {
		m, err := fs.Glob(f.fsys, p)
		if err != nil {
			return "", err
		}
		for _, name := range m {
			if fi, err := fs.Stat(f.fsys, name); err == nil && !fi.IsDir() && name > best {
				best = name
			}
		}
	}
	return best, nil
}

// open finds and reads the file for list, warning if there is none.
func (f folder) open(list string, patterns ...string) (string, []byte, bool, error) {
	name, err := f.find(patterns...)
	if err != nil {
		return "", nil, false, err
	}
	if name == "" {
		f.rep.Warnf(f.name, "no file %s; list %s left out", strings.Join(patterns, " or "), list)
		return "", nil, false, nil
	}
	b, err := fs.ReadFile(f.fsys, name)
	if err != nil {
		return "", nil, false, err
	}
	return name, b, true, nil
}

// date returns file's data date: dataDate if the data had one, else PROVENANCE.md's.
func (f folder) date(file string, dataDate time.Time) time.Time {
	if !dataDate.IsZero() {
		return dataDate.UTC()
	}
	if t, _ := provenanceDate(f.prov, file); !t.IsZero() {
		return t
	}
	f.rep.Warnf(f.name, "%s carries no date and no PROVENANCE.md gives one; its list date is unknown", file)
	return time.Time{}
}

// skipped warns about bad lines a parser skipped.
func (f folder) skipped(file string, bad badLines) {
	if bad.N > 0 {
		f.rep.Warnf(f.name, "%s: skipped %d unreadable lines (first: %s)", file, bad.N, bad.First)
	}
}

// dated records the list's date as the source's data date and returns it.
func (f folder) dated(file string, dataDate time.Time) time.Time {
	t := f.date(file, dataDate)
	f.rep.DataDate(f.name, t)
	return t
}

func addrRanges(as []netip.Addr) []risk.Range {
	out := make([]risk.Range, len(as))
	for i, a := range as {
		out[i] = risk.Range{From: a, To: a}
	}
	return out
}

func prefixRanges(ps []netip.Prefix) []risk.Range {
	out := make([]risk.Range, len(ps))
	for i, p := range ps {
		out[i] = risk.PrefixRange(p)
	}
	return out
}

func readTor(f folder, d *risk.Data) error {
	const (
		addrLines = iota
		exitAddresses
		onionoo
	)
	specs := []struct {
		list     string
		kind     risk.Kind
		format   int
		patterns []string
	}{
		{"tor/exit-addresses", risk.KindTorExit, exitAddresses, []string{"exit-addresses*"}},
		{"tor/torbulkexitlist", risk.KindTorExit, addrLines, []string{"torbulkexitlist*"}},
		{"tor/onionoo-exits", risk.KindTorExit, onionoo, []string{"onionoo-exits.csv", "latest.exits.csv"}},
		{"tor/onionoo-relays", risk.KindTorRelay, onionoo, []string{"onionoo-all-relays.csv", "latest.all.csv"}},
		{"tor/doodad-exits", risk.KindTorExit, addrLines, []string{"doodad-exit-nodes.txt", "active/exit-nodes.txt"}},
		{"tor/doodad-guards", risk.KindTorRelay, addrLines, []string{"doodad-guard-nodes.txt", "active/guard-nodes.txt"}},
		{"tor/doodad-relays", risk.KindTorRelay, addrLines, []string{"doodad-relay-nodes.txt", "active/relay-nodes.txt"}},
	}
	for _, s := range specs {
		file, data, ok, err := f.open(s.list, s.patterns...)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		var addrs []netip.Addr
		var bad badLines
		var when time.Time
		switch s.format {
		case exitAddresses:
			var l exitList
			l, bad, err = parseExitAddresses(data)
			addrs, when = l.Addrs, l.Newest
		case onionoo:
			addrs, bad, err = parseOnionooCSV(data)
		default:
			addrs, bad, err = parseAddrLines(data)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		f.skipped(file, bad)
		f.rep.Count(f.name, strings.TrimPrefix(s.list, "tor/"), len(addrs))
		d.Lists = append(d.Lists, risk.List{Name: s.list, Kind: s.kind, Date: f.dated(file, when), Ranges: addrRanges(addrs)})
	}
	return nil
}

func readX4BNet(f folder, d *risk.Data) error {
	for _, s := range []struct {
		list, what string
		kind       risk.Kind
		v4, v6     []string
	}{
		{srcX4BNet + "/vpn", "vpn", risk.KindVPN,
			[]string{"vpn-ipv4.txt", "output/vpn/ipv4.txt"}, []string{"vpn-ipv6.txt", "output/vpn/ipv6.txt"}},
		{srcX4BNet + "/datacenter", "datacenter", risk.KindDatacenter,
			[]string{"datacenter-ipv4.txt", "output/datacenter/ipv4.txt"}, []string{"datacenter-ipv6.txt", "output/datacenter/ipv6.txt"}},
	} {
		l := risk.List{Name: s.list, Kind: s.kind}
		found := false
		for _, fam := range []string{"ipv4", "ipv6"} {
			patterns := s.v4
			if fam == "ipv6" {
				patterns = s.v6
			}
			file, data, ok, err := f.open(s.list, patterns...)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			found = true
			ps, bad, err := parseCIDRList(data)
			if err != nil {
				return fmt.Errorf("%s: %w", file, err)
			}
			f.skipped(file, bad)
			f.rep.Count(f.name, s.what+"-"+fam, len(ps))
			l.Ranges = append(l.Ranges, prefixRanges(ps)...)
			l.Date = latest(l.Date, f.dated(file, time.Time{}))
		}
		if found {
			d.Lists = append(d.Lists, l)
		}
	}
	for _, s := range []struct {
		list, what string
		kind       risk.Kind
		patterns   []string
	}{
		{srcX4BNet + "/datacenter-asn", "hosting-asns", risk.KindDatacenter, []string{"datacenter-ASN.txt", "input/datacenter/ASN.txt"}},
		{srcX4BNet + "/vpn-asn", "vpn-asns", risk.KindVPN, []string{"vpn-ASN.txt", "input/vpn/ASN.txt"}},
	} {
		file, data, ok, err := f.open(s.list, s.patterns...)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		asns, bad, err := parseASNList(data)
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		f.skipped(file, bad)
		f.rep.Count(f.name, s.what, len(asns))
		d.ASNLists = append(d.ASNLists, risk.ASNList{Name: s.list, Kind: s.kind, Date: f.dated(file, time.Time{}), ASNs: asns})
	}
	return nil
}

func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func readIpcat(f folder, d *risk.Data) error {
	file, data, ok, err := f.open(srcIpcat, "datacenters.csv")
	if err != nil || !ok {
		return err
	}
	rows, bad, err := parseIpcatCSV(data)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	f.skipped(file, bad)
	date := f.dated(file, time.Time{})
	byProvider := map[string][]risk.Range{}
	for _, r := range rows {
		byProvider[r.Provider] = append(byProvider[r.Provider], risk.Range{From: r.From, To: r.To})
	}
	for _, p := range slices.Sorted(maps.Keys(byProvider)) {
		d.Lists = append(d.Lists, risk.List{Name: srcIpcat, Kind: risk.KindDatacenter, Provider: p, Date: date, Ranges: byProvider[p]})
	}
	f.rep.Count(f.name, "ranges", len(rows))
	f.rep.Count(f.name, "providers", len(byProvider))
	return nil
}

// cloudProvider returns the display name and kind of a cloud-ipranges provider folder. Unknown
// folders are clouds named after the folder, so a new upstream provider is not lost.
func cloudProvider(dir string) (string, risk.Kind) {
	switch dir {
	case "apple-proxy":
		return "iCloud Private Relay", risk.KindPrivateRelay
	case "protonvpn":
		return "Proton VPN", risk.KindVPN
	case "amazon":
		return "Amazon", risk.KindCloud
	case "google":
		return "Google", risk.KindCloud
	case "microsoft":
		return "Microsoft", risk.KindCloud
	case "oracle":
		return "Oracle", risk.KindCloud
	case "digitalocean":
		return "DigitalOcean", risk.KindCloud
	case "linode":
		return "Linode", risk.KindCloud
	case "vultr":
		return "Vultr", risk.KindCloud
	case "cloudflare":
		return "Cloudflare", risk.KindCloud
	case "github":
		return "GitHub", risk.KindCloud
	case "facebook":
		return "Facebook", risk.KindCloud
	case "twitter":
		return "Twitter", risk.KindCloud
	case "telegram":
		return "Telegram", risk.KindCloud
	case "openai":
		return "OpenAI", risk.KindCloud
	case "perplexity":
		return "Perplexity", risk.KindCloud
	case "googlebot":
		return "Googlebot", risk.KindCloud
	case "bing":
		return "Bingbot", risk.KindCloud
	case "duckduckbot":
		return "DuckDuckBot", risk.KindCloud
	case "duckassistbot":
		return "DuckAssistBot", risk.KindCloud
	case "pingdom":
		return "Pingdom", risk.KindCloud
	case "statuscake":
		return "StatusCake", risk.KindCloud
	}
	return dir, risk.KindCloud
}

func readCloud(f folder, d *risk.Data) error {
	entries, err := fs.ReadDir(f.fsys, ".")
	if err != nil {
		return err
	}
	providers, ranges := 0, 0
	for _, e := range entries {
		dir := e.Name()
		if !e.IsDir() || dir == "all" || strings.HasPrefix(dir, ".") {
			continue
		}
		provider, kind := cloudProvider(dir)
		l := risk.List{Name: srcCloud + "/" + dir, Kind: kind}
		if kind == risk.KindCloud {
			l.Provider = provider
		}
		n := 0
		for _, fam := range []string{"ipv4", "ipv6"} {
			file, err := f.find(path.Join(dir, fam+"_merged.txt"), path.Join(dir, fam+".txt"))
			if err != nil {
				return err
			}
			if file == "" {
				continue
			}
			data, err := fs.ReadFile(f.fsys, file)
			if err != nil {
				return err
			}
			ps, bad, err := parseCIDRList(data)
			if err != nil {
				return fmt.Errorf("%s: %w", file, err)
			}
			f.skipped(file, bad)
			n += len(ps)
			l.Ranges = append(l.Ranges, prefixRanges(ps)...)
			l.Date = latest(l.Date, f.dated(file, time.Time{}))
		}
		if n == 0 {
			continue
		}
		f.rep.Count(f.name, dir, n)
		providers++
		ranges += n
		d.Lists = append(d.Lists, l)
	}
	f.rep.Count(f.name, "providers", providers)
	f.rep.Count(f.name, "ranges", ranges)
	return nil
}

func readIpsum(f folder, d *risk.Data) error {
	file, data, ok, err := f.open(srcIpsum, "ipsum.txt")
	if err != nil || !ok {
		return err
	}
	feed, bad, err := parseIpsum(data)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	f.skipped(file, bad)
	date := f.dated(file, feed.Updated)
	byCount := map[int][]risk.Range{}
	blocklisted := 0
	for _, e := range feed.Entries {
		byCount[e.Lists] = append(byCount[e.Lists], risk.Range{From: e.Addr, To: e.Addr})
		if e.Lists >= risk.BlocklistThreshold {
			blocklisted++
		}
	}
	for _, n := range slices.Sorted(maps.Keys(byCount)) {
		d.Lists = append(d.Lists, risk.List{Name: srcIpsum, Kind: risk.KindBlocklist, Score: n, Date: date, Ranges: byCount[n]})
	}
	f.rep.Count(f.name, "addresses", len(feed.Entries))
	f.rep.Count(f.name, fmt.Sprintf("on-%d-or-more-lists", risk.BlocklistThreshold), blocklisted)
	return nil
}

func readDrop(f folder, d *risk.Data) error {
	l := risk.List{Name: srcDrop, Kind: risk.KindDrop}
	found := false
	for _, s := range []struct {
		what     string
		patterns []string
	}{
		{"ipv4", []string{"drop.txt", "drop-*.txt", "drop_v4.json"}},
		{"ipv6", []string{"dropv6.txt", "dropv6-*.txt", "drop_v6.json"}},
	} {
		file, data, ok, err := f.open(srcDrop+" ("+s.what+")", s.patterns...)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		found = true
		dl, bad, err := parseDrop(data)
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		f.skipped(file, bad)
		f.rep.Count(f.name, s.what, len(dl.Prefixes))
		l.Ranges = append(l.Ranges, prefixRanges(dl.Prefixes)...)
		l.Date = latest(l.Date, f.dated(file, dl.Date))
	}
	if found {
		d.Lists = append(d.Lists, l)
	}
	return nil
}

// warnStale names every list more than staleAfter older than the newest list.
func warnStale(d risk.Data, rep reporter) {
	type dated struct {
		name string
		date time.Time
	}
	var all []dated
	for _, l := range d.Lists {
		all = append(all, dated{l.Name, l.Date})
	}
	for _, l := range d.ASNLists {
		all = append(all, dated{l.Name, l.Date})
	}
	var newest time.Time
	for _, l := range all {
		newest = latest(newest, l.date)
	}
	slices.SortFunc(all, func(a, b dated) int { return cmp.Compare(a.name, b.name) })
	all = slices.CompactFunc(all, func(a, b dated) bool { return a.name == b.name })
	for _, l := range all {
		if !l.date.IsZero() && newest.Sub(l.date) > staleAfter {
			source, _, _ := strings.Cut(l.name, "/")
			rep.Warnf(source, "list %s is dated %s, more than a year before the newest list (%s); it may flag addresses that have moved on",
				l.name, l.date.Format(time.DateOnly), newest.Format(time.DateOnly))
		}
	}
}
