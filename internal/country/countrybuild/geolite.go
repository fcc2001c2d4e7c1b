package countrybuild

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"time"

	"github.com/oschwald/maxminddb-golang/v2"

	"github.com/ipatlas/ipatlas/internal/mmdbwalk"
)

// geoliteIDs is what Build takes from a GeoLite2 City database.
type geoliteIDs struct {
	Built     time.Time      // the database's build_epoch
	GeonameID map[string]int // country alpha-2 → GeoNames id
	Records   int            // distinct data records decoded
}

// maxMMDB bounds the decompressed database (GeoLite2-City is about 60 MB), so a corrupt or
// hostile archive cannot exhaust memory.
const maxMMDB = 1 << 30

// parseGeoliteCountryIDs reads GeoLite2-City.mmdb.gz (or an uncompressed GeoLite2-City.mmdb),
// walks every network, and collects the geoname_id of each country and registered_country.
// Networks share data records, so each record is decoded once, and only the two country
// members of it.
func parseGeoliteCountryIDs(ctx context.Context, fsys fs.FS) (geoliteIDs, error) {
	b, err := readMaybeGzip(fsys, "GeoLite2-City.mmdb")
	if err != nil {
		return geoliteIDs{}, err
	}
	r, err := maxminddb.OpenBytes(b)
	if err != nil {
		return geoliteIDs{}, fmt.Errorf("GeoLite2-City.mmdb: %w", err)
	}
	// The reader only borrows b, which the garbage collector reclaims with it; Close is for
	// memory-mapped files.
	out := geoliteIDs{Built: r.Metadata.BuildTime().UTC(), GeonameID: map[string]int{}}

	type place struct {
		ISOCode   string `maxminddb:"iso_code"`
		GeonameID uint   `maxminddb:"geoname_id"`
	}
	var rec struct {
		Country           place `maxminddb:"country"`
		RegisteredCountry place `maxminddb:"registered_country"`
	}
	seen := map[uintptr]bool{}
	n := 0
	for res, err := range mmdbwalk.Networks(r) {
		if err != nil {
			return geoliteIDs{}, fmt.Errorf("GeoLite2-City.mmdb: %w", err)
		}
		if n++; n%(1<<16) == 0 {
			if err := ctx.Err(); err != nil {
				return geoliteIDs{}, err
			}
		}
		if seen[res.Offset()] {
			continue
		}
		seen[res.Offset()] = true
		rec.Country, rec.RegisteredCountry = place{}, place{}
		if err := res.Decode(&rec); err != nil {
			return geoliteIDs{}, fmt.Errorf("GeoLite2-City.mmdb: %s: %w", res.Prefix(), err)
		}
		for _, p := range [2]place{rec.Country, rec.RegisteredCountry} {
			if p.ISOCode == "" || p.GeonameID == 0 {
				continue
			}
			if prev, ok := out.GeonameID[p.ISOCode]; ok && prev != int(p.GeonameID) {
				return geoliteIDs{}, fmt.Errorf("GeoLite2-City.mmdb: %s has geoname ids %d and %d", p.ISOCode, prev, p.GeonameID)
			}
			out.GeonameID[p.ISOCode] = int(p.GeonameID)
		}
	}
	out.Records = len(seen)
	if len(out.GeonameID) == 0 {
		return geoliteIDs{}, errors.New("GeoLite2-City.mmdb: no countries")
	}
	return out, nil
}

// readMaybeGzip returns the contents of name, or of name+".gz" decompressed.
func readMaybeGzip(fsys fs.FS, name string) ([]byte, error) {
	f, err := fsys.Open(name + ".gz")
	if errors.Is(err, fs.ErrNotExist) {
		return fs.ReadFile(fsys, name)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s.gz: %w", name, err)
	}
	var buf bytes.Buffer
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 {
		buf.Grow(int(min(2*fi.Size(), maxMMDB))) // compresses about 2:1
	}
	n, err := io.Copy(&buf, io.LimitReader(zr, maxMMDB+1))
	if err != nil {
		return nil, fmt.Errorf("%s.gz: %w", name, err)
	}
	if n > maxMMDB {
		return nil, fmt.Errorf("%s.gz: larger than %d bytes", name, maxMMDB)
	}
	return buf.Bytes(), nil
}
