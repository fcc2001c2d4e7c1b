package api

import (
	"net/http"

	"github.com/ipatlas/ipatlas/internal/auth"
	"github.com/ipatlas/ipatlas/internal/locale"
	"github.com/ipatlas/ipatlas/internal/web"
)

// maxParamLen bounds any single parameter value: no lookup input is longer, and a bound
// keeps error descriptions (which quote the input) short.
const maxParamLen = 256

// checkLocalityLanguage refuses a localityLanguage longer than locale.MaxTagLen, spaces included
// (the geolocation echoes it as sent), on every lookup alike (the /data/ routes, and GraphQL's
// fields): an unknown code falls back to English, but a value that long is no code.
func checkLocalityLanguage(rawQuery string) error {
	if v, ok := web.QueryValue(rawQuery, "localityLanguage"); ok && len(v) > locale.MaxTagLen {
		return badRequest("The localityLanguage parameter is too long (%d characters at most): use an ISO 639-1 code such as en or de, a CLDR locale such as zh-Hant, or default.", locale.MaxTagLen)
	}
	return nil
}

// param returns a query parameter, or "" when absent.
func param(r *http.Request, name string) string {
	v, _ := web.QueryValue(r.URL.RawQuery, name)
	return v
}

// paramOK returns a query parameter and whether it was present.
func paramOK(r *http.Request, name string) (string, bool) {
	return web.QueryValue(r.URL.RawQuery, name)
}

// authKey is auth.KeyFrom; a variable-free indirection kept so tests can see the one place
// keyed handlers read the key.
func authKey(r *http.Request) (string, bool) { return auth.KeyFrom(r) }

// quoteInput shortens client input for inclusion in an error description, with anything
// that looks like an API key redacted (a key sent as ip=, say): answers pass through proxies
// and client logs.
func quoteInput(s string) string {
	s = web.RedactText(s)
	if len(s) > 64 {
		s = s[:64] + "..."
	}
	return `"` + s + `"`
}
