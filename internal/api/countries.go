package api

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/ipatlas/ipatlas/internal/country"
	"github.com/ipatlas/ipatlas/internal/dataset"
	"github.com/ipatlas/ipatlas/internal/locale"
	"github.com/ipatlas/ipatlas/internal/web"
)

// countryJSON is the spec's Country object.
type countryJSON struct {
	ISOAlpha2         string          `json:"isoAlpha2"`
	ISOAlpha3         string          `json:"isoAlpha3"`
	M49Code           int             `json:"m49Code"`
	Name              string          `json:"name"`
	ISOName           string          `json:"isoName"`
	ISONameFull       string          `json:"isoNameFull"`
	ISOAdminLanguages []languageJSON  `json:"isoAdminLanguages"`
	UNRegion          string          `json:"unRegion"`
	Currency          *currencyJSON   `json:"currency,omitempty"`
	WBRegion          *wbGroupJSON    `json:"wbRegion,omitempty"`
	WBIncomeLevel     *wbGroupJSON    `json:"wbIncomeLevel,omitempty"`
	CallingCode       string          `json:"callingCode"`
	CountryFlagEmoji  string          `json:"countryFlagEmoji"`
	WikidataID        string          `json:"wikidataId"`
	GeonameID         int             `json:"geonameId,omitempty"`
	IsIndependent     bool            `json:"isIndependent"`
	Continents        []continentJSON `json:"continents,omitempty"`
}

type languageJSON struct {
	ISOAlpha3  string `json:"isoAlpha3"`
	ISOAlpha2  string `json:"isoAlpha2"`
	ISOName    string `json:"isoName"`
	NativeName string `json:"nativeName"`
}

type currencyJSON struct {
	NumericCode int    `json:"numericCode"`
	Code        string `json:"code"`
	Name        string `json:"name"`
	MinorUnits  int    `json:"minorUnits"`
}

type wbGroupJSON struct {
	ID       string `json:"id"`
	ISO2Code string `json:"iso2Code"`
	Value    string `json:"value"`
}

type continentJSON struct {
	Continent     string `json:"continent"`
	ContinentCode string `json:"continentCode"`
}

func toCountryJSON(c country.Country, name string) countryJSON {
	out := countryJSON{
		ISOAlpha2: c.Alpha2, ISOAlpha3: c.Alpha3, M49Code: c.Numeric, Name: name,
		ISOName: c.ISOName, ISONameFull: c.ISONameFull, UNRegion: c.UNRegion,
		ISOAdminLanguages: make([]languageJSON, 0, len(c.AdminLanguages)),
		CallingCode:       c.CallingCode, CountryFlagEmoji: c.FlagEmoji, WikidataID: c.WikidataID,
		GeonameID: c.GeonameID, IsIndependent: c.IsIndependent,
	}
	for _, l := range c.AdminLanguages {
		out.ISOAdminLanguages = append(out.ISOAdminLanguages, languageJSON{l.Alpha3, l.Alpha2, l.ISOName, l.NativeName})
	}
	if !c.Currency.IsZero() {
		out.Currency = &currencyJSON{c.Currency.NumericCode, c.Currency.Code, c.Currency.Name, c.Currency.MinorUnits}
	}
	if !c.WBRegion.IsZero() {
		out.WBRegion = &wbGroupJSON{c.WBRegion.ID, c.WBRegion.ISO2Code, c.WBRegion.Value}
	}
	if !c.WBIncomeLevel.IsZero() {
		out.WBIncomeLevel = &wbGroupJSON{c.WBIncomeLevel.ID, c.WBIncomeLevel.ISO2Code, c.WBIncomeLevel.Value}
	}
	for _, k := range c.Continents {
		out.Continents = append(out.Continents, continentJSON{k.Name, k.Code})
	}
	return out
}

