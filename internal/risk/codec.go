package risk

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// ErrFormat reports a risk section that Decode cannot accept: truncated, inconsistent, or
// holding values outside their domain. Errors from Decode wrap it; compare with errors.Is.
var ErrFormat = errors.New("risk: malformed section")

// The section layout. Integers are unsigned varints (encoding/binary.AppendUvarint); a "str"
// is a varint index into the string table, whose entry 0 is always "".
//
//	magic     "ipatlas-risk\x00"
//	version   varint, formatVersion
//	strings   varint count, then count × (varint byte length, UTF-8 bytes), in first-use order
//	lists     varint count, then per list, in strictly ascending (kind, name, provider, score)
//	          order: str name, varint kind, str provider, varint score, varint date (Unix
//	          seconds, 0 = unknown), varint ranges (after merging)
//	asnLists  varint count, then per list in strictly ascending kind order: str name, varint
//	          kind, varint date, varint n, n × ASN as deltas (first from 0), each >= 1
//	labels    varint count L, then L sets of list indices (label ids 1..L; 0 is the empty
//	          set): varint n >= 1, n × index as deltas (first from -1), each >= 1
//	ipv4      the partition of the IPv4 space into intervals of equal label: varint n, then n
//	          × (start delta from the previous start, omitted for the first interval, which
//	          starts at 0.0.0.0; varint label). Neighbours have different labels; n = 0 means
//	          one interval with label 0.
//	ipv6      the same for IPv6, each start delta as two varints (high and low 64 bits).
//
// The partition is the union of all lists cut at every range boundary, so a lookup is one
// binary search whatever the number of lists, and the label of an interval is exactly the set
// of lists holding its addresses.
const (
	magic         = "ipatlas-risk\x00"
	formatVersion = 1
)

// Domain limits checked by Encode and Decode.
const (
	maxNameLen = 200
	maxScore   = 1000
	maxASN     = 1<<32 - 1
)

// Encode returns the risk section payload for d. The bytes depend only on the facts in d, not
// on the order of its lists and ranges: lists with the same kind, name, provider and score
// are merged, ranges are sorted and merged, and IPv4-mapped IPv6 ranges become IPv4 ranges.
// Encode rejects what Decode would reject (it decodes its own output to make sure).
func Encode(d Data) ([]byte, error) {
	lists, err := normLists(d.Lists)
	if err != nil {
		return nil, fmt.Errorf("risk: encode: %w", err)
	}
	asnLists, err := normASNLists(d.ASNLists)
	if err != nil {
		return nil, fmt.Errorf("risk: encode: %w", err)
	}

	var e encoder
	e.strIndex = map[string]uint64{"": 0}
	e.strs = []string{""}
	var body []byte
	body = binary.AppendUvarint(body, uint64(len(lists)))
	for _, l := range lists {
		body = e.appendStr(body, l.Name)
		body = binary.AppendUvarint(body, uint64(l.Kind))
		body = e.appendStr(body, l.Provider)
		body = binary.AppendUvarint(body, uint64(l.Score))
		body = binary.AppendUvarint(body, unixDate(l.Date))
		body = binary.AppendUvarint(body, uint64(len(l.Ranges)))
	}
	body = binary.AppendUvarint(body, uint64(len(asnLists)))
	for _, l := range asnLists {
		body = e.appendStr(body, l.Name)
		body = binary.AppendUvarint(body, uint64(l.Kind))
		body = binary.AppendUvarint(body, unixDate(l.Date))
		body = binary.AppendUvarint(body, uint64(len(l.ASNs)))
		prev := uint32(0)
		for _, a := range l.ASNs {
			body = binary.AppendUvarint(body, uint64(a-prev))
			prev = a
		}
	}

	p := newPartitioner(len(lists))
	v4 := p.sweep(lists, true)
	v6 := p.sweep(lists, false)
	body = binary.AppendUvarint(body, uint64(len(p.labels)))
	for _, set := range p.labels {
		body = binary.AppendUvarint(body, uint64(len(set)))
		prev := -1
		for _, i := range set {
			body = binary.AppendUvarint(body, uint64(i-prev))
			prev = i
		}
	}
	body = appendPartition(body, v4, true)
	body = appendPartition(body, v6, false)

	out := append([]byte(magic), binary.AppendUvarint(nil, formatVersion)...)
	out = binary.AppendUvarint(out, uint64(len(e.strs)-1))
	for _, s := range e.strs[1:] {
		out = binary.AppendUvarint(out, uint64(len(s)))
		out = append(out, s...)
	}
	out = append(out, body...)
	if _, err := Decode(out); err != nil {
		return nil, fmt.Errorf("risk: encode produced an undecodable section: %w", err)
	}
	return out, nil
}

