package ipgeobuild

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net/netip"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/oschwald/maxminddb-golang/v2"

	"github.com/ipatlas/ipatlas/internal/build"
	"github.com/ipatlas/ipatlas/internal/build/buildtest"
	"github.com/ipatlas/ipatlas/internal/ipgeo"
)

// Tests on the real upstream sources. They skip when the sources cannot be had, except under
// CI, where they fail (see buildtest.Sources). The section is built once per test binary.

type realData struct {
	section   []byte
	db        *ipgeo.DB
	mmdb      *maxminddb.Reader
	buildTime time.Duration
	loadTime  time.Duration
	heapDelta uint64
	err       error
}

// loadReal builds and decodes the real section.
func loadReal(tb testing.TB, src build.Sources) *realData {
	tb.Helper()
	rd := &realData{}
	rep := &testReport{}
	t0 := time.Now()
	rd.section, rd.err = BuildWith(context.Background(), src, rep)
	rd.buildTime = time.Since(t0)
	if rd.err != nil {
		return rd
	}
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	t0 = time.Now()
	rd.db, rd.err = ipgeo.Decode(rd.section)
	rd.loadTime = time.Since(t0)
	runtime.GC()
	runtime.ReadMemStats(&m1)
	rd.heapDelta = m1.HeapAlloc - m0.HeapAlloc
	if rd.err != nil {
		return rd
	}
	city, _ := src.Source(srcCity)
	rd.mmdb, rd.err = OpenMMDB(city)
	return rd
}

// shared is the real data, built once for every test and benchmark that needs it.
var shared fixture

// fixture holds the real data for every test of this package that needs it.
type fixture struct {
	once sync.Once
	rd   *realData
}

func (f *fixture) get(tb testing.TB) *realData {
	tb.Helper()
	src := buildtest.Sources(tb, Needs()...)
	f.once.Do(func() {
		f.rd = loadReal(tb, src)
		runtime.GC() // the build's garbage, so that benchmarks do not pay for it
	})
	if f.rd.err != nil {
		tb.Fatal(f.rd.err)
	}
	return f.rd
}

