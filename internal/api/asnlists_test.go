package api

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// The AS carriers the hand checks use too: a transit giant, two content networks, one
// more carrier.
var asnListASes = []string{"3356", "15169", "13335", "174"}

// asnListNums reads the asnNumeric of every entry of a list.
func asnListNums(t *testing.T, list any) []float64 {
	t.Helper()
	a, ok := list.([]any)
	if !ok {
		t.Fatalf("not a list: %v", list)
	}
	var out []float64
	for _, e := range a {
		n, _ := ipPath(e, "asnNumeric").(float64)
		out = append(out, n)
	}
	return out
}

// TestASNInfoReceivingFromReal: receivingFrom is transitTo inverted, across the two REST
// endpoints, and pages join up.
func TestASNInfoReceivingFromReal(t *testing.T) {
	s := ipRealServer(t)
	inverse := 0
	for _, asn := range append(asnListASes, "7018", "701", "3320", "209") {
		m := ipGetJSON(t, s, "/data/asn-info-receiving-from?key=good&batchSize=50&asn="+asn, 200)
		transit := ipGetJSON(t, s, "/data/asn-info-transit-to?key=good&asn="+asn, 200)
		delete(m, "totalReceivingFrom")
		delete(transit, "totalTransitTo")
		from := asnListNums(t, m["receivingFrom"])
		delete(m, "receivingFrom")
		delete(transit, "transitTo")
		if fmt.Sprint(m) != fmt.Sprint(transit) {
			t.Errorf("AS%s: the AS fields differ from transit-to's:\n%v\n%v", asn, m, transit)
		}
		for _, up := range from {
			tt := ipGetJSON(t, s, fmt.Sprintf("/data/asn-info-transit-to?key=good&batchSize=50&asn=%d", int64(up)), 200)
			found := false
			for off := 0.0; !found && off < tt["totalTransitTo"].(float64); off += 50 {
				page := ipGetJSON(t, s, fmt.Sprintf("/data/asn-info-transit-to?key=good&batchSize=50&offset=%d&asn=%d", int(off), int64(up)), 200)
				for _, n := range asnListNums(t, page["transitTo"]) {
					found = found || fmt.Sprint(n) == asn
				}
			}
			if !found {
				t.Errorf("AS%s receives from AS%d, whose transitTo lacks it", asn, int64(up))
			}
			inverse++
		}
	}
	if inverse == 0 {
		t.Error("no receivingFrom entries at all: the check proves nothing")
	}
	// Pages of three join into the whole (AS2914's seven providers).
	whole := ipGetJSON(t, s, "/data/asn-info-receiving-from?key=good&batchSize=50&asn=2914", 200)
	var joined []float64
	for off := 0; off < 50; off += 3 {
		joined = append(joined, asnListNums(t, ipGetJSON(t, s, fmt.Sprintf("/data/asn-info-receiving-from?key=good&batchSize=3&offset=%d&asn=2914", off), 200)["receivingFrom"])...)
	}
	if want := asnListNums(t, whole["receivingFrom"]); len(want) < 4 || fmt.Sprint(joined) != fmt.Sprint(want) {
		t.Errorf("pages %v, whole %v (want more than one page)", joined, want)
	}
}

// TestTier1PeersReal: the eight networks the sample AS paths show peering at the top of
// the hierarchy, all linked to one another, give one another no transit and receive it
// from no one, where Gao's heuristic alone had the busier of two peers give the other
// transit (AS3356 to AS7018).
func TestTier1PeersReal(t *testing.T) {
	s := ipRealServer(t)
	tier1 := []string{"3356", "7018", "3549", "1239", "12956", "6762", "6453", "3257"}
	for _, asn := range tier1 {
		from := ipGetJSON(t, s, "/data/asn-info-receiving-from?key=good&batchSize=50&asn="+asn, 200)
		if n := from["totalReceivingFrom"]; n != float64(0) {
			t.Errorf("AS%s receives transit from %v ASes: %v", asn, n, from["receivingFrom"])
		}
		to := ipGetJSON(t, s, "/data/asn-info-transit-to?key=good&batchSize=50&asn="+asn, 200)
		if len(asnListNums(t, to["transitTo"])) == 0 {
			t.Errorf("AS%s gives no transit at all: the check proves nothing", asn)
		}
		for _, n := range asnListNums(t, to["transitTo"]) {
			if slices.Contains(tier1, fmt.Sprint(n)) {
				t.Errorf("AS%s gives transit to its peer AS%v", asn, n)
			}
		}
	}
}

