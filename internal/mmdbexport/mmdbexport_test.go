package mmdbexport_test

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"net/netip"
	"testing"
	"time"

	"github.com/oschwald/maxminddb-golang/v2"

	"github.com/ipatlas/ipatlas/internal/dataset/datasettest"
	"github.com/ipatlas/ipatlas/internal/mmdbexport"
)

// record is what the test reads back: the GeoIP2-City fields a client uses most, and the
// ASN fields.
type record struct {
	Country struct {
		ISOCode   string            `maxminddb:"iso_code"`
		GeonameID uint32            `maxminddb:"geoname_id"`
		Names     map[string]string `maxminddb:"names"`
	} `maxminddb:"country"`
	City struct {
		GeonameID uint32            `maxminddb:"geoname_id"`
		Names     map[string]string `maxminddb:"names"`
	} `maxminddb:"city"`
	Subdivisions []struct {
		ISOCode string `maxminddb:"iso_code"`
	} `maxminddb:"subdivisions"`
	Location struct {
		Latitude       float64 `maxminddb:"latitude"`
		Longitude      float64 `maxminddb:"longitude"`
		AccuracyRadius uint16  `maxminddb:"accuracy_radius"`
		TimeZone       string  `maxminddb:"time_zone"`
	} `maxminddb:"location"`
	Postal struct {
		Code string `maxminddb:"code"`
	} `maxminddb:"postal"`
	ASN    uint32 `maxminddb:"autonomous_system_number"`
	ASNOrg string `maxminddb:"autonomous_system_organization"`
}

// TestExportStopsWhenCancelled: an export whose context ends midway stops there, with the
// context's error, having written nothing.
func TestExportStopsWhenCancelled(t *testing.T) {
	snap := datasettest.Real(t)
	opt := mmdbexport.Options{Within: []netip.Prefix{netip.MustParsePrefix("0.0.0.0/2")}}
	var buf bytes.Buffer
	st, err := mmdbexport.Write(&endsAfter{Context: context.Background(), checks: 1}, &buf, snap.IPGeo, snap.Net, opt)
	if !errors.Is(err, context.Canceled) || buf.Len() != 0 {
		t.Fatalf("cancelled export: %v, %d bytes written", err, buf.Len())
	}
	if st.Places == 0 || st.Places > 10_000 || st.Announced != 0 {
		t.Errorf("the export went on to %+v after its context ended", st)
	}
}

// endsAfter is a context that ends (as cancelled) after its Err has been asked checks times.
type endsAfter struct {
	context.Context
	checks int
}

func (c *endsAfter) Err() error {
	if c.checks > 0 {
		c.checks--
		return nil
	}
	return context.Canceled
}

// TestExportReadsBack exports part of the real snapshot, opens the file with MaxMind's
// reader and checks, for random addresses in that part, that it answers what the engines
// behind the API answer: country, city, subdivisions, coordinates, time zone, postcode, and
// the origin AS of the most specific announced prefix.
func TestExportReadsBack(t *testing.T) {
	snap := datasettest.Real(t)
	within := []netip.Prefix{
		netip.MustParsePrefix("8.0.0.0/8"), netip.MustParsePrefix("1.0.0.0/8"),
		netip.MustParsePrefix("81.0.0.0/10"), netip.MustParsePrefix("2001:4860::/32"),
		netip.MustParsePrefix("2a00:1450::/32"),
	}
	var buf bytes.Buffer
	built := time.Date(2026, 9, 18, 0, 0, 0, 0, time.UTC)
	st, err := mmdbexport.Write(context.Background(), &buf, snap.IPGeo, snap.Net, mmdbexport.Options{Within: within, Built: built})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d geolocation networks, %d announced prefixes, %d bytes", st.Places, st.Announced, buf.Len())
	db, err := maxminddb.OpenBytes(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if db.Metadata.DatabaseType != mmdbexport.DatabaseType || db.Metadata.BuildEpoch != uint(built.Unix()) {
		t.Errorf("metadata %+v", db.Metadata)
	}

	rng := rand.New(rand.NewPCG(3, 4))
	checked, withPlace, withAS := 0, 0, 0
	for range 5000 {
		w := within[rng.IntN(len(within))]
		a := randomIn(rng, w)
		var got record
		res := db.Lookup(a)
		if err := res.Decode(&got); err != nil {
			t.Fatalf("%v: %v", a, err)
		}
		checked++
		p, placed := snap.IPGeo.Lookup(a)
		n, _ := snap.Net.Lookup(a)
		if (placed || n.BGPPrefix.IsValid()) != res.Found() {
			t.Errorf("%v: placed %v, announced %v, found in export %v", a, placed, n.BGPPrefix.IsValid(), res.Found())
		}
		if placed {
			withPlace++
			if got.Country.ISOCode != p.Country.Code || got.City.GeonameID != p.City.GeonameID || got.Postal.Code != p.Postcode ||
				got.Location.TimeZone != p.TimeZone || len(got.Subdivisions) != len(p.Subdivisions) {
				t.Errorf("%v: export %+v, engine country %s city %d postcode %q tz %s", a, got, p.Country.Code, p.City.GeonameID, p.Postcode, p.TimeZone)
			}
			if p.HasLocation && (got.Location.Latitude != p.Latitude || got.Location.Longitude != p.Longitude || int(got.Location.AccuracyRadius) != p.AccuracyRadius) {
				t.Errorf("%v: location %+v, engine %v,%v ±%d", a, got.Location, p.Latitude, p.Longitude, p.AccuracyRadius)
			}
			if en, _ := p.City.Names.Name("en"); got.City.Names["en"] != en {
				t.Errorf("%v: city %q, engine %q", a, got.City.Names["en"], en)
			}
		}
		var wantASN uint32
		if len(n.Carriers) > 0 {
			wantASN = n.Carriers[0]
			withAS++
		}
		if got.ASN != wantASN || (n.BGPPrefix.IsValid() && got.ASNOrg != n.Organisation) {
			t.Errorf("%v: AS%d %q, engine AS%d %q (prefix %v)", a, got.ASN, got.ASNOrg, wantASN, n.Organisation, n.BGPPrefix)
		}
	}
	if withPlace < checked/2 || withAS < checked/2 {
		t.Errorf("of %d addresses only %d were placed and %d announced: the sample proves little", checked, withPlace, withAS)
	}
}

func randomIn(rng *rand.Rand, p netip.Prefix) netip.Addr {
	b := p.Addr().AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		if rng.IntN(2) == 1 {
			b[i/8] |= 0x80 >> (i % 8)
		}
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}
