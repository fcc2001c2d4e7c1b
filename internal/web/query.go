package web

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// QueryValue returns the first value of parameter name in a raw (still escaped) query string,
// as url.ParseQuery followed by Get would, and whether the parameter is present. It allocates
// only when the value contains escapes, because every keyed request looks up `key` and most
// endpoints read two or three parameters: building url.Values for that costs a map per request.
//
// Pairs with malformed escapes are skipped (ParseQuery skips them too, reporting an error).
// Pairs containing ';' are skipped, as ParseQuery does since Go 1.17. Handlers refuse such
// queries first (CheckQuery), so that a skipped pair never reads as an absent parameter.
func QueryValue(rawQuery, name string) (string, bool) {
	_, val, ok := queryPair(rawQuery, name)
	return val, ok
}

// RawQueryValue is QueryValue's value as it was sent, still escaped: what the client wrote
// for the parameter whose decoded value QueryValue returns.
func RawQueryValue(rawQuery, name string) (string, bool) {
	raw, _, ok := queryPair(rawQuery, name)
	return raw, ok
}

// queryPair finds the pair QueryValue reads, and returns its value escaped and decoded.
func queryPair(rawQuery, name string) (raw, val string, ok bool) {
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
		if val, ok := unescape(v); ok {
			return v, val, true
		}
	}
	return "", "", false
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

// keyMatchesFold is keyMatches ignoring case.
func keyMatchesFold(k, name string) bool {
	dk, ok := unescape(k)
	return ok && strings.EqualFold(dk, name)
}

func unescape(s string) (string, bool) {
	if strings.IndexByte(s, '%') < 0 && strings.IndexByte(s, '+') < 0 {
		return s, true
	}
	v, err := url.QueryUnescape(s)
	return v, err == nil
}

// CheckQuery returns an error naming the first pair of the raw query that url.ParseQuery
// would refuse: one with a malformed %-escape, or one holding ';' (refused since Go 1.17).
// QueryValue skips such pairs, as ParseQuery does; a handler that went on would answer
// another question than the one asked (an ip that does not decode reads as "no ip", which
// means the caller's own address), so the API refuses the request instead.
func CheckQuery(rawQuery string) error {
	if strings.IndexByte(rawQuery, '%') < 0 && strings.IndexByte(rawQuery, ';') < 0 {
		return nil
	}
	for rest := rawQuery; rest != ""; {
		var pair string
		pair, rest, _ = strings.Cut(rest, "&")
		if strings.IndexByte(pair, ';') >= 0 {
			return fmt.Errorf("parameters are separated by '&', not ';' (in %s)", quotePair(pair))
		}
		if !validEscapes(pair) {
			return fmt.Errorf("%s has a '%%' that is not followed by two hexadecimal digits", quotePair(pair))
		}
	}
	return nil
}

// validEscapes reports whether every '%' in s starts a %XX escape.
func validEscapes(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			continue
		}
		if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
			return false
		}
		i += 2
	}
	return true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// quotePair quotes a query pair for an error message, cut to a readable length.
func quotePair(pair string) string {
	const limit = 64
	pair = RedactQuery(pair) // a key sent beside the mistake (code=IE;key=ipa_...) stays out of the answer
	if len(pair) > limit {
		return strconv.Quote(pair[:limit]) + "..."
	}
	return strconv.Quote(pair)
}
