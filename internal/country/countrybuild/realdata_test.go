package countrybuild

import (
	"context"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ipatlas/ipatlas/internal/country"
)

// Tests on the real upstream sources. They skip when the sources cannot be had, except under
// CI, where they fail; see realSources.

func TestRealBuild(t *testing.T) {
	rb := realDB(t)
	db := rb.db
	t.Logf("Build took %v; section %d bytes; %d locales", rb.elapsed, len(rb.section), len(db.Languages()))

	if got := db.Len(); got != 249 {
		t.Fatalf("Len = %d, want 249", got)
	}
	if _, ok := db.Lookup("XK"); ok {
		t.Error("XK (user-assigned Kosovo) is in the registry")
	}

	ie, ok := db.Lookup("IE")
	if !ok {
		t.Fatal("no IE")
	}
	want := country.Country{
		Alpha2: "IE", Alpha3: "IRL", Numeric: 372,
		ISOName: "Ireland", ISONameFull: "Ireland",
		AdminLanguages: []country.Language{
			{Alpha3: "eng", Alpha2: "en", ISOName: "English", NativeName: "English"},
			{Alpha3: "gle", Alpha2: "ga", ISOName: "Irish", NativeName: "Gaeilge"},
		},
		UNRegion:      "Europe/Northern Europe",
		Currency:      country.Currency{NumericCode: 978, Code: "EUR", Name: "Euro", MinorUnits: 2},
		WBRegion:      country.WBGroup{ID: "ECS", ISO2Code: "Z7", Value: "Europe & Central Asia"},
		WBIncomeLevel: country.WBGroup{ID: "HIC", ISO2Code: "XD", Value: "High income"},
		CallingCode:   "353", FlagEmoji: "🇮🇪", WikidataID: "Q27", GeonameID: 2963597,
		IsIndependent: true,
		Continents:    []country.Continent{{Name: "Europe", Code: "EU"}},
	}
	if diff := cmp.Diff(want, ie, ignoreNames()); diff != "" {
		t.Errorf("IE (-want +got):\n%s", diff)
	}

	names := []struct{ code, lang, want string }{
		{"IE", "en", "Ireland"},
		{"IE", "de", "Irland"},
		{"IE", "ga", "Éire"},
		{"DE", "fr", "Allemagne"},
		{"TW", "zh", "台湾"},
		{"TW", "zh-Hant", "台灣"},
		{"TW", "zh-TW", "台灣"},      // an alias locale: CLDR writes Chinese in Taiwan in Han Traditional
		{"TW", "zh_hant_tw", "台灣"}, // truncation from a locale CLDR does not have
		{"DE", "pt-PT", "Alemanha"},
		{"DE", "pt", "Alemanha"},
		{"US", "en-GB", "United States"},
		{"RS", "sr-Latn", "Srbija"},
		{"RS", "sr", "Србија"},
		{"FR", "xx", "France"}, // unknown language: English
	}
	for _, tc := range names {
		c, _ := db.Lookup(tc.code)
		if got := db.Name(c, tc.lang); got != tc.want {
			t.Errorf("Name(%s, %q) = %q, want %q", tc.code, tc.lang, got, tc.want)
		}
	}

	var langs, wiki, geo, cur, wb, unr, cont, calling, isoFull, independent int
	for _, c := range db.All() {
		if c.Alpha3 == "" || c.Numeric == 0 || c.Names["en"] == "" || c.ISOName == "" {
			t.Errorf("%s: alpha3 %q numeric %d en %q isoName %q", c.Alpha2, c.Alpha3, c.Numeric, c.Names["en"], c.ISOName)
		}
		count := func(n *int, ok bool) {
			if ok {
				*n++
			}
		}
		count(&langs, len(c.AdminLanguages) > 0)
		count(&wiki, c.WikidataID != "")
		count(&geo, c.GeonameID != 0)
		count(&cur, !c.Currency.IsZero())
		count(&wb, !c.WBRegion.IsZero())
		count(&unr, c.UNRegion != "")
		count(&cont, len(c.Continents) > 0)
		count(&calling, c.CallingCode != "")
		count(&isoFull, c.ISONameFull != "")
		count(&independent, c.IsIndependent)
	}
	t.Logf("of %d: adminLanguages %d, wikidata %d, geonameId %d, currency %d, wb %d, unRegion %d, continents %d, callingCode %d, isoNameFull %d, independent %d",
		db.Len(), langs, wiki, geo, cur, wb, unr, cont, calling, isoFull, independent)
	if geo != 249 || wiki != 249 || cont != 249 {
		t.Errorf("want geonameId, wikidata and continents for all 249")
	}
	for _, w := range rb.rep.warns {
		t.Log("warning:", w)
	}
	t.Log("counts:", rb.rep.counts)
	t.Log("data dates:", rb.rep.dates)
}

// ignoreNames leaves the Names map out of a comparison.
func ignoreNames() cmp.Option {
	return cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Names" }, cmp.Ignore())
}

