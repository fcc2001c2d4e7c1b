package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"

	"github.com/ipatlas/ipatlas/internal/api"
	"github.com/ipatlas/ipatlas/internal/dataset"
)

// runLookup answers from the snapshot without a server or a key, through the same handlers
// the API uses, so the output is exactly the API's JSON.
func runLookup(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usageError{"lookup: want a kind: country (ip, network, cidr, asn, risk, phone and reverse arrive with their endpoints)"}
	}
	kind, rest := args[0], args[1:]
	fs := newFlagSet("lookup "+kind, stderr)
	dataDir := fs.String("data", "./var/data", "directory holding the data snapshot")
	lang := fs.String("lang", "en", "localityLanguage")
	if err := parseFlags(fs, rest); err != nil {
		return err
	}
	var path string
	q := url.Values{"localityLanguage": {*lang}}
	switch kind {
	case "country":
		if fs.NArg() != 1 {
			return usageError{"lookup country: want one code, e.g. 'ipatlas lookup country IE'"}
		}
		path = "/data/country-info"
		q.Set("code", fs.Arg(0))
	case "countries":
		path = "/data/countries"
	default:
		return usageError{fmt.Sprintf("lookup %s: not built yet; available kinds: country, countries", kind)}
	}
	snap, err := dataset.Load(filepath.Join(*dataDir, snapshotFile))
	if err != nil {
		return err
	}
	srv := api.New(api.Options{Log: discardLogger(), Auth: api.Offline{}, Meter: api.Offline{}, Data: dataset.NewStatic(snap)})
	rec := httptest.NewRecorder()
	srv.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path+"?"+q.Encode(), nil))
	stdout.Write(rec.Body.Bytes())
	fmt.Fprintln(stdout)
	if rec.Code != http.StatusOK {
		return fmt.Errorf("lookup %s: status %d", kind, rec.Code)
	}
	return nil
}
