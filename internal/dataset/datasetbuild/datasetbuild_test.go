package datasetbuild

import (
	"testing"

	"github.com/ipatlas/ipatlas/internal/build"
	"github.com/ipatlas/ipatlas/internal/dataset"
	"github.com/ipatlas/ipatlas/internal/dataset/datasettest"
)

// TestSectionNames: every section the loader knows is built, under the name it reads.
func TestSectionNames(t *testing.T) {
	built := map[string]bool{}
	for _, s := range Sections() {
		built[s.Name] = true
	}
	read := []string{dataset.SectionCountry, dataset.SectionIPGeo, dataset.SectionNetInfo, dataset.SectionRisk, dataset.SectionRevGeo, dataset.SectionAreas}
	for _, name := range read {
		if !built[name] {
			t.Errorf("no builder makes section %q", name)
		}
	}
	if len(built) != len(read) {
		t.Errorf("%d sections built, the loader reads %d", len(built), len(read))
	}
}

// TestSourceBGP: dataset.SourceBGP, whose date the address-space answers give as
// bgpDataTimestamp, is the source the netinfo section requires (its prefixes).
func TestSourceBGP(t *testing.T) {
	for _, s := range Sections() {
		if s.Name == dataset.SectionNetInfo && (len(s.Needs) == 0 || s.Needs[0] != dataset.SourceBGP) {
			t.Errorf("the netinfo section needs %v first, dataset.SourceBGP is %q", s.Needs, dataset.SourceBGP)
		}
	}
}

// TestEverySourceRead: every catalogued source is read by some section, so that data info
// and /data/sources never list an entry as "unused, not fetched".
func TestEverySourceRead(t *testing.T) {
	read := map[string]bool{}
	for _, s := range Sections() {
		for _, n := range s.Needs {
			read[n] = true
		}
	}
	for _, src := range build.DefaultCatalog() {
		if !read[src.Name] {
			t.Errorf("catalogue entry %s is read by no section", src.Name)
		}
	}
}

// TestRealSnapshotEngines: the snapshot `make test` builds from the real sources loads with
// every engine and passes the probes.
func TestRealSnapshotEngines(t *testing.T) {
	s := datasettest.Real(t)
	if s.IPGeo == nil || s.Net == nil || s.Risk == nil || s.Places == nil {
		t.Fatalf("engines missing: ipgeo %v, netinfo %v, risk %v, revgeo %v", s.IPGeo != nil, s.Net != nil, s.Risk != nil, s.Places != nil)
	}
	if n, _ := s.IPGeo.AreaCounts(); n == 0 {
		t.Error("no precomputed confidence areas")
	}
}