// countryView holds one snapshot's countries pre-rendered. Only `name` depends on the
// language, so each country is stored as the JSON before and after the name's value, and
// each language's names are quoted once, on first use: answers are three copies, and memory
// grows by one small slice per language actually requested.
type countryView struct {
	snap  *dataset.Snapshot
	all   []country.Country
	index [26 * 26]int16    // alpha-2 (AA = 0) -> 1 + position in all; 0: none
	parts [][2][]byte       // JSON before and after the name value
	langs map[string]string // lower-case locale id -> locale id as the data has it
	names sync.Map          // locale id -> [][]byte quoted names, aligned with all

	subs subdivisionJoins // Natural Earth's subdivisions in the geolocation data (revgeosub.go)
}

// nameMarker stands in for the name while rendering; it cannot occur in real data.
const nameMarker = "\x00name\x00"

func newCountryView(snap *dataset.Snapshot) (*countryView, error) {
	db := snap.Countries
	v := &countryView{snap: snap, all: db.All(), langs: map[string]string{}, subs: newSubdivisionJoins(snap.IPGeo, snap.Places)}
	quotedMarker, _ := web.Marshal(nameMarker)
	for i, c := range v.all {
		b, err := web.Marshal(toCountryJSON(c, nameMarker))
		if err != nil {
			return nil, fmt.Errorf("api: render country %s: %w", c.Alpha2, err)
		}
		before, after, ok := bytes.Cut(b, quotedMarker)
		if !ok {
			return nil, fmt.Errorf("api: render country %s: name marker lost", c.Alpha2)
		}
		v.parts = append(v.parts, [2][]byte{before, after})
		if k, ok := alpha2Key(c.Alpha2); ok {
			v.index[k] = int16(i + 1)
		}
	}
	for _, l := range db.Languages() {
		v.langs[strings.ToLower(l)] = l
	}
	return v, nil
}

type viewCache struct {
	cur atomic.Pointer[countryView]
}

// viewWith is countryView for a handler that answers from the engines in need as well:
// a 503 when the loaded snapshot lacks one.
func (s *Server) viewWith(need engines) (*countryView, error) {
	v, err := s.countryView()
	if err != nil {
		return nil, err
	}
	if err := needData(v.snap, need); err != nil {
		return nil, err
	}
	return v, nil
}

// countryView returns the rendering of the serving snapshot, building it after a swap.
// Handlers read every engine through the view's snapshot (v.snap), not Data.Current() again:
// a reload between two reads would otherwise mix two snapshots in one answer.
func (s *Server) countryView() (*countryView, error) {
	snap := s.opt.Data.Current()
	if v := s.views.cur.Load(); v != nil && v.snap == snap {
		return v, nil
	}
	v, err := newCountryView(snap)
	if err != nil {
		return nil, err
	}
	s.views.cur.Store(v)
	return v, nil
}

// locale resolves a localityLanguage value to a locale the data has, by dropping subtags
// ("pt-BR" -> "pt"); languages the data lacks resolve to "en", whose names always exist.
// "default" is resolved per country by the caller.
func (v *countryView) locale(lang string) string {
	lang = strings.ToLower(strings.ReplaceAll(locale.Canonical(strings.TrimSpace(lang)), "_", "-"))
	for lang != "" {
		if l, ok := v.langs[lang]; ok {
			return l
		}
		i := strings.LastIndexByte(lang, '-')
		if i < 0 {
			break
		}
		lang = lang[:i]
	}
	return "en"
}

// quotedNames returns every country's name in locale, JSON-quoted.
func (v *countryView) quotedNames(locale string) [][]byte {
	if n, ok := v.names.Load(locale); ok {
		return n.([][]byte)
	}
	out := make([][]byte, len(v.all))
	for i, c := range v.all {
		out[i], _ = web.Marshal(v.snap.Countries.Name(c, locale))
	}
	n, _ := v.names.LoadOrStore(locale, out)
	return n.([][]byte)
}

// localeOf resolves lang for country i: "default" is the country's own first language, as
// a locale the data has; any other lang is returned as it is.
func (v *countryView) localeOf(i int, lang string) string {
	if strings.EqualFold(lang, "default") {
		return v.locale(v.snap.Countries.LocalLanguage(v.all[i]))
	}
	return lang
}

