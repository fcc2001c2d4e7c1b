package api

import (
	"math"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"github.com/ipatlas/ipatlas/internal/web"
)

// # Keyless endpoints (operator notes)
//
// GET /data/reverse-geocode-client and GET /data/am-i-roaming (and routes_client.go's
// client-ip and client-info) need no API key: they are
// meant to be called from browsers and mobile apps, where a key cannot be kept secret.
// Because nothing meters them, they are protected differently:
//
//   - CORS: every answer, errors included, carries Access-Control-Allow-Origin: * (no
//     credentials are involved, so any web page may call them), and OPTIONS preflight
//     requests are answered with 204 and the allowed method (GET) and headers.
//   - Rate limit: a token bucket per client address, KeylessRate requests per second with
//     bursts of KeylessBurst (10/s, burst 20). IPv6 clients are counted per /64, the
//     block one subscriber usually holds. Over the limit the answer is 429 Too Many
//     Requests with a Retry-After header (seconds) and the usual JSON error body.
//     Preflight requests are not counted.
//   - The client address is the TCP peer, or behind reverse proxies listed in
//     --trusted-proxies the address they forward. Without --trusted-proxies behind a
//     proxy, every client shares the proxy's bucket: set it when running behind one.
//   - Memory is bounded: at most KeylessMaxClients addresses are tracked (about 6 MB; up
//     to 10 MB after heavy churn, as Go maps keep their size once grown).
//     When the table is full, buckets that have refilled (idle clients) are dropped
//     first, then arbitrary ones; a dropped client starts again with a full bucket, so
//     churn can only make the limit more lenient, never block a client wrongly.
//   - The limits are per replica: N replicas behind a load balancer allow up to N times
//     the rate to a client whose requests are spread over them.
//
// The limits are package defaults (no flag yet); keyed endpoints have no rate limit, only
// the monthly volume (spec, Limits).
const (
	KeylessRate       = 10    // requests per second per client, sustained
	KeylessBurst      = 20    // requests a client may make at once
	KeylessMaxClients = 65536 // client addresses tracked at most, per server
)

// Parsing a User-Agent string the parser has not seen costs milliseconds of CPU, and a
// keyless caller may send any string, so client-info parses such strings at most
// KeylessUAParsesPerClient a second for one client address (bursts of
// KeylessUAParsesBurst) and KeylessUAParses a second for all of them together (bursts of
// twice as many): a few dozen addresses can no longer keep everyone else's new strings out.
const (
	KeylessUAParses          = 30
	KeylessUAParsesPerClient = 1
	KeylessUAParsesBurst     = 5
)

// parseBudget bounds the unseen User-Agent strings client-info parses: one bucket per client
// address inside one for the whole server.
type parseBudget struct{ perClient, all *keylessLimiter }

func newParseBudget() parseBudget {
	return parseBudget{
		perClient: newKeylessLimiter(KeylessUAParsesPerClient, KeylessUAParsesBurst, KeylessMaxClients),
		all:       newKeylessLimiter(KeylessUAParses, 2*KeylessUAParses, 1),
	}
}

// take spends one parse of client's, or returns the 429 (client's own budget spent) or 503
// (everyone's) to answer instead, with Retry-After set on w.
func (b parseBudget) take(w http.ResponseWriter, client netip.Addr) error {
	if ok, wait := b.perClient.allow(client); !ok {
		secs := keylessRetrySecs(wait)
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		return web.Errorf(http.StatusTooManyRequests, "Too many User-Agent strings the server has not seen before from this address: it parses %d a second for one client (bursts of %d). Retry after %d s.", KeylessUAParsesPerClient, KeylessUAParsesBurst, secs)
	}
	if ok, wait := b.all.allow(netip.Addr{}); !ok {
		secs := keylessRetrySecs(wait)
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		return web.Errorf(http.StatusServiceUnavailable, "The server is parsing too many User-Agent strings it has not seen before (at most %d a second, for all clients of the keyless endpoints). Retry after %d s.", KeylessUAParses, secs)
	}
	return nil
}

const keylessShards = 16

// keylessLimiter is a token bucket per client address, in a sharded, bounded table. The
// zero value is not usable; build one with newKeylessLimiter.
type keylessLimiter struct {
	rate, burst float64
	perShard    int
	now         func() time.Duration // monotonic time since an arbitrary origin
	shards      [keylessShards]keylessShard
}

type keylessShard struct {
	mu sync.Mutex
	m  map[netip.Addr]keylessBucket
	_  [40]byte // keep shards on separate cache lines
}

type keylessBucket struct {
	tokens float64
	at     time.Duration
}

