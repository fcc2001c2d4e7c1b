package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/ipatlas/ipatlas/internal/api"
	"github.com/ipatlas/ipatlas/internal/dataset"
)

// lookupKind maps a lookup kind to the endpoint that answers it and the query parameters its
// positional arguments fill, in order.
type lookupKind struct {
	path   string
	params []string
}

var lookupKinds = map[string]lookupKind{
	"country":   {"/data/country-info", []string{"code"}},
	"countries": {"/data/countries", nil},
	"ip":        {"/data/ip-geolocation-with-confidence", []string{"ip"}},
	"network":   {"/data/network-by-ip", []string{"ip"}},
	"cidr":      {"/data/network-by-cidr", []string{"cidr"}},
	"asn":       {"/data/asn-info-transit-to", []string{"asn"}},
	"risk":      {"/data/user-risk", []string{"ip"}},
	"hazards":   {"/data/hazard-report", []string{"ip"}},
	"phone":     {"/data/phone-number-validate", []string{"number"}},
	"reverse":   {"/data/reverse-geocode", []string{"latitude", "longitude"}},
	"timezone":  {"/data/timezone-info", []string{"timeZoneId"}},
}

func lookupKindNames() string {
	names := make([]string, 0, len(lookupKinds))
	for k := range lookupKinds {
		names = append(names, k)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// runLookup answers from the snapshot without a server or a key, through the same handlers
// the API uses, so the output is exactly the API's JSON. Arguments after the positional
// ones are extra query parameters written name=value (countryCode=au, subnetsBatchSize=5).
func runLookup(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usageError{"lookup: want a kind: " + lookupKindNames()}
	}
	name, rest := args[0], args[1:]
	kind, ok := lookupKinds[name]
	if !ok {
		return usageError{fmt.Sprintf("lookup %s: unknown kind; kinds: %s", name, lookupKindNames())}
	}
	fs := newFlagSet("lookup "+name, stderr)
	dataDir := fs.String("data", "./var/data", "directory holding the data snapshot")
	lang := fs.String("lang", "en", "localityLanguage")
	flags, pos := splitLookupArgs(rest)
	if err := parseFlags(fs, flags); err != nil {
		return err
	}
	q := url.Values{"localityLanguage": {*lang}}
	if len(pos) < len(kind.params) {
		return usageError{fmt.Sprintf("lookup %s: want %s, e.g. 'ipatlas lookup %s %s'", name,
			strings.Join(kind.params, " "), name, lookupExample(name))}
	}
	for i, p := range kind.params {
		q.Set(p, pos[i])
	}
	for _, extra := range pos[len(kind.params):] {
		k, v, ok := strings.Cut(extra, "=")
		if !ok || k == "" {
			return usageError{fmt.Sprintf("lookup %s: extra argument %q is not name=value", name, extra)}
		}
		q.Set(k, v)
	}
	snap, err := dataset.Load(filepath.Join(*dataDir, snapshotFile))
	if err != nil {
		return err
	}
	srv := api.New(api.Options{Log: discardLogger(), Auth: api.Offline{}, Meter: api.Offline{}, Data: dataset.NewStatic(snap)})
	rec := httptest.NewRecorder()
	srv.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, kind.path+"?"+q.Encode(), nil))
	stdout.Write(rec.Body.Bytes())
	fmt.Fprintln(stdout)
	if rec.Code != http.StatusOK {
		return fmt.Errorf("lookup %s: status %d", name, rec.Code)
	}
	return nil
}

// splitLookupArgs separates flags from positional arguments, so flags may follow the
// arguments ('lookup ip 8.8.8.8 --lang de'). Every lookup flag takes a value. A negative
// number is an argument (a longitude), not a flag.
func splitLookupArgs(args []string) (flags, pos []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if _, err := strconv.ParseFloat(a, 64); err == nil || !strings.HasPrefix(a, "-") {
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		if !strings.Contains(a, "=") && a != "-h" && a != "--help" && a != "-help" && i+1 < len(args) {
			i++
			flags = append(flags, args[i])
		}
	}
	return flags, pos
}

func lookupExample(kind string) string {
	switch kind {
	case "country":
		return "IE"
	case "cidr":
		return "8.8.8.0/22"
	case "asn":
		return "AS15169"
	case "phone":
		return "'+61 2 9374 4000'"
	case "reverse":
		return "53.35 -6.26"
	case "timezone":
		return "Australia/Sydney"
	}
	return "8.8.8.8"
}
