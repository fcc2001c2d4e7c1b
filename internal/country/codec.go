package country

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
)

// ErrFormat reports a country section that Decode cannot accept: truncated, inconsistent, or
// holding values outside their domain. Errors from Decode wrap it; compare with errors.Is.
var ErrFormat = errors.New("country: malformed section")

// The section layout. Integers are unsigned varints (encoding/binary.AppendUvarint); a "str"
// is a varint index into the string table, whose entry 0 is always "".
//
//	magic      "ipatlas-country\x00"
//	version    varint, formatVersion
//	strings    varint count, then count × (varint byte length, UTF-8 bytes), in first-use order
//	locales    varint count, then count × str, in strictly ascending order
//	countries  varint count, then count records in strictly ascending alpha-2 order:
//	  str alpha2, str alpha3, varint numeric, str isoName, str isoNameFull,
//	  varint nLanguages, nLanguages × (str alpha3, str alpha2, str isoName, str nativeName),
//	  str unRegion,
//	  varint currency numeric, str currency code, str currency name, varint minor units,
//	  str wbRegion id, str iso2Code, str value, str wbIncome id, str iso2Code, str value,
//	  str callingCode, str wikidataId, varint geonameId, byte isIndependent (0 or 1),
//	  varint nContinents, nContinents × str code,
//	  varint nNames, nNames × (varint locale index, strictly ascending; str name)
//
// The payload ends with the last record. Flag emoji and continent names are derived on decode,
// so they cost nothing and cannot disagree with the codes. A string table keeps the many
// repeated strings (language and currency names, regions, names shared by locales) once, and
// lets Decode slice every string out of one copy of the payload.
const (
	magic         = "ipatlas-country\x00"
	formatVersion = 1
)

// Domain limits checked by Encode and Decode.
const (
	maxNumeric     = 999 // ISO 3166-1 and ISO 4217 numeric codes have three digits
	maxMinorUnits  = 9   // ISO 4217 uses 0 to 4
	maxTagLen      = 35  // longer than any CLDR locale identifier; bounds Name's buffer
	maxContinents  = 7
	maxCallingCode = 4 // ITU country codes have at most three digits; leave room
)

// Encode returns the country section payload for cs. The bytes depend only on the facts in cs,
// not on its order or on map iteration, so the same facts always encode identically. Encode
// rejects what Decode would reject (it decodes its own output to make sure), including a
// FlagEmoji or continent name that disagrees with its code.
func Encode(cs []Country) ([]byte, error) {
	sorted := slices.Clone(cs)
	slices.SortFunc(sorted, compareCountries)

	localeSet := map[string]bool{}
	for i := range sorted {
		c := &sorted[i]
		if c.FlagEmoji != FlagEmoji(c.Alpha2) {
			return nil, fmt.Errorf("country: encode %q: flag %q does not match the code", c.Alpha2, c.FlagEmoji)
		}
		for _, k := range c.Continents {
			if name, _ := ContinentName(k.Code); k.Name != name {
				return nil, fmt.Errorf("country: encode %q: continent %q named %q", c.Alpha2, k.Code, k.Name)
			}
		}
		for tag := range c.Names {
			localeSet[tag] = true
		}
	}
	locales := slices.Sorted(maps.Keys(localeSet))
	localeIdx := make(map[string]uint64, len(locales))
	for i, tag := range locales {
		localeIdx[tag] = uint64(i)
	}

	e := encoder{index: map[string]uint64{"": 0}, table: []string{""}}
	e.uvarint(uint64(len(locales)))
	for _, tag := range locales {
		e.str(tag)
	}
	e.uvarint(uint64(len(sorted)))
	for i := range sorted {
		c := &sorted[i]
		e.str(c.Alpha2)
		e.str(c.Alpha3)
		e.int(c.Numeric)
		e.str(c.ISOName)
		e.str(c.ISONameFull)
		e.uvarint(uint64(len(c.AdminLanguages)))
		for _, l := range c.AdminLanguages {
			e.str(l.Alpha3)
			e.str(l.Alpha2)
			e.str(l.ISOName)
			e.str(l.NativeName)
		}
		e.str(c.UNRegion)
		e.int(c.Currency.NumericCode)
		e.str(c.Currency.Code)
		e.str(c.Currency.Name)
		e.int(c.Currency.MinorUnits)
		for _, g := range [2]WBGroup{c.WBRegion, c.WBIncomeLevel} {
			e.str(g.ID)
			e.str(g.ISO2Code)
			e.str(g.Value)
		}
		e.str(c.CallingCode)
		e.str(c.WikidataID)
		e.int(c.GeonameID)
		if c.IsIndependent {
			e.body = append(e.body, 1)
		} else {
			e.body = append(e.body, 0)
		}
		e.uvarint(uint64(len(c.Continents)))
		for _, k := range c.Continents {
			e.str(k.Code)
		}
		e.uvarint(uint64(len(c.Names)))
		for _, tag := range slices.Sorted(maps.Keys(c.Names)) {
			e.uvarint(localeIdx[tag])
			e.str(c.Names[tag])
		}
		if e.err != nil {
			return nil, fmt.Errorf("country: encode %q: %w", c.Alpha2, e.err)
		}
	}

	out := make([]byte, 0, len(magic)+len(e.body)+16*len(e.table))
	out = append(out, magic...)
	out = binary.AppendUvarint(out, formatVersion)
	out = binary.AppendUvarint(out, uint64(len(e.table)))
	for _, s := range e.table {
		out = binary.AppendUvarint(out, uint64(len(s)))
		out = append(out, s...)
	}
	out = append(out, e.body...)

	if _, err := Decode(out); err != nil {
		return nil, fmt.Errorf("country: encode: output does not decode: %w", err)
	}
	return out, nil
}