type encoder struct {
	strIndex map[string]uint64
	strs     []string
}

func (e *encoder) appendStr(b []byte, s string) []byte {
	i, ok := e.strIndex[s]
	if !ok {
		i = uint64(len(e.strs))
		e.strIndex[s] = i
		e.strs = append(e.strs, s)
	}
	return binary.AppendUvarint(b, i)
}

func unixDate(t time.Time) uint64 {
	if t.IsZero() {
		return 0
	}
	return uint64(t.Unix())
}

func validName(s string) bool {
	return s != "" && len(s) <= maxNameLen && utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool { return r < ' ' })
}

func validText(s string) bool { return s == "" || validName(s) }

func compareLists(a, b List) int {
	return cmp.Or(cmp.Compare(a.Kind, b.Kind), strings.Compare(a.Name, b.Name),
		strings.Compare(a.Provider, b.Provider), cmp.Compare(a.Score, b.Score))
}

// normLists checks the lists, merges those with the same key and returns them in canonical
// order with sorted, merged, unmapped ranges.
func normLists(in []List) ([]List, error) {
	out := make([]List, 0, len(in))
	for _, l := range in {
		switch {
		case !validName(l.Name):
			return nil, fmt.Errorf("list name %q", l.Name)
		case l.Kind < KindTorExit || l.Kind > maxKind:
			return nil, fmt.Errorf("list %q: kind %d", l.Name, l.Kind)
		case !validText(l.Provider):
			return nil, fmt.Errorf("list %q: provider %q", l.Name, l.Provider)
		case l.Kind == KindCloud && l.Provider == "":
			return nil, fmt.Errorf("cloud list %q without a provider", l.Name)
		case l.Kind == KindBlocklist && (l.Score < 1 || l.Score > maxScore):
			return nil, fmt.Errorf("blocklist %q: score %d", l.Name, l.Score)
		case l.Kind != KindBlocklist && l.Score != 0:
			return nil, fmt.Errorf("list %q: score %d on a %s list", l.Name, l.Score, l.Kind)
		case !validDate(l.Date):
			return nil, fmt.Errorf("list %q: date %v", l.Name, l.Date)
		}
		l.Ranges = slices.Clone(l.Ranges)
		for i, r := range l.Ranges {
			r, ok := normRange(r)
			if !ok {
				return nil, fmt.Errorf("list %q: bad range %v-%v", l.Name, l.Ranges[i].From, l.Ranges[i].To)
			}
			l.Ranges[i] = r
		}
		out = append(out, l)
	}
	slices.SortStableFunc(out, compareLists)
	merged := out[:0]
	for _, l := range out {
		if n := len(merged); n > 0 && compareLists(merged[n-1], l) == 0 {
			m := &merged[n-1]
			m.Ranges = append(m.Ranges, l.Ranges...)
			if l.Date.After(m.Date) {
				m.Date = l.Date
			}
			continue
		}
		merged = append(merged, l)
	}
	for i := range merged {
		merged[i].Ranges = mergeRanges(merged[i].Ranges)
		merged[i].Date = truncDate(merged[i].Date)
	}
	return merged, nil
}

// validDate accepts the zero time and times after the Unix epoch up to year 9999.
func validDate(t time.Time) bool {
	return t.IsZero() || (t.Unix() > 0 && t.Year() <= 9999)
}

func truncDate(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	return time.Unix(t.Unix(), 0).UTC()
}

// normRange unmaps 4-in-6 ranges, drops zones and reports whether r is a valid range.
func normRange(r Range) (Range, bool) {
	if !r.From.IsValid() || !r.To.IsValid() {
		return r, false
	}
	r.From, r.To = r.From.WithZone(""), r.To.WithZone("")
	if r.From.Is4In6() && r.To.Is4In6() {
		r.From, r.To = r.From.Unmap(), r.To.Unmap()
	}
	if r.From.Is4() != r.To.Is4() || r.To.Less(r.From) {
		return r, false
	}
	return r, true
}

