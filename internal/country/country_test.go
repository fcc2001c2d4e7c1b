package country

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fixture returns a few countries in the shape the builder produces. The facts are real (as
// of CLDR 48 and the other sources); the set is tiny on purpose.
func fixture() []Country {
	return []Country{
		{
			Alpha2: "IE", Alpha3: "IRL", Numeric: 372, ISOName: "Ireland", ISONameFull: "Ireland",
			Names: map[string]string{"en": "Ireland", "de": "Irland", "ga": "Éire", "zh": "爱尔兰", "zh-Hant": "愛爾蘭"},
			AdminLanguages: []Language{
				{Alpha3: "eng", Alpha2: "en", ISOName: "English", NativeName: "English"},
				{Alpha3: "gle", Alpha2: "ga", ISOName: "Irish", NativeName: "Gaeilge"},
			},
			UNRegion:      "Europe/Northern Europe",
			Currency:      Currency{NumericCode: 978, Code: "EUR", Name: "Euro", MinorUnits: 2},
			WBRegion:      WBGroup{ID: "ECS", ISO2Code: "Z7", Value: "Europe & Central Asia"},
			WBIncomeLevel: WBGroup{ID: "HIC", ISO2Code: "XD", Value: "High income"},
			CallingCode:   "353", FlagEmoji: "🇮🇪", WikidataID: "Q27", GeonameID: 2963597, IsIndependent: true,
			Continents: []Continent{{Name: "Europe", Code: "EU"}},
		},
		{
			Alpha2: "AU", Alpha3: "AUS", Numeric: 36, ISOName: "Australia", ISONameFull: "Australia",
			Names:          map[string]string{"en": "Australia", "de": "Australien"},
			AdminLanguages: []Language{{Alpha3: "eng", Alpha2: "en", ISOName: "English", NativeName: "English"}},
			UNRegion:       "Oceania/Australia and New Zealand",
			Currency:       Currency{NumericCode: 36, Code: "AUD", Name: "Australian Dollar", MinorUnits: 2},
			CallingCode:    "61", FlagEmoji: "🇦🇺", WikidataID: "Q408", GeonameID: 2077456, IsIndependent: true,
			Continents: []Continent{{Name: "Oceania", Code: "OC"}},
		},
		{
			Alpha2: "TW", Alpha3: "TWN", Numeric: 158, ISOName: "Taiwan (Province of China)",
			// Names as the builder stores them: zh-TW is an alias locale, zh-Hant-HK adds nothing.
			Names: map[string]string{"en": "Taiwan", "de": "Taiwan", "zh": "台湾", "zh-Hant": "台灣", "zh-TW": "台灣"},
			AdminLanguages: []Language{
				{Alpha3: "zho", Alpha2: "zh", ISOName: "Chinese", NativeName: "中文"},
				{Alpha3: "nan", ISOName: "Min Nan Chinese"},
			},
			UNRegion:    "Asia/Eastern Asia",
			Currency:    Currency{NumericCode: 901, Code: "TWD", Name: "New Taiwan Dollar", MinorUnits: 2},
			CallingCode: "886", FlagEmoji: "🇹🇼", WikidataID: "Q865", GeonameID: 1668284,
			Continents: []Continent{{Name: "Asia", Code: "AS"}},
		},
		{
			// No English name and a first language without a two-letter code, to exercise
			// the native-name fallback (the names are invented for the test).
			Alpha2: "ZZ", Alpha3: "ZZZ", Numeric: 999, ISOName: "Testland",
			Names:          map[string]string{"fil": "Pilipinas-ZZ", "de": "Testland-DE"},
			AdminLanguages: []Language{{Alpha3: "fil", ISOName: "Filipino", NativeName: "Filipino"}},
			FlagEmoji:      "🇿🇿",
		},
		{
			Alpha2: "AQ", Alpha3: "ATA", Numeric: 10, ISOName: "Antarctica",
			FlagEmoji: "🇦🇶", WikidataID: "Q51", GeonameID: 6697173,
			Continents: []Continent{{Name: "Antarctica", Code: "AN"}},
		},
	}
}

func mustDB(t testing.TB, cs []Country) (*DB, []byte) {
	t.Helper()
	b, err := Encode(cs)
	if err != nil {
		t.Fatal(err)
	}
	db, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	return db, b
}

func TestRoundTrip(t *testing.T) {
	cs := fixture()
	db, b := mustDB(t, cs)
	want := slices.Clone(cs)
	slices.SortFunc(want, compareCountries)
	if diff := cmp.Diff(want, db.All()); diff != "" {
		t.Errorf("Decode(Encode(cs)).All() (-want +got):\n%s", diff)
	}
	if db.Len() != len(cs) {
		t.Errorf("Len = %d", db.Len())
	}

	// The bytes depend on the facts only: not on input order, not on map iteration.
	for i := range 20 {
		shuffled := fixture()
		rand.New(rand.NewPCG(uint64(i), 1)).Shuffle(len(shuffled), func(a, b int) { shuffled[a], shuffled[b] = shuffled[b], shuffled[a] })
		b2, err := Encode(shuffled)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, b2) {
			t.Fatalf("Encode is not deterministic (shuffle %d)", i)
		}
	}
}