// TestConsistencyWithDatahub compares every country's codes and currency with an independent
// source, datahub's country-codes.csv from shared/data, and with CLDR's codeMappings.
// Disagreements must be listed, with a reason, in datahubExceptions; an exception that no
// longer disagrees fails too, so the table cannot go stale.
func TestConsistencyWithDatahub(t *testing.T) {
	rb := realDB(t)
	data, ok := sharedData()
	if !ok {
		if os.Getenv("CI") != "" {
			t.Fatal("shared/data not found")
		}
		t.Skip("shared/data not found")
	}
	dh, err := parseDatahubCountryCodes(os.DirFS(data + "/" + srcDatahub))
	if err != nil {
		t.Fatal(err)
	}
	srcs := realSources(t)
	core, _ := srcs.Source(srcCLDRCore)
	cm, err := parseCodeMappings(core)
	if err != nil {
		t.Fatal(err)
	}

	got := map[string]string{} // alpha-2 → description of the disagreements
	for _, c := range rb.db.All() {
		var diffs []string
		d, ok := dh[c.Alpha2]
		if !ok {
			diffs = append(diffs, "not in datahub")
		} else {
			if d.Alpha3 != c.Alpha3 || d.Numeric != c.Numeric {
				diffs = append(diffs, "codes "+d.Alpha3)
			}
			if !slices.Equal(d.CurrencyCodes, nonEmpty(c.Currency.Code)) {
				diffs = append(diffs, "currency "+c.Currency.Code+" vs datahub "+strings.Join(d.CurrencyCodes, ","))
			}
		}
		if m := cm[c.Alpha2]; m.Alpha3 != c.Alpha3 || m.Numeric != c.Numeric {
			diffs = append(diffs, "CLDR codeMappings")
		}
		if len(diffs) > 0 {
			got[c.Alpha2] = strings.Join(diffs, "; ")
		}
	}
	if len(dh) != rb.db.Len() {
		t.Errorf("datahub has %d countries, build %d", len(dh), rb.db.Len())
	}
	exc := datahubExceptions()
	for _, code := range slices.Sorted(maps.Keys(got)) {
		if _, ok := exc[code]; !ok {
			t.Errorf("%s disagrees: %s", code, got[code])
		}
	}
	for _, code := range slices.Sorted(maps.Keys(exc)) {
		if _, ok := got[code]; !ok {
			t.Errorf("%s is listed as an exception but agrees now; remove it", code)
		} else {
			t.Logf("%s: %s (expected: %s)", code, got[code], exc[code])
		}
	}
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

// datahubExceptions lists the countries whose currency differs from datahub's, and why. The
// build keeps one currency per country, CLDR's default current tender.
func datahubExceptions() map[string]string {
	const several = "several legal tenders; datahub lists them all, the build CLDR's default"
	const noUniversal = "ISO 4217 says \"no universal currency\"; CLDR currencyData gives one"
	return map[string]string{
		"BT": several + " (BTN; INR circulates too)",
		"GS": noUniversal + " (GBP)",
		"HT": several + " (HTG; USD)",
		"LS": several + " (CLDR puts ZAR before LSL)",
		"NA": several + " (NAD; ZAR)",
		"PA": several + " (PAB; USD)",
		"PS": noUniversal + " (ILS, then JOD)",
		"SV": several + " (USD; SVC is still legal tender)",
		"TR": "datahub does not join ISO 4217's \"TÜRKİYE\" row and leaves TR without currency; TRY is right",
		"UY": several + " (UYU; UYW is a unit of account)",
		"VE": several + " (VES; VED is the digital bolívar)",
	}
}

func TestBuildMissingRequired(t *testing.T) {
	srcs := realSources(t)
	for _, name := range Required() {
		t.Run(name, func(t *testing.T) {
			_, err := Build(context.Background(), srcs.without(name), newRecorder())
			if err == nil || !strings.Contains(err.Error(), name) {
				t.Errorf("Build without %s: error %v, want one naming it", name, err)
			}
		})
	}
}

// TestBuildRequiredOnly builds from the required sources alone, which makes geoname ids come
// from the GeoLite2 City database (a walk of some seconds), and checks them against GeoNames'.
func TestBuildRequiredOnly(t *testing.T) {
	if testing.Short() {
		t.Skip("walks the whole GeoLite2 City database")
	}
	full := realDB(t)
	srcs := realSources(t)
	rep := newRecorder()
	b, err := Build(context.Background(), srcs.without(srcUNM49, srcCountriesList, srcCountryCoder, srcWorldBank, srcGeoNames, srcDatahub), rep)
	if err != nil {
		t.Fatal(err)
	}
	db, err := country.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if db.Len() != 249 {
		t.Fatalf("Len = %d", db.Len())
	}
	t.Log("counts:", rep.counts, "dates:", rep.dates)
	var geo int
	for _, c := range db.All() {
		f, _ := full.db.Lookup(c.Alpha2)
		if c.GeonameID != 0 {
			geo++
			if c.GeonameID != f.GeonameID {
				t.Errorf("%s: GeoLite2 geoname id %d, GeoNames %d", c.Alpha2, c.GeonameID, f.GeonameID)
			}
		}
		if !c.WBRegion.IsZero() || c.UNRegion != "" || c.ISONameFull != "" || len(c.Continents) > 0 {
			t.Errorf("%s: fields of missing optional sources are filled: %+v", c.Alpha2, c)
		}
		if c.Alpha2 == "IE" && c.GeonameID != 2963597 {
			t.Errorf("IE geoname id %d", c.GeonameID)
		}
	}
	t.Logf("GeoLite2 gives geoname ids for %d of 249", geo)
	if rep.dates[srcGeoLiteCity].IsZero() {
		t.Error("no GeoLite2 build date reported")
	}
}

func BenchmarkDecodeReal(b *testing.B) {
	rb := realDB(b)
	b.SetBytes(int64(len(rb.section)))
	for b.Loop() {
		if _, err := country.Decode(rb.section); err != nil {
			b.Fatal(err)
		}
	}
}
