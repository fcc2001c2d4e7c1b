package ipgeobuild

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/ipatlas/ipatlas/internal/ipgeo"
	"github.com/ipatlas/ipatlas/internal/locale"
)

// fsOpt is an optional source tree.
type fsOpt struct {
	fsys fs.FS
	ok   bool
}

type tzStats struct {
	windowsTexts  int
	aliasZones    int // zones added for an alias id
	noMetazone    int
	noMetazoneIDs []string
}

// cldrNone is CLDR's marker for "no value; do not inherit".
const cldrNone = "∅∅∅"

// tzNamesJSON is a zone's or metazone's names in timeZoneNames.json.
type tzNamesJSON struct {
	Long struct {
		Generic  string `json:"generic"`
		Standard string `json:"standard"`
		Daylight string `json:"daylight"`
	} `json:"long"`
	Short struct {
		Generic  string `json:"generic"`
		Standard string `json:"standard"`
		Daylight string `json:"daylight"`
	} `json:"short"`
}

func (n tzNamesJSON) names() ipgeo.TZNames {
	return ipgeo.TZNames{
		LongStandard: n.Long.Standard, LongDaylight: n.Long.Daylight, LongGeneric: n.Long.Generic,
		ShortStandard: n.Short.Standard, ShortDaylight: n.Short.Daylight,
	}
}

// inherit fills the empty fields of n from parent; cldrNone blocks inheritance and becomes "".
func inherit(n, parent ipgeo.TZNames) ipgeo.TZNames {
	f := func(own, p string) string {
		switch own {
		case "":
			return p
		case cldrNone:
			return ""
		}
		return own
	}
	return ipgeo.TZNames{
		LongStandard: f(n.LongStandard, parent.LongStandard), LongDaylight: f(n.LongDaylight, parent.LongDaylight),
		LongGeneric: f(n.LongGeneric, parent.LongGeneric), ShortStandard: f(n.ShortStandard, parent.ShortStandard),
		ShortDaylight: f(n.ShortDaylight, parent.ShortDaylight),
	}
}

// localeNames is what one locale's timeZoneNames.json says of its own.
type localeNames struct {
	metazones map[string]ipgeo.TZNames
	zones     map[string]ipgeo.TZNames
}

