// Package datasettest builds small snapshots from Go literals for tests in any package, so
// tests do not need the real sources. The countries are a handful of real ones with facts
// copied from the real build; a test keeps them equal to countrybuild's golden file.
package datasettest

import (
	"os"
	"sync"
	"testing"
	"time"

	"github.com/ipatlas/ipatlas/internal/country"
	"github.com/ipatlas/ipatlas/internal/dataset"
	"github.com/ipatlas/ipatlas/internal/dbfile"
)

// Countries returns the fixture countries: AU, BR, DE, IE, JP, US.
func Countries() []country.Country {
	eur := country.Currency{NumericCode: 978, Code: "EUR", Name: "Euro", MinorUnits: 2}
	eu := []country.Continent{{Name: "Europe", Code: "EU"}}
	hic := country.WBGroup{ID: "HIC", ISO2Code: "XD", Value: "High income"}
	return []country.Country{
		{Alpha2: "AU", Alpha3: "AUS", Numeric: 36, ISOName: "Australia", ISONameFull: "Australia",
			Names:          map[string]string{"en": "Australia", "de": "Australien", "ja": "オーストラリア"},
			AdminLanguages: []country.Language{{Alpha3: "eng", Alpha2: "en", ISOName: "English", NativeName: "English"}},
			UNRegion:       "Oceania/Australia and New Zealand",
			Currency:       country.Currency{NumericCode: 36, Code: "AUD", Name: "Australian Dollar", MinorUnits: 2},
			WBRegion:       country.WBGroup{ID: "EAS", ISO2Code: "Z4", Value: "East Asia & Pacific"}, WBIncomeLevel: hic,
			CallingCode: "61", FlagEmoji: country.FlagEmoji("AU"), WikidataID: "Q408", GeonameID: 2077456, IsIndependent: true,
			Continents: []country.Continent{{Name: "Oceania", Code: "OC"}}},
		{Alpha2: "BR", Alpha3: "BRA", Numeric: 76, ISOName: "Brazil", ISONameFull: "the Federative Republic of Brazil",
			Names:          map[string]string{"en": "Brazil", "de": "Brasilien", "pt": "Brasil"},
			AdminLanguages: []country.Language{{Alpha3: "por", Alpha2: "pt", ISOName: "Portuguese", NativeName: "português"}},
			UNRegion:       "Americas/Latin America and the Caribbean",
			Currency:       country.Currency{NumericCode: 986, Code: "BRL", Name: "Brazilian Real", MinorUnits: 2},
			WBRegion:       country.WBGroup{ID: "LCN", ISO2Code: "ZJ", Value: "Latin America & Caribbean"},
			WBIncomeLevel:  country.WBGroup{ID: "UMC", ISO2Code: "XT", Value: "Upper middle income"},
			CallingCode:    "55", FlagEmoji: country.FlagEmoji("BR"), WikidataID: "Q155", GeonameID: 3469034, IsIndependent: true,
			Continents: []country.Continent{{Name: "South America", Code: "SA"}}},
		{Alpha2: "DE", Alpha3: "DEU", Numeric: 276, ISOName: "Germany", ISONameFull: "the Federal Republic of Germany",
			Names:          map[string]string{"en": "Germany", "de": "Deutschland", "ja": "ドイツ"},
			AdminLanguages: []country.Language{{Alpha3: "deu", Alpha2: "de", ISOName: "German", NativeName: "Deutsch"}},
			UNRegion:       "Europe/Western Europe", Currency: eur,
			WBRegion: country.WBGroup{ID: "ECS", ISO2Code: "Z7", Value: "Europe & Central Asia"}, WBIncomeLevel: hic,
			CallingCode: "49", FlagEmoji: country.FlagEmoji("DE"), WikidataID: "Q183", GeonameID: 2921044, IsIndependent: true, Continents: eu},
		{Alpha2: "IE", Alpha3: "IRL", Numeric: 372, ISOName: "Ireland", ISONameFull: "Ireland",
			Names: map[string]string{"en": "Ireland", "de": "Irland", "ga": "Éire", "ja": "アイルランド"},
			AdminLanguages: []country.Language{
				{Alpha3: "eng", Alpha2: "en", ISOName: "English", NativeName: "English"},
				{Alpha3: "gle", Alpha2: "ga", ISOName: "Irish", NativeName: "Gaeilge"}},
			UNRegion: "Europe/Northern Europe", Currency: eur,
			WBRegion: country.WBGroup{ID: "ECS", ISO2Code: "Z7", Value: "Europe & Central Asia"}, WBIncomeLevel: hic,
			CallingCode: "353", FlagEmoji: country.FlagEmoji("IE"), WikidataID: "Q27", GeonameID: 2963597, IsIndependent: true, Continents: eu},
		{Alpha2: "JP", Alpha3: "JPN", Numeric: 392, ISOName: "Japan", ISONameFull: "Japan",
			Names:          map[string]string{"en": "Japan", "de": "Japan", "ja": "日本"},
			AdminLanguages: []country.Language{{Alpha3: "jpn", Alpha2: "ja", ISOName: "Japanese", NativeName: "日本語"}},
			UNRegion:       "Asia/Eastern Asia",
			Currency:       country.Currency{NumericCode: 392, Code: "JPY", Name: "Yen", MinorUnits: 0},
			WBRegion:       country.WBGroup{ID: "EAS", ISO2Code: "Z4", Value: "East Asia & Pacific"}, WBIncomeLevel: hic,
			CallingCode: "81", FlagEmoji: country.FlagEmoji("JP"), WikidataID: "Q17", GeonameID: 1861060, IsIndependent: true,
			Continents: []country.Continent{{Name: "Asia", Code: "AS"}}},
		{Alpha2: "US", Alpha3: "USA", Numeric: 840, ISOName: "United States of America (the)", ISONameFull: "the United States of America",
			Names:          map[string]string{"en": "United States", "de": "Vereinigte Staaten", "ja": "アメリカ合衆国"},
			AdminLanguages: []country.Language{{Alpha3: "eng", Alpha2: "en", ISOName: "English", NativeName: "English"}},
			UNRegion:       "Americas/Northern America",
			Currency:       country.Currency{NumericCode: 840, Code: "USD", Name: "US Dollar", MinorUnits: 2},
			WBRegion:       country.WBGroup{ID: "NAC", ISO2Code: "XU", Value: "North America"}, WBIncomeLevel: hic,
			CallingCode: "1", FlagEmoji: country.FlagEmoji("US"), WikidataID: "Q30", GeonameID: 6252001, IsIndependent: true,
			Continents: []country.Continent{{Name: "North America", Code: "NA"}}},
	}
}

