package web

import (
	"net/url"
	"strings"
)

// QueryValue returns the first value of parameter name in a raw (still escaped) query string,
// as url.ParseQuery followed by Get would, and whether the parameter is present. It allocates
// only when the value contains escapes, because every keyed request looks up `key` and most
// endpoints read two or three parameters: building url.Values for that costs a map per request.
//
// Pairs with malformed escapes are skipped (ParseQuery skips them too, reporting an error).
// Pairs containing ';' are skipped, as ParseQuery does since Go 1.17.
func QueryValue(rawQuery, name string) (string, bool) {
	for rawQuery != "" {
		var pair string
		pair, rawQuery, _ = strings.Cut(rawQuery, "&")
		if pair == "" || strings.Contains(pair, ";") {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		if !keyMatches(k, name) {
			continue
		}
		val, ok := unescape(v)
		if !ok {
			continue
		}
		return val, true
	}
	return "", false
}

// keyMatches reports whether the escaped key k decodes to name, without allocating for the
// common unescaped case.
func keyMatches(k, name string) bool {
	if strings.IndexByte(k, '%') < 0 && strings.IndexByte(k, '+') < 0 {
		return k == name
	}
	dk, ok := unescape(k)
	return ok && dk == name
}

func unescape(s string) (string, bool) {
	if strings.IndexByte(s, '%') < 0 && strings.IndexByte(s, '+') < 0 {
		return s, true
	}
	v, err := url.QueryUnescape(s)
	return v, err == nil
}