// TestASNInfoFullReal: asn-info-full is asn-info-receiving-from's and asn-info-transit-to's
// first 50 entries under one AS.
func TestASNInfoFullReal(t *testing.T) {
	s := ipRealServer(t)
	for _, asn := range asnListASes {
		full := ipGetJSON(t, s, "/data/asn-info-full?key=good&localityLanguage=de&asn="+asn, 200)
		want := ipGetJSON(t, s, "/data/asn-info-transit-to?key=good&batchSize=50&localityLanguage=de&asn="+asn, 200)
		from := ipGetJSON(t, s, "/data/asn-info-receiving-from?key=good&batchSize=50&localityLanguage=de&asn="+asn, 200)
		want["totalReceivingFrom"], want["receivingFrom"] = from["totalReceivingFrom"], from["receivingFrom"]
		if fmt.Sprint(full) != fmt.Sprint(want) {
			t.Errorf("AS%s:\n full %v\n want %v", asn, full, want)
		}
		if _, ok := full["confidenceArea"]; ok {
			t.Errorf("AS%s: confidenceArea has no source and must be omitted", asn)
		}
		capped := ipGetJSON(t, s, "/data/asn-info-full?key=good&peersCap=2&asn="+asn, 200)
		for _, k := range []string{"receivingFrom", "transitTo"} {
			if n := len(capped[k].([]any)); n > 2 {
				t.Errorf("AS%s peersCap=2: %d %s", asn, n, k)
			}
		}
	}
}

// TestASNRankListReal: each sort's pages are in order, join up, and cover every ranked AS
// once.
func TestASNRankListReal(t *testing.T) {
	s := ipRealServer(t)
	first := ipGetJSON(t, s, "/data/asn-rank-list?key=good", 200)
	total := int(first["total"].(float64))
	if total < 1000 || first["batch"] != float64(rankListDefaultBatch) || len(first["asns"].([]any)) != rankListDefaultBatch {
		t.Fatalf("default page: total %d, batch %v, %d asns", total, first["batch"], len(first["asns"].([]any)))
	}
	for _, sort := range rankSortNames {
		for _, order := range orderNames {
			var all []any
			for off := 0; off < total; off += listMaxBatch {
				m := ipGetJSON(t, s, fmt.Sprintf("/data/asn-rank-list?key=good&batchSize=1000&offset=%d&sort=%s&order=%s", off, sort, order), 200)
				all = append(all, m["asns"].([]any)...)
			}
			if len(all) != total {
				t.Fatalf("%s %s: %d entries, total %d", sort, order, len(all), total)
			}
			seen := map[any]bool{}
			for i, e := range all {
				seen[ipPath(e, "asn")] = true
				if i > 0 && !rankListInOrder(all[i-1], e, sort, order == "desc") {
					t.Errorf("%s %s: #%d %v after %v", sort, order, i, e, all[i-1])
					break
				}
			}
			if len(seen) != total {
				t.Errorf("%s %s: %d distinct ASes of %d", sort, order, len(seen), total)
			}
		}
	}
	past := ipGetJSON(t, s, fmt.Sprintf("/data/asn-rank-list?key=good&offset=%d", total), 200)
	if len(past["asns"].([]any)) != 0 {
		t.Errorf("past the end: %v", past["asns"])
	}
}

// rankListInOrder reports whether entry b may follow a in the sort's order.
func rankListInOrder(a, b any, sort string, desc bool) bool {
	num := func(e any, k string) float64 { f, _ := ipPath(e, k).(float64); return f }
	str := func(e any, k string) string { v, _ := ipPath(e, k).(string); return v }
	var c int
	switch sort {
	case "rank":
		c = cmpFloat(num(a, "rank"), num(b, "rank"))
	case "asn", "asnNumeric":
		c = cmpFloat(num(a, "asnNumeric"), num(b, "asnNumeric"))
	case "organisation", "countryCode":
		k := map[string]string{"organisation": "organisation", "countryCode": "registeredCountry"}[sort]
		ka, kb := str(a, k), str(b, k)
		if (ka == "") != (kb == "") {
			return kb == "" // empty last in both orders
		}
		c = strings.Compare(foldASCIIForTest(ka), foldASCIIForTest(kb))
		if c == 0 {
			c = strings.Compare(ka, kb)
		}
		if c == 0 {
			return num(a, "rank") < num(b, "rank") // ties by rank in both orders
		}
	}
	if desc {
		c = -c
	}
	return c < 0
}

