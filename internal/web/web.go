// Package web is ipatlas's HTTP plumbing, shared by the REST API, GraphQL and the dashboard:
// handlers that return errors, the JSON error body, middleware (recover, request id, access
// log, metrics), the caller's address behind trusted proxies, and allocation-free query
// parameter scanning. It knows nothing of the service's domain.
package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
)

// HandlerFunc is an HTTP handler that reports failure by returning an error instead of
// writing an error response itself, so one place decides status codes and bodies.
type HandlerFunc func(w http.ResponseWriter, r *http.Request) error

// Error is an error with an HTTP status and a description that is safe to show to clients.
// Err, if set, is the internal cause: it is logged, never sent.
type Error struct {
	Code int
	Msg  string
	Err  error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%d %s: %v", e.Code, e.Msg, e.Err)
	}
	return fmt.Sprintf("%d %s", e.Code, e.Msg)
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error with a client-visible description.
func Errorf(code int, format string, args ...any) error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// ErrorMapper turns any error a handler returned into a status and a public description.
// It must return 500 and a generic description for errors it does not recognise.
type ErrorMapper func(err error) (code int, desc string)

// Handle adapts fn to http.Handler, rendering returned errors through mapErr as the service's
// JSON error body. Errors mapped to 5xx are logged with their internal cause.
func Handle(log *slog.Logger, mapErr ErrorMapper, fn HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		err := fn(w, r)
		if err == nil {
			return
		}
		code, desc := mapErr(err)
		if code >= 500 {
			log.ErrorContext(r.Context(), "request failed", "path", RedactPath(r.URL.EscapedPath()), "status", code, "err", err, "request_id", w.Header().Get(RequestIDHeader))
		}
		WriteError(w, code, desc)
	})
}

// ErrorBody is the JSON shape of every non-2xx answer. It is the shape the commercial
// service uses, so its clients' error handling keeps working.
type ErrorBody struct {
	Status      int    `json:"status"`
	Description string `json:"description"`
}

// WriteError writes the JSON error body with status code.
func WriteError(w http.ResponseWriter, code int, desc string) {
	b, err := Marshal(ErrorBody{Status: code, Description: desc})
	if err != nil { // cannot happen for an int and a string; keep the contract anyway
		b = []byte(`{"status":` + strconv.Itoa(code) + `,"description":"error"}`)
	}
	WriteJSONBytes(w, code, b)
}

// WriteJSONBytes writes an already-encoded JSON body.
func WriteJSONBytes(w http.ResponseWriter, code int, body []byte) {
	h := w.Header()
	h["Content-Type"] = jsonContentType
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(code)
	_, _ = w.Write(body)
}

// Marshal encodes v as JSON without HTML escaping: answers are data for programs, and
// "Europe & Central Asia" should read as such, not as "Europe \u0026 Central Asia".
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// WriteJSON encodes v and writes it with status code.
func WriteJSON(w http.ResponseWriter, code int, v any) error {
	b, err := Marshal(v)
	if err != nil {
		return fmt.Errorf("web: encode response: %w", err)
	}
	WriteJSONBytes(w, code, b)
	return nil
}

// jsonContentType is shared (never mutated) so setting the header allocates nothing.
var jsonContentType = []string{"application/json; charset=utf-8"}

// IsClientError reports whether err carries a 4xx status.
func IsClientError(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code >= 400 && e.Code < 500
}