// mergeRanges sorts rs and merges overlapping and adjacent ranges of the same family.
func mergeRanges(rs []Range) []Range {
	slices.SortFunc(rs, func(a, b Range) int { return cmp.Or(a.From.Compare(b.From), a.To.Compare(b.To)) })
	out := rs[:0]
	for _, r := range rs {
		if n := len(out); n > 0 {
			last := &out[n-1]
			if last.From.Is4() == r.From.Is4() {
				// Same family and sorted by From: r overlaps or touches last unless it starts
				// beyond the address after last.To (which does not exist at the family's end).
				next := last.To.Next()
				if !next.IsValid() || !after(r.From, next) {
					if after(r.To, last.To) {
						last.To = r.To
					}
					continue
				}
			}
		}
		out = append(out, r)
	}
	return slices.Clip(out)
}

// after reports whether a sorts after b.
func after(a, b netip.Addr) bool { return b.Less(a) }

func normASNLists(in []ASNList) ([]ASNList, error) {
	out := make([]ASNList, 0, len(in))
	for _, l := range in {
		switch {
		case !validName(l.Name):
			return nil, fmt.Errorf("ASN list name %q", l.Name)
		case l.Kind != KindDatacenter && l.Kind != KindVPN:
			return nil, fmt.Errorf("ASN list %q: kind %s", l.Name, l.Kind)
		case !validDate(l.Date):
			return nil, fmt.Errorf("ASN list %q: date %v", l.Name, l.Date)
		case slices.Contains(l.ASNs, 0):
			return nil, fmt.Errorf("ASN list %q: ASN 0", l.Name)
		}
		l.ASNs = slices.Compact(slices.Sorted(slices.Values(l.ASNs)))
		l.Date = truncDate(l.Date)
		out = append(out, l)
	}
	slices.SortFunc(out, func(a, b ASNList) int { return cmp.Compare(a.Kind, b.Kind) })
	for i := 1; i < len(out); i++ {
		if out[i].Kind == out[i-1].Kind {
			return nil, fmt.Errorf("two ASN lists of kind %s (%q, %q)", out[i].Kind, out[i-1].Name, out[i].Name)
		}
	}
	return out, nil
}

// interval is one piece of a partition: the addresses from start up to the next interval's
// start all have the same label.
type interval struct {
	start u128
	label uint32
}

func appendPartition(b []byte, ivs []interval, is4 bool) []byte {
	if len(ivs) == 1 && ivs[0].label == 0 {
		ivs = nil
	}
	b = binary.AppendUvarint(b, uint64(len(ivs)))
	for i, iv := range ivs {
		if i > 0 {
			d := iv.start.sub(ivs[i-1].start)
			if is4 {
				b = binary.AppendUvarint(b, d.lo)
			} else {
				b = binary.AppendUvarint(b, d.hi)
				b = binary.AppendUvarint(b, d.lo)
			}
		}
		b = binary.AppendUvarint(b, uint64(iv.label))
	}
	return b
}

// Decode parses a section produced by Encode. It never panics; any inconsistency is an error
// wrapping ErrFormat. The DB does not retain b.
func Decode(b []byte) (*DB, error) {
	db, err := decode(b)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	return db, nil
}

type decoder struct {
	buf  []byte
	off  int
	strs []string
}

