package api

import (
	"bytes"
	"net/http"

	"github.com/ipatlas/ipatlas/internal/openapi"
	"github.com/ipatlas/ipatlas/internal/useragent"
	"github.com/ipatlas/ipatlas/internal/web"
)

// openapiRoutes serves the OpenAPI document and the documentation page rendered from it.
// Both are keyless: they describe the API, and tools fetch the document before they hold
// a key.
func (s *Server) openapiRoutes() {
	s.open("GET /openapi.json", s.openapiJSON)
	s.open("GET /docs", s.docsPage)
}

// openapiJSON answers /openapi.json. Any origin may read it, so that API tools running in
// a browser elsewhere can load it.
func (s *Server) openapiJSON(w http.ResponseWriter, r *http.Request) error {
	doc, err := openapi.Default()
	if err != nil {
		return err
	}
	w.Header().Set("Access-Control-Allow-Origin", "*")
	web.WriteJSONBytes(w, http.StatusOK, doc.JSON())
	return nil
}

// docsPage answers /docs: the document for people, with the serving snapshot's sources in
// its attribution section.
func (s *Server) docsPage(w http.ResponseWriter, r *http.Request) error {
	doc, err := openapi.Default()
	if err != nil {
		return err
	}
	var sources []openapi.Source
	if snap := s.opt.Data.Current(); snap != nil {
		for _, src := range useragent.WithSource(snap.Meta).Sources {
			if src.Status == "ok" { // the others fed nothing that is served
				sources = append(sources, openapi.Source{Name: src.Name, Version: src.Version, Licence: src.Licence, Attribution: src.Attribution})
			}
		}
	}
	// Render fully before writing, so a template failure is still a JSON 500.
	var b bytes.Buffer
	if err := doc.WriteHTML(&b, sources); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b.Bytes())
	return nil
}