// Bytes returns a complete snapshot file holding the fixture data.
func Bytes(t testing.TB) []byte {
	t.Helper()
	sec, err := country.Encode(Countries())
	if err != nil {
		t.Fatal(err)
	}
	w := dbfile.NewWriter(dbfile.Metadata{FormatVersion: dbfile.FormatVersion, BuildTime: time.Date(2026, 9, 18, 0, 0, 0, 0, time.UTC),
		Sources: []dbfile.SourceInfo{{Name: "fixture", Version: "1", Status: "ok", Licence: "test data", Records: map[string]int{"countries": 6}}}})
	if err := w.AddSection(dataset.SectionCountry, sec); err != nil {
		t.Fatal(err)
	}
	var buf byteBuffer
	if _, err := w.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	return buf
}

type byteBuffer []byte

func (b *byteBuffer) Write(p []byte) (int, error) { *b = append(*b, p...); return len(p), nil }

// Snapshot returns the fixture as a loaded, probed snapshot.
func Snapshot(t testing.TB) *dataset.Snapshot {
	t.Helper()
	f, err := dbfile.OpenBytes(Bytes(t))
	if err != nil {
		t.Fatal(err)
	}
	s, err := dataset.FromFile(f)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// RealEnv names the environment variable that holds the path of a full snapshot built from
// the real sources; `make test` builds one with `ipatlas data update` and sets it.
const RealEnv = "IPATLAS_TEST_SNAPSHOT"

var real struct {
	once sync.Once
	snap *dataset.Snapshot
	err  error
}

// Real returns the full real-data snapshot named by IPATLAS_TEST_SNAPSHOT, loaded once per
// test process. Without it the test is skipped, except under CI, where it fails: CI must run
// every real-data test.
func Real(tb testing.TB) *dataset.Snapshot {
	tb.Helper()
	path := os.Getenv(RealEnv)
	if path == "" {
		if os.Getenv("CI") != "" {
			tb.Fatalf("%s is not set; `make test` builds the real snapshot and sets it", RealEnv)
		}
		tb.Skipf("real-data test: set %s to a full snapshot (`make test` does)", RealEnv)
	}
	real.once.Do(func() { real.snap, real.err = dataset.Load(path) })
	if real.err != nil {
		tb.Fatal(real.err)
	}
	return real.snap
}
