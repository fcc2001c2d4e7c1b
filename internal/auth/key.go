// Package auth decides who is calling: it reads the API key from a request, generates new
// keys, and resolves a key to its account through a cache that drops an account's entries as
// soon as the store records a change to it (a regenerated key stops working at once).
// Keys are never stored or logged: only their SHA-256 is kept.
package auth

import (
	"crypto/rand"
	"errors"
	"net/http"

	"github.com/ipatlas/ipatlas/internal/web"
)

// Errors that the API maps to 401.
var (
	ErrMissingKey = errors.New("auth: no API key")
	ErrInvalidKey = errors.New("auth: invalid API key")
)

// Header names that carry the key. x-service-key is the spec's; x-bdc-key is what clients
// of the commercial service send, accepted so they work unchanged. Stored canonicalised so
// reading them allocates nothing.
const (
	HeaderServiceKey = "X-Service-Key"
	HeaderBDCKey     = "X-Bdc-Key"
)

// MaxKeyLen bounds accepted keys; anything longer is not a key this service issued.
const MaxKeyLen = 128

// KeyPrefix starts every generated key, so leaked keys are easy to recognise in code scans
// and the access log can redact them wherever a client put them (web.KeyPrefix).
const KeyPrefix = web.KeyPrefix

// KeyFrom returns the API key sent with r: the x-service-key header, else x-bdc-key, else
// the `key` query parameter. Empty values count as absent.
func KeyFrom(r *http.Request) (string, bool) {
	for _, h := range [...]string{HeaderServiceKey, HeaderBDCKey} {
		if v := r.Header[h]; len(v) > 0 && v[0] != "" {
			return v[0], true
		}
	}
	if v, ok := web.QueryValue(r.URL.RawQuery, "key"); ok && v != "" {
		return v, true
	}
	return "", false
}

// NewKey returns a fresh random key: the prefix and 26 base32 characters (130 bits).
func NewKey() string { return KeyPrefix + rand.Text() }
