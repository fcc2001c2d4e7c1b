// Package mmdbexport owns the MaxMind DB export of a snapshot's IP data (`ipatlas data
// export --mmdb`), so tools in other languages can read what ipatlas serves: one IPv6 tree
// (IPv4 at ::/96 and its usual aliases) whose records follow the GeoIP2-City schema
// (continent, country, registered_country, subdivisions, city, postal, location) with the
// GeoLite2-ASN fields (autonomous_system_number, autonomous_system_organization) merged in at
// the top level.
//
// Geolocation networks are inserted first; then every announced BGP prefix, less specific
// before more specific, merges its AS fields into whatever lies under it, so an address
// reads the place of its geolocation network and the origin AS of its most specific
// announced prefix, exactly as the API answers them. Addresses with only one of the two get
// a record with only that part. The tree aliases 6to4, Teredo and IPv4-compatible IPv6
// addresses to the IPv4 data, as MaxMind's files do and the tools that read them expect,
// where the API places only 6to4 addresses so (README says so too).
package mmdbexport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"strings"
	"time"

	"github.com/maxmind/mmdbwriter"
	"github.com/maxmind/mmdbwriter/inserter"
	"github.com/maxmind/mmdbwriter/mmdbtype"

	"github.com/ipatlas/ipatlas/internal/ipgeo"
	"github.com/ipatlas/ipatlas/internal/netinfo"
)

// checkEvery is how many inserts pass between two looks at the context.
const checkEvery = 4096

// DatabaseType is the database_type in the file's metadata.
const DatabaseType = "ipatlas-City-ASN"

// Stats counts what Write inserted.
type Stats struct {
	Places, Announced int
}

// Options select what Write exports.
type Options struct {
	// Within, if set, limits the export to networks that overlap one of these prefixes
	// (parts of them outside are exported too: networks are never split).
	Within []netip.Prefix
	// Built becomes the file's build_epoch, so the same snapshot gives the same file.
	Built time.Time
}

func (o Options) wanted(p netip.Prefix) bool {
	if len(o.Within) == 0 {
		return true
	}
	for _, w := range o.Within {
		if w.Overlaps(p) {
			return true
		}
	}
	return false
}

// Write builds the tree from geo and nets (either may be nil, not both) and writes it to w.
// It stops with ctx's error when ctx ends before the writing begins: the whole export takes
// minutes, and an operator's Ctrl-C should not have to wait for it.
func Write(ctx context.Context, w io.Writer, geo *ipgeo.DB, nets *netinfo.DB, opt Options) (Stats, error) {
	var st Stats
	if geo == nil && nets == nil {
		return st, errors.New("mmdbexport: the snapshot has neither geolocation nor network data")
	}
	langs := make([]string, ipgeo.NumLanguages)
	for i := range langs {
		langs[i] = ipgeo.Language(i)
	}
	tree, err := mmdbwriter.New(mmdbwriter.Options{
		DatabaseType: DatabaseType,
		Description:  map[string]string{"en": "ipatlas IP geolocation and origin AS, exported from a snapshot"},
		Languages:    langs,
		BuildEpoch:   opt.Built.Unix(),
		// Whatever the snapshot holds is exported; it holds no private-use data of its
		// own, but announced bogons are part of what the API answers.
		IncludeReservedNetworks: true,
		RecordSize:              32,
	})
	if err != nil {
		return st, fmt.Errorf("mmdbexport: %w", err)
	}
	if geo != nil {
		for pfx, p := range geo.All() {
			if !opt.wanted(pfx) {
				continue
			}
			if st.Places%checkEvery == 0 && ctx.Err() != nil {
				return st, fmt.Errorf("mmdbexport: %w", context.Cause(ctx))
			}
			if err := tree.Insert(ipNet(pfx), placeRecord(p)); err != nil {
				return st, fmt.Errorf("mmdbexport: insert %v: %w", pfx, err)
			}
			st.Places++
		}
	}
	if nets != nil {
		for n := range nets.Announced() {
			if !opt.wanted(n.BGPPrefix) {
				continue
			}
			if st.Announced%checkEvery == 0 && ctx.Err() != nil {
				return st, fmt.Errorf("mmdbexport: %w", context.Cause(ctx))
			}
			rec := mmdbtype.Map{}
			if len(n.Carriers) > 0 {
				rec["autonomous_system_number"] = mmdbtype.Uint32(n.Carriers[0])
			}
			if n.Organisation != "" {
				rec["autonomous_system_organization"] = mmdbtype.String(n.Organisation)
			}
			if len(rec) == 0 {
				continue
			}
			if err := tree.InsertFunc(ipNet(n.BGPPrefix), inserter.TopLevelMergeWith(rec)); err != nil {
				return st, fmt.Errorf("mmdbexport: insert %v: %w", n.BGPPrefix, err)
			}
			st.Announced++
		}
	}
	if err := ctx.Err(); err != nil {
		return st, fmt.Errorf("mmdbexport: %w", context.Cause(ctx))
	}
	if _, err := tree.WriteTo(w); err != nil {
		return st, fmt.Errorf("mmdbexport: write: %w", err)
	}
	return st, nil
}