// placeLang is the language to name a place in, for lang as resolvedLang resolved it: under
// "default" the language of the place's country i (when hasCountry), English without one.
func (v *countryView) placeLang(i int, hasCountry bool, lang string) string {
	switch {
	case hasCountry:
		return v.localeOf(i, lang)
	case lang == "default":
		return "en"
	}
	return lang
}

// appendName appends country i's name in lang (resolved, or "default") as a JSON string.
func (v *countryView) appendName(dst []byte, i int, lang string) []byte {
	return append(dst, v.quotedNames(v.localeOf(i, lang))[i]...)
}

// appendCountry appends country i's JSON in language lang ("default": its own language).
func (v *countryView) appendCountry(dst []byte, i int, lang string) []byte {
	dst = append(dst, v.parts[i][0]...)
	dst = v.appendName(dst, i, lang)
	return append(dst, v.parts[i][1]...)
}

// lookup finds a country by alpha-2, alpha-3 or numeric code.
func (v *countryView) lookup(code string) (int, bool) {
	c, ok := v.snap.Countries.Lookup(code)
	if !ok {
		return 0, false
	}
	return v.indexOf(c.Alpha2)
}

// indexOf finds a country by its alpha-2 code as the data writes it (upper case), without
// the hashing of a map: geolocation answers look countries up several times each.
func (v *countryView) indexOf(alpha2 string) (int, bool) {
	k, ok := alpha2Key(alpha2)
	if !ok || v.index[k] == 0 {
		return 0, false
	}
	return int(v.index[k]) - 1, true
}

// alpha2Key is the position of an upper-case alpha-2 code in countryView.index.
func alpha2Key(code string) (int, bool) {
	if len(code) != 2 || code[0] < 'A' || code[0] > 'Z' || code[1] < 'A' || code[1] > 'Z' {
		return 0, false
	}
	return int(code[0]-'A')*26 + int(code[1]-'A'), true
}

// resolvedLang is the locale to render names in for a request's localityLanguage.
func (v *countryView) resolvedLang(r *http.Request) string {
	lang, ok := web.QueryValue(r.URL.RawQuery, "localityLanguage")
	if !ok || lang == "" {
		return "en"
	}
	if strings.EqualFold(lang, "default") {
		return "default"
	}
	return v.locale(lang)
}

var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

func (s *Server) countryInfo(w http.ResponseWriter, r *http.Request) error {
	code := strings.TrimSpace(param(r, "code"))
	if code == "" {
		return badRequest("The code parameter is required: an ISO 3166-1 alpha-2 (IE), alpha-3 (IRL) or numeric (372) country code.")
	}
	if len(code) > maxParamLen {
		return badRequest("The code parameter is too long.")
	}
	v, err := s.countryView()
	if err != nil {
		return err
	}
	i, ok := v.lookup(code)
	if !ok {
		return notFound("No country has the code %s. Use an ISO 3166-1 alpha-2 (IE), alpha-3 (IRL) or numeric (372) code.", quoteInput(code))
	}
	bp := bufPool.Get().(*[]byte)
	b := v.appendCountry((*bp)[:0], i, v.resolvedLang(r))
	web.WriteJSONBytes(w, http.StatusOK, b)
	*bp = b
	bufPool.Put(bp)
	return nil
}

func (s *Server) countries(w http.ResponseWriter, r *http.Request) error {
	v, err := s.countryView()
	if err != nil {
		return err
	}
	lang := v.resolvedLang(r)
	bp := bufPool.Get().(*[]byte)
	b := append((*bp)[:0], '[')
	for i := range v.all {
		if i > 0 {
			b = append(b, ',')
		}
		b = v.appendCountry(b, i, lang)
	}
	b = append(b, ']')
	web.WriteJSONBytes(w, http.StatusOK, b)
	*bp = b
	bufPool.Put(bp)
	return nil
}
