package web

import "strings"

// coordDecimals is how many decimal places of a coordinate the access log keeps: 0.01° is
// about a kilometre, enough to tell what was asked and too little to find the device that
// asked. Browsers send their users' exact positions (48.85661399999999) to the keyless
// endpoints, and the log holds them beside the address they came from.
const coordDecimals = 2

// CoarsenCoordinates returns the raw query with the digits of every latitude and longitude
// value beyond coordDecimals decimal places cut (48.85661399999999 is logged as 48.85);
// whatever follows them, an exponent or a mistake, stays, so a refused value can still be
// read in the log. Queries without such a parameter are returned as they are, unallocated.
func CoarsenCoordinates(raw string) string {
	if !strings.Contains(raw, "itude=") {
		return raw
	}
	pairs := strings.Split(raw, "&")
	for i, p := range pairs {
		k, v, ok := strings.Cut(p, "=")
		if !ok || (k != "latitude" && k != "longitude") {
			continue
		}
		dot := strings.IndexByte(v, '.')
		if dot < 0 {
			continue
		}
		keep := dot + 1
		for keep < len(v) && keep-dot-1 < coordDecimals && isDigit(v[keep]) {
			keep++
		}
		end := keep
		for end < len(v) && isDigit(v[end]) {
			end++
		}
		pairs[i] = k + "=" + v[:keep] + v[end:]
	}
	return strings.Join(pairs, "&")
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
