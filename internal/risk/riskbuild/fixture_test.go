package riskbuild

import (
	"bytes"
	"context"
	"flag"
	"io"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ipatlas/ipatlas/internal/build"
	"github.com/ipatlas/ipatlas/internal/build/buildtest"
	"github.com/ipatlas/ipatlas/internal/dbfile"
	"github.com/ipatlas/ipatlas/internal/risk"
)

var update = flag.Bool("update", false, "rewrite testdata/mirror from the shared/data snapshots")

// fixtureFiles says how each fixture file is cut from its shared/data original: the leading
// comment lines, the first head data lines, the first line for which also holds (if any) and
// the trailing comment lines. PROVENANCE.md files are copied whole.
func fixtureFiles() []fixtureFile {
	return []fixtureFile{
		{"tor/PROVENANCE.md", -1, nil},
		{"tor/exit-addresses-20240312.txt", 8, nil}, // two exit blocks
		{"tor/torbulkexitlist-20240312.txt", 3, nil},
		{"tor/onionoo-exits.csv", 5, nil}, // header + four rows, IPv6 ones among them
		{"tor/onionoo-all-relays.csv", 4, nil},
		{"tor/doodad-exit-nodes.txt", 3, isIPv6},
		{"tor/doodad-guard-nodes.txt", 3, nil},
		{"tor/doodad-relay-nodes.txt", 3, isIPv6},
		{"x4bnet-lists-vpn/PROVENANCE.md", -1, nil},
		{"x4bnet-lists-vpn/vpn-ipv4.txt", 3, nil},
		{"x4bnet-lists-vpn/vpn-ipv6.txt", 3, nil},
		{"x4bnet-lists-vpn/datacenter-ipv4.txt", 3, nil},
		{"x4bnet-lists-vpn/datacenter-ipv6.txt", 3, nil},
		{"x4bnet-lists-vpn/datacenter-ASN.txt", 3, nil},
		{"x4bnet-lists-vpn/vpn-ASN.txt", 3, nil},
		{"ipcat-datacenters/PROVENANCE.md", -1, nil},
		{"ipcat-datacenters/datacenters.csv", 3, func(l string) bool { return strings.Contains(l, `"`) }}, // a quoted provider
		{"cloud-ipranges/PROVENANCE.md", -1, nil},
		{"cloud-ipranges/amazon/ipv4_merged.txt", 3, nil},
		{"cloud-ipranges/amazon/ipv6_merged.txt", 3, nil},
		{"cloud-ipranges/apple-proxy/ipv4_merged.txt", 3, nil},
		{"cloud-ipranges/protonvpn/ipv4_merged.txt", 3, nil},
		{"cloud-ipranges/all/ipv4_merged.txt", 3, nil}, // the union folder, which Build skips
		{"ipsum/PROVENANCE.md", -1, nil},
		{"ipsum/ipsum.txt", 3, func(l string) bool { return strings.HasSuffix(l, "\t1") }},
		{"spamhaus-drop/PROVENANCE.md", -1, nil},
		{"spamhaus-drop/drop-20250117.txt", 3, nil},
		{"spamhaus-drop/dropv6-20250117.txt", 3, nil},
	}
}

type fixtureFile struct {
	path string
	head int
	also func(string) bool
}

func isIPv6(l string) bool { return strings.Contains(l, ":") }

const fixtureDir = "testdata/mirror"