func newKeylessLimiter(rate float64, burst, maxClients int) *keylessLimiter {
	start := time.Now()
	l := &keylessLimiter{rate: rate, burst: float64(burst), perShard: max(1, maxClients/keylessShards),
		now: func() time.Duration { return time.Since(start) }}
	for i := range l.shards {
		l.shards[i].m = make(map[netip.Addr]keylessBucket)
	}
	return l
}

func keylessShardOf(a netip.Addr) int {
	b := a.As16()
	var h uint64 = 14695981039346656037
	for _, c := range b {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return int(h % keylessShards)
}

// allow takes a token from a's bucket. When there is none it reports false and how long
// until there is one.
func (l *keylessLimiter) allow(a netip.Addr) (bool, time.Duration) {
	a = web.ClientKey(a)
	sh := &l.shards[keylessShardOf(a)]
	now := l.now()
	sh.mu.Lock()
	defer sh.mu.Unlock()
	bk, ok := sh.m[a]
	if !ok {
		if len(sh.m) >= l.perShard {
			l.evict(sh, now)
		}
		bk = keylessBucket{tokens: l.burst, at: now}
	} else {
		bk.tokens = math.Min(l.burst, bk.tokens+(now-bk.at).Seconds()*l.rate)
		bk.at = now
	}
	if bk.tokens < 1 {
		sh.m[a] = bk
		wait := time.Duration((1 - bk.tokens) / l.rate * float64(time.Second))
		return false, wait
	}
	bk.tokens--
	sh.m[a] = bk
	return true, 0
}

// evict makes room in a full shard: buckets that have refilled are dropped (forgetting
// them changes nothing), and if that frees nothing, an eighth of the shard, arbitrarily.
func (l *keylessLimiter) evict(sh *keylessShard, now time.Duration) {
	full := time.Duration(l.burst / l.rate * float64(time.Second))
	for k, bk := range sh.m {
		if now-bk.at >= full {
			delete(sh.m, k)
		}
	}
	for k := range sh.m {
		if len(sh.m) < l.perShard-l.perShard/8 {
			break
		}
		delete(sh.m, k)
	}
}

// keyless wraps a keyless endpoint in admitKeyless.
func (s *Server) keyless(l *keylessLimiter, fn web.HandlerFunc) web.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		if err := s.admitKeyless(l, w, r); err != nil {
			return err
		}
		return fn(w, r)
	}
}

// admitKeyless is the door of every keyless lookup, REST or GraphQL: the per-address rate
// limit. (Their routes are registered with openCORS, which adds the CORS headers to every
// answer.)
func (s *Server) admitKeyless(l *keylessLimiter, w http.ResponseWriter, r *http.Request) error {
	return keylessTake(l, s.keylessAddr(r), w)
}

// keylessTake takes one request from a's bucket of l, or returns the 429 with Retry-After
// set on w: the REST door's refusal, and each further GraphQL root's (graphqlAnswerer.charge).
func keylessTake(l *keylessLimiter, a netip.Addr, w http.ResponseWriter) error {
	if ok, wait := l.allow(a); !ok {
		secs := keylessRetrySecs(wait)
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		return keylessRefused(secs)
	}
	return nil
}

// keylessAddr is the address whose bucket r draws on; unknown: the zero Addr, one shared
// bucket.
func (s *Server) keylessAddr(r *http.Request) netip.Addr {
	a, _ := s.opt.ClientAddrs.Of(r)
	return a
}

func keylessRetrySecs(wait time.Duration) int { return max(1, int(math.Ceil(wait.Seconds()))) }

// keylessRefused is the 429 of a keyless lookup over the rate limit.
func keylessRefused(secs int) error {
	return web.Errorf(http.StatusTooManyRequests, "Too many requests from this address: the keyless endpoints allow %d requests per second (bursts of %d). Retry after %d s.", KeylessRate, KeylessBurst, secs)
}

// keylessPreflight answers CORS preflight requests to the keyless REST endpoints.
func keylessPreflight(w http.ResponseWriter, r *http.Request) error {
	return corsPreflight(w, r, "GET, OPTIONS")
}

// corsPreflight answers a CORS preflight request for a keyless resource that allows methods
// (its route registered with openCORS, which adds the origin headers).
func corsPreflight(w http.ResponseWriter, r *http.Request, methods string) error {
	h := w.Header()
	h.Set("Access-Control-Allow-Methods", methods)
	if req := r.Header.Get("Access-Control-Request-Headers"); req != "" && len(req) <= 1024 {
		h.Set("Access-Control-Allow-Headers", req)
	}
	h.Set("Access-Control-Max-Age", "86400")
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func keylessCORS(h http.Header) {
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Expose-Headers", "Retry-After, X-Request-Id")
}
