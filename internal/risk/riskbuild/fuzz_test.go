package riskbuild

import (
	"testing"

	"github.com/ipatlas/ipatlas/internal/risk"
)

// The upstream files are untrusted input: their parsers must fail cleanly, never panic, and
// whatever they accept must be something risk.Encode accepts.

// encodes checks that ranges parsed from fuzzed input make a valid section.
func encodes(t *testing.T, l risk.List) {
	t.Helper()
	if _, err := risk.Encode(risk.Data{Lists: []risk.List{l}}); err != nil {
		t.Fatalf("parsed rows do not encode: %v", err)
	}
}

func FuzzTorExitAddresses(f *testing.F) {
	// The real format: a block per exit relay.
	f.Add("ExitNode FE39F07EBE7870DCE124AB30DF3ABD0700A43F75\nPublished 2024-03-11 13:07:19\nLastStatus 2024-03-12 08:00:00\nExitAddress 185.241.208.232 2024-03-12 08:10:51\n")
	f.Add("ExitAddress 2001:db8::1 2024-03-12 08:10:51\nExitAddress ::ffff:1.2.3.4\n")
	f.Add("Published 9999-12-31 23:59:59\nLastStatus 0000-01-01 00:00:00\n")
	f.Add("ExitNode\nExitAddress\n\n\n")
	f.Fuzz(func(t *testing.T, in string) {
		l, _, err := parseExitAddresses([]byte(in))
		if err == nil {
			encodes(t, risk.List{Name: "x", Kind: risk.KindTorExit, Ranges: addrRanges(l.Addrs)})
		}
	})
}

func FuzzAddrLines(f *testing.F) {
	f.Add("185.241.208.232\n194.26.192.64\n")     // torbulkexitlist
	f.Add("1.161.163.82\r\n2a0a:4cc0:c1:2aac::1") // doodad, no final newline
	f.Add("# comment\n[::1]\nfe80::1%eth0\n")
	f.Fuzz(func(t *testing.T, in string) {
		as, _, err := parseAddrLines([]byte(in))
		if err == nil {
			encodes(t, risk.List{Name: "x", Kind: risk.KindTorRelay, Ranges: addrRanges(as)})
		}
	})
}

func FuzzOnionooCSV(f *testing.F) {
	f.Add("fingerprint,ipaddr,port\n000004ACBB9D29BCBA17256BB35928DDBFC8ABA9,152.53.144.50,8443\n")
	f.Add("ipaddr\n[2001:db8::1]\n")
	f.Add(",,,\n,\n")
	f.Fuzz(func(t *testing.T, in string) {
		as, _, err := parseOnionooCSV([]byte(in))
		if err == nil {
			encodes(t, risk.List{Name: "x", Kind: risk.KindTorRelay, Ranges: addrRanges(as)})
		}
	})
}

func FuzzCIDRList(f *testing.F) {
	f.Add("1.12.0.0/14\n2001:418:1401:4::/64\n")           // X4BNet
	f.Add("2a0d:3002:2100:a00c:5::4065/128\n1.178.1.0/24") // lord-alfred/ipranges
	f.Add("::ffff:1.2.3.0/120\n10.1.2.3/8 # host bits\n0.0.0.0/0\n::/0\n")
	f.Fuzz(func(t *testing.T, in string) {
		ps, _, err := parseCIDRList([]byte(in))
		if err == nil {
			encodes(t, risk.List{Name: "x", Kind: risk.KindVPN, Ranges: prefixRanges(ps)})
		}
	})
}

func FuzzASNList(f *testing.F) {
	f.Add("AS45090 # Tencent cloud computing\nAS3223 # VOXILITY, RO\n")
	f.Add("as1\n4294967295\n")
	f.Fuzz(func(t *testing.T, in string) {
		asns, _, err := parseASNList([]byte(in))
		if err == nil {
			if _, err := risk.Encode(risk.Data{ASNLists: []risk.ASNList{{Name: "x", Kind: risk.KindDatacenter, ASNs: asns}}}); err != nil {
				t.Fatalf("parsed ASNs do not encode: %v", err)
			}
		}
	})
}

func FuzzIpcatCSV(f *testing.F) {
	f.Add("3.0.0.0,3.1.255.255,Amazon AWS,http://www.amazon.com/aws/\n")
	f.Add("64.5.32.0,64.5.63.255,\"ThePlanet.com Internet Services, Inc.\",http://theplanet.com\n")
	f.Add("\"a\"\"b\",1,2\n#c\n2001:db8::,2001:db8::ff,V6,x\n")
	f.Fuzz(func(t *testing.T, in string) {
		rows, _, err := parseIpcatCSV([]byte(in))
		if err != nil {
			return
		}
		for _, r := range rows {
			encodes(t, risk.List{Name: "x", Kind: risk.KindDatacenter, Provider: r.Provider, Ranges: []risk.Range{{From: r.From, To: r.To}}})
		}
	})
}

func FuzzIpsum(f *testing.F) {
	f.Add("# Last update: Sat, 22 Aug 2026 03:00:29 +0200\n#\n77.90.185.20\t10\n23.224.4.114\t1\n")
	f.Add("# last update: Mon, 01 Jan 0001 00:00:00 GMT\n1.2.3.4 1000\n")
	f.Fuzz(func(t *testing.T, in string) {
		feed, _, err := parseIpsum([]byte(in))
		if err != nil {
			return
		}
		for _, e := range feed.Entries {
			encodes(t, risk.List{Name: "x", Kind: risk.KindBlocklist, Score: e.Lists, Date: feed.Updated,
				Ranges: []risk.Range{{From: e.Addr, To: e.Addr}}})
		}
	})
}

func FuzzDrop(f *testing.F) {
	f.Add("; Spamhaus DROP List 2025/01/17 - (c) 2025 The Spamhaus Project SLU\n; Last-Modified: Fri, 17 Jan 2025 17:03:47 GMT\n1.10.16.0/20 ; SBL256894\n; EOF\n")
	f.Add("; Spamhaus IPv6 DROP List 2025/01/15 - x\n2001:678:6c4::/48 ; SBL626637\n")
	f.Add(`{"cidr":"1.10.16.0/20","sblid":"SBL256894"}` + "\n" + `{"type":"metadata","timestamp":1737133427}` + "\n")
	f.Fuzz(func(t *testing.T, in string) {
		l, _, err := parseDrop([]byte(in))
		if err == nil {
			encodes(t, risk.List{Name: "x", Kind: risk.KindDrop, Date: l.Date, Ranges: prefixRanges(l.Prefixes)})
		}
	})
}

func FuzzProvenanceDate(f *testing.F) {
	f.Add("| file | data date |\n|---|---|\n| a.txt / b.txt | 2026-02-22 |\n", "b.txt")
	f.Add("Licence: MIT. Data date: 2026-08-22.\n", "vpn-ipv4.txt")
	f.Add("the data file itself last changed 2019-02-20 (stale)", "datacenters.csv")
	f.Add("\u0130\u0130 LAST CHANGED 0000-00-00", "")
	f.Fuzz(func(t *testing.T, md, file string) {
		got, _ := provenanceDate([]byte(md), file)
		encodes(t, risk.List{Name: "x", Kind: risk.KindVPN, Date: got})
	})
}
