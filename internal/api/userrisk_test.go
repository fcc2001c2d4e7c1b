package api

import (
	"bufio"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// placesMirror is the shared source mirror the test snapshot is built from (`make
// test-snapshot` passes it as --mirror), so its lists are the snapshot's lists.
func placesMirror(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("IPATLAS_TEST_MIRROR")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "data")
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no source mirror at %s (set IPATLAS_TEST_MIRROR)", dir)
	}
	return dir
}

// riskSample reads a list file of any of the mirror's formats (one address or CIDR per
// line, "ExitAddress a.b.c.d ...", CSV with the address in some column, "first,last,..."
// ranges, "addr<TAB>count") and returns about n addresses from evenly spaced lines: the
// first and last address of each range. keep filters lines by their fields.
func riskSample(t *testing.T, path string, n int, keep func(fields []string) bool) []netip.Addr {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type rng struct{ from, to netip.Addr }
	var all []rng
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		fields := strings.FieldsFunc(line, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == ';' })
		if keep != nil && !keep(fields) {
			continue
		}
		for i, fl := range fields {
			if p, err := netip.ParsePrefix(fl); err == nil {
				p = p.Masked()
				all = append(all, rng{p.Addr(), lastAddr(p)})
				break
			}
			if a, err := netip.ParseAddr(fl); err == nil {
				r := rng{a, a}
				if i+1 < len(fields) {
					if b, err := netip.ParseAddr(fields[i+1]); err == nil {
						r.to = b
					}
				}
				all = append(all, r)
				break
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(all) == 0 {
		t.Fatalf("%s: no addresses", path)
	}
	step := max(1, len(all)/n)
	var out []netip.Addr
	for i := 0; i < len(all); i += step {
		out = append(out, all[i].from)
		if all[i].to != all[i].from {
			out = append(out, all[i].to)
		}
	}
	return out
}

func lastAddr(p netip.Prefix) netip.Addr {
	b := p.Addr().AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 0x80 >> (i % 8)
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}

// TestUserRiskFromLists checks the rating of addresses taken from every list the risk
// engine reads: the High lists must give High; the Moderate lists (VPN, cloud, datacenter,
// private relay) at least Moderate (an address may also be on a High list).
func TestUserRiskFromLists(t *testing.T) {
	s := realPlacesServer(t)
	mirror := placesMirror(t)
	atLeast3 := func(f []string) bool { n, err := strconv.Atoi(f[len(f)-1]); return err == nil && n >= 3 }
	type list struct {
		file  string
		keep  func([]string) bool
		level string // "High", or "Moderate" meaning at least Moderate
	}
	lists := []list{
		{"tor/doodad-exit-nodes.txt", nil, "High"},
		{"tor/doodad-guard-nodes.txt", nil, "High"},
		{"tor/doodad-relay-nodes.txt", nil, "High"},
		// The mirror's exit lists of 2024 (exit-addresses, torbulkexitlist) are superseded by
		// the exit lists of 2026, so the build does not use them (riskbuild.dropSuperseded).
		{"tor/onionoo-all-relays.csv", nil, "High"},
		{"tor/onionoo-exits.csv", nil, "High"},
		{"spamhaus-drop/drop-20250117.txt", nil, "High"},
		{"spamhaus-drop/dropv6-20250117.txt", nil, "High"},
		{"ipsum/ipsum.txt", atLeast3, "High"},
		{"x4bnet-lists-vpn/vpn-ipv4.txt", nil, "Moderate"},
		{"x4bnet-lists-vpn/vpn-ipv6.txt", nil, "Moderate"},
		{"x4bnet-lists-vpn/datacenter-ipv4.txt", nil, "Moderate"},
		{"x4bnet-lists-vpn/datacenter-ipv6.txt", nil, "Moderate"},
		{"ipcat-datacenters/datacenters.csv", nil, "Moderate"},
	}
	providers, err := os.ReadDir(filepath.Join(mirror, "cloud-ipranges"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range providers {
		if !p.IsDir() || p.Name() == "all" {
			continue
		}
		for _, fam := range []string{"ipv4_merged.txt", "ipv6_merged.txt"} {
			if _, err := os.Stat(filepath.Join(mirror, "cloud-ipranges", p.Name(), fam)); err == nil {
				lists = append(lists, list{"cloud-ipranges/" + p.Name() + "/" + fam, nil, "Moderate"})
			}
		}
	}
	for _, l := range lists {
		t.Run(l.file, func(t *testing.T) {
			exact := 0
			addrs := riskSample(t, filepath.Join(mirror, l.file), 12, l.keep)
			for _, a := range addrs {
				rec := placesGet(t, s, "/data/user-risk?key=good&ip="+a.String(), "")
				if rec.Code != 200 {
					t.Fatalf("%s: status %d: %s", a, rec.Code, rec.Body)
				}
				m := placesDecode(t, rec)
				got, desc := m["risk"].(string), m["description"].(string)
				switch {
				case got == l.level:
					exact++
				case l.level == "Moderate" && got == "High":
				default:
					t.Errorf("%s: %s (%s), want %s", a, got, desc, l.level)
				}
				if !strings.HasPrefix(desc, strings.ToLower(got)+" risk") {
					t.Errorf("%s: description %q does not start with the level", a, desc)
				}
			}
			t.Logf("%d addresses, %d exactly %s", len(addrs), exact, l.level)
		})
	}
}

func TestUserRiskFixedAddresses(t *testing.T) {
	s := realPlacesServer(t)
	tests := []struct{ ip, risk, desc string }{
		{"10.1.2.3", "High", "bogon"},
		{"192.168.1.1", "High", "bogon"},
		{"100.64.0.1", "High", "bogon"},
		{"2001:db8::1", "High", "bogon"},
		{"0", "High", "bogon"},                // 0.0.0.0 as a number
		{"81.2.69.142", "Low", "low risk"},    // Andrews & Arnold, UK consumer ISP
		{"73.162.0.1", "Low", "low risk"},     // Comcast residential
		{"3.5.140.2", "Moderate", "Amazon"},   // AWS
		{"8.8.8.8", "Moderate", "Google"},     // Google, in its cloud ranges
		{"185.220.101.1", "High", "Tor exit"}, // a long-lived Tor exit
	}
	for _, tt := range tests {
		t.Run(tt.ip, func(t *testing.T) {
			rec := placesGet(t, s, "/data/user-risk?key=good&ip="+tt.ip, "")
			m := placesDecode(t, rec)
			if m["risk"] != tt.risk || !strings.Contains(m["description"].(string), tt.desc) {
				t.Errorf("got %v, want %s with %q", m, tt.risk, tt.desc)
			}
		})
	}
	// The caller's own address when ip is absent.
	if m := placesDecode(t, placesGet(t, s, "/data/user-risk?key=good", "10.9.9.9")); m["risk"] != "High" {
		t.Errorf("caller 10.9.9.9: %v", m)
	}
}

func TestHazardReport(t *testing.T) {
	s := realPlacesServer(t)
	tests := []struct {
		ip   string
		want map[string]any
	}{
		{"185.220.101.1", map[string]any{"isKnownAsTorServer": true, "isKnownAsTorExit": true, "isBogon": false, "isUnreachable": false}},
		{"3.5.140.2", map[string]any{"isKnownAsTorServer": false, "cloudProvider": "Amazon", "isHostingAsn": true, "hostingLikelihood": float64(10)}},
		{"10.1.2.3", map[string]any{"isBogon": true, "isUnreachable": true, "hostingLikelihood": float64(0), "lists": []any{}}},
		{"81.2.69.142", map[string]any{"isKnownAsVpn": false, "isKnownAsProxy": false, "isSpamhausDrop": false, "isBlocklisted": false}},
	}
	for _, tt := range tests {
		t.Run(tt.ip, func(t *testing.T) {
			m := placesDecode(t, placesGet(t, s, "/data/hazard-report?key=good&ip="+tt.ip, ""))
			for k, v := range tt.want {
				got := m[k]
				if l, ok := v.([]any); ok && len(l) == 0 {
					if g, ok := got.([]any); !ok || len(g) != 0 {
						t.Errorf("%s = %v, want []", k, got)
					}
					continue
				}
				if got != v {
					t.Errorf("%s = %v, want %v", k, got, v)
				}
			}
			for _, k := range []string{"isKnownAsTorServer", "isKnownAsVpn", "isKnownAsProxy", "iCloudPrivateRelay", "isSpamhausDrop", "isBogon", "isUnreachable", "isHostingAsn", "hostingLikelihood"} {
				if _, ok := m[k]; !ok {
					t.Errorf("field %s missing", k)
				}
			}
		})
	}
	// iCloud Private Relay is a proxy.
	mirror := placesMirror(t)
	a := riskSample(t, filepath.Join(mirror, "cloud-ipranges/apple-proxy/ipv4_merged.txt"), 1, nil)[0]
	m := placesDecode(t, placesGet(t, s, "/data/hazard-report?key=good&ip="+a.String(), ""))
	if m["iCloudPrivateRelay"] != true || m["isKnownAsProxy"] != true {
		t.Errorf("%s: %v", a, m)
	}
}
