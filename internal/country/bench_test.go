package country

import (
	"fmt"
	"testing"
)

// synthetic returns a registry of the real one's shape: 249 countries, each with two
// administrative languages and names in 150 locales, for benchmarks that must not depend on
// the upstream sources (countrybuild benchmarks the real section).
func synthetic() []Country {
	locales := make([]string, 150)
	for i := range locales {
		locales[i] = fmt.Sprintf("%c%c", 'a'+i/26, 'a'+i%26)
	}
	cs := make([]Country, 249)
	for i := range cs {
		a2 := fmt.Sprintf("%c%c", 'A'+i/26, 'A'+i%26)
		c := Country{
			Alpha2: a2, Alpha3: a2 + "X", Numeric: i + 1, ISOName: "Country " + a2, ISONameFull: "the Republic of " + a2,
			Names: make(map[string]string, len(locales)),
			AdminLanguages: []Language{
				{Alpha3: "eng", Alpha2: "en", ISOName: "English", NativeName: "English"},
				{Alpha3: "fra", Alpha2: "fr", ISOName: "French", NativeName: "français"},
			},
			UNRegion:      "Europe/Northern Europe",
			Currency:      Currency{NumericCode: 978, Code: "EUR", Name: "Euro", MinorUnits: 2},
			WBRegion:      WBGroup{ID: "ECS", ISO2Code: "Z7", Value: "Europe & Central Asia"},
			WBIncomeLevel: WBGroup{ID: "HIC", ISO2Code: "XD", Value: "High income"},
			CallingCode:   "353", FlagEmoji: FlagEmoji(a2), WikidataID: fmt.Sprintf("Q%d", 1000+i), GeonameID: 2000000 + i,
			IsIndependent: true, Continents: []Continent{{Name: "Europe", Code: "EU"}},
		}
		for _, l := range locales {
			c.Names[l] = fmt.Sprintf("Name of %s in %s", a2, l)
		}
		c.Names["en"] = "English name of " + a2
		cs[i] = c
	}
	return cs
}

func BenchmarkDecode(b *testing.B) {
	section, err := Encode(synthetic())
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(section)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(section); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLookup(b *testing.B) {
	db, _ := mustDB(b, synthetic())
	for _, code := range []string{"IE", "ie", "IEX", "372", " 036 "} {
		b.Run(code, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				db.Lookup(code)
			}
		})
	}
}

func BenchmarkName(b *testing.B) {
	db, _ := mustDB(b, synthetic())
	c, _ := db.Lookup("IE")
	for _, lang := range []string{"en", "fr-CA", "zz"} {
		b.Run(lang, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				db.Name(c, lang)
			}
		})
	}
}