// foldASCIIForTest lowers ASCII letters only, as the documented organisation order does.
func foldASCIIForTest(s string) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestPrefixesListReal: an AS's prefixes agree with its counts in asn-info, with
// network-by-cidr's facts, and page and sort as documented.
func TestPrefixesListReal(t *testing.T) {
	s := ipRealServer(t)
	for _, asn := range asnListASes {
		info := ipGetJSON(t, s, "/data/asn-info?key=good&asn="+asn, 200)
		for _, tc := range []struct{ query, count string }{
			{"", "totalIpv4Prefixes"}, {"&isv4=true", "totalIpv4Prefixes"}, {"&isv4=false", "totalIpv6Prefixes"},
			{"&bogonsOnly=true", "totalIpv4BogonPrefixes"}, {"&isv4=false&bogonsOnly=true", "totalIpv6BogonPrefixes"},
		} {
			m := ipGetJSON(t, s, "/data/prefixes-list?key=good&batchSize=1000&asn="+asn+tc.query, 200)
			if m["total"] != info[tc.count] {
				t.Errorf("AS%s%s: total %v, asn-info's %s %v", asn, tc.query, m["total"], tc.count, info[tc.count])
			}
		}
		m := ipGetJSON(t, s, "/data/prefixes-list?key=good&batchSize=5&asn="+asn, 200)
		for _, e := range m["prefixes"].([]any) {
			p := ipPath(e, "bgpPrefix").(string)
			cidr := ipGetJSON(t, s, "/data/network-by-cidr?key=good&cidr="+p, 200)
			for _, k := range []string{"registryStatus", "isBogon", "bgpPrefix"} {
				if fmt.Sprint(ipPath(cidr, "network", k)) != fmt.Sprint(ipPath(e, k)) {
					t.Errorf("AS%s %s: %s %v, network-by-cidr's %v", asn, p, k, ipPath(e, k), ipPath(cidr, "network", k))
				}
			}
			if fmt.Sprint(ipPath(cidr, "network", "carriers")) != fmt.Sprint(ipPath(e, "carriers")) {
				t.Errorf("AS%s %s: carriers differ from network-by-cidr's", asn, p)
			}
			if ipPath(e, "isAnnounced") != true {
				t.Errorf("AS%s %s: not announced", asn, p)
			}
		}
	}
	// AS15169 by size, descending: non-increasing sizes.
	m := ipGetJSON(t, s, "/data/prefixes-list?key=good&asn=15169&sort=size&order=desc&batchSize=1000", 200)
	prev := -1
	for _, e := range m["prefixes"].([]any) {
		var bits int
		fmt.Sscanf(ipPath(e, "bgpPrefix").(string)[strings.IndexByte(ipPath(e, "bgpPrefix").(string), '/')+1:], "%d", &bits)
		if bits < prev {
			t.Errorf("size desc: /%d after /%d", bits, prev)
		}
		prev = bits
	}
}

