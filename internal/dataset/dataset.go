// Package dataset owns the unit of hot swap: a Snapshot is one opened snapshot file with every
// engine built from it, checked by probe lookups before it may serve; Live holds the current
// Snapshot and replaces it atomically, so readers take no locks and a bad file never replaces
// a good one.
package dataset

import (
	"errors"
	"fmt"
	"net/netip"
	"time"

	"github.com/ipatlas/ipatlas/internal/country"
	"github.com/ipatlas/ipatlas/internal/dbfile"
	"github.com/ipatlas/ipatlas/internal/ipgeo"
	"github.com/ipatlas/ipatlas/internal/netinfo"
	"github.com/ipatlas/ipatlas/internal/revgeo"
	"github.com/ipatlas/ipatlas/internal/risk"
)

// Section names in the snapshot file. They match the builders' SectionName constants
// (countrybuild, ipgeobuild, netinfobuild, riskbuild, revgeobuild; the derived areas section
// is named in datasetbuild); a test checks that.
const (
	SectionCountry = "country"
	SectionIPGeo   = "ipgeo"
	SectionNetInfo = "netinfo"
	SectionRisk    = "risk"
	SectionRevGeo  = "revgeo"
	// SectionAreas holds the precomputed confidence areas (derived from the ipgeo and
	// netinfo sections); without it, confidence areas are computed per request.
	SectionAreas = "areas"
)

// SourceBGP is the catalogue source the announced prefixes and their origin ASes come from:
// the netinfo section's required source (netinfobuild.Needs()[0]; a test checks that).
const SourceBGP = "geolite2"

// SourceDate returns the date of the named source's data as the snapshot records it, and
// false when the snapshot has no such source or the source does not date its data.
func (s *Snapshot) SourceDate(name string) (time.Time, bool) {
	for _, src := range s.Meta.Sources {
		if src.Name == name && !src.DataDate.IsZero() {
			return src.DataDate, true
		}
	}
	return time.Time{}, false
}

// Snapshot is an immutable, verified dataset. Its fields must not be modified.
//
// Countries is always there. The other engines are nil when the file has no section for
// them (a snapshot from an older build, or a fixture): the endpoints they serve then answer
// 503 saying so, and everything else keeps working.
type Snapshot struct {
	Path      string
	Meta      dbfile.Metadata
	Countries *country.DB
	IPGeo     *ipgeo.DB
	Net       *netinfo.DB
	Risk      *risk.DB
	Places    *revgeo.DB
	LoadedAt  time.Time

	census censusJoin // Places.Census(), for Census
}

// Load opens the snapshot at path, builds every engine and probes it.
func Load(path string) (*Snapshot, error) {
	f, err := dbfile.Open(path) // its errors name the file
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	s, err := FromFile(f)
	if err != nil {
		return nil, fmt.Errorf("dataset: %s: %w", path, err)
	}
	s.Path = path
	return s, nil
}

// FromFile builds and probes the engines of an opened snapshot file.
func FromFile(f *dbfile.File) (*Snapshot, error) {
	s := &Snapshot{Meta: f.Metadata(), LoadedAt: time.Now()}
	b, ok := f.Section(SectionCountry)
	if !ok {
		return nil, errors.New("no country section")
	}
	db, err := country.Decode(b)
	if err != nil {
		return nil, err
	}
	s.Countries = db
	if err := decodeOptional(f, SectionIPGeo, ipgeo.Decode, &s.IPGeo); err != nil {
		return nil, err
	}
	if b, ok := f.Section(SectionAreas); ok && s.IPGeo != nil {
		db, err := s.IPGeo.WithAreas(b)
		if err != nil {
			return nil, fmt.Errorf("section %s: %w", SectionAreas, err)
		}
		s.IPGeo = db
	}
	if err := decodeOptional(f, SectionNetInfo, netinfo.Decode, &s.Net); err != nil {
		return nil, err
	}
	if err := decodeOptional(f, SectionRisk, risk.Decode, &s.Risk); err != nil {
		return nil, err
	}
	if err := decodeOptional(f, SectionRevGeo, revgeo.Decode, &s.Places); err != nil {
		return nil, err
	}
	if s.Places != nil && s.IPGeo != nil {
		s.census = newCensusJoin(s.Places.Census())
	}
	if err := s.probe(); err != nil {
		return nil, fmt.Errorf("probe failed: %w", err)
	}
	return s, nil
}

// decodeOptional decodes section name into *dst when the file has it; a section that is
// present but does not decode fails the load.
func decodeOptional[T any](f *dbfile.File, name string, decode func([]byte) (*T, error), dst **T) error {
	b, ok := f.Section(name)
	if !ok {
		return nil
	}
	v, err := decode(b)
	if err != nil {
		return fmt.Errorf("section %s: %w", name, err)
	}
	*dst = v
	return nil
}

// probe runs known lookups, so a snapshot that decodes but answers nonsense (a builder bug,
// a half-empty source) is refused before it serves anyone.
func (s *Snapshot) probe() error {
	probes := []struct{ code, alpha3 string }{{"US", "USA"}, {"de", "DEU"}, {"392", "JPN"}, {"BRA", "BRA"}}
	for _, p := range probes {
		c, ok := s.Countries.Lookup(p.code)
		if !ok || c.Alpha3 != p.alpha3 {
			return fmt.Errorf("country %q: got %q, %v; want %s", p.code, c.Alpha3, ok, p.alpha3)
		}
	}
	// Every IP engine must call a private address what it is: a miss for geolocation, a
	// bogon for the network data. An engine that answers otherwise was built wrong.
	private := netip.MustParseAddr("10.1.2.3")
	if s.IPGeo != nil {
		if p, ok := s.IPGeo.Lookup(private); ok {
			return fmt.Errorf("ipgeo: 10.1.2.3 placed in %+v; want no place", p.Country)
		}
	}
	if s.Net != nil {
		if n, ok := s.Net.Lookup(private); ok && !n.IsBogon {
			return fmt.Errorf("netinfo: 10.1.2.3 is not a bogon")
		}
	}
	if s.Places != nil && len(s.Places.Countries()) > 0 {
		if p, _ := s.Places.Lookup(48.8566, 2.3522); p.Country.Code != "FR" {
			return fmt.Errorf("revgeo: Paris placed in %q; want FR", p.Country.Code)
		}
	}
	return nil
}
