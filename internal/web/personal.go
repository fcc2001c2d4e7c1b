package web

import (
	"math"
	"net/url"
	"strconv"
	"strings"
	"unicode"
)

// ObscurePersonal returns the raw query for the access log with what it says about a
// person cut down: coordinates to about a kilometre (coarseCoordinate), phone numbers to
// their first digits (maskedNumber) and emails to their domain (maskedEmail). The access log holds each query beside the address it
// came from; browsers send their users' exact positions to the keyless endpoints, and a
// phone number names its subscriber.
//
// A parameter is recognised as the handlers recognise it (keyMatches: its key decoded, so
// lat%69tude is latitude), and also after a ';': the handlers refuse a query separated by
// semicolons (x=1;number=...), but the access log still records it, and the number in it
// is as much a person's as in one they answer. Queries that cannot hold either are
// returned as they are, unallocated.
func ObscurePersonal(raw string) string {
	if !mayHoldPersonal(raw) {
		return raw
	}
	pairs := strings.Split(raw, "&")
	changed := false
	for i, p := range pairs {
		parts := strings.Split(p, ";")
		for j, q := range parts {
			var c bool
			parts[j], c = obscurePair(q)
			changed = changed || c
		}
		pairs[i] = strings.Join(parts, ";")
	}
	if !changed {
		return raw
	}
	return strings.Join(pairs, "&")
}

// obscurePair is ObscurePersonal for one key=value pair, and reports whether it changed it.
func obscurePair(p string) (string, bool) {
	k, v, ok := strings.Cut(p, "=")
	switch {
	case !ok:
		return p, false
	case keyMatches(k, "latitude") || keyMatches(k, "longitude"):
		return k + "=" + coarseCoordinate(v), true
	case keyMatches(k, "number"):
		return k + "=" + maskedNumber(v), true
	case keyMatches(k, "email"):
		return k + "=" + maskedEmail(v), true
	}
	return p, false
}

// maskedEmail keeps of an email (as sent: its @ may be %40) the domain alone: a dashboard
// form sent by GET would put the account's address in the query.
func maskedEmail(v string) string {
	at := max(strings.LastIndex(v, "@"), strings.LastIndex(strings.ToUpper(v), "%40"))
	if at < 0 {
		return "REDACTED"
	}
	return "REDACTED" + v[at:]
}

// mayHoldPersonal reports, without allocating, whether a key of raw is or may decode to
// latitude, longitude, number or email, pairs being separated by '&' or ';'. A value's escapes do
// not count: an IPv6 address's %3A is in most queries that have a %, and splitting those
// on every logged request would cost an allocation each.
func mayHoldPersonal(raw string) bool {
	for rest := raw; rest != ""; {
		var p string
		p, rest = cutPair(rest)
		k, _, _ := strings.Cut(p, "=")
		if k == "latitude" || k == "longitude" || k == "number" || k == "email" || strings.ContainsAny(k, "%+") {
			return true
		}
	}
	return false
}

// numberDigitsKept is how many digits of a phone number the log keeps: enough for its
// country calling code or trunk prefix (+353, 087), which tells what kind of number was
// asked about, and not its subscriber's part.
const numberDigitsKept = 3

// maskedNumber is the escaped value v with every digit or letter after the first
// numberDigitsKept replaced by x, escaped again: "+353 1 234 5678" is logged as
// "+353 x xxx xxxx". Letters count because the handlers read them as digits (1-800-FLOWERS),
// and so do digits of other scripts (full-width ３５３). The rest stays, so a number's shape
// still shows why it was refused. A value that does not decode is logged as "unparsed", as
// a coordinate is.
func maskedNumber(v string) string {
	d, ok := unescape(v)
	if !ok {
		return "unparsed"
	}
	seen := 0
	masked := strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) || unicode.IsLetter(r) {
			if seen++; seen > numberDigitsKept {
				return 'x'
			}
		}
		return r
	}, d)
	return url.QueryEscape(masked)
}

// coarseCoordinate is the escaped value v truncated to two decimal places (48.85661399999999
// is logged as 48.85): 0.01° is about a kilometre, enough to tell what was asked and too
// little to find the device that asked. The value is read as a number however it is
// written (48%2E85, 4885e-2); one that is not a number is logged as "unparsed", since a
// position the handlers refuse (48,856614) can still be a position; "" for an empty one.
func coarseCoordinate(v string) string {
	d, ok := unescape(v)
	if !ok {
		return "unparsed"
	}
	d = strings.TrimSpace(d)
	if d == "" {
		return "" // no position in it
	}
	f, err := strconv.ParseFloat(d, 64)
	if err != nil || math.IsNaN(f) || math.Abs(f) > 1e15 { // beyond that, f*100 loses the cents or overflows
		return "unparsed"
	}
	return strconv.FormatFloat(math.Trunc(f*100)/100, 'f', 2, 64)
}
