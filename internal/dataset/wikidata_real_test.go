package dataset_test

import (
	"testing"

	"github.com/ipatlas/ipatlas/internal/dataset/datasettest"
)

// TestRealSubdivisionWikidata checks the Wikidata ids of every subdivision the geolocation
// data names against a slow reference, a scan of all Natural Earth features for the one of
// the same GeoNames id and country, and a few ids checked by hand on Wikidata.
func TestRealSubdivisionWikidata(t *testing.T) {
	s := datasettest.Real(t)
	subs := s.Places.Subdivisions()
	reference := func(cc string, id int) string {
		found := ""
		for _, f := range subs {
			if f.GeonameID != id {
				continue
			}
			if found != "" || f.CountryCode != cc {
				return "" // carried twice, or another country's
			}
			found = f.WikidataID
			if found == "" {
				return ""
			}
		}
		return found
	}
	known := map[uint32]string{4896861: "Q1204", 5909050: "Q1974", 2950157: "Q64", 3448433: "Q175", 1085594: "Q133083"}
	type key struct {
		cc string
		id uint32
	}
	checked := map[key]bool{}
	var subdivisions, withID int
	for _, p := range s.IPGeo.All() {
		for _, sd := range p.Subdivisions {
			k := key{p.Country.Code, sd.GeonameID}
			if checked[k] || sd.GeonameID == 0 {
				continue
			}
			checked[k] = true
			got, ok := s.SubdivisionWikidataID(p.Country.Code, sd)
			if want := reference(p.Country.Code, int(sd.GeonameID)); got != want || ok != (want != "") {
				t.Errorf("%s %s (%d): %q, the reference %q", p.Country.Code, sd.Code, sd.GeonameID, got, want)
			}
			if w, isKnown := known[sd.GeonameID]; isKnown && got != w {
				t.Errorf("%s (%d): %q, want %q", sd.Code, sd.GeonameID, got, w)
			}
			subdivisions++
			if ok {
				withID++
			}
		}
	}
	t.Logf("%d subdivisions named by the geolocation data, %d with a Wikidata id", subdivisions, withID)
	if withID < subdivisions/2 {
		t.Errorf("only %d of %d subdivisions have a Wikidata id", withID, subdivisions)
	}
}