// encoder accumulates the body and the string table of a section.
type encoder struct {
	body  []byte
	index map[string]uint64
	table []string
	err   error
}

func (e *encoder) uvarint(v uint64) { e.body = binary.AppendUvarint(e.body, v) }

func (e *encoder) int(v int) {
	if v < 0 && e.err == nil {
		e.err = fmt.Errorf("negative number %d", v)
	}
	e.uvarint(uint64(v))
}

func (e *encoder) str(s string) {
	i, ok := e.index[s]
	if !ok {
		i = uint64(len(e.table))
		e.index[s] = i
		e.table = append(e.table, s)
	}
	e.uvarint(i)
}

// Decode parses and validates a country section written by Encode and returns the DB that
// serves it. It never panics: anything malformed is an error wrapping ErrFormat. The DB keeps
// one copy of b's bytes; the caller may reuse b afterwards.
func Decode(b []byte) (*DB, error) {
	d := decoder{buf: string(b)} // the one copy; every decoded string is a substring of it
	cs, err := d.decode()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	return newDB(cs), nil
}

type decoder struct {
	buf     string
	off     int
	strs    []string
	locales []string
}

func (d *decoder) decode() ([]Country, error) {
	if !strings.HasPrefix(d.buf, magic) {
		return nil, errors.New("bad magic")
	}
	d.off = len(magic)
	v, err := d.uvarint()
	if err != nil {
		return nil, err
	}
	if v != formatVersion {
		return nil, fmt.Errorf("format version %d, want %d", v, formatVersion)
	}

	n, err := d.count()
	if err != nil {
		return nil, fmt.Errorf("string table: %w", err)
	}
	if n == 0 {
		return nil, errors.New("empty string table")
	}
	d.strs = make([]string, n)
	for i := range d.strs {
		l, err := d.uvarint()
		if err != nil {
			return nil, fmt.Errorf("string %d: %w", i, err)
		}
		if l > uint64(len(d.buf)-d.off) {
			return nil, fmt.Errorf("string %d: length %d past the end", i, l)
		}
		s := d.buf[d.off : d.off+int(l)]
		d.off += int(l)
		if !utf8.ValidString(s) {
			return nil, fmt.Errorf("string %d: invalid UTF-8", i)
		}
		d.strs[i] = s
	}
	if d.strs[0] != "" {
		return nil, errors.New("string 0 is not empty")
	}

	n, err = d.count()
	if err != nil {
		return nil, fmt.Errorf("locales: %w", err)
	}
	d.locales = make([]string, n)
	for i := range d.locales {
		tag, err := d.str()
		if err != nil {
			return nil, fmt.Errorf("locale %d: %w", i, err)
		}
		if !validTag(tag) {
			return nil, fmt.Errorf("locale %d: invalid tag %q", i, tag)
		}
		if i > 0 && tag <= d.locales[i-1] {
			return nil, fmt.Errorf("locale %q out of order", tag)
		}
		d.locales[i] = tag
	}

	n, err = d.count()
	if err != nil {
		return nil, fmt.Errorf("countries: %w", err)
	}
	cs := make([]Country, n)
	for i := range cs {
		if err := d.country(&cs[i]); err != nil {
			return nil, fmt.Errorf("country %d: %w", i, err)
		}
		if i > 0 && cs[i].Alpha2 <= cs[i-1].Alpha2 {
			return nil, fmt.Errorf("country %q out of order", cs[i].Alpha2)
		}
	}
	if d.off != len(d.buf) {
		return nil, fmt.Errorf("%d trailing bytes", len(d.buf)-d.off)
	}
	if err := checkUnique(cs); err != nil {
		return nil, err
	}
	return cs, nil
}