func TestEncodeRejects(t *testing.T) {
	tests := []struct {
		name   string
		mutate func([]Country) []Country
	}{
		{"wrong flag", func(cs []Country) []Country { cs[0].FlagEmoji = "🇬🇧"; return cs }},
		{"continent name", func(cs []Country) []Country { cs[0].Continents[0].Name = "Europa"; return cs }},
		{"unknown continent", func(cs []Country) []Country { cs[0].Continents[0] = Continent{Code: "XX"}; return cs }},
		{"lower-case alpha-2", func(cs []Country) []Country { cs[0].Alpha2, cs[0].FlagEmoji = "ie", ""; return cs }},
		{"short alpha-3", func(cs []Country) []Country { cs[0].Alpha3 = "IR"; return cs }},
		{"zero numeric", func(cs []Country) []Country { cs[0].Numeric = 0; return cs }},
		{"numeric over 999", func(cs []Country) []Country { cs[0].Numeric = 1000; return cs }},
		{"negative geoname id", func(cs []Country) []Country { cs[0].GeonameID = -1; return cs }},
		{"duplicate alpha-2", func(cs []Country) []Country { return append(cs, cs[0]) }},
		{"duplicate numeric", func(cs []Country) []Country { cs[1].Numeric = cs[0].Numeric; return cs }},
		{"bad language code", func(cs []Country) []Country { cs[0].AdminLanguages[0].Alpha3 = "ENG"; return cs }},
		{"bad locale", func(cs []Country) []Country { cs[0].Names["de DE"] = "x"; return cs }},
		{"empty name", func(cs []Country) []Country { cs[0].Names["fr"] = ""; return cs }},
		{"plus in calling code", func(cs []Country) []Country { cs[0].CallingCode = "+353"; return cs }},
		{"bad currency code", func(cs []Country) []Country { cs[0].Currency.Code = "eur"; return cs }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Encode(tc.mutate(fixture())); err == nil {
				t.Error("Encode succeeded")
			}
		})
	}
}

func TestDecodeRejects(t *testing.T) {
	_, good := mustDB(t, fixture())
	// Every proper prefix is malformed: counts and indexes run past the end, or the last
	// record is missing.
	for n := range len(good) {
		if _, err := Decode(good[:n]); !errors.Is(err, ErrFormat) {
			t.Fatalf("Decode(prefix %d of %d) = %v, want ErrFormat", n, len(good), err)
		}
	}
	tests := []struct {
		name string
		b    []byte
	}{
		{"trailing byte", append(slices.Clone(good), 0)},
		{"bad magic", append([]byte("ipatlas-COUNTRY\x00"), good[len(magic):]...)},
		{"future version", append([]byte(magic+"\x02"), good[len(magic)+1:]...)},
		{"huge count", []byte(magic + "\x01\xff\xff\xff\xff\x0f")},
		{"varint overflow", []byte(magic + "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Decode(tc.b); !errors.Is(err, ErrFormat) {
				t.Errorf("Decode = %v, want ErrFormat", err)
			}
		})
	}
}

func TestLookup(t *testing.T) {
	db, _ := mustDB(t, fixture())
	tests := []struct {
		code string
		want string // alpha-2, or "" for a miss
	}{
		{"IE", "IE"}, {"ie", "IE"}, {"iE", "IE"}, {" ie ", "IE"}, {"\tIRL\n", "IE"},
		{"IRL", "IE"}, {"irl", "IE"}, {"372", "IE"},
		{"AU", "AU"}, {"AUS", "AU"}, {"036", "AU"}, {"36", "AU"},
		{"10", "AQ"}, {"010", "AQ"}, {"ATA", "AQ"},
		{"", ""}, {"   ", ""}, {"I", ""}, {"GB", ""}, {"0036", ""}, {"0", ""}, {"000", ""},
		{"I3", ""}, {"IR-", ""}, {"IRLX", ""}, {"-36", ""}, {"3.6", ""}, {"Ié", ""}, {"\x00\x00", ""},
		{"[\\", ""}, // letters OR 0x20 must not alias other bytes into A–Z
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%q", tc.code), func(t *testing.T) {
			c, ok := db.Lookup(tc.code)
			if ok != (tc.want != "") || c.Alpha2 != tc.want {
				t.Errorf("Lookup(%q) = %q, %v; want %q", tc.code, c.Alpha2, ok, tc.want)
			}
		})
	}
	var zero DB
	if _, ok := zero.Lookup("IE"); ok {
		t.Error("zero DB found IE")
	}
	// A hand-made Country without codes must not make Name panic.
	if got := zero.Name(Country{AdminLanguages: []Language{{Alpha3: "eng", Alpha2: "en"}}, ISOName: "X"}, "de"); got != "X" {
		t.Errorf("Name of a code-less country = %q", got)
	}
}

