package ipgeo

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
	_ "time/tzdata" // time zone rules for machines without a zoneinfo database
)

// TZ is the time zone of a place at one instant, with the fields of the API's timeZone object.
type TZ struct {
	IANA string // e.g. "America/Los_Angeles"
	// DisplayName is Windows-style: "(UTC" + the zone's standard offset + ") " + the
	// description of its Windows time zone, e.g. "(UTC-08:00) Pacific Time (US & Canada)".
	// Without a Windows description the CLDR English generic name of the zone's metazone
	// stands in ("Pacific Time"), else, for a zone without a metazone, CLDR's English name
	// of the zone itself ("Coordinated Universal Time" for Etc/UTC), else the IANA id. The
	// offset is the standard (not daylight) offset when the DB was decoded.
	DisplayName string
	// EffectiveFull is the CLDR long name for standard or daylight time at the instant, in
	// the requested language, else English (e.g. "Pacific Daylight Time"); for zones CLDR
	// names only generically, the generic name; else the GMT format ("GMT+03:00").
	EffectiveFull string
	// EffectiveShort is the CLDR short name (e.g. "PDT") in the requested language, else
	// English; CLDR has short names only for a few zones, so it falls back to the
	// abbreviation of the IANA rules when that is alphabetic ("CEST", "IST", "JST"), else
	// the short GMT format ("GMT+3", "GMT+5:30").
	EffectiveShort   string
	UTCOffsetSeconds int
	UTCOffset        string // "-07", "+05:30", "+00"; "-00:44:30" for an offset with seconds
	IsDST            bool
	Local            time.Time // the instant in the zone
}

// localTimeLayout is the reference's localTime: ISO 8601 without offset, 7 fractional digits
// (the .NET round-trip format the commercial service shows: "2019-04-06T04:06:39.1691744").
const (
	localTimeLayout = "2006-01-02T15:04:05.0000000"
	utcTimeLayout   = "2006-01-02T15:04:05.0000000Z"
)

// AppendLocalTime appends the local time of tz as the API's localTime:
// "2019-04-06T04:06:39.1691744" (no offset, 7 fractional digits).
func (tz TZ) AppendLocalTime(b []byte) []byte { return appendTime(b, tz.Local, localTimeLayout) }

// AppendUTCTime appends t in UTC as "2019-04-06T09:09:36.1877959Z", the format of the API's
// utcTime and lastUpdated.
func AppendUTCTime(b []byte, t time.Time) []byte { return appendTime(b, t.UTC(), utcTimeLayout) }

// appendTime appends t's wall clock as t.AppendFormat(b, layout) does for the two layouts
// above (TestAppendTimeMatchesFormat), without the layout's parsing: the digits are written
// in pairs into a fixed array that is appended once, since an answer has up to three of
// these. Years outside 0–9999 go through AppendFormat.
func appendTime(b []byte, t time.Time, layout string) []byte {
	year, month, day := t.Date()
	if year < 0 || year > 9999 {
		return t.AppendFormat(b, layout)
	}
	hour, minute, sec := t.Clock()
	var d [len(utcTimeLayout)]byte
	put2 := func(at, n int) { d[at], d[at+1] = digitPairs[2*n], digitPairs[2*n+1] }
	put2(0, year/100)
	put2(2, year%100)
	d[4] = '-'
	put2(5, int(month))
	d[7] = '-'
	put2(8, day)
	d[10] = 'T'
	put2(11, hour)
	d[13] = ':'
	put2(14, minute)
	d[16] = ':'
	put2(17, sec)
	d[19] = '.'
	frac := t.Nanosecond() / 100 // seven digits
	d[20] = byte('0' + frac/1000000)
	frac %= 1000000
	put2(21, frac/10000)
	put2(23, frac/100%100)
	put2(25, frac%100)
	d[27] = 'Z'
	return append(b, d[:len(layout)]...)
}