func (d *decoder) country(c *Country) error {
	var err error
	str := func() string { // keeps the field list below readable; the first error sticks
		if err != nil {
			return ""
		}
		var s string
		s, err = d.str()
		return s
	}
	num := func(limit uint64) int {
		if err != nil {
			return 0
		}
		var v uint64
		if v, err = d.uvarint(); err == nil && v > limit {
			err = fmt.Errorf("number %d exceeds %d", v, limit)
		}
		return int(v)
	}

	c.Alpha2 = str()
	c.Alpha3 = str()
	c.Numeric = num(maxNumeric)
	c.ISOName = str()
	c.ISONameFull = str()
	if err != nil {
		return err
	}
	if !isUpperAlpha(c.Alpha2, 2) || !isUpperAlpha(c.Alpha3, 3) || c.Numeric == 0 {
		return fmt.Errorf("invalid codes %q %q %d", c.Alpha2, c.Alpha3, c.Numeric)
	}
	n, err := d.count()
	if err != nil {
		return err
	}
	if n > 0 {
		c.AdminLanguages = make([]Language, n)
	}
	for i := range c.AdminLanguages {
		l := &c.AdminLanguages[i]
		l.Alpha3, l.Alpha2, l.ISOName, l.NativeName = str(), str(), str(), str()
		if err == nil && (!isLowerAlpha(l.Alpha3, 3) || (l.Alpha2 != "" && !isLowerAlpha(l.Alpha2, 2))) {
			err = fmt.Errorf("invalid language codes %q %q", l.Alpha3, l.Alpha2)
		}
	}
	c.UNRegion = str()
	c.Currency.NumericCode = num(maxNumeric)
	c.Currency.Code = str()
	c.Currency.Name = str()
	c.Currency.MinorUnits = num(maxMinorUnits)
	if err == nil && c.Currency.Code != "" && !isUpperAlpha(c.Currency.Code, 3) {
		err = fmt.Errorf("invalid currency code %q", c.Currency.Code)
	}
	for _, g := range [2]*WBGroup{&c.WBRegion, &c.WBIncomeLevel} {
		g.ID, g.ISO2Code, g.Value = str(), str(), str()
	}
	c.CallingCode = str()
	if err == nil && (len(c.CallingCode) > maxCallingCode || !isDigits(c.CallingCode)) {
		err = fmt.Errorf("invalid calling code %q", c.CallingCode)
	}
	c.WikidataID = str()
	c.GeonameID = num(math.MaxInt32)
	if err != nil {
		return err
	}
	ind, err := d.byte()
	if err != nil {
		return err
	}
	if ind > 1 {
		return fmt.Errorf("independence flag %d", ind)
	}
	c.IsIndependent = ind == 1
	c.FlagEmoji = FlagEmoji(c.Alpha2)

	if n, err = d.count(); err != nil {
		return err
	}
	if n > maxContinents {
		return fmt.Errorf("%d continents", n)
	}
	if n > 0 {
		c.Continents = make([]Continent, n)
	}
	for i := range c.Continents {
		code := str()
		name, ok := ContinentName(code)
		if err == nil && !ok {
			err = fmt.Errorf("unknown continent %q", code)
		}
		c.Continents[i] = Continent{Name: name, Code: code}
	}
	if err != nil {
		return err
	}

	if n, err = d.count(); err != nil {
		return err
	}
	if n > 0 {
		c.Names = make(map[string]string, n)
	}
	prev := -1
	for range n {
		li, err := d.uvarint()
		if err != nil {
			return err
		}
		if li >= uint64(len(d.locales)) || int(li) <= prev {
			return fmt.Errorf("locale index %d out of order or range", li)
		}
		prev = int(li)
		name, err := d.str()
		if err != nil {
			return err
		}
		if name == "" {
			return fmt.Errorf("empty name for %q", d.locales[li])
		}
		c.Names[d.locales[li]] = name
	}
	return nil
}

