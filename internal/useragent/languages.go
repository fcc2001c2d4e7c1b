package useragent

import (
	"slices"
	"strconv"
	"strings"
)

// MaxLanguages is the most language ranges Languages returns; browsers send a handful.
const MaxLanguages = 20

// Languages returns the language ranges of an Accept-Language header (RFC 9110 12.5.4),
// most preferred first: by quality, and in the header's order among equals ("en-US,
// en;q=0.9" is [en-US en]). Ranges with quality 0 (not acceptable), "*" (any) and
// malformed elements are left out, as are duplicates (case aside) after their first
// appearance and everything past the first MaxLanguages ranges. The ranges are written as
// sent. The result is never nil. (golang.org/x/text's ParseAcceptLanguage, already a
// dependency, refuses a whole header for one malformed element, keeps duplicates, writes
// "*" as "mul" and rewrites the tags: a page asking what its browser sends wants them as
// sent.)
func Languages(header string) []string {
	type ranked struct {
		tag string
		q   float64
	}
	var rs []ranked
	for elem := range strings.SplitSeq(header, ",") {
		if len(rs) == MaxLanguages {
			break
		}
		tag, params, _ := strings.Cut(elem, ";")
		tag = strings.TrimSpace(tag)
		if !languageRange(tag) {
			continue
		}
		q, ok := quality(params)
		if !ok || q == 0 {
			continue
		}
		if slices.ContainsFunc(rs, func(r ranked) bool { return strings.EqualFold(r.tag, tag) }) {
			continue
		}
		rs = append(rs, ranked{tag, q})
	}
	slices.SortStableFunc(rs, func(a, b ranked) int {
		switch {
		case a.q > b.q:
			return -1
		case a.q < b.q:
			return 1
		}
		return 0
	})
	out := make([]string, 0, len(rs))
	for _, r := range rs {
		out = append(out, r.tag)
	}
	return out
}

// languageRange reports whether s is a language range other than "*": subtags of 1 to 8
// letters or digits joined by hyphens, the first all letters.
func languageRange(s string) bool {
	if s == "" || len(s) > 35 { // 35: the longest locale localityLanguage takes, too
		return false
	}
	for i, sub := range strings.Split(s, "-") {
		if sub == "" || len(sub) > 8 {
			return false
		}
		for _, c := range []byte(sub) {
			letter := 'a' <= c|0x20 && c|0x20 <= 'z'
			if !letter && (i == 0 || c < '0' || c > '9') {
				return false
			}
		}
	}
	return true
}

// quality reads the q parameter of an element's parameters ("q=0.8"), 1 when there is none.
// A malformed one (not 0 to 1 with at most three decimals) makes the element malformed.
func quality(params string) (float64, bool) {
	q := 1.0
	for p := range strings.SplitSeq(params, ";") {
		k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(k), "q") {
			continue
		}
		v = strings.TrimSpace(v)
		if len(v) == 0 || len(v) > 5 || (v[0] != '0' && v[0] != '1') || strings.ContainsAny(v, "+-eE_xXpP") {
			return 0, false
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f > 1 {
			return 0, false
		}
		q = f
	}
	return q, true
}
