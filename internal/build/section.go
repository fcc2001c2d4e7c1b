package build

import (
	"context"
	"fmt"
	"io/fs"
	"slices"
)

// Sources is what a section builder sees: each fetched source as a read-only tree.
type Sources interface {
	// Source returns the named source's files and reports whether it is available. It
	// reports false for an optional source that is missing and for any source the section
	// did not declare in its Needs.
	Source(name string) (fs.FS, bool)
}

// Section builds one named section of the snapshot, from sources (Build) or from sections
// listed before it (Derive). Sections are supplied by the packages that read them (country,
// ipgeo, ...) through Options.Sections.
type Section struct {
	Name  string   // section name in the snapshot, e.g. "country"
	Needs []string // source names it reads
	// Build parses the sources and returns the section's bytes. It records what it read
	// (counts, data dates, warnings) in rep. An error fails the whole update. Build must be
	// deterministic: the same sources must give the same bytes.
	Build func(ctx context.Context, src Sources, rep *Report) ([]byte, error)

	// Uses names the sections, listed before this one, whose bytes Derive reads.
	Uses []string
	// Derive, instead of Build, makes a section from other sections' bytes (by name, just
	// those in Uses): what joins two engines' data, or is too costly to compute per request,
	// is computed once here. The same rules as for Build apply.
	Derive func(ctx context.Context, sections map[string][]byte, rep *Report) ([]byte, error)
}

// sectionSources gives a section the available sources it declared, and nothing else, so
// that a section's real dependencies are always the ones it states.
type sectionSources struct {
	trees map[string]fs.FS
	needs []string
}

func (s sectionSources) Source(name string) (fs.FS, bool) {
	if !slices.Contains(s.needs, name) {
		return nil, false
	}
	fsys, ok := s.trees[name]
	return fsys, ok
}

// checkSections reports the first section that is unnamed, duplicated, has neither or both
// of Build and Derive, uses a section not listed before it, or needs a source the catalogue
// does not have.
func checkSections(sections []Section, cat []Source) error {
	seen := make(map[string]bool, len(sections))
	for _, s := range sections {
		switch {
		case s.Name == "":
			return fmt.Errorf("build: section with empty name")
		case seen[s.Name]:
			return fmt.Errorf("build: duplicate section %q", s.Name)
		case (s.Build == nil) == (s.Derive == nil):
			return fmt.Errorf("build: section %q needs exactly one of Build and Derive", s.Name)
		case s.Build != nil && len(s.Uses) > 0:
			return fmt.Errorf("build: section %q uses sections but has no Derive", s.Name)
		}
		for _, u := range s.Uses {
			if !seen[u] {
				return fmt.Errorf("build: section %q uses %q, which is not listed before it", s.Name, u)
			}
		}
		seen[s.Name] = true
		for _, need := range s.Needs {
			if !slices.ContainsFunc(cat, func(src Source) bool { return src.Name == need }) {
				return fmt.Errorf("build: section %q needs source %q, which is not in the catalogue", s.Name, need)
			}
		}
	}
	return nil
}
