package netinfobuild

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/netip"
	"time"

	"github.com/oschwald/maxminddb-golang/v2"

	"github.com/ipatlas/ipatlas/internal/mmdbwalk"
)

// Paths of the GeoLite2 databases in the geolite2 npm package; a mirror may also hold
// them at its root.
const (
	asnMMDB     = "dbs/GeoLite2-ASN.mmdb"
	countryMMDB = "dbs/GeoLite2-Country.mmdb"
)

// asnNetwork is one network of the GeoLite2 ASN database.
type asnNetwork struct {
	Prefix netip.Prefix
	ASN    uint32
	Org    string
}

// asnDB is what the build takes from GeoLite2-ASN.
type asnDB struct {
	Networks []asnNetwork // in the database's order
	Built    time.Time
	Skipped  int // networks without an AS number
}

// readMMDB reads name from fsys, or its base name at the root.
func readMMDB(fsys fs.FS, name string) ([]byte, error) {
	b, err := fs.ReadFile(fsys, name)
	if errors.Is(err, fs.ErrNotExist) {
		if alt, err2 := fs.ReadFile(fsys, name[len("dbs/"):]); err2 == nil {
			return alt, nil
		}
	}
	return b, err
}

// parseGeoLiteASN reads every network of the GeoLite2 ASN database. Its networks are the
// leaves of the database's search tree: disjoint prefixes, each with one AS, approximating
// the announced BGP prefixes (a leaf may merge or split announcements). Aliases of the IPv4
// space inside IPv6 (::ffff:0:0/96, 2002::/16) are not listed again.
func parseGeoLiteASN(ctx context.Context, fsys fs.FS) (asnDB, error) {
	b, err := readMMDB(fsys, asnMMDB)
	if err != nil {
		return asnDB{}, err
	}
	r, err := maxminddb.OpenBytes(b)
	if err != nil {
		return asnDB{}, fmt.Errorf("%s: %w", asnMMDB, err)
	}
	out := asnDB{Built: r.Metadata.BuildTime().UTC()}
	type record struct {
		ASN uint32 `maxminddb:"autonomous_system_number"`
		Org string `maxminddb:"autonomous_system_organization"`
	}
	cache := map[uintptr]record{} // networks share records; decode each once
	n := 0
	for res, err := range mmdbwalk.Networks(r) {
		if err != nil {
			return asnDB{}, fmt.Errorf("%s: %w", asnMMDB, err)
		}
		if n++; n%(1<<16) == 0 {
			if err := ctx.Err(); err != nil {
				return asnDB{}, err
			}
		}
		rec, ok := cache[res.Offset()]
		if !ok {
			if err := res.Decode(&rec); err != nil {
				return asnDB{}, fmt.Errorf("%s: %s: %w", asnMMDB, res.Prefix(), err)
			}
			cache[res.Offset()] = rec
		}
		p := res.Prefix()
		if p.Addr().Is4In6() && p.Bits() >= 96 {
			p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
		}
		if rec.ASN == 0 || !p.IsValid() || p.Addr().Is4In6() {
			out.Skipped++
			continue
		}
		out.Networks = append(out.Networks, asnNetwork{Prefix: p.Masked(), ASN: rec.ASN, Org: rec.Org})
	}
	if len(out.Networks) == 0 {
		return asnDB{}, fmt.Errorf("%s: no networks", asnMMDB)
	}
	return out, nil
}

// countryDB answers registered-country lookups from GeoLite2-Country.
type countryDB struct {
	r     *maxminddb.Reader
	cache map[uintptr]string
	Built time.Time
}

func openGeoLiteCountry(fsys fs.FS) (*countryDB, error) {
	b, err := readMMDB(fsys, countryMMDB)
	if err != nil {
		return nil, err
	}
	r, err := maxminddb.OpenBytes(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", countryMMDB, err)
	}
	return &countryDB{r: r, cache: map[uintptr]string{}, Built: r.Metadata.BuildTime().UTC()}, nil
}

// registered returns the registered country (ISO alpha-2) of address a, or "".
func (c *countryDB) registered(a netip.Addr) (string, error) {
	res := c.r.Lookup(a)
	if err := res.Err(); err != nil {
		return "", err
	}
	if !res.Found() {
		return "", nil
	}
	if cc, ok := c.cache[res.Offset()]; ok {
		return cc, nil
	}
	var rec struct {
		Registered struct {
			ISOCode string `maxminddb:"iso_code"`
		} `maxminddb:"registered_country"`
	}
	if err := res.Decode(&rec); err != nil {
		return "", err
	}
	cc := rec.Registered.ISOCode
	if len(cc) != 2 || cc[0] < 'A' || cc[0] > 'Z' || cc[1] < 'A' || cc[1] > 'Z' {
		cc = ""
	}
	c.cache[res.Offset()] = cc
	return cc, nil
}
