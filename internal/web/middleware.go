package web

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Middleware wraps a handler.
type Middleware func(http.Handler) http.Handler

// Stack applies middleware so that the first one listed is the outermost.
func Stack(h http.Handler, mw ...Middleware) http.Handler {
	for i := len(mw) - 1; i >= 0; i-- {
		h = mw[i](h)
	}
	return h
}

// Recover turns a panic in a handler into a logged 500 with the JSON error body, so one bad
// request never takes the process down. http.ErrAbortHandler is re-panicked, as net/http expects.
func Recover(log *slog.Logger) Middleware {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			defer func() {
				v := recover()
				if v == nil {
					return
				}
				if v == http.ErrAbortHandler {
					panic(v)
				}
				log.ErrorContext(r.Context(), "panic", "path", RedactPath(r.URL.EscapedPath()), "panic", fmt.Sprint(v), "stack", string(debug.Stack()), "request_id", w.Header().Get(RequestIDHeader))
				WriteError(w, http.StatusInternalServerError, "An internal error occurred and the request was not completed. Please try again.")
			}()
			next.ServeHTTP(w, r)
		})
	}
}

// RequestIDHeader carries the id of each request in responses, for matching client reports to logs.
const RequestIDHeader = "X-Request-Id"

// RequestIDs numbers requests: a random per-process prefix and a counter, which is unique
// enough to find a request in logs and costs one small allocation.
type RequestIDs struct {
	prefix string
	n      atomic.Uint64
}

// NewRequestIDs returns a generator with a fresh random prefix.
func NewRequestIDs() *RequestIDs {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return &RequestIDs{prefix: hex.EncodeToString(b[:]) + "-"}
}

// Middleware sets the X-Request-Id response header.
func (g *RequestIDs) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()[RequestIDHeader] = []string{g.prefix + strconv.FormatUint(g.n.Add(1), 36)}
		next.ServeHTTP(w, r)
	})
}

// nosniff is the one value of X-Content-Type-Options; its capacity is its length, so a
// handler that adds to the header gets a copy rather than changing it for every request.
var nosniff = []string{"nosniff"}

// NoSniff tells browsers to take every answer as the type it says it is (JSON, the
// dashboard's HTML, its assets), never to guess another from the content.
func NoSniff(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["X-Content-Type-Options"] = nosniff[:1:1]
		next.ServeHTTP(w, r)
	})
}

// statusWriter records the status code and body size for logs and metrics.
type statusWriter struct {
	http.ResponseWriter
	code  int
	bytes int
}

func (s *statusWriter) WriteHeader(code int) {
	if s.code == 0 {
		s.code = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Write(b []byte) (int, error) {
	if s.code == 0 {
		s.code = http.StatusOK
	}
	n, err := s.ResponseWriter.Write(b)
	s.bytes += n
	return n, err
}

// Unwrap lets http.ResponseController reach the underlying writer (flush, deadlines).
func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// Observe is the access-log and metrics middleware. It logs one line per request at Info
// (never the query string's key: see RedactQuery) and records metrics when m is non-nil.
// route names the endpoint for metrics so that paths with ids do not explode label counts.
func Observe(log *slog.Logger, m *Metrics, route string) Middleware {
	var rm *routeMetrics
	if m != nil {
		rm = m.route(route)
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			sw := &statusWriter{ResponseWriter: w}
			next.ServeHTTP(sw, r)
			if sw.code == 0 {
				sw.code = http.StatusOK
			}
			d := time.Since(start)
			if rm != nil {
				rm.observe(sw.code, d)
			}
			if log.Enabled(r.Context(), slog.LevelInfo) {
				log.LogAttrs(r.Context(), slog.LevelInfo, "request",
					slog.String("method", r.Method),
					slog.String("path", RedactPath(r.URL.EscapedPath())),
					slog.String("query", ObscurePersonal(RedactQuery(r.URL.RawQuery))),
					slog.Int("status", sw.code),
					slog.Int("bytes", sw.bytes),
					slog.Duration("duration", d),
					slog.String("remote", r.RemoteAddr),
					slog.String("request_id", w.Header().Get(RequestIDHeader)),
				)
			}
		})
	}
}

// KeyPrefix starts every API key the service issues (auth.KeyPrefix is this one), so that
// the access log can recognise a key wherever a client put it.
const KeyPrefix = "ipa_"