// count reads a collection length and rejects one that could not fit in the remaining bytes
// (every element takes at least one), so garbage cannot make Decode allocate much.
func (d *decoder) count() (int, error) {
	n, err := d.uvarint()
	if err != nil {
		return 0, err
	}
	if n > uint64(len(d.buf)-d.off) {
		return 0, fmt.Errorf("count %d exceeds the remaining %d bytes", n, len(d.buf)-d.off)
	}
	return int(n), nil
}

func (d *decoder) uvarint() (uint64, error) {
	var v uint64
	for shift := uint(0); shift < 64; shift += 7 {
		if d.off >= len(d.buf) {
			return 0, errors.New("unexpected end")
		}
		b := d.buf[d.off]
		d.off++
		if b < 0x80 {
			if shift == 63 && b > 1 {
				break
			}
			return v | uint64(b)<<shift, nil
		}
		v |= uint64(b&0x7f) << shift
	}
	return 0, errors.New("varint overflows 64 bits")
}

func (d *decoder) byte() (byte, error) {
	if d.off >= len(d.buf) {
		return 0, errors.New("unexpected end")
	}
	d.off++
	return d.buf[d.off-1], nil
}

func (d *decoder) str() (string, error) {
	i, err := d.uvarint()
	if err != nil {
		return "", err
	}
	if i >= uint64(len(d.strs)) {
		return "", fmt.Errorf("string index %d out of range", i)
	}
	return d.strs[i], nil
}

// checkUnique rejects a duplicate alpha-3 or numeric code; alpha-2 order already rules out
// duplicate alpha-2 codes.
func checkUnique(cs []Country) error {
	alpha3 := make(map[string]bool, len(cs))
	numeric := make(map[int]bool, len(cs))
	for _, c := range cs {
		if alpha3[c.Alpha3] || numeric[c.Numeric] {
			return fmt.Errorf("duplicate code %q or %d", c.Alpha3, c.Numeric)
		}
		alpha3[c.Alpha3], numeric[c.Numeric] = true, true
	}
	return nil
}

// validTag reports whether s looks like a CLDR locale identifier: ASCII letters and digits in
// hyphen-separated subtags of 1 to 8 characters, at most maxTagLen bytes.
func validTag(s string) bool {
	if s == "" || len(s) > maxTagLen {
		return false
	}
	for sub := range strings.SplitSeq(s, "-") {
		if sub == "" || len(sub) > 8 {
			return false
		}
		for i := range len(sub) {
			c := sub[i]
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
				return false
			}
		}
	}
	return true
}

func isLowerAlpha(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := range len(s) {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

func isDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// compareCountries orders countries by alpha-2, the order of DB.All.
func compareCountries(a, b Country) int { return cmp.Compare(a.Alpha2, b.Alpha2) }
