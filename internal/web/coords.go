package web

import (
	"math"
	"strconv"
	"strings"
)

// CoarsenCoordinates returns the raw query with every latitude and longitude value cut to
// two decimal places (48.85661399999999 is logged as 48.85): 0.01° is about a kilometre,
// enough to tell what was asked and too little to find the device that asked. Browsers
// send their users' exact positions to the keyless endpoints, and the access log holds
// them beside the address they came from.
//
// A parameter is taken for a coordinate as the handlers take it (keyMatches: its key
// decoded, so lat%69tude is latitude), and its value is read as a number however it is
// written (48%2E85, 4885e-2); one that is not a number is logged as "unparsed", since a
// position the handlers refuse (48,856614) can still be a position. Queries that cannot
// hold a coordinate are returned as they are, unallocated.
func CoarsenCoordinates(raw string) string {
	if !mayHoldCoordinate(raw) {
		return raw
	}
	pairs := strings.Split(raw, "&")
	changed := false
	for i, p := range pairs {
		k, v, ok := strings.Cut(p, "=")
		if !ok || !keyMatches(k, "latitude") && !keyMatches(k, "longitude") {
			continue
		}
		pairs[i], changed = k+"="+coarseCoordinate(v), true
	}
	if !changed {
		return raw
	}
	return strings.Join(pairs, "&")
}

// mayHoldCoordinate reports, without allocating, whether a key of raw is or may decode to
// latitude or longitude. A value's escapes do not count: an IPv6 address's %3A is in
// most queries that have a %, and splitting those on every logged request would cost an
// allocation each.
func mayHoldCoordinate(raw string) bool {
	for rest := raw; rest != ""; {
		var p string
		p, rest, _ = strings.Cut(rest, "&")
		k, _, _ := strings.Cut(p, "=")
		if k == "latitude" || k == "longitude" || strings.ContainsAny(k, "%+") {
			return true
		}
	}
	return false
}

// coarseCoordinate is the escaped value v truncated to two decimal places, "unparsed", or
// "" for an empty one.
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
