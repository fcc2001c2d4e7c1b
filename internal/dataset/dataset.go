// Package dataset owns the unit of hot swap: a Snapshot is one opened snapshot file with every
// engine built from it, checked by probe lookups before it may serve; Live holds the current
// Snapshot and replaces it atomically, so readers take no locks and a bad file never replaces
// a good one.
package dataset

import (
	"errors"
	"fmt"
	"time"

	"github.com/ipatlas/ipatlas/internal/country"
	"github.com/ipatlas/ipatlas/internal/dbfile"
)

// Section names in the snapshot file.
const (
	SectionCountry = "country"
)

// Snapshot is an immutable, verified dataset. Its fields must not be modified.
type Snapshot struct {
	Path      string
	Meta      dbfile.Metadata
	Countries *country.DB
	LoadedAt  time.Time
}

// Load opens the snapshot at path, builds every engine and probes it.
func Load(path string) (*Snapshot, error) {
	f, err := dbfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("dataset: open %s: %w", path, err)
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
	if err := s.probe(); err != nil {
		return nil, fmt.Errorf("probe failed: %w", err)
	}
	return s, nil
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
	return nil
}