// RedactQuery returns the raw query with the value of every `key` and `password` parameter,
// whatever its case, and anything else that looks like an API key replaced, so keys and
// passwords never reach logs, not even keys sent under a wrong name (KEY=, apikey=) or
// percent-encoded (%69pa_).
func RedactQuery(raw string) string {
	if nothingToRedact(raw) {
		return raw
	}
	return redactQuery(raw)
}

// nothingToRedact reports, without allocating, that redactQuery would return raw as it is:
// no parameter is named key or password (secretParam), and raw has no underscore, as such
// or as %5F, which every key has (KeyPrefix), decoded or not. Nearly every query is such
// (an IPv6 address's %3A aside), so the access log need not split, decode and join it.
func nothingToRedact(raw string) bool {
	if strings.Contains(raw, "_") || strings.Contains(raw, "%5F") || strings.Contains(raw, "%5f") || strings.Contains(raw, "%25") {
		return false
	}
	for rest := raw; rest != ""; {
		var p string
		p, rest = cutPair(rest)
		if k, _, hasValue := strings.Cut(p, "="); hasValue && secretParam(k) {
			return false
		}
	}
	return true
}

// cutPair cuts a query's first pair from the rest. Pairs end at '&' or at ';', which
// handlers refuse (web.CheckQuery) but the access log records all the same, so a secret
// after a ';' is redacted too.
func cutPair(query string) (pair, rest string) {
	i := strings.IndexAny(query, "&;")
	if i < 0 {
		return query, ""
	}
	return query[:i], query[i+1:]
}

// secretParam reports whether the query parameter named k (as sent, percent-encoded or
// not, in any case) is one whose value never reaches logs: key, or password, which only a
// dashboard form sent by GET (a script's mistake) would put in a query.
func secretParam(k string) bool { return keyMatchesFold(k, "key") || keyMatchesFold(k, "password") }

func redactQuery(raw string) string {
	if raw == "" {
		return ""
	}
	if strings.ContainsAny(raw, "yYdD%") { // no parameter named key without a y, nor password without a d
		var b strings.Builder
		for rest := raw; ; {
			sent, next := cutPair(rest)
			if k, _, hasValue := strings.Cut(sent, "="); hasValue && secretParam(k) {
				b.WriteString(k + "=REDACTED")
			} else {
				b.WriteString(sent)
			}
			if len(sent) == len(rest) { // the last pair
				break
			}
			b.WriteByte(rest[len(sent)]) // its separator, as sent
			rest = next
		}
		raw = b.String()
	}
	raw = RedactKeys(raw)
	if !strings.Contains(raw, "%") {
		return raw
	}
	// A key percent-encoded beyond its underscore: only the decoded text shows it, so the
	// name or value that holds it goes whole.
	parts := strings.Split(raw, "&")
	for i, p := range parts {
		k, v, hasValue := strings.Cut(p, "=")
		if hasKey(unescapeAll(k)) {
			k = "REDACTED"
		}
		if hasValue && hasKey(unescapeAll(v)) {
			v = "REDACTED"
		}
		parts[i] = k
		if hasValue {
			parts[i] += "=" + v
		}
	}
	return strings.Join(parts, "&")
}

// hasKey reports whether s holds KeyPrefix followed by a character a key can have.
func hasKey(s string) bool {
	for i := strings.Index(s, KeyPrefix); i >= 0; i = strings.Index(s, KeyPrefix) {
		s = s[i+len(KeyPrefix):]
		if s != "" && isKeyChar(s[0]) {
			return true
		}
	}
	return false
}

// unescapeAll is s decoded by lenientUnescape until nothing is left to decode, at most
// three times: a client that encodes twice (%2569pa_...) sends a key all the same.
func unescapeAll(s string) string {
	for range 3 {
		d := lenientUnescape(s)
		if d == s {
			break
		}
		s = d
	}
	return s
}

// lenientUnescape decodes every well-formed %XX in s and keeps everything else as it is.
func lenientUnescape(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
			continue
		}
		b = append(b, s[i])
	}
	return string(b)
}

// RedactKeys replaces every API key in s (KeyPrefix and the characters after it, also with
// the underscore percent-encoded) with REDACTED; the access log passes paths through it.
func RedactKeys(s string) string {
	if !strings.Contains(s, "ipa") {
		return s
	}
	var b strings.Builder
	for {
		i, n := keyStart(s)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := i + n
		for end < len(s) && isKeyChar(s[end]) {
			end++
		}
		b.WriteString(s[:i])
		b.WriteString("REDACTED")
		s = s[end:]
	}
}

