package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/ipatlas/ipatlas/internal/openapi"
)

// checkOpenAPI validates every REST answer the end-to-end tests read (through get) against
// the OpenAPI document: the real binary, its middleware and its store answer as documented,
// errors included.
func checkOpenAPI(t *testing.T, method, path string, status int, h http.Header, body []byte) {
	t.Helper()
	if !strings.HasPrefix(path, "/data/") {
		return // the dashboard's pages share the listener and are not part of the REST API
	}
	d, err := openapi.Default()
	if err != nil {
		t.Error(err)
		return
	}
	if err := d.ValidateResponse(method, path, status, body); err != nil {
		t.Error(err)
	}
	if err := d.ValidateHeader(method, path, status, h); err != nil {
		t.Error(err)
	}
}