// TestASNListParamErrors: every malformed parameter is a 400 whose description names it,
// checked before the AS is looked up; a private or unknown AS is a 404.
func TestASNListParamErrors(t *testing.T) {
	s := ipRealServer(t)
	for _, tc := range []struct {
		target string
		status int
		says   string
	}{
		{"/data/asn-info-receiving-from?asn=3356&batchSize=51", 400, "batchSize"},
		{"/data/asn-info-receiving-from?asn=3356&batchSize=0", 400, "batchSize"},
		{"/data/asn-info-receiving-from?asn=3356&offset=-1", 400, "offset"},
		{"/data/asn-info-receiving-from?asn=AS", 400, "asn"},
		{"/data/asn-info-receiving-from", 400, "asn"},
		{"/data/asn-info-receiving-from?asn=65000&batchSize=51", 400, "batchSize"},
		{"/data/asn-info-receiving-from?asn=65000", 404, "private use"},
		{"/data/asn-info-receiving-from?asn=4199999999", 404, "No autonomous system"},
		{"/data/asn-info-full?asn=3356&peersCap=1.5", 400, "peersCap"},
		{"/data/asn-info-full?asn=x", 400, "asn"},
		{"/data/asn-info-full?asn=0", 404, "RFC 7607"},
		{"/data/asn-info-full?asn=4199999999", 404, "No autonomous system"},
		{"/data/asn-rank-list?batchSize=1001", 400, "batchSize"},
		{"/data/asn-rank-list?batchSize=0", 400, "batchSize"},
		{"/data/asn-rank-list?batchSize=ten", 400, "batchSize"},
		{"/data/asn-rank-list?offset=-5", 400, "offset"},
		{"/data/asn-rank-list?sort=name", 400, "rank, asn, asnNumeric, organisation, countryCode"},
		{"/data/asn-rank-list?order=ascending", 400, "asc, desc"},
		{"/data/prefixes-list", 400, "asn"},
		{"/data/prefixes-list?asn=15169&isv4=yes", 400, "isv4"},
		{"/data/prefixes-list?asn=15169&bogonsOnly=2", 400, "bogonsOnly"},
		{"/data/prefixes-list?asn=15169&batchSize=1001", 400, "batchSize"},
		{"/data/prefixes-list?asn=15169&sort=organisation", 400, "bgpPrefix, size"},
		{"/data/prefixes-list?asn=15169&order=down", 400, "asc, desc"},
		{"/data/prefixes-list?asn=65000&sort=bad", 400, "sort"},
		{"/data/prefixes-list?asn=65000", 404, "private use"},
		{"/data/prefixes-list?asn=4199999999", 404, "No autonomous system"},
	} {
		m := ipGetJSON(t, s, tc.target+map[bool]string{true: "&", false: "?"}[strings.Contains(tc.target, "?")]+"key=good", tc.status)
		if d, _ := m["description"].(string); !strings.Contains(d, tc.says) {
			t.Errorf("%s: %q does not mention %q", tc.target, d, tc.says)
		}
	}
	// Values in any case and with surrounding space are accepted.
	for _, target := range []string{
		"/data/asn-rank-list?sort=ORGANISATION&order=Desc", "/data/asn-rank-list?sort=%20asnNumeric%20",
		"/data/prefixes-list?asn=15169&sort=SIZE&isv4=FALSE", "/data/asn-info-full?asn=15169&peersCap=-3",
	} {
		ipGetJSON(t, s, target+"&key=good", 200)
	}
}

func FuzzParseEnum(f *testing.F) {
	for _, s := range []string{"rank", "ASN", " asnNumeric ", "organisation", "countrycode", "desc", "", "bgpPrefix", "sizes", "\u212a"} {
		f.Add(s)
	}
	lists := [][]string{rankSortNames, prefixSortNames, orderNames}
	f.Fuzz(func(t *testing.T, s string) {
		for _, values := range lists {
			// The reference: an ASCII string that lower-cases, trimmed, to a value's lower case.
			want, trimmed := -1, strings.TrimSpace(s)
			if utf8.ValidString(trimmed) && !strings.ContainsFunc(trimmed, func(r rune) bool { return r > unicode.MaxASCII }) {
				want = slices.IndexFunc(values, func(v string) bool { return strings.EqualFold(v, trimmed) })
			}
			i, ok := parseEnum(s, values)
			if ok != (want >= 0) || ok && i != want {
				t.Fatalf("parseEnum(%q) = %d, %v; want %d", s, i, ok, want)
			}
		}
	})
}

// TestListDefaultPages: without batchSize each list answers the commercial service's
// default page (as its MCP server describes it), on ASes and data with more entries than
// that.
func TestListDefaultPages(t *testing.T) {
	s := ipRealServer(t)
	for _, tc := range []struct {
		target, list string
		want         int
	}{
		{"/data/asn-info-transit-to?asn=AS3549&key=good", "transitTo", 25},
		{"/data/asn-rank-list?key=good", "asns", 15},
		{"/data/prefixes-list?asn=AS13335&key=good", "prefixes", 25},
		{"/data/tor-exit-nodes-list?key=good", "nodes", 50},
	} {
		body := ipGetJSON(t, s, tc.target, 200)
		if got := len(body[tc.list].([]any)); got != tc.want {
			t.Errorf("%s: %d %s, want %d", tc.target, got, tc.list, tc.want)
		}
		if b, ok := body["batch"]; ok && b != float64(tc.want) {
			t.Errorf("%s: batch %v, want %d", tc.target, b, tc.want)
		}
	}
}