func TestRealLookups(t *testing.T) {
	rd := shared.get(t)
	db := rd.db
	v4, v6, recs := db.Counts()
	t.Logf("build %v, section %d bytes, decode %v, heap %d MiB; %d IPv4 + %d IPv6 networks, %d records, %d zones",
		rd.buildTime, len(rd.section), rd.loadTime, rd.heapDelta>>20, v4, v6, recs, db.Zones())

	type want struct {
		network, country, registered, continent, subdiv, city, postcode, tz string
		radius                                                              int
	}
	tests := []struct {
		ip   string
		want want
	}{
		{"8.8.8.8", want{network: "8.8.8.0/24", country: "US", registered: "US", continent: "NA"}},
		{"203.2.218.214", want{"203.2.218.0/24", "AU", "AU", "OC", "AU-NSW", "Sydney", "2204", "Australia/Sydney", 500}},
		{"::ffff:203.2.218.214", want{"203.2.218.0/24", "AU", "AU", "OC", "AU-NSW", "Sydney", "2204", "Australia/Sydney", 500}},
	}
	for _, tc := range tests {
		t.Run(tc.ip, func(t *testing.T) {
			p, ok := db.Lookup(netip.MustParseAddr(tc.ip))
			if !ok {
				t.Fatal("not found")
			}
			got := want{
				network: p.Network.String(), country: p.Country.Code, registered: p.RegisteredCountry.Code,
				continent: p.Continent.Code, subdiv: p.Subdivision(0).Code, postcode: p.Postcode, tz: p.TimeZone,
				radius: p.AccuracyRadius,
			}
			got.city, _ = p.City.Names.Name("en")
			w := tc.want
			if w.subdiv == "" { // only the stable facts
				got.subdiv, got.city, got.postcode, got.tz, got.radius = "", "", "", "", 0
			}
			if diff := cmp.Diff(w, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}

	if p, ok := db.Lookup(netip.MustParseAddr("203.2.218.214")); ok {
		if n, _ := p.Subdivision(0).Names.Name("en"); n != "New South Wales" {
			t.Errorf("subdivision name %q", n)
		}
		if p.PlusCode == "" || p.Latitude > -33 || p.Longitude < 151 {
			t.Errorf("location %v %v %q", p.Latitude, p.Longitude, p.PlusCode)
		}
	}
	if _, ok := db.Lookup(netip.MustParseAddr("10.1.2.3")); ok {
		t.Error("10.1.2.3 found")
	}
	if p, ok := db.Lookup(netip.MustParseAddr("2001:4860:4860::8888")); !ok || p.Country.Code == "" || !p.Network.Addr().Is6() {
		t.Errorf("2001:4860:4860::8888 = %+v, %v", p, ok)
	}
	// A German and a Japanese address with names in their languages.
	for _, tc := range []struct{ ip, country, lang, name string }{
		{"217.0.0.1", "DE", "de", "Deutschland"},
		{"133.1.1.1", "JP", "ja", "日本"},
	} {
		p, ok := db.Lookup(netip.MustParseAddr(tc.ip))
		if !ok || p.Country.Code != tc.country {
			t.Errorf("%s: country %q, %v", tc.ip, p.Country.Code, ok)
			continue
		}
		if n, _ := p.Country.Names.Name(tc.lang); n != tc.name {
			t.Errorf("%s: name in %s = %q, want %q", tc.ip, tc.lang, n, tc.name)
		}
		if n, _ := p.Continent.Names.Name(tc.lang); n == "" {
			t.Errorf("%s: no continent name in %s", tc.ip, tc.lang)
		}
	}
}

// TestRealDifferential compares Lookup with maxminddb-golang's own Lookup and Decode of the
// source database for 100,000 seeded random addresses: half uniform over the whole space,
// half inside randomly chosen networks of the database.
func TestRealDifferential(t *testing.T) {
	rd := shared.get(t)
	rng := rand.New(rand.NewPCG(1, 2))
	var nets []netip.Prefix
	for res := range rd.mmdb.Networks() {
		if rng.IntN(64) == 0 {
			nets = append(nets, res.Prefix())
		}
	}
	n := 100_000
	if testing.Short() || raceEnabled {
		n = 10_000
	}
	found := 0
	for i := range n {
		a := randomAddr(rng, i, nets)
		res := rd.mmdb.Lookup(a)
		if err := res.Err(); err != nil {
			t.Fatalf("%s: reference: %v", a, err)
		}
		p, ok := rd.db.Lookup(a)
		if want := res.Found() && !notFollowed(a); ok != want {
			t.Fatalf("%s: found %v, reference %v", a, ok, want)
		}
		if !ok {
			continue
		}
		found++
		if p.Network != res.Prefix() {
			t.Fatalf("%s: network %s, reference %s", a, p.Network, res.Prefix())
		}
		var m MMDBRecord
		if err := res.Decode(&m); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(fromMMDB(&m), fromPlace(p)); diff != "" {
			t.Fatalf("%s: (-reference +ipgeo):\n%s", a, diff)
		}
	}
	t.Logf("%d of %d addresses found", found, n)
	if found < n/3 {
		t.Errorf("only %d of %d found: the sample is not testing much", found, n)
	}
}

func randomAddr(rng *rand.Rand, i int, nets []netip.Prefix) netip.Addr {
	var b [16]byte
	for j := range b {
		b[j] = byte(rng.Uint32())
	}
	switch i % 4 {
	case 0: // uniform IPv4
		return netip.AddrFrom4([4]byte(b[:4]))
	case 1: // uniform IPv6 in 2000::/3, where the data is
		b[0] = 0x20 | b[0]&0x1f
		return netip.AddrFrom16(b)
	default: // inside a network of the data
		p := nets[rng.IntN(len(nets))]
		a := p.Addr().AsSlice()
		for j := p.Bits(); j < len(a)*8; j++ {
			if rng.IntN(2) == 1 {
				a[j/8] |= 1 << (7 - j%8)
			}
		}
		addr, _ := netip.AddrFromSlice(a)
		return addr
	}
}

// flat is a record in a form both sides can be compared in.
type flat struct {
	City, Continent, Country, Registered flatPlace
	Subdivisions                         []flatPlace
	HasLocation                          bool
	Lat, Lon                             float64
	Radius                               int
	TimeZone, Postcode                   string
}

type flatPlace struct {
	Code  string
	ID    uint32
	Names map[string]string
}

func flatMM(code string, p MMDBPlace) flatPlace {
	names := map[string]string{}
	for i := range ipgeo.NumLanguages {
		if n := p.Names[ipgeo.Language(i)]; n != "" {
			names[ipgeo.Language(i)] = n
		}
	}
	return flatPlace{code, p.GeonameID, names}
}

func fromMMDB(m *MMDBRecord) flat {
	f := flat{
		City: flatMM("", m.City), Continent: flatMM(m.Continent.Code, m.Continent), Country: flatMM(m.Country.ISOCode, m.Country),
		Registered: flatMM(m.RegisteredCountry.ISOCode, m.RegisteredCountry),
		TimeZone:   m.Location.TimeZone, Postcode: m.Postal.Code,
	}
	for _, s := range m.Subdivisions {
		code := s.ISOCode
		if code != "" && m.Country.ISOCode != "" {
			code = m.Country.ISOCode + "-" + code
		}
		f.Subdivisions = append(f.Subdivisions, flatMM(code, s))
	}
	if m.Location.Latitude != nil && m.Location.Longitude != nil {
		f.HasLocation, f.Lat, f.Lon, f.Radius = true, *m.Location.Latitude, *m.Location.Longitude, int(m.Location.AccuracyRadius)
	}
	return f
}

func flatArea(a ipgeo.Area) flatPlace {
	names := map[string]string{}
	for i := range ipgeo.NumLanguages {
		if n := a.Names.Get(i); n != "" {
			names[ipgeo.Language(i)] = n
		}
	}
	return flatPlace{a.Code, a.GeonameID, names}
}

func fromPlace(p ipgeo.Place) flat {
	f := flat{
		City: flatArea(p.City), Continent: flatArea(p.Continent), Country: flatArea(p.Country),
		Registered: flatArea(p.RegisteredCountry), TimeZone: p.TimeZone, Postcode: p.Postcode,
		HasLocation: p.HasLocation, Lat: p.Latitude, Lon: p.Longitude, Radius: p.AccuracyRadius,
	}
	for _, s := range p.Subdivisions {
		f.Subdivisions = append(f.Subdivisions, flatArea(s))
	}
	return f
}

func TestRealDeterministic(t *testing.T) {
	if raceEnabled {
		t.Skip("a second full build takes minutes under the race detector")
	}
	rd := shared.get(t)
	src := buildtest.Sources(t, Needs()...)
	again, err := BuildWith(context.Background(), src, &testReport{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, rd.section) {
		t.Error("two builds of the same sources differ")
	}
}

// testReport is a Reporter that keeps what it is told.
type testReport struct {
	mu       sync.Mutex
	counts   map[string]int
	dates    map[string]time.Time
	warnings []string
}

func (r *testReport) Count(source, what string, n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.counts == nil {
		r.counts = map[string]int{}
	}
	r.counts[source+": "+what] = n
}

func (r *testReport) DataDate(source string, t time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.dates == nil {
		r.dates = map[string]time.Time{}
	}
	r.dates[source] = t
}

func (r *testReport) Warnf(source, format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.warnings = append(r.warnings, source+": "+fmt.Sprintf(format, args...))
}

// TestRealAliases checks the database's IPv4 aliases as sixToFour follows them: 6to4 and
// IPv4-mapped addresses are placed as the source places them, Teredo and IPv4-compatible
// ones, which the source places at an address that is not the client's, are not.
func TestRealAliases(t *testing.T) {
	rd := shared.get(t)
	for _, s := range []string{"2002:808:808::1", "2002:5102:458e::1", "::ffff:8.8.8.8", "8.8.8.8"} {
		a := netip.MustParseAddr(s)
		p, ok := rd.db.Lookup(a)
		ref := rd.mmdb.Lookup(a.Unmap())
		if !ok || !ref.Found() || p.Network != ref.Prefix() || p.Country.Code == "" {
			t.Errorf("%s: %v %v %s; reference %s", s, ok, p.Network, p.Country.Code, ref.Prefix())
		}
	}
	for _, s := range []string{"2001:0:808:808::1", "2001:0:5102:458e::1", "::8.8.8.8", "::1.2.3.4"} {
		a := netip.MustParseAddr(s)
		if !rd.mmdb.Lookup(a).Found() {
			t.Errorf("%s: the source no longer places it: the test checks nothing", s)
		}
		if p, ok := rd.db.Lookup(a); ok {
			t.Errorf("%s: placed in %s (%v), want no place", s, p.Country.Code, p.Network)
		}
	}
	// Random addresses of the three aliased ranges against the source.
	rng := rand.New(rand.NewPCG(3, 4))
	placed := 0
	for i := range 3000 {
		var b [16]byte
		for j := range b {
			b[j] = byte(rng.Uint32())
		}
		switch i % 3 {
		case 0: // 6to4
			b[0], b[1] = 0x20, 0x02
		case 1: // Teredo
			b[0], b[1], b[2], b[3] = 0x20, 0x01, 0, 0
		default: // IPv4-compatible
			clear(b[:12])
		}
		a := netip.AddrFrom16(b)
		res := rd.mmdb.Lookup(a)
		p, ok := rd.db.Lookup(a)
		if want := res.Found() && !notFollowed(a); ok != want || ok && p.Network != res.Prefix() {
			t.Fatalf("%s: found %v %v, reference %v %v", a, ok, p.Network, want, res.Prefix())
		}
		if ok {
			placed++
		}
	}
	if placed < 500 {
		t.Errorf("only %d of 1000 6to4 addresses placed: the sample tests little", placed)
	}
}

// notFollowed reports whether a lies in a range the database aliases to its IPv4 tree but
// the build does not follow (sixToFour): Teredo and IPv4-compatible addresses.
func notFollowed(a netip.Addr) bool {
	return a.Is6() && !a.Is4In6() &&
		(netip.MustParsePrefix("2001::/32").Contains(a) || netip.MustParsePrefix("::/96").Contains(a))
}

func TestRealTimeZone(t *testing.T) {
	db := shared.get(t).db
	july := time.Date(2019, 7, 6, 11, 6, 39, 169174400, time.UTC)
	jan := time.Date(2019, 1, 6, 11, 6, 39, 0, time.UTC)
	tests := []struct {
		zone string
		at   time.Time
		lang string
		want ipgeo.TZ
	}{
		{"America/Los_Angeles", july, "en", ipgeo.TZ{IANA: "America/Los_Angeles", DisplayName: "(UTC-08:00) Pacific Time",
			EffectiveFull: "Pacific Daylight Time", EffectiveShort: "PDT", UTCOffsetSeconds: -25200, UTCOffset: "-07", IsDST: true}},
		{"America/Los_Angeles", jan, "en", ipgeo.TZ{IANA: "America/Los_Angeles", DisplayName: "(UTC-08:00) Pacific Time",
			EffectiveFull: "Pacific Standard Time", EffectiveShort: "PST", UTCOffsetSeconds: -28800, UTCOffset: "-08"}},
		{"Asia/Kolkata", july, "en", ipgeo.TZ{IANA: "Asia/Kolkata", DisplayName: "(UTC+05:30) India Standard Time",
			EffectiveFull: "India Standard Time", EffectiveShort: "IST", UTCOffsetSeconds: 19800, UTCOffset: "+05:30"}},
		{"Europe/Berlin", july, "de", ipgeo.TZ{IANA: "Europe/Berlin", DisplayName: "(UTC+01:00) Central European Time",
			EffectiveFull: "Mitteleuropäische Sommerzeit", EffectiveShort: "MESZ", UTCOffsetSeconds: 7200, UTCOffset: "+02", IsDST: true}},
		{"Europe/London", july, "en", ipgeo.TZ{IANA: "Europe/London", DisplayName: "(UTC+00:00) Greenwich Mean Time",
			EffectiveFull: "British Summer Time", EffectiveShort: "BST", UTCOffsetSeconds: 3600, UTCOffset: "+01", IsDST: true}},
		// Ids that CLDR lists as aliases of its zones (cldr-bcp47): named as the zone, not by
		// their offset ("GMT-04:00"), and under their own id.
		{"US/Eastern", july, "en", ipgeo.TZ{IANA: "US/Eastern", DisplayName: "(UTC-05:00) Eastern Time",
			EffectiveFull: "Eastern Daylight Time", EffectiveShort: "EDT", UTCOffsetSeconds: -14400, UTCOffset: "-04", IsDST: true}},
		{"Europe/Zaporozhye", jan, "de", ipgeo.TZ{IANA: "Europe/Zaporozhye", DisplayName: "(UTC+02:00) Eastern European Time",
			EffectiveFull: "Osteuropäische Normalzeit", EffectiveShort: "OEZ", UTCOffsetSeconds: 7200, UTCOffset: "+02"}},
		{"GB", july, "en", ipgeo.TZ{IANA: "GB", DisplayName: "(UTC+00:00) Greenwich Mean Time",
			EffectiveFull: "British Summer Time", EffectiveShort: "BST", UTCOffsetSeconds: 3600, UTCOffset: "+01", IsDST: true}},
		// Etc/UTC, which CLDR names as a zone, without a metazone, and its aliases.
		{"Etc/UTC", july, "en", ipgeo.TZ{IANA: "Etc/UTC", DisplayName: "(UTC+00:00) Coordinated Universal Time",
			EffectiveFull: "Coordinated Universal Time", EffectiveShort: "UTC", UTCOffset: "+00"}},
		{"UTC", jan, "de", ipgeo.TZ{IANA: "UTC", DisplayName: "(UTC+00:00) Coordinated Universal Time",
			EffectiveFull: "Koordinierte Weltzeit", EffectiveShort: "UTC", UTCOffset: "+00"}},
	}
	for _, tc := range tests {
		t.Run(tc.zone+"/"+tc.lang+"/"+tc.at.Month().String(), func(t *testing.T) {
			got, ok := db.TimeZone(tc.zone, tc.at, tc.lang)
			if !ok {
				t.Fatal("unknown zone")
			}
			if tc.zone == "America/Los_Angeles" && tc.at == july {
				if lt := string(got.AppendLocalTime(nil)); lt != "2019-07-06T04:06:39.1691744" {
					t.Errorf("localTime %q", lt)
				}
			}
			got.Local = time.Time{}
			if got.DisplayName != tc.want.DisplayName && hasWindowsTexts() {
				tc.want.DisplayName = got.DisplayName // the Windows text source refines it
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	// Chinese by script: a region whose likely script is Traditional (TW, MO, and HK, a CLDR
	// locale of its own) gets Traditional names, where truncating "zh-TW" to "zh" gave
	// Simplified ones.
	for _, tc := range []struct{ zone, lang, want string }{
		{"Asia/Taipei", "zh", "台北标准时间"},
		{"Asia/Taipei", "zh-Hant", "台北標準時間"},
		{"Asia/Taipei", "zh-TW", "台北標準時間"},
		{"Asia/Taipei", "zh_tw", "台北標準時間"},
		{"Asia/Taipei", "zh-MO", "台北標準時間"},
		{"Europe/London", "zh", "英国夏令时间"},
		{"Europe/London", "zh-TW", "英國夏令時間"},
		{"Europe/London", "zh-HK", "英國夏令時間"},
		{"Europe/London", "zh-SG", "英国夏令时间"},
		{"Etc/UTC", "fr", "temps universel coordonné"},
		{"Etc/Zulu", "ja", "協定世界時"},
		{"UTC", "zh-TW", "世界標準時間"},
	} {
		if got, _ := db.TimeZone(tc.zone, july, tc.lang); got.EffectiveFull != tc.want {
			t.Errorf("%s in %s: %q, want %q", tc.zone, tc.lang, got.EffectiveFull, tc.want)
		}
	}
	if _, ok := db.TimeZone("Mars/Olympus_Mons", july, "en"); ok {
		t.Error("unknown zone found")
	}
}

// hasWindowsTexts reports whether the optional Windows display texts are built in.
func hasWindowsTexts() bool {
	for _, n := range Needs() {
		if n == srcWinText {
			return true
		}
	}
	return false
}