// TestUpdateFixtures rewrites the fixtures from shared/data when run with -update:
//
//	go test ./internal/risk/riskbuild -run UpdateFixtures -update
func TestUpdateFixtures(t *testing.T) {
	if !*update {
		t.Skip("run with -update to rewrite testdata/mirror")
	}
	shared, ok := buildtest.SharedData()
	if !ok {
		t.Fatal("no shared/data beside the repository")
	}
	for _, f := range fixtureFiles() {
		data, err := os.ReadFile(filepath.Join(shared, f.path))
		if err != nil {
			t.Fatal(err)
		}
		if f.head >= 0 {
			data = cut(data, f.head, f.also)
		}
		out := filepath.Join(fixtureDir, f.path)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(out, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// cut keeps the leading comment lines, the first head data lines, the first later line for
// which also holds and the trailing comment lines of a list file.
func cut(data []byte, head int, also func(string) bool) []byte {
	lines := strings.SplitAfter(string(data), "\n")
	comment := func(l string) bool { return strings.HasPrefix(l, "#") || strings.HasPrefix(l, ";") }
	var out []string
	i := 0
	for ; i < len(lines) && comment(lines[i]); i++ {
		out = append(out, lines[i])
	}
	for n := 0; i < len(lines) && n < head; i, n = i+1, n+1 {
		out = append(out, lines[i])
	}
	end := len(lines)
	for end > i && (comment(lines[end-1]) || lines[end-1] == "") {
		end--
	}
	if also != nil {
		for _, l := range lines[i:end] {
			if also(strings.TrimRight(l, "\r\n")) {
				out = append(out, l)
				break
			}
		}
	}
	out = append(out, lines[end:]...)
	s := strings.Join(out, "")
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return []byte(s)
}

// update runs the real pipeline (build.Update) over mirror with only the risk section and
// returns the decoded section and the snapshot's metadata.
func runUpdate(t *testing.T, mirror string) (*risk.DB, []byte, dbfile.Metadata, []string) {
	t.Helper()
	res, err := build.Update(context.Background(), build.Options{
		DataDir: t.TempDir(), CacheDir: t.TempDir(), MirrorDir: mirror, Offline: true,
		Sections: []build.Section{Section()}, Progress: io.Discard,
	})
	if err != nil {
		t.Fatal(err)
	}
	f, err := dbfile.Open(res.Path)
	if err != nil {
		t.Fatal(err)
	}
	b, ok := f.Section(SectionName)
	if !ok {
		t.Fatal("no risk section")
	}
	db, err := risk.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	return db, slices.Clone(b), f.Metadata(), res.Warnings
}

// TestFixtureBuild builds the section from the fixtures through the real pipeline and checks
// what it recorded and what it answers.
func TestFixtureBuild(t *testing.T) {
	db, section, md, warnings := runUpdate(t, fixtureDir)
	_, again, _, _ := runUpdate(t, fixtureDir)
	if !bytes.Equal(section, again) {
		t.Error("two builds from the same sources differ")
	}

	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	type info struct {
		Records map[string]int
		Date    time.Time
	}
	got := map[string]info{}
	for _, s := range md.Sources {
		if slices.Contains(Needs(), s.Name) {
			got[s.Name] = info{s.Records, s.DataDate}
		}
	}
	want := map[string]info{
		"tor": {map[string]int{"exit-addresses": 2, "torbulkexitlist": 3, "onionoo-exits": 4, "onionoo-relays": 3,
			"doodad-exits": 4, "doodad-guards": 3, "doodad-relays": 4}, day(2026, 5, 21)},
		"x4bnet-lists-vpn": {map[string]int{"vpn-ipv4": 3, "vpn-ipv6": 3, "datacenter-ipv4": 3, "datacenter-ipv6": 3,
			"hosting-asns": 3, "vpn-asns": 3}, day(2026, 8, 22)},
		"ipcat-datacenters": {map[string]int{"ranges": 4, "providers": 2}, day(2019, 2, 20)},
		"cloud-ipranges":    {map[string]int{"amazon": 6, "apple-proxy": 3, "protonvpn": 3, "providers": 3, "ranges": 12}, day(2026, 8, 22)},
		"ipsum":             {map[string]int{"addresses": 4, "on-3-or-more-lists": 3}, time.Date(2026, 8, 22, 1, 0, 29, 0, time.UTC)},
		"spamhaus-drop":     {map[string]int{"ipv4": 3, "ipv6": 3}, time.Date(2025, 1, 17, 17, 3, 47, 0, time.UTC)},
		"iana-registries":   {}, // not in the fixtures: the built-in table, which counts nothing
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("recorded counts and dates (-want +got):\n%s", diff)
	}
	if !md.BuildTime.Equal(day(2026, 8, 22).Add(time.Hour + 29*time.Second)) {
		t.Errorf("BuildTime = %v, want ipsum's 2026-08-22 01:00:29", md.BuildTime)
	}
	for _, w := range []string{"list tor/exit-addresses (2024-03-12) is not used: tor/onionoo-exits", "list ipcat-datacenters is dated 2019-02-20",
		"list spamhaus-drop is dated 2025-01-17"} {
		if !slices.ContainsFunc(warnings, func(s string) bool { return strings.Contains(s, w) }) {
			t.Errorf("no warning %q in %q", w, warnings)
		}
	}

	// Addresses from the fixture files (see testdata/README.md).
	ok := risk.Facts{IsReachable: true}
	tests := []struct {
		addr  string
		facts risk.Facts
		risk  risk.Risk
		check func(risk.Hazards) bool
	}{
		{"204.137.14.106", ok, risk.High, func(h risk.Hazards) bool { return h.IsKnownAsTorExit }},         // onionoo exits
		{"185.241.208.232", ok, risk.Low, func(h risk.Hazards) bool { return !h.IsKnownAsTorExit }},        // only on the 2024 exit lists, superseded
		{"2a0a:4cc0:c1:2aac::1", ok, risk.High, func(h risk.Hazards) bool { return h.IsKnownAsTorServer }}, // onionoo relays, IPv6
		{"2.26.157.9", ok, risk.Moderate, func(h risk.Hazards) bool { return h.IsKnownAsVpn }},             // x4bnet vpn 2.26.157.0/24
		{"1.12.3.4", ok, risk.Moderate, func(h risk.Hazards) bool { return h.IsKnownAsDatacenter }},        // x4bnet datacenter 1.12.0.0/14
		{"3.8.1.1", ok, risk.Moderate, func(h risk.Hazards) bool { return h.HostingProvider == "Amazon AWS" }},
		{"64.5.40.1", ok, risk.Moderate, func(h risk.Hazards) bool { return h.HostingProvider == "ThePlanet.com Internet Services, Inc." }},
		{"1.178.1.1", ok, risk.Moderate, func(h risk.Hazards) bool { return h.CloudProvider == "Amazon" }},
		{"77.90.185.20", ok, risk.High, func(h risk.Hazards) bool { return h.IsBlocklisted && h.BlocklistCount == 10 }},
		{"1.1.220.166", ok, risk.Low, func(h risk.Hazards) bool { return h.BlocklistCount == 1 && !h.IsBlocklisted }},
		{"1.10.16.1", ok, risk.High, func(h risk.Hazards) bool { return h.IsSpamhausDrop }},
		{"2001:678:6c4::1", ok, risk.High, func(h risk.Hazards) bool { return h.IsSpamhausDrop }},
		{"84.150.1.1", risk.Facts{IsReachable: true, ASN: 45090}, risk.Moderate, func(h risk.Hazards) bool { return h.IsHostingAsn }},
		{"84.150.1.1", risk.Facts{IsReachable: true, ASN: 9009}, risk.Moderate, func(h risk.Hazards) bool { return h.IsKnownAsVpn }},
		{"84.150.1.1", ok, risk.Low, func(h risk.Hazards) bool { return h.Lists == nil }},
	}
	for _, tt := range tests {
		h := db.Hazards(netip.MustParseAddr(tt.addr), tt.facts)
		r, desc := risk.Rate(h)
		if r != tt.risk || !tt.check(h) {
			t.Errorf("%s %+v: %v (%s), %+v", tt.addr, tt.facts, r, desc, h)
		}
	}
	var names []string
	for _, l := range db.Lists() {
		names = append(names, l.Name)
	}
	if slices.Contains(names, "cloud-ipranges/all") {
		t.Error("the union folder cloud-ipranges/all was read")
	}
}

// TestNoSources checks the documented fallback: with every source missing the section builds
// and is valid, and rates on the facts alone.
func TestNoSources(t *testing.T) {
	db, _, _, warnings := runUpdate(t, t.TempDir())
	if l := db.Lists(); len(l) != 0 {
		t.Errorf("Lists = %v, want none", l)
	}
	if !slices.ContainsFunc(warnings, func(s string) bool { return strings.Contains(s, "no risk lists available") }) {
		t.Errorf("no warning about the missing lists in %q", warnings)
	}
	for _, tt := range []struct {
		f    risk.Facts
		want risk.Risk
	}{
		{risk.Facts{IsReachable: true}, risk.Low},
		{risk.Facts{IsReachable: true, IsBogon: true}, risk.High},
		{risk.Facts{IsReachable: false}, risk.High},
	} {
		if r, _ := risk.Rate(db.Hazards(netip.MustParseAddr("185.241.208.232"), tt.f)); r != tt.want {
			t.Errorf("%+v: %v, want %v", tt.f, r, tt.want)
		}
	}
}

// TestMissingFiles checks that a source folder lacking some files still builds, with a warning
// naming each missing list.
func TestMissingFiles(t *testing.T) {
	rec := newRecorder()
	src := mapSources{"tor": os.DirFS(filepath.Join(fixtureDir, "ipsum")), "ipsum": os.DirFS(filepath.Join(fixtureDir, "ipsum"))}
	db := buildDB(t, src, rec)
	if n := len(db.Lists()); n != 2 { // ipsum's two counts in the fixture, 10 and 1
		t.Errorf("%d lists, want 2: %v", n, db.Lists())
	}
	missing := 0
	for _, w := range rec.warnings {
		if strings.HasPrefix(w, "tor: no file") {
			missing++
		}
	}
	if missing != 7 {
		t.Errorf("%d warnings about missing Tor files, want 7: %q", missing, rec.warnings)
	}
}