func decode(b []byte) (*DB, error) {
	if len(b) < len(magic) || string(b[:len(magic)]) != magic {
		return nil, errors.New("bad magic")
	}
	d := &decoder{buf: b, off: len(magic)}
	v, err := d.uvarint()
	if err != nil {
		return nil, err
	}
	if v != formatVersion {
		return nil, fmt.Errorf("format version %d, want %d", v, formatVersion)
	}

	n, err := d.count()
	if err != nil {
		return nil, fmt.Errorf("strings: %w", err)
	}
	d.strs = make([]string, 1, n+1)
	for range n {
		l, err := d.count()
		if err != nil {
			return nil, fmt.Errorf("strings: %w", err)
		}
		s := string(d.buf[d.off : d.off+l])
		d.off += l
		if !validName(s) {
			return nil, fmt.Errorf("string %q", s)
		}
		d.strs = append(d.strs, s)
	}

	db := &DB{}
	if n, err = d.count(); err != nil {
		return nil, fmt.Errorf("lists: %w", err)
	}
	db.lists = make([]ListInfo, n)
	for i := range db.lists {
		l := &db.lists[i]
		if err := d.list(l); err != nil {
			return nil, fmt.Errorf("list %d: %w", i, err)
		}
		if i > 0 && compareLists(listKey(db.lists[i-1]), listKey(*l)) >= 0 {
			return nil, fmt.Errorf("list %q out of order", l.Name)
		}
	}

	if n, err = d.count(); err != nil {
		return nil, fmt.Errorf("ASN lists: %w", err)
	}
	if n > 2 {
		return nil, fmt.Errorf("%d ASN lists", n)
	}
	asnLists := make([]ASNList, n)
	for i := range asnLists {
		l := &asnLists[i]
		if err := d.asnList(l); err != nil {
			return nil, fmt.Errorf("ASN list %d: %w", i, err)
		}
		if i > 0 && l.Kind <= asnLists[i-1].Kind {
			return nil, fmt.Errorf("ASN list %q out of order", l.Name)
		}
	}

	if n, err = d.count(); err != nil {
		return nil, fmt.Errorf("labels: %w", err)
	}
	labels := make([][]int, n+1)
	for i := 1; i <= n; i++ {
		if labels[i], err = d.labelSet(len(db.lists)); err != nil {
			return nil, fmt.Errorf("label %d: %w", i, err)
		}
	}
	if db.v4Starts, db.v4Labels, err = d.partition4(n); err != nil {
		return nil, fmt.Errorf("IPv4 partition: %w", err)
	}
	v6, v6Labels, err := d.partition6(n)
	if err != nil {
		return nil, fmt.Errorf("IPv6 partition: %w", err)
	}
	db.v6Labels = v6Labels
	db.v6Hi, db.v6Lo = make([]uint64, len(v6)), make([]uint64, len(v6))
	for i, u := range v6 {
		db.v6Hi[i], db.v6Lo[i] = u.hi, u.lo
	}
	if d.off != len(d.buf) {
		return nil, fmt.Errorf("%d trailing bytes", len(d.buf)-d.off)
	}
	db.prepare(labels, asnLists)
	return db, nil
}

func listKey(l ListInfo) List {
	return List{Kind: l.Kind, Name: l.Name, Provider: l.Provider, Score: l.Score}
}

func (d *decoder) list(l *ListInfo) error {
	var err error
	if l.Name, err = d.str(); err != nil {
		return err
	}
	kind, err := d.uvarint()
	if err != nil {
		return err
	}
	if kind < uint64(KindTorExit) || kind > uint64(maxKind) {
		return fmt.Errorf("kind %d", kind)
	}
	l.Kind = Kind(kind)
	if l.Provider, err = d.str(); err != nil {
		return err
	}
	score, err := d.uvarint()
	if err != nil {
		return err
	}
	if l.Date, err = d.date(); err != nil {
		return err
	}
	ranges, err := d.uvarint()
	if err != nil {
		return err
	}
	switch {
	case l.Name == "":
		return errors.New("empty name")
	case l.Kind == KindCloud && l.Provider == "":
		return errors.New("cloud list without a provider")
	case l.Kind == KindBlocklist && (score < 1 || score > maxScore):
		return fmt.Errorf("blocklist score %d", score)
	case l.Kind != KindBlocklist && score != 0:
		return fmt.Errorf("score %d on a %s list", score, l.Kind)
	case ranges > 1<<40:
		return fmt.Errorf("%d ranges", ranges)
	}
	l.Score, l.Ranges = int(score), int(ranges)
	return nil
}

