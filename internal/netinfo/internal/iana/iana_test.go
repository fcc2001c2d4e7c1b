package iana

import (
	"errors"
	"net/netip"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ipatlas/ipatlas/internal/build/buildtest"
)

var p = netip.MustParsePrefix

func TestParse(t *testing.T) {
	fsys := os.DirFS("testdata/registries")
	got, err := Parse(fsys, fsys)
	if err != nil {
		t.Fatal(err)
	}
	want := Facts{
		XMLUpdated: "2023-12-18",
		ASNUpdated: "2019-09-11",
		Space: []Space{
			{p("0.0.0.0/8"), "IANA", "reserved", true},
			{p("1.0.0.0/8"), "APNIC", "allocated", false},
			{p("17.0.0.0/8"), "ARIN", "legacy", false}, // from its whois server
			{p("25.0.0.0/8"), "RIPE NCC", "legacy", false},
			{p("224.0.0.0/8"), "IANA", "reserved", true},
			{p("::/8"), "IETF", "reserved", true},
			{p("2000::/3"), "IANA", "available", true},
			{p("fc00::/7"), "IETF", "reserved", true},
			{p("2001:200::/23"), "APNIC", "allocated", false},
			{p("2600::/12"), "ARIN", "allocated", false},
			{p("3000::/4"), "IANA", "reserved", true},
		},
		Special: []Special{
			{p("192.0.0.0/24"), "IETF Protocol Assignments", false, false},
			{p("192.0.0.9/32"), "Port Control Protocol Anycast", true, false},
			{p("192.0.0.170/32"), "NAT64/DNS64 Discovery", false, false},
			{p("192.0.0.171/32"), "NAT64/DNS64 Discovery", false, false},
			{p("192.88.99.0/24"), "Deprecated (6to4 Relay Anycast)", false, false},
			{p("2001::/23"), "IETF Protocol Assignments", false, false},
			{p("2001::/32"), "TEREDO", true, true}, // "N/A"
			{p("2001:db8::/32"), "Documentation", false, false},
		},
		ASNs: []ASNBlock{{0, 0, "IETF"}, {1, 1876, "ARIN"}, {1877, 1901, "RIPE NCC"}},
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateComparable(netip.Prefix{})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	// Without a delegated-iana file, the AS blocks are the built-in ones.
	noASN, err := Parse(fsys, fstest.MapFS{})
	if err != nil {
		t.Fatal(err)
	}
	if len(noASN.ASNs) != len(Builtin().ASNs) {
		t.Errorf("AS blocks without delegated-iana: %d, want the built-in %d", len(noASN.ASNs), len(Builtin().ASNs))
	}
}

// TestParseDelegatedChecksums reads folders where checksums and signatures sit beside IANA's
// file, as on its FTP server: delegated-iana-latest.md5 sorts after delegated-iana-latest
// and was read as the statistics file, which failed the build.
func TestParseDelegatedChecksums(t *testing.T) {
	data, err := os.ReadFile("testdata/registries/delegated-iana-20190912")
	if err != nil {
		t.Fatal(err)
	}
	sum := []byte("MD5 (delegated-iana-latest) = 0123456789abcdef0123456789abcdef\n")
	tests := []struct {
		name  string
		stats string   // the statistics file's name; "" for none
		sums  []string // checksum and signature files beside it
		err   error
	}{
		{"md5", "delegated-iana-latest", []string{"delegated-iana-latest.md5"}, nil},
		{"asc", "delegated-iana-latest", []string{"delegated-iana-latest.asc"}, nil},
		{"sha256", "delegated-iana-latest", []string{"delegated-iana-latest.sha256"}, nil},
		{"all", "delegated-iana-20190912", []string{"delegated-iana-20190912.md5", "delegated-iana-20190912.asc", "delegated-iana-20190912.sha256"}, nil},
		{"only checksums", "", []string{"delegated-iana-latest.md5", "delegated-iana-latest.asc"}, ErrNoDelegated},
	}
	for _, tt := range tests {
		fsys := fstest.MapFS{}
		if tt.stats != "" {
			fsys[tt.stats] = &fstest.MapFile{Data: data}
		}
		for _, name := range tt.sums {
			fsys[name] = &fstest.MapFile{Data: sum}
		}
		asns, updated, err := ParseDelegated(fsys)
		if !errors.Is(err, tt.err) {
			t.Errorf("%s: error %v, want %v", tt.name, err, tt.err)
			continue
		}
		if err == nil && (len(asns) != 3 || updated != "2019-09-11") {
			t.Errorf("%s: %d AS blocks of %s, want 3 of 2019-09-11", tt.name, len(asns), updated)
		}
	}
}

// failingGlob is a folder whose listing fails.
type failingGlob struct{ fstest.MapFS }

var errListing = errors.New("listing failed")

func (failingGlob) Glob(string) ([]string, error) { return nil, errListing }

// TestParseDelegatedGlobError: a folder that cannot be listed is an error, not
// ErrNoDelegated, which would make Parse fall back to the built-in AS blocks silently.
func TestParseDelegatedGlobError(t *testing.T) {
	_, _, err := ParseDelegated(failingGlob{})
	if !errors.Is(err, errListing) || errors.Is(err, ErrNoDelegated) {
		t.Errorf("error %v, want %v", err, errListing)
	}
	if _, err := Parse(os.DirFS("testdata/registries"), failingGlob{}); !errors.Is(err, errListing) {
		t.Errorf("Parse: error %v, want %v", err, errListing)
	}
}

func TestParseRejects(t *testing.T) {
	good, err := os.ReadFile("testdata/registries/" + FileIPv4Space)
	if err != nil {
		t.Fatal(err)
	}
	base := fstest.MapFS{}
	for _, n := range []string{FileIPv4Space, FileIPv6Space, FileIPv6Unicast, FileIPv4Special, FileIPv6Special} {
		b, err := os.ReadFile(filepath.Join("testdata/registries", n))
		if err != nil {
			t.Fatal(err)
		}
		base[n] = &fstest.MapFile{Data: b}
	}
	for name, data := range map[string]string{
		"missing file":   "",
		"bad status":     `<registry><record><prefix>001/8</prefix><status>LOST</status></record></registry>`,
		"bad prefix":     `<registry><record><prefix>300/8</prefix><status>ALLOCATED</status></record></registry>`,
		"no records":     `<registry><updated>2023-12-18</updated></registry>`,
		"truncated":      string(good[:len(good)/2]),
		"bad updated":    `<registry><updated>yesterday</updated><record><prefix>001/8</prefix><status>ALLOCATED</status></record></registry>`,
		"not xml at all": "\x00\x01",
	} {
		fsys := fstest.MapFS{}
		for k, v := range base {
			fsys[k] = v
		}
		if data == "" {
			delete(fsys, FileIPv4Space)
		} else {
			fsys[FileIPv4Space] = &fstest.MapFile{Data: []byte(data)}
		}
		if _, err := ParseXML(fsys); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestBuiltinCurrent checks that builtin.go states what the mirrored IANA files say: run
// go generate in this directory when it fails.
func TestBuiltinCurrent(t *testing.T) {
	dir, ok := buildtest.SharedData()
	if !ok {
		t.Skip("no shared data directory")
	}
	got, err := Parse(os.DirFS(filepath.Join(dir, "iana-registries")), os.DirFS(filepath.Join(dir, "rir-delegated")))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(got, Builtin(), cmpopts.EquateComparable(netip.Prefix{})); diff != "" {
		t.Errorf("builtin.go is stale; run go generate (-files +builtin):\n%s", diff)
	}
	if len(got.Space) < 256 || len(got.Special) < 40 || len(got.ASNs) < 1000 {
		t.Errorf("suspiciously few facts: %d space, %d special, %d AS blocks", len(got.Space), len(got.Special), len(got.ASNs))
	}
}

func FuzzIANAXML(f *testing.F) {
	for _, n := range []string{FileIPv4Space, FileIPv4Special, FileIPv6Unicast} {
		b, err := os.ReadFile(filepath.Join("testdata/registries", n))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(n, b)
	}
	f.Add(FileIPv6Space, []byte(`<registry><record><prefix>::/0</prefix><description>Global Unicast</description></record></registry>`))
	f.Fuzz(func(t *testing.T, name string, b []byte) {
		fsys := fstest.MapFS{}
		for _, n := range []string{FileIPv4Space, FileIPv6Space, FileIPv6Unicast, FileIPv4Special, FileIPv6Special} {
			fsys[n] = &fstest.MapFile{Data: []byte(`<registry><record><prefix>2000::/3</prefix><address>::1/128</address><status>ALLOCATED</status><description>Global Unicast</description></record></registry>`)}
		}
		fsys[name] = &fstest.MapFile{Data: b}
		f, err := ParseXML(fsys)
		if err != nil {
			return
		}
		for _, s := range f.Space {
			if !s.Prefix.IsValid() || s.Prefix.Masked() != s.Prefix {
				t.Fatalf("bad prefix %v", s.Prefix)
			}
		}
		for _, s := range f.Special {
			if !s.Prefix.IsValid() || s.Prefix.Masked() != s.Prefix {
				t.Fatalf("bad prefix %v", s.Prefix)
			}
		}
	})
}
