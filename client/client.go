// Package client is a Go client for the ipatlas API: one method per REST endpoint plus
// GraphQL, typed request options, and response types that mirror the JSON field for field.
//
//	c, err := client.New("http://127.0.0.1:8080", key)
//	geo, err := c.IPGeolocationWithConfidence(ctx, client.GeolocationRequest{IP: "8.8.8.8"})
//
// The key is sent in the x-service-key header, never in the URL, not at all to the keyless
// endpoints, and not on to another host or from https to http when a redirect points there.
// A non-2xx answer is returned as an *Error carrying the service's status and description.
//
// Fields the service may leave out are pointers or carry omitempty, so that an absent
// field reads as nil (or the zero value where the service never sends it), and encoding a
// response again gives the JSON the service sent. Decoding ignores fields this version
// does not know, so a newer server does not break an older client.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// MaxResponseBytes bounds the answers the client reads. The largest real answer, a
// network-by-cidr listing of 1000 networks, is well under a megabyte.
const MaxResponseBytes = 32 << 20

const defaultTimeout = 30 * time.Second

// keyHeader carries the API key.
const keyHeader = "x-service-key"

// Client calls one ipatlas server. It is safe for concurrent use.
type Client struct {
	base      *url.URL
	key       string
	http      *http.Client
	userAgent string
}

// Option configures a Client.
type Option func(*Client)

// WithHTTPClient sets the HTTP client (timeouts, transport, proxies). The default is a
// client with a 30 s timeout. The client uses a copy of hc whose redirect policy also drops
// the key where a redirect leaves the server (see New); hc's own policy still applies.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *Client) { c.http = hc }
}

// WithUserAgent sets the User-Agent header of every request.
func WithUserAgent(ua string) Option {
	return func(c *Client) { c.userAgent = ua }
}

// New returns a client for the server at baseURL (such as "http://127.0.0.1:8080", or a
// URL with a path prefix when the server sits behind a proxy under one) using key for the
// endpoints that need one. key may be empty to call only the keyless endpoints.
func New(baseURL, key string, opts ...Option) (*Client, error) {
	u, err := url.Parse(baseURL)
	if err != nil {
		return nil, fmt.Errorf("client: base URL %q: %w", baseURL, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("client: base URL %q must be absolute, as http://host:port", baseURL)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("client: base URL %q must not have a query or fragment", baseURL)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = ""
	c := &Client{base: u, key: key, http: &http.Client{Timeout: defaultTimeout}, userAgent: "ipatlas-go-client"}
	for _, o := range opts {
		o(c)
	}
	if c.http == nil {
		c.http = &http.Client{Timeout: defaultTimeout}
	}
	c.http = keyStaysHome(c.http)
	return c, nil
}

// keyStaysHome returns a copy of hc whose redirects drop the API key once the chain has
// led to another host, or from https to http, even if it comes back (A → B → A: B would
// choose where on A the key goes). net/http copies the first request's headers, custom ones
// included, onto every hop (it drops only Authorization and cookies), and the service never
// redirects a call, so a redirect comes from something in between that has no business
// with the key.
func keyStaysHome(hc *http.Client) *http.Client {
	cp := *hc
	policy := hc.CheckRedirect
	cp.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		from := via[0].URL
		away := func(hop *http.Request) bool {
			return hop.URL.Host != from.Host || (from.Scheme == "https" && hop.URL.Scheme != "https")
		}
		if away(req) || slices.ContainsFunc(via[1:], away) {
			req.Header.Del(keyHeader)
		}
		if policy != nil {
			return policy(req, via)
		}
		if len(via) >= 10 { // net/http's default policy
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	return &cp
}

// Error is a non-2xx answer: the service's {"status", "description"} body.
type Error struct {
	Status      int    `json:"status"` // the HTTP status, whatever the body says
	Description string `json:"description"`
	// RetryAfter is how long the server asks the caller to wait before trying again: the
	// answer's Retry-After header in seconds (the service sends one with 429 and 503),
	// at most a day; 0 when there is none or it is not a number of seconds.
	RetryAfter time.Duration `json:"-"`
}

func (e *Error) Error() string {
	return fmt.Sprintf("ipatlas: %d %s: %s", e.Status, http.StatusText(e.Status), e.Description)
}

// keyed says whether a request carries the API key.
type keyed bool

const (
	withKey keyed = true
	keyless keyed = false
)

// get calls path with query and decodes a 2xx JSON answer into out.
func (c *Client) get(ctx context.Context, path string, query url.Values, auth keyed, out any) error {
	return c.do(ctx, http.MethodGet, path, query, nil, auth, out)
}

// do sends a request (body, when not nil, as JSON) and decodes a 2xx JSON answer into out.
func (c *Client) do(ctx context.Context, method, path string, query url.Values, body []byte, auth keyed, out any) error {
	u := *c.base
	u.Path += path
	u.RawQuery = query.Encode()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), rd)
	if err != nil {
		return fmt.Errorf("client: %w", err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	if c.userAgent != "" {
		req.Header.Set("User-Agent", c.userAgent)
	}
	if auth == withKey && c.key != "" {
		req.Header.Set(keyHeader, c.key)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("client: %s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, MaxResponseBytes+1))
	if err != nil {
		return fmt.Errorf("client: %s %s: read the answer: %w", method, path, err)
	}
	if len(answer) > MaxResponseBytes {
		return fmt.Errorf("client: %s %s: the answer is larger than %d bytes", method, path, MaxResponseBytes)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return errorOf(resp, answer)
	}
	if err := json.Unmarshal(answer, out); err != nil {
		return fmt.Errorf("client: %s %s: decode the answer: %w", method, path, err)
	}
	return nil
}

// errorOf reads the service's error body. A proxy in front of the server may answer with
// something else; its status and the start of its text are kept. The status is always
// the response's: a body from elsewhere (a proxy's 502 passing on an upstream's JSON) may
// say another.
func errorOf(resp *http.Response, body []byte) error {
	e := Error{Status: resp.StatusCode, RetryAfter: retryAfter(resp.Header.Get("Retry-After"))}
	var b struct {
		Description string `json:"description"`
	}
	if err := json.Unmarshal(body, &b); err == nil && b.Description != "" {
		e.Description = b.Description
		return &e
	}
	e.Description = strings.TrimSpace(string(body))
	if len(e.Description) > 512 {
		e.Description = e.Description[:512] + "..."
	}
	if e.Description == "" {
		e.Description = http.StatusText(e.Status)
	}
	return &e
}

// retryAfter reads a Retry-After header given in seconds, as the service gives it; an
// HTTP date or anything else reads as 0.
func retryAfter(v string) time.Duration {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n <= 0 {
		return 0
	}
	return time.Duration(min(n, 86400)) * time.Second
}

// IsStatus reports whether err is an *Error with the given status.
func IsStatus(err error, status int) bool {
	var e *Error
	return errors.As(err, &e) && e.Status == status
}