// RedactText is RedactKeys for text that quotes what a client sent, already decoded once
// (an error message naming a parameter's value): where decoding it further shows a key
// (%2569pa_..., sent encoded twice), the key goes in its decoded form.
func RedactText(s string) string {
	if d := unescapeAll(s); d != s && hasKey(d) {
		s = d
	}
	return RedactKeys(s)
}

// RedactPath is RedactKeys for a path as sent (URL.EscapedPath), which error answers quote:
// a segment whose decoded text holds a key (/data/%69pa_...) goes whole, as in RedactQuery.
func RedactPath(p string) string {
	p = RedactKeys(p)
	if !strings.Contains(p, "%") {
		return p
	}
	segs := strings.Split(p, "/")
	for i, s := range segs {
		if hasKey(unescapeAll(s)) {
			segs[i] = "REDACTED"
		}
	}
	return strings.Join(segs, "/")
}

// keyStart returns where the first key prefix in s begins and its length ("ipa_", or
// "ipa%5F" with the underscore percent-encoded), or -1. It looks at each "ipa" once, so
// that redacting a string full of them takes time in proportion to its length (searching
// for each spelling afresh after every match took seconds for a crafted 30 KB query).
func keyStart(s string) (int, int) {
	for off := 0; ; {
		i := strings.Index(s[off:], "ipa")
		if i < 0 {
			return -1, 0
		}
		i += off
		switch rest := s[i+3:]; {
		case rest != "" && rest[0] == '_':
			return i, len(KeyPrefix)
		case len(rest) >= 3 && rest[:2] == "%5" && (rest[2] == 'F' || rest[2] == 'f'):
			return i, len("ipa%5F")
		}
		off = i + 1
	}
}

// isKeyChar reports whether c may be part of a key as sent: base32 letters and digits, '%'
// for a client that percent-encoded some of them, and '_', so that keys run together
// ("ipa_AAAipa_BBB") go whole rather than leaving the second's characters behind.
func isKeyChar(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '%' || c == '_'
}

// LimitRequests bounds request bodies and the time a handler may take: every REST call is a
// lookup that should answer in microseconds, so a slow one is a bug or an attack.
//
// The time limit is a deadline on the request's context, and the handler runs on the
// connection's goroutine. The lookups themselves are CPU-bound and short; what can block is
// the account store (a key not yet cached, a quota lease to refill), and those calls take
// the context, so they give up at the deadline and the handler's error table answers 503.
// http.TimeoutHandler would also bound the rare handler that ignores its context, but at a
// price on every request: a goroutine (whose stack grows on the render path), a timer, and
// the whole body buffered and copied; measured, that doubled the server CPU per request of
// the geolocation answer. The server's WriteTimeout still bounds every connection.
//
// A body announced larger than maxBody is the JSON 413 at once.
func LimitRequests(maxBody int64, timeout time.Duration) Middleware {
	return LimitRequestsAnswering(maxBody, timeout, func(w http.ResponseWriter, _ *http.Request) {
		WriteError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("The request body is larger than the limit of %d bytes.", maxBody))
	})
}

// LimitRequestsAnswering is LimitRequests answering a body announced too large with
// tooLarge, for handlers that answer in another format than JSON (the dashboard's HTML).
func LimitRequestsAnswering(maxBody int64, timeout time.Duration, tooLarge http.HandlerFunc) Middleware {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.ContentLength > maxBody {
				tooLarge(w, r)
				return
			}
			if r.Body != nil && r.Body != http.NoBody {
				r.Body = http.MaxBytesReader(w, r.Body, maxBody)
				if timeout > 0 {
					// Reading the body does not watch the context: without a deadline on
					// the connection, a body sent a byte a second holds the handler until
					// the server's ReadTimeout, and its answer is lost to the write
					// deadline. Readers see os.ErrDeadlineExceeded (BodyTimedOut).
					_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(timeout))
				}
			}
			if timeout > 0 {
				ctx, cancel := context.WithTimeout(r.Context(), timeout)
				defer cancel()
				r = r.WithContext(ctx)
			}
			next.ServeHTTP(w, r)
		})
	}
}

// BodyTimedOut reports whether err, from reading a request body, means that the body did
// not arrive within LimitRequests' time limit: the answer is 408 Request Timeout.
func BodyTimedOut(err error) bool { return errors.Is(err, os.ErrDeadlineExceeded) }

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}