func (d *decoder) asnList(l *ASNList) error {
	var err error
	if l.Name, err = d.str(); err != nil {
		return err
	}
	if l.Name == "" {
		return errors.New("empty name")
	}
	kind, err := d.uvarint()
	if err != nil {
		return err
	}
	if l.Kind = Kind(kind); kind > uint64(maxKind) || (l.Kind != KindDatacenter && l.Kind != KindVPN) {
		return fmt.Errorf("kind %d", kind)
	}
	if l.Date, err = d.date(); err != nil {
		return err
	}
	n, err := d.count()
	if err != nil {
		return err
	}
	l.ASNs = make([]uint32, n)
	prev := uint64(0)
	for i := range l.ASNs {
		delta, err := d.uvarint()
		if err != nil {
			return err
		}
		if delta == 0 || delta > maxASN-prev {
			return fmt.Errorf("ASN delta %d after %d", delta, prev)
		}
		prev += delta
		l.ASNs[i] = uint32(prev)
	}
	return nil
}

func (d *decoder) labelSet(nLists int) ([]int, error) {
	n, err := d.count()
	if err != nil {
		return nil, err
	}
	if n == 0 || n > nLists {
		return nil, fmt.Errorf("%d lists in a label of %d lists", n, nLists)
	}
	set := make([]int, n)
	prev := -1
	for i := range set {
		delta, err := d.uvarint()
		if err != nil {
			return nil, err
		}
		if delta == 0 || delta > uint64(nLists-1-prev) {
			return nil, fmt.Errorf("list index delta %d after %d", delta, prev)
		}
		prev += int(delta)
		set[i] = prev
	}
	return set, nil
}

func (d *decoder) partition4(nLabels int) ([]uint32, []uint32, error) {
	n, err := d.count()
	if err != nil {
		return nil, nil, err
	}
	starts, labels := make([]uint32, n), make([]uint32, n)
	for i := range n {
		if i > 0 {
			delta, err := d.uvarint()
			if err != nil {
				return nil, nil, err
			}
			if delta == 0 || delta > uint64(^uint32(0)-starts[i-1]) {
				return nil, nil, fmt.Errorf("start delta %d after %d", delta, starts[i-1])
			}
			starts[i] = starts[i-1] + uint32(delta)
		}
		if labels[i], err = d.label(nLabels, labels, i); err != nil {
			return nil, nil, err
		}
	}
	if n == 1 && labels[0] == 0 {
		return nil, nil, errors.New("a single empty interval must be written as none")
	}
	return starts, labels, nil
}

func (d *decoder) partition6(nLabels int) ([]u128, []uint32, error) {
	n, err := d.count()
	if err != nil {
		return nil, nil, err
	}
	starts, labels := make([]u128, n), make([]uint32, n)
	for i := range n {
		if i > 0 {
			var delta u128
			if delta.hi, err = d.uvarint(); err != nil {
				return nil, nil, err
			}
			if delta.lo, err = d.uvarint(); err != nil {
				return nil, nil, err
			}
			s, over := starts[i-1].add(delta)
			if delta.isZero() || over {
				return nil, nil, fmt.Errorf("start delta %v after %v", delta, starts[i-1])
			}
			starts[i] = s
		}
		if labels[i], err = d.label(nLabels, labels, i); err != nil {
			return nil, nil, err
		}
	}
	if n == 1 && labels[0] == 0 {
		return nil, nil, errors.New("a single empty interval must be written as none")
	}
	return starts, labels, nil
}

// label reads the label of interval i, which must exist and differ from its predecessor's.
func (d *decoder) label(nLabels int, labels []uint32, i int) (uint32, error) {
	l, err := d.uvarint()
	if err != nil {
		return 0, err
	}
	if l > uint64(nLabels) {
		return 0, fmt.Errorf("label %d of %d", l, nLabels)
	}
	if i > 0 && uint32(l) == labels[i-1] {
		return 0, fmt.Errorf("interval %d repeats label %d", i, l)
	}
	return uint32(l), nil
}

func (d *decoder) date() (time.Time, error) {
	v, err := d.uvarint()
	if err != nil {
		return time.Time{}, err
	}
	if v == 0 {
		return time.Time{}, nil
	}
	if v > 253402300799 { // 9999-12-31T23:59:59Z
		return time.Time{}, fmt.Errorf("date %d", v)
	}
	return time.Unix(int64(v), 0).UTC(), nil
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
	v, n := binary.Uvarint(d.buf[d.off:])
	switch {
	case n == 0:
		return 0, errors.New("unexpected end")
	case n < 0:
		return 0, errors.New("varint overflows 64 bits")
	}
	d.off += n
	return v, nil
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
