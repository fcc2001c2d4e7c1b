package api

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"strings"
	"testing"

	"github.com/ipatlas/ipatlas/internal/dataset/datasettest"
)

type torPage struct {
	Total  int `json:"total"`
	Offset int `json:"offset"`
	Batch  int `json:"batch"`
	Nodes  []struct {
		IP          string          `json:"ip"`
		CountryName string          `json:"countryName"`
		CountryCode string          `json:"countryCode"`
		Carriers    json.RawMessage `json:"carriers"`
	} `json:"nodes"`
}

func getTorPage(t *testing.T, s *Server, query string) torPage {
	t.Helper()
	rec := placesGet(t, s, "/data/tor-exit-nodes-list?key=good&"+query, "")
	if rec.Code != 200 {
		t.Fatalf("%s: status %d: %s", query, rec.Code, rec.Body)
	}
	var p torPage
	dec := json.NewDecoder(rec.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTorExitNodesList pages through the whole list on the real data: every address once,
// in address order, each a Tor exit to hazard-report, its country the geolocation's and
// its carriers network-by-ip's.
func TestTorExitNodesList(t *testing.T) {
	snap := datasettest.Real(t)
	s := placesServer(t, snap)
	first := getTorPage(t, s, "")
	if first.Total != len(snap.Risk.TorExits()) || first.Total < 100 || first.Offset != 0 || first.Batch != torExitsDefaultBatch || len(first.Nodes) != torExitsDefaultBatch {
		t.Fatalf("default page: total %d offset %d batch %d, %d nodes", first.Total, first.Offset, first.Batch, len(first.Nodes))
	}
	var all []netip.Addr
	for off := 0; off < first.Total; off += listMaxBatch {
		p := getTorPage(t, s, fmt.Sprintf("batchSize=%d&offset=%d", listMaxBatch, off))
		if p.Total != first.Total || p.Offset != off || p.Batch != listMaxBatch || len(p.Nodes) != min(listMaxBatch, first.Total-off) {
			t.Fatalf("offset %d: total %d offset %d batch %d, %d nodes", off, p.Total, p.Offset, p.Batch, len(p.Nodes))
		}
		for _, n := range p.Nodes {
			a := netip.MustParseAddr(n.IP)
			if len(all) > 0 && all[len(all)-1].Compare(a) >= 0 {
				t.Fatalf("%s after %s", a, all[len(all)-1])
			}
			all = append(all, a)
		}
	}
	if len(all) != first.Total {
		t.Fatalf("%d addresses over the pages, total %d", len(all), first.Total)
	}
	// A sample of nodes against the other endpoints: the first and last pages, some between.
	p := getTorPage(t, s, "batchSize=40&offset="+fmt.Sprint(first.Total-40)+"&localityLanguage=de")
	p.Nodes = append(p.Nodes, getTorPage(t, s, "batchSize=40&localityLanguage=de").Nodes...)
	for _, n := range p.Nodes {
		var h struct{ IsKnownAsTorExit bool }
		if err := json.Unmarshal(placesGet(t, s, "/data/hazard-report?key=good&ip="+n.IP, "").Body.Bytes(), &h); err != nil || !h.IsKnownAsTorExit {
			t.Errorf("%s is listed, but hazard-report says isKnownAsTorExit %v (%v)", n.IP, h.IsKnownAsTorExit, err)
		}
		var c struct {
			Country *struct{ IsoAlpha2, Name string }
		}
		json.Unmarshal(placesGet(t, s, "/data/country-by-ip?key=good&localityLanguage=de&ip="+n.IP, "").Body.Bytes(), &c)
		if c.Country == nil && (n.CountryCode != "" || n.CountryName != "") || c.Country != nil && (n.CountryCode != c.Country.IsoAlpha2 || n.CountryName != c.Country.Name) {
			t.Errorf("%s: %q %q; country-by-ip says %+v", n.IP, n.CountryCode, n.CountryName, c.Country)
		}
		var net struct{ Carriers json.RawMessage }
		json.Unmarshal(placesGet(t, s, "/data/network-by-ip?key=good&localityLanguage=de&ip="+n.IP, "").Body.Bytes(), &net)
		if string(net.Carriers) != string(n.Carriers) {
			t.Errorf("%s: carriers %s; network-by-ip's %s", n.IP, n.Carriers, net.Carriers)
		}
	}
	if last := p.Nodes[39]; !strings.Contains(last.IP, ":") {
		t.Errorf("the list does not end with IPv6 addresses: %s", last.IP)
	}
	if p := getTorPage(t, s, fmt.Sprintf("offset=%d", first.Total)); len(p.Nodes) != 0 || p.Offset != first.Total {
		t.Errorf("past the end: %+v", p)
	}
}

func TestTorExitNodesListErrors(t *testing.T) {
	fixture := placesServer(t, datasettest.Snapshot(t))
	tests := []struct {
		name, query string
		code        int
		desc        string
	}{
		{"no key", "?batchSize=5", 401, "No API key"},
		{"volume used up", "?key=spent", 402, "network-engineering package"},
		{"batch zero", "?key=good&batchSize=0", 400, "batchSize parameter must be a whole number from 1 to 1000"},
		{"batch over the limit", "?key=good&batchSize=1001", 400, "from 1 to 1000"},
		{"batch not a number", "?key=good&batchSize=ten", 400, "batchSize"},
		{"offset negative", "?key=good&offset=-1", 400, "offset parameter must be a whole number from 0"},
		{"no risk data", "?key=good", 503, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			placesWantError(t, placesGet(t, fixture, "/data/tor-exit-nodes-list"+tt.query, ""), tt.code, tt.desc)
		})
	}
}