func ipNet(p netip.Prefix) *net.IPNet {
	return &net.IPNet{IP: p.Addr().AsSlice(), Mask: net.CIDRMask(p.Bits(), p.Addr().BitLen())}
}

// placeRecord is p in the GeoIP2-City schema; absent facts are left out, as MaxMind does.
func placeRecord(p ipgeo.Place) mmdbtype.Map {
	rec := mmdbtype.Map{}
	if m := area(p.Continent, "code"); m != nil {
		rec["continent"] = m
	}
	if m := area(p.Country, "iso_code"); m != nil {
		rec["country"] = m
	}
	if m := area(p.RegisteredCountry, "iso_code"); m != nil {
		rec["registered_country"] = m
	}
	if len(p.Subdivisions) > 0 {
		subs := mmdbtype.Slice{}
		for _, s := range p.Subdivisions {
			// MaxMind's subdivision iso_code is the part after the country ("CA", not
			// "US-CA").
			_, s.Code, _ = strings.Cut(s.Code, "-")
			if m := area(s, "iso_code"); m != nil {
				subs = append(subs, m)
			}
		}
		rec["subdivisions"] = subs
	}
	if m := area(p.City, ""); m != nil {
		rec["city"] = m
	}
	if p.Postcode != "" {
		rec["postal"] = mmdbtype.Map{"code": mmdbtype.String(p.Postcode)}
	}
	if p.HasLocation || p.TimeZone != "" {
		loc := mmdbtype.Map{}
		if p.HasLocation {
			loc["latitude"] = mmdbtype.Float64(p.Latitude)
			loc["longitude"] = mmdbtype.Float64(p.Longitude)
			loc["accuracy_radius"] = mmdbtype.Uint16(p.AccuracyRadius)
		}
		if p.TimeZone != "" {
			loc["time_zone"] = mmdbtype.String(p.TimeZone)
		}
		rec["location"] = loc
	}
	return rec
}

// area is one named area (continent, country, subdivision, city); codeKey names its code
// field ("" for cities, which have none). It is nil when the area is absent.
func area(a ipgeo.Area, codeKey string) mmdbtype.Map {
	if a.IsZero() {
		return nil
	}
	m := mmdbtype.Map{}
	if codeKey != "" && a.Code != "" {
		m[mmdbtype.String(codeKey)] = mmdbtype.String(a.Code)
	}
	if a.GeonameID != 0 {
		m["geoname_id"] = mmdbtype.Uint32(a.GeonameID)
	}
	names := mmdbtype.Map{}
	for i := range ipgeo.NumLanguages {
		if n := a.Names.Get(i); n != "" {
			names[mmdbtype.String(ipgeo.Language(i))] = mmdbtype.String(n)
		}
	}
	if len(names) > 0 {
		m["names"] = names
	}
	return m
}