type zoneTables struct {
	metazones []string
	locales   []string
	localeIdx map[string]int // lower-case locale id → index
	en        int            // index of "en", -1 if none
	mzNames   []TZNames      // [locale × len(metazones) + mz]
	zones     []zone
	zoneIdx   map[string]int
	offsets   *offsetTable
	// others holds the zones that Go's time zone database knows and the data does not
	// (id → *zone), made on first use: see zoneOf.
	others *sync.Map
}

type zone struct {
	id      string
	loc     *time.Location // nil if Go's time zone database lacks the id
	negDST  bool           // some period of loc since 1970 is negative DST (see conventionalDST)
	display string
	spans   []MetazoneSpan
	names   []TZNames // per locale; nil if none
}

func decodeZones(t *tables, st *strTable) (zoneTables, error) {
	zt := zoneTables{offsets: newOffsetTable(), others: new(sync.Map)}
	var err error
	str := func(b []byte, i int) string {
		if err != nil {
			return ""
		}
		var s string
		s, err = st.get(u32(b, i))
		return s
	}
	mb := t[tMetazones]
	zt.metazones = make([]string, len(mb)/4)
	for i := range zt.metazones {
		zt.metazones[i] = str(mb, i)
	}
	lb := t[tLocales]
	zt.locales = make([]string, len(lb)/4)
	zt.localeIdx = make(map[string]int, len(zt.locales))
	zt.en = -1
	for i := range zt.locales {
		l := str(lb, i)
		if err == nil && (l == "" || len(l) > maxTagLen || i > 0 && l <= zt.locales[i-1]) {
			return zt, fmt.Errorf("locale %q out of order or invalid", l)
		}
		zt.locales[i] = l
		zt.localeIdx[strings.ToLower(l)] = i
		if l == "en" {
			zt.en = i
		}
	}
	names := func(b []byte, n int) []TZNames {
		out := make([]TZNames, n)
		for i := range out {
			o := &out[i]
			o.LongStandard, o.LongDaylight, o.LongGeneric = str(b, 5*i), str(b, 5*i+1), str(b, 5*i+2)
			o.ShortStandard, o.ShortDaylight = str(b, 5*i+3), str(b, 5*i+4)
		}
		return out
	}
	if len(t[tMZNames])/20 != len(zt.locales)*len(zt.metazones) {
		return zt, errors.New("metazone names: wrong count")
	}
	zt.mzNames = names(t[tMZNames], len(zt.locales)*len(zt.metazones))
	zn := t[tZoneNames]
	nrows := 0
	if len(zt.locales) > 0 {
		nrows = len(zn) / 20 / len(zt.locales)
		if nrows*len(zt.locales) != len(zn)/20 {
			return zt, errors.New("zone names: wrong count")
		}
	} else if len(zn) > 0 {
		return zt, errors.New("zone names without locales")
	}
	zoneNames := names(zn, len(zn)/20)

	sb := t[tSpans]
	spans := make([]MetazoneSpan, len(sb)/24)
	for i := range spans {
		w := sb[24*i:]
		spans[i] = MetazoneSpan{From: int64(u64(w, 0)), To: int64(u64(w, 1)), Metazone: int(u32(w, 4))}
		if spans[i].Metazone >= len(zt.metazones) || u32(w, 5) != 0 {
			return zt, fmt.Errorf("span %d: bad metazone", i)
		}
	}
	zb := t[tZones]
	zt.zones = make([]zone, len(zb)/16)
	zt.zoneIdx = make(map[string]int, len(zt.zones))
	now := time.Now()
	for i := range zt.zones {
		w := zb[16*i:]
		z := &zt.zones[i]
		z.id = str(w, 0)
		windows := str(w, 1)
		if err != nil {
			return zt, fmt.Errorf("zone %d: %w", i, err)
		}
		if z.id == "" || i > 0 && z.id <= zt.zones[i-1].id {
			return zt, fmt.Errorf("zone %q out of order", z.id)
		}
		first, n := uint64(u32(w, 2)), uint64(uint16(u32(w, 3)))
		row := int(u32(w, 3) >> 16)
		if first+n > uint64(len(spans)) || row > nrows {
			return zt, fmt.Errorf("zone %s: spans or names out of range", z.id)
		}
		z.spans = spans[first : first+n : first+n]
		if row > 0 {
			z.names = zoneNames[(row-1)*len(zt.locales) : row*len(zt.locales)]
		}
		zt.zoneIdx[z.id] = i
		if loc, lerr := time.LoadLocation(z.id); lerr == nil && !strings.ContainsAny(z.id, `\`) {
			z.loc, z.negDST = loc, hasNegativeDST(loc)
			desc := windows
			if desc == "" && zt.en >= 0 {
				if mz, ok := z.metazone(now.Unix()); ok {
					n := zt.mzNames[zt.en*len(zt.metazones)+mz]
					desc = cmpOr(n.LongGeneric, n.LongStandard)
				} else if z.names != nil { // a zone CLDR names without a metazone: Etc/UTC
					desc = cmpOr(z.names[zt.en].LongGeneric, z.names[zt.en].LongStandard)
				}
			}
			z.display = "(UTC" + formatOffset(standardOffset(now, loc), styleClock) + ") " + cmpOr(desc, z.id)
		}
	}
	if err != nil {
		return zt, err
	}
	return zt, nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// metazone returns the metazone the zone used at Unix time t.
func (z *zone) metazone(t int64) (int, bool) {
	for _, s := range z.spans {
		if (s.From == 0 || t >= s.From) && (s.To == 0 || t < s.To) {
			return s.Metazone, true
		}
	}
	return 0, false
}

// conventionalDST reports whether t is in daylight saving time as people read their clocks.
// tzdata flags some winters as daylight saving time at the lower of a zone's two offsets
// (negative DST: Ireland's winters since 1971, whose summer time is legally its standard
// time; Namibia's winters of 1994–2017); the API reads the higher offset as summer time
// there, as Windows, whose zone names it uses, and CLDR, whose "summer time" names go with
// the higher offset, do. Such a winter is a period flagged below the standard time next to
// it and a season long (negativeWinter); the summers are the standard periods between
// winters (summerBetweenWinters). Every other period keeps tzdata's flag, whatever its
// year: Morocco's month of Ramadan at +00, flagged below its standard +01 but at most six
// weeks long, stays daylight saving time in every year, the years (2029–2032) when it
// covers New Year included, as Windows has it too. The reading depends only on the period
// that t is in and its neighbours, never on the calendar year, so it cannot change where
// the clocks do not.
func conventionalDST(t time.Time) bool {
	if t.IsDST() {
		return !negativeWinter(t)
	}
	return summerBetweenWinters(t)
}

// minWinter is the shortest negative-DST period read as a winter: Ireland's and Namibia's
// last about five months, Morocco's Ramadan periods at most six weeks.
const minWinter = 90 * 24 * time.Hour

// negativeWinter reports whether t's period is a negative-DST winter: flagged as daylight
// saving time, at least minWinter long, and between standard periods at a higher offset
// (not a step on the way to a new standard time, as Nome's Bering Daylight Time of 1983
// between -11 and -09 was).
func negativeWinter(t time.Time) bool {
	if !t.IsDST() {
		return false
	}
	start, end := periodBounds(t)
	if start.IsZero() || end.IsZero() || end.Sub(start) < minWinter {
		return false
	}
	_, off := t.Zone()
	for _, n := range neighbours(start, end) {
		if _, o := n.Zone(); n.IsDST() || o <= off {
			return false
		}
	}
	return true
}

// summerBetweenWinters reports whether t's period is the summer of a zone with negative
// DST: a standard period shorter than a year next to a negative-DST winter at a lower
// offset. The year bound keeps the standard time a zone stays on for good, or for years
// (Ireland's +01 of 1968–71, Namibia's +02 since 2017), standard.
func summerBetweenWinters(t time.Time) bool {
	if t.IsDST() {
		return false
	}
	start, end := periodBounds(t)
	if start.IsZero() || end.IsZero() || end.Sub(start) >= 365*24*time.Hour {
		return false
	}
	_, off := t.Zone()
	for _, n := range neighbours(start, end) {
		if _, o := n.Zone(); !n.IsZero() && o < off && negativeWinter(n) {
			return true
		}
	}
	return false
}

// periodBounds returns the bounds of the period t is in: the span around it over which its
// zone keeps t's offset and flag, a zero bound being unbounded. It is t.ZoneBounds where
// tzdata lists the transitions; beyond the last one listed (Go's embedded data lists
// Europe's only up to 1996) ZoneBounds cuts periods at year ends, and in a leap year ends
// its last period a day early, which this joins up again.
func periodBounds(t time.Time) (start, end time.Time) {
	start, end = t.ZoneBounds()
	for i := 0; i < 8 && !end.IsZero() && (!end.After(t) || samePeriod(t, end)); i++ {
		_, e := end.ZoneBounds()
		if !e.IsZero() && !e.After(end) {
			e = end.AddDate(0, 0, 1) // past the short year's end
		}
		end = e
	}
	for i := 0; i < 8 && !start.IsZero() && samePeriod(t, start.Add(-time.Second)); i++ {
		start, _ = start.Add(-time.Second).ZoneBounds()
	}
	return start, end
}

func samePeriod(a, b time.Time) bool {
	_, ao := a.Zone()
	_, bo := b.Zone()
	return ao == bo && a.IsDST() == b.IsDST()
}

// neighbours returns an instant of the period before the one of bounds start, end and one
// of the period after, each the zero Time where the bound is.
func neighbours(start, end time.Time) [2]time.Time {
	var n [2]time.Time
	if !start.IsZero() {
		n[0] = start.Add(-time.Second)
	}
	if !end.IsZero() {
		n[1] = end
	}
	return n
}

// hasNegativeDST reports whether loc has a negative-DST winter (see conventionalDST)
// between 1970 and 2040, so that TimeZone reads daylight saving time the long way only in
// those zones.
func hasNegativeDST(loc *time.Location) bool {
	for t := time.Date(1970, time.January, 1, 0, 0, 0, 0, loc); t.Year() <= 2040; {
		if negativeWinter(t) {
			return true
		}
		_, end := periodBounds(t)
		if !end.After(t) {
			return false
		}
		t = end
	}
	return false
}

// standardOffset returns loc's standard (non-daylight) offset at t, daylight saving time
// read as conventionalDST reads it: the offset at t, else that of the period before or
// after it that is standard time.
func standardOffset(t time.Time, loc *time.Location) int {
	lt := t.In(loc)
	_, off := lt.Zone()
	if !conventionalDST(lt) {
		return off
	}
	for _, n := range neighbours(periodBounds(lt)) {
		if _, o := n.Zone(); !n.IsZero() && !conventionalDST(n) {
			return o
		}
	}
	return off - 3600
}

// maxTagLen bounds the locale identifiers accepted (longer than any CLDR locale id).
const maxTagLen = 35

// localeIndex returns the CLDR locale that serves lang: the locale itself or its nearest
// truncation ("de-XX" → "de"), else English; -1 if the data has neither.
func (zt *zoneTables) localeIndex(lang string) int {
	var buf [maxTagLen]byte
	lang = strings.TrimSpace(lang)
	if len(lang) <= len(buf) {
		key := buf[:len(lang)]
		for i := range len(lang) {
			c := lang[i]
			switch {
			case c == '_':
				c = '-'
			case 'A' <= c && c <= 'Z':
				c |= 0x20
			}
			key[i] = c
		}
		for len(key) > 0 {
			if i, ok := zt.localeIdx[string(key)]; ok {
				return i
			}
			j := len(key) - 1
			for j > 0 && key[j] != '-' {
				j--
			}
			key = key[:j]
		}
	}
	return zt.en
}

// TimeZone returns the time zone ianaID at the instant at, with names in lang (a CLDR locale
// or ISO 639-1 code; falls back to English). It reports false for an id neither the data
// nor Go's time zone database knows (see zoneOf). It does not allocate, except for the
// offset strings of historic offsets that are not whole quarter hours (local mean time
// before 1900) and the first use of a zone the data does not have.
func (db *DB) TimeZone(ianaID string, at time.Time, lang string) (TZ, bool) {
	zt := &db.zones
	z, ok := zt.zoneOf(ianaID)
	if !ok {
		return TZ{}, false
	}
	lt := at.In(z.loc)
	abbr, off := lt.Zone()
	dst := lt.IsDST()
	if z.negDST {
		dst = conventionalDST(lt)
	}
	tz := TZ{
		IANA: z.id, DisplayName: z.display, UTCOffsetSeconds: off, UTCOffset: zt.offsets.format(off, styleUTCOffset),
		IsDST: dst, Local: lt,
	}

	li := zt.localeIndex(lang)
	pick := func(n TZNames, short bool) string {
		switch {
		case short && dst:
			return n.ShortDaylight
		case short:
			return n.ShortStandard
		case dst:
			return n.LongDaylight
		}
		return cmpOr(n.LongStandard, n.LongGeneric)
	}
	name := func(short bool) string {
		for _, l := range [...]int{li, zt.en} {
			if l < 0 {
				continue
			}
			if z.names != nil {
				if s := pick(z.names[l], short); s != "" {
					return s
				}
			}
			if mz, ok := z.metazone(at.Unix()); ok {
				if s := pick(zt.mzNames[l*len(zt.metazones)+mz], short); s != "" {
					return s
				}
			}
		}
		return ""
	}
	tz.EffectiveFull = name(false)
	if tz.EffectiveFull == "" {
		tz.EffectiveFull = zt.offsets.format(off, styleGMTLong)
	}
	tz.EffectiveShort = name(true)
	if tz.EffectiveShort == "" {
		if abbr != "" && (abbr[0] >= 'A' && abbr[0] <= 'Z') {
			tz.EffectiveShort = abbr
		} else {
			tz.EffectiveShort = zt.offsets.format(off, styleGMTShort)
		}
	}
	return tz, true
}

// zoneOf returns the zone ianaID. The data's zones are CLDR's; other ids that Go's time
// zone database knows are made on first use and kept: the Etc/GMT±N zones of the open sea,
// which reverse geocoding finds there, Etc/UTC in data built before the build took in the
// zones CLDR names without a metazone, and, in data built without CLDR's aliases, the old
// links (US/Eastern). They have no localised names and are named by their offset,
// as the data's zones are without names.
// The database's ids are a fixed few hundred, so what is kept is bounded.
func (zt *zoneTables) zoneOf(id string) (*zone, bool) {
	if i, ok := zt.zoneIdx[id]; ok {
		z := &zt.zones[i]
		return z, z.loc != nil
	}
	if z, ok := zt.others.Load(id); ok {
		return z.(*zone), true
	}
	// time.LoadLocation reads "" and "Local" as names of its own, not of the database, and
	// any path under the zoneinfo directory, however spelt (./localtime, Europe//Berlin).
	if id == "Local" || !zoneIDSyntax(id) || notAZone(id) {
		return nil, false
	}
	loc, err := time.LoadLocation(id)
	if err != nil {
		return nil, false
	}
	z := &zone{id: id, loc: loc, negDST: hasNegativeDST(loc), display: "(UTC" + formatOffset(standardOffset(time.Now(), loc), styleClock) + ") " + id}
	kept, _ := zt.others.LoadOrStore(id, z)
	return kept.(*zone), true
}

// zoneIDSyntax reports whether id is spelt as IANA spells its ids: names of letters,
// digits, '_', '-' and '+', joined by single slashes. It keeps other spellings of the same
// files (./Factory, Europe//Berlin) from being answered, and from being kept as zones of
// their own, one per spelling.
func zoneIDSyntax(id string) bool {
	if id == "" || id[0] == '/' || id[len(id)-1] == '/' || strings.Contains(id, "//") {
		return false
	}
	for i := 0; i < len(id); i++ {
		switch c := id[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_', c == '-', c == '+', c == '/':
		default:
			return false
		}
	}
	return true
}

// notAZone reports whether id names a file of a zoneinfo directory that time.LoadLocation
// reads but that is no IANA time zone: the machine's own zone (localtime), the default of
// POSIX TZ strings (posixrules), tzdata's placeholder zone Factory, and the posix/ and right/
// copies of the whole database (right/ counts leap seconds, which no clock here does). The
// system's zoneinfo has them and Go's embedded one mostly not, so answering them would make
// the answer depend on the machine (localtime: on its own zone).
func notAZone(id string) bool {
	switch id {
	case "localtime", "posixrules", "Factory":
		return true
	}
	return strings.HasPrefix(id, "posix/") || strings.HasPrefix(id, "right/")
}

// Zones returns the number of time zones the DB knows.
func (db *DB) Zones() int { return len(db.zones.zones) }

// Offset styles.
const (
	styleUTCOffset = iota // the API's utcOffset: "-07", "+05:30", "+00"
	styleClock            // "+05:30", "-08:00"
	styleGMTShort         // CLDR's short GMT format: "GMT+3", "GMT-9:30", "GMT"
	styleGMTLong          // CLDR's long GMT format: "GMT+03:00", "GMT"
	numStyles
)

// quarterHours is the number of whole quarter-hour offsets from -16:00 to +16:00.
const quarterHours = 129

// offsetTable holds every quarter-hour offset formatted in every style, so that the common
// case does not allocate.
type offsetTable [numStyles][quarterHours]string

func newOffsetTable() *offsetTable {
	var t offsetTable
	for style := range numStyles {
		for q := range quarterHours {
			t[style][q] = formatOffset((q-quarterHours/2)*900, style)
		}
	}
	return &t
}

// format formats off in style, from the table when it can.
func (t *offsetTable) format(off, style int) string {
	if off%900 == 0 && off >= -16*3600 && off <= 16*3600 {
		return t[style][off/900+quarterHours/2]
	}
	return formatOffset(off, style)
}

// formatOffset formats any offset in style. Seconds, which only the local mean time of
// the 19th and early 20th century has (Monrovia's -00:44:30 until 1972), follow the
// minutes when not zero, in ISO 8601's extended form ("-00:44:30", "GMT-0:44:30"), so that
// the text says the offset that utcOffsetSeconds does.
func formatOffset(off, style int) string {
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	h, m, sec := off/3600, off%3600/60, off%60
	b := make([]byte, 0, 16)
	// minutes appends ":mm", and ":ss" after it when there are seconds.
	minutes := func(b []byte) []byte {
		b = appendTwo(append(b, ':'), m)
		if sec != 0 {
			b = appendTwo(append(b, ':'), sec)
		}
		return b
	}
	switch style {
	case styleUTCOffset:
		b = appendTwo(append(b, sign), h)
		if m != 0 || sec != 0 {
			b = minutes(b)
		}
	case styleClock:
		b = minutes(appendTwo(append(b, sign), h))
	case styleGMTLong:
		b = append(b, "GMT"...)
		if off != 0 {
			b = minutes(appendTwo(append(b, sign), h))
		}
	default:
		b = append(b, "GMT"...)
		if off == 0 {
			return string(b)
		}
		b = strconv.AppendInt(append(b, sign), int64(h), 10)
		if m != 0 || sec != 0 {
			b = minutes(b)
		}
	}
	return string(b)
}

func appendTwo(b []byte, v int) []byte { return append(b, byte('0'+v/10%10), byte('0'+v%10)) }