// parseTimeZoneNames reads main/<locale>/timeZoneNames.json.
func parseTimeZoneNames(fsys fs.FS, locale string) (localeNames, error) {
	b, err := fs.ReadFile(fsys, path.Join("main", locale, "timeZoneNames.json"))
	if err != nil {
		return localeNames{}, err
	}
	var doc struct {
		Main map[string]struct {
			Dates struct {
				TimeZoneNames struct {
					Zone     map[string]json.RawMessage `json:"zone"`
					Metazone map[string]tzNamesJSON     `json:"metazone"`
				} `json:"timeZoneNames"`
			} `json:"dates"`
		} `json:"main"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return localeNames{}, fmt.Errorf("%s timeZoneNames.json: %w", locale, err)
	}
	m, ok := doc.Main[locale]
	if !ok || len(doc.Main) != 1 {
		return localeNames{}, fmt.Errorf("%s timeZoneNames.json: not the locale's file", locale)
	}
	out := localeNames{metazones: map[string]ipgeo.TZNames{}, zones: map[string]ipgeo.TZNames{}}
	for id, n := range m.Dates.TimeZoneNames.Metazone {
		out.metazones[id] = n.names()
	}
	// Zones nest by path component: {"Europe": {"London": {"long": …}}}.
	var walk func(prefix string, m map[string]json.RawMessage, depth int) error
	walk = func(prefix string, m map[string]json.RawMessage, depth int) error {
		if depth > 4 {
			return errors.New("zones nested too deep")
		}
		for k, raw := range m {
			id := k
			if prefix != "" {
				id = prefix + "/" + k
			}
			var node map[string]json.RawMessage
			if err := json.Unmarshal(raw, &node); err != nil {
				continue // a string such as exemplarCity
			}
			_, long := node["long"]
			_, short := node["short"]
			if long || short {
				var n tzNamesJSON
				if err := json.Unmarshal(raw, &n); err != nil {
					return fmt.Errorf("zone %s: %w", id, err)
				}
				out.zones[id] = n.names()
				continue
			}
			if _, leaf := node["exemplarCity"]; leaf {
				continue
			}
			if err := walk(id, node, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk("", m.Dates.TimeZoneNames.Zone, 0); err != nil {
		return localeNames{}, fmt.Errorf("%s timeZoneNames.json: %w", locale, err)
	}
	return out, nil
}

// cldrSpan is one usesMetazone entry.
type cldrSpan struct {
	mz       string
	from, to int64
}

// parseMetaZones reads supplemental/metaZones.json: zone → metazone history.
func parseMetaZones(fsys fs.FS) (map[string][]cldrSpan, error) {
	b, err := fs.ReadFile(fsys, "supplemental/metaZones.json")
	if err != nil {
		return nil, err
	}
	var doc struct {
		Supplemental struct {
			MetaZones struct {
				MetazoneInfo struct {
					Timezone map[string]json.RawMessage `json:"timezone"`
				} `json:"metazoneInfo"`
			} `json:"metaZones"`
		} `json:"supplemental"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("metaZones.json: %w", err)
	}
	type use struct {
		UsesMetazone struct {
			Mzone string `json:"_mzone"`
			From  string `json:"_from"`
			To    string `json:"_to"`
		} `json:"usesMetazone"`
	}
	const layout = "2006-01-02 15:04"
	parse := func(s string) (int64, error) {
		if s == "" {
			return 0, nil
		}
		t, err := time.Parse(layout, s)
		if err != nil {
			return 0, err
		}
		return t.Unix(), nil
	}
	out := map[string][]cldrSpan{}
	var walk func(prefix string, m map[string]json.RawMessage, depth int) error
	walk = func(prefix string, m map[string]json.RawMessage, depth int) error {
		if depth > 4 {
			return errors.New("zones nested too deep")
		}
		for k, raw := range m {
			id := k
			if prefix != "" {
				id = prefix + "/" + k
			}
			var uses []use
			if err := json.Unmarshal(raw, &uses); err == nil {
				var spans []cldrSpan
				for _, u := range uses {
					from, err1 := parse(u.UsesMetazone.From)
					to, err2 := parse(u.UsesMetazone.To)
					if err := errors.Join(err1, err2); err != nil || u.UsesMetazone.Mzone == "" {
						return fmt.Errorf("zone %s: bad usesMetazone %+v", id, u)
					}
					spans = append(spans, cldrSpan{u.UsesMetazone.Mzone, from, to})
				}
				out[id] = spans
				continue
			}
			var node map[string]json.RawMessage
			if err := json.Unmarshal(raw, &node); err != nil {
				return fmt.Errorf("zone %s: %w", id, err)
			}
			if err := walk(id, node, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk("", doc.Supplemental.MetaZones.MetazoneInfo.Timezone, 0); err != nil {
		return nil, fmt.Errorf("metaZones.json: %w", err)
	}
	if len(out) == 0 {
		return nil, errors.New("metaZones.json: no zones")
	}
	return out, nil
}

// parseWindowsZones reads supplemental/windowsZones.json: IANA zone → Windows zone id.
func parseWindowsZones(fsys fs.FS) (map[string]string, error) {
	b, err := fs.ReadFile(fsys, "supplemental/windowsZones.json")
	if err != nil {
		return nil, err
	}
	var doc struct {
		Supplemental struct {
			WindowsZones struct {
				MapTimezones []struct {
					MapZone struct {
						Other     string `json:"_other"`
						Type      string `json:"_type"`
						Territory string `json:"_territory"`
					} `json:"mapZone"`
				} `json:"mapTimezones"`
			} `json:"windowsZones"`
		} `json:"supplemental"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("windowsZones.json: %w", err)
	}
	out := map[string]string{}
	for _, m := range doc.Supplemental.WindowsZones.MapTimezones {
		for _, z := range strings.Fields(m.MapZone.Type) {
			if _, ok := out[z]; !ok {
				out[z] = m.MapZone.Other
			}
		}
	}
	if len(out) == 0 {
		return nil, errors.New("windowsZones.json: no zones")
	}
	return out, nil
}

// parseWindowsTexts reads timezones.json of the timezones.json package: Windows zone id →
// description, without the "(UTC…) " prefix, which ipgeo computes from the rules.
func parseWindowsTexts(fsys fs.FS) (map[string]string, error) {
	b, err := fs.ReadFile(fsys, "timezones.json")
	if err != nil {
		return nil, err
	}
	var list []struct {
		Value string `json:"value"`
		Text  string `json:"text"`
	}
	if err := json.Unmarshal(b, &list); err != nil {
		return nil, fmt.Errorf("timezones.json: %w", err)
	}
	out := map[string]string{}
	for _, z := range list {
		text := z.Text
		if strings.HasPrefix(text, "(UTC") {
			if i := strings.Index(text, ") "); i > 0 {
				text = text[i+2:]
			}
		}
		if _, ok := out[z.Value]; !ok && z.Value != "" && text != "" {
			out[z.Value] = text
		}
	}
	return out, nil
}

// parseZoneAliases reads bcp47/timezone.json of cldr-bcp47, which lists every CLDR time
// zone with the ids it is known by, its CLDR id first ("America/New_York US/Eastern
// EST5EDT", "Asia/Calcutta Asia/Kolkata"). It returns each other id → that CLDR id.
func parseZoneAliases(fsys fs.FS) (map[string]string, error) {
	b, err := fs.ReadFile(fsys, "bcp47/timezone.json")
	if err != nil {
		return nil, err
	}
	var doc struct {
		Keyword struct {
			U struct {
				TZ map[string]json.RawMessage `json:"tz"`
			} `json:"u"`
		} `json:"keyword"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("bcp47/timezone.json: %w", err)
	}
	out := map[string]string{}
	for _, raw := range doc.Keyword.U.TZ {
		var z struct {
			Alias string `json:"_alias"`
		}
		if json.Unmarshal(raw, &z) != nil {
			continue // the key's own "_description" and "_alias", which are strings
		}
		ids := strings.Fields(z.Alias)
		for _, id := range ids[min(1, len(ids)):] {
			// An id listed under two zones would make the snapshot depend on map order.
			if prev, ok := out[id]; !ok || ids[0] < prev {
				out[id] = ids[0]
			}
		}
	}
	if len(out) == 0 {
		return nil, errors.New("bcp47/timezone.json: no time zone aliases")
	}
	return out, nil
}

// readTZ assembles the time zone tables for the zones the records use, every zone CLDR
// knows, and the other ids of those that aliases (id → CLDR id, nil without cldr-bcp47)
// gives.
func readTZ(ctx context.Context, core, dates fs.FS, winText fsOpt, aliases map[string]string, used []string) (ipgeo.TZData, tzStats, error) {
	var st tzStats
	meta, err := parseMetaZones(core)
	if err != nil {
		return ipgeo.TZData{}, st, err
	}
	windows, err := parseWindowsZones(core)
	if err != nil {
		return ipgeo.TZData{}, st, err
	}
	parents, err := locale.ParentLocales(core)
	if err != nil {
		return ipgeo.TZData{}, st, err
	}
	likely, err := locale.LikelySubtags(core)
	if err != nil {
		return ipgeo.TZData{}, st, err
	}
	var texts map[string]string
	if winText.ok {
		if texts, err = parseWindowsTexts(winText.fsys); err != nil {
			return ipgeo.TZData{}, st, err
		}
	}

	entries, err := fs.ReadDir(dates, "main")
	if err != nil {
		return ipgeo.TZData{}, st, err
	}
	own := map[string]localeNames{}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if err := ctx.Err(); err != nil {
			return ipgeo.TZData{}, st, err
		}
		ln, err := parseTimeZoneNames(dates, e.Name())
		if err != nil {
			return ipgeo.TZData{}, st, err
		}
		own[e.Name()] = ln
	}
	if _, ok := own["en"]; !ok {
		return ipgeo.TZData{}, st, errors.New("cldr-dates-full: no en locale")
	}
	// target is the CLDR locale whose names a locale shows: itself, or, for a tag such as
	// "zh-TW" that names no locale but a script other than its language's default, the
	// locale of that script ("zh-Hant-TW"), which the truncation walk of the server's locale
	// lookup ("zh-tw" → "zh") would miss.
	target := map[string]string{}
	for l := range own {
		target[l] = l
	}
	for alias, t := range locale.ScriptAliases(likely, func(l string) bool { _, ok := own[l]; return ok }) {
		target[alias] = t
	}
	locales := slices.Sorted(maps.Keys(target))

	mzSet := map[string]bool{}
	for _, spans := range meta {
		for _, s := range spans {
			mzSet[s.mz] = true
		}
	}
	metazones := slices.Sorted(maps.Keys(mzSet))
	mzIndex := map[string]int{}
	for i, m := range metazones {
		mzIndex[m] = i
	}

	// parent returns the CLDR parent of a locale ("" for root).
	parent := func(l string) string {
		if p, ok := parents[l]; ok {
			return p
		}
		if i := strings.LastIndexByte(l, '-'); i > 0 {
			return l[:i]
		}
		if l == "root" {
			return ""
		}
		return "root"
	}
	// resolve returns the names of key in locale l with inheritance; get reads one locale.
	resolve := func(l string, get func(localeNames) (ipgeo.TZNames, bool)) ipgeo.TZNames {
		var chain []string
		for x := l; x != "" && len(chain) < 10; x = parent(x) {
			chain = append(chain, x)
		}
		var n ipgeo.TZNames
		for i := len(chain) - 1; i >= 0; i-- {
			if ln, ok := own[chain[i]]; ok {
				if v, ok := get(ln); ok {
					n = inherit(v, n)
				}
			}
		}
		return inherit(n, ipgeo.TZNames{}) // drop remaining markers
	}

	tz := ipgeo.TZData{Metazones: metazones, Locales: locales, Names: make([][]ipgeo.TZNames, len(locales))}
	for li, l := range locales {
		row := make([]ipgeo.TZNames, len(metazones))
		for mi, m := range metazones {
			row[mi] = resolve(target[l], func(ln localeNames) (ipgeo.TZNames, bool) { v, ok := ln.metazones[m]; return v, ok })
		}
		tz.Names[li] = row
	}

	// Zones: those the places use and those CLDR knows: the zones of metaZones.json and
	// those that timeZoneNames.json names without a metazone (Etc/UTC, "Coordinated
	// Universal Time", short "UTC").
	overridden := map[string]bool{}
	for _, ln := range own {
		for z := range ln.zones {
			overridden[z] = true
		}
	}
	known := func(id string) bool {
		_, ok := meta[id]
		return ok || overridden[id]
	}
	zoneSet := map[string]bool{}
	for _, z := range used {
		zoneSet[z] = true
	}
	for z := range meta {
		zoneSet[z] = true
	}
	for z := range overridden {
		zoneSet[z] = true
	}
	// Whether Go's time zone database knows an alias is the serving binary's business (a
	// zone it lacks answers as unknown there), not the snapshot's: asking here would make
	// the snapshot depend on the machine that built it.
	for _, id := range slices.Sorted(maps.Keys(aliases)) {
		if !known(aliases[id]) || zoneSet[id] {
			continue
		}
		zoneSet[id] = true
		st.aliasZones++
	}
	cldrIDs := slices.Sorted(maps.Keys(meta))
	for _, id := range slices.Sorted(maps.Keys(zoneSet)) {
		cid := id
		if !known(id) {
			if known(aliases[id]) {
				cid = aliases[id] // CLDR's own word, rather than equivalentZone's guess
			} else {
				cid = equivalentZone(id, cldrIDs, meta)
			}
		}
		z := ipgeo.ZoneData{ID: id}
		spans, ok := meta[cid]
		if !ok {
			if slices.Contains(used, id) && !strings.HasPrefix(id, "Etc/") {
				st.noMetazone++
				st.noMetazoneIDs = append(st.noMetazoneIDs, id)
			}
		}
		for _, s := range spans {
			z.Spans = append(z.Spans, ipgeo.MetazoneSpan{From: s.from, To: s.to, Metazone: mzIndex[s.mz]})
		}
		win := windows[id]
		if win == "" {
			win = windows[cid]
		}
		if win != "" && texts != nil {
			if t, ok := texts[win]; ok {
				z.Windows = t
				st.windowsTexts++
			}
		}
		for _, key := range []string{id, cid} {
			if overridden[key] {
				z.Names = make([]ipgeo.TZNames, len(locales))
				for li, l := range locales {
					z.Names[li] = resolve(target[l], func(ln localeNames) (ipgeo.TZNames, bool) { v, ok := ln.zones[key]; return v, ok })
				}
				break
			}
		}
		tz.Zones = append(tz.Zones, z)
	}
	return tz, st, nil
}

// equivalentZone returns the CLDR id of a zone that CLDR knows under another name (CLDR keeps
// the old ids: Asia/Calcutta for Asia/Kolkata, Europe/Kiev for Europe/Kyiv): the CLDR zone of
// the same area (first path component) whose rules give the same offsets and abbreviations
// at every sample instant from 1970 to 2037. It returns id if there is none.
func equivalentZone(id string, cldrIDs []string, meta map[string][]cldrSpan) string {
	loc, err := time.LoadLocation(id)
	if err != nil {
		return id
	}
	area, _, _ := strings.Cut(id, "/")
	var found []string
	for _, c := range cldrIDs {
		if a, _, _ := strings.Cut(c, "/"); a != area {
			continue
		}
		other, err := time.LoadLocation(c)
		if err != nil || !sameRules(loc, other) {
			continue
		}
		found = append(found, c)
	}
	if len(found) == 0 {
		return id
	}
	// Several candidates with the same rules: take the first whose metazones agree with all.
	return found[0]
}

func sameRules(a, b *time.Location) bool {
	for t := time.Date(1970, 1, 15, 0, 0, 0, 0, time.UTC); t.Year() < 2038; t = t.AddDate(0, 0, 15) {
		na, oa := t.In(a).Zone()
		nb, ob := t.In(b).Zone()
		if na != nb || oa != ob {
			return false
		}
	}
	return true
}