func TestName(t *testing.T) {
	db, _ := mustDB(t, fixture())
	tests := []struct {
		code, lang, want string
	}{
		{"IE", "en", "Ireland"},
		{"IE", "de", "Irland"},
		{"IE", "DE", "Irland"},
		{"IE", " de ", "Irland"},
		{"IE", "de-AT", "Irland"},    // truncation to a language the data has
		{"IE", "de_CH", "Irland"},    // CLDR-style underscore
		{"IE", "zh-Hant", "愛爾蘭"},     // script variant
		{"IE", "zh-hant-hk", "愛爾蘭"},  // truncation, any case
		{"IE", "zh-TW", "爱尔兰"},       // no alias entry for IE: falls to zh (the builder adds one)
		{"TW", "zh-TW", "台灣"},        // alias entry
		{"TW", "zh-Hans", "台湾"},      // truncation to zh
		{"IE", "fr", "Ireland"},      // unknown language: English
		{"IE", "", "Ireland"},        // empty: English
		{"IE", "default", "Ireland"}, // the API resolves "default" first; here it is unknown
		{"IE", "a-very-long-tag-that-does-not-fit-in-any-buffer-at-all", "Ireland"},
		{"ZZ", "fr", "Pilipinas-ZZ"}, // no English: the native name via "fil-zz" → "fil"
		{"ZZ", "de", "Testland-DE"},
		{"AQ", "de", "Antarctica"}, // no names at all: the ISO name
	}
	for _, tc := range tests {
		t.Run(tc.code+"/"+tc.lang, func(t *testing.T) {
			c, _ := db.Lookup(tc.code)
			if got := db.Name(c, tc.lang); got != tc.want {
				t.Errorf("Name(%s, %q) = %q, want %q", tc.code, tc.lang, got, tc.want)
			}
		})
	}
}

func TestLanguages(t *testing.T) {
	db, _ := mustDB(t, fixture())
	want := []string{"de", "en", "fil", "ga", "zh", "zh-Hant", "zh-TW"}
	if diff := cmp.Diff(want, db.Languages()); diff != "" {
		t.Errorf("Languages (-want +got):\n%s", diff)
	}
	// TW: Chinese as written in Taiwan (the data has zh-TW names), not plain "zh"; IE: "en-IE"
	// has no names in the fixture, so plain English.
	for code, want := range map[string]string{"IE": "en", "TW": "zh-TW", "ZZ": "fil", "AQ": ""} {
		c, _ := db.Lookup(code)
		if got := db.LocalLanguage(c); got != want {
			t.Errorf("LocalLanguage(%s) = %q, want %q", code, got, want)
		}
	}
}

func TestAllIsACopy(t *testing.T) {
	db, _ := mustDB(t, fixture())
	all := db.All()
	all[0].Alpha2 = "XX"
	if db.All()[0].Alpha2 == "XX" {
		t.Error("All exposes the DB's slice")
	}
}

func TestFlagEmoji(t *testing.T) {
	for in, want := range map[string]string{"IE": "🇮🇪", "US": "🇺🇸", "AQ": "🇦🇶", "ie": "", "I": "", "IRL": "", "": ""} {
		if got := FlagEmoji(in); got != want {
			t.Errorf("FlagEmoji(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNoAllocs(t *testing.T) {
	db, _ := mustDB(t, fixture())
	tests := []struct {
		name string
		f    func()
	}{
		{"Lookup upper alpha-2", func() { db.Lookup("IE") }},
		{"Lookup lower alpha-3 padded", func() { db.Lookup(" irl ") }},
		{"Lookup numeric", func() { db.Lookup("036") }},
		{"Lookup miss", func() { db.Lookup("GB") }},
		{"Name", func() { c, _ := db.Lookup("TW"); db.Name(c, "zh-Hant-TW") }},
		{"Name native fallback", func() { c, _ := db.Lookup("ZZ"); db.Name(c, "fr") }},
		{"LocalLanguage regional", func() { c, _ := db.Lookup("TW"); db.LocalLanguage(c) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if n := testing.AllocsPerRun(1000, tc.f); n != 0 {
				t.Errorf("%v allocations, want 0", n)
			}
		})
	}
}

func FuzzDecode(f *testing.F) {
	_, good := mustDB(f, fixture())
	f.Add(good)                                   // a valid section
	f.Add(good[:len(good)/2])                     // truncated mid-record
	f.Add([]byte(magic + "\x01\x01\x00\x00\x00")) // empty registry
	f.Add([]byte(magic + "\x01\xff\xff\xff\x7f")) // absurd string count
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		db, err := Decode(b)
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("error %v does not wrap ErrFormat", err)
			}
			return
		}
		// Whatever decodes must re-encode to the same bytes: there is one encoding per
		// registry, and Decode's checks match Encode's.
		all := db.All()
		b2, err := Encode(all)
		if err != nil {
			t.Fatalf("decoded registry does not encode: %v", err)
		}
		if !bytes.Equal(b, b2) {
			db2, _ := Decode(b2)
			if diff := cmp.Diff(all, db2.All()); diff != "" {
				t.Fatalf("re-encoding changed the registry:\n%s", diff)
			}
		}
		for _, c := range all {
			db.Lookup(c.Alpha2)
			db.Name(c, "en")
		}
	})
}
