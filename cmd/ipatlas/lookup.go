package main

import (
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/ipatlas/ipatlas/internal/api"
	"github.com/ipatlas/ipatlas/internal/dataset"
)

// lookupKind maps a lookup kind to the endpoint that answers it, the query parameters its
// positional arguments fill, in order, and the arguments of an example that works: help
// prints the example, and TestLookupExamples runs every one against the real snapshot.
type lookupKind struct {
	path    string
	params  []string
	example []string
}

var lookupKinds = map[string]lookupKind{
	"country":   {"/data/country-info", []string{"code"}, []string{"IE"}},
	"countries": {"/data/countries", nil, nil},
	"ip":        {"/data/ip-geolocation-with-confidence", []string{"ip"}, []string{"8.8.8.8"}},
	"network":   {"/data/network-by-ip", []string{"ip"}, []string{"8.8.8.8"}},
	"cidr":      {"/data/network-by-cidr", []string{"cidr"}, []string{"8.8.8.0/22"}},
	"asn":       {"/data/asn-info-transit-to", []string{"asn"}, []string{"AS3356"}},
	"risk":      {"/data/user-risk", []string{"ip"}, []string{"8.8.8.8"}},
	"hazards":   {"/data/hazard-report", []string{"ip"}, []string{"8.8.8.8"}},
	"phone":     {"/data/phone-number-validate", []string{"number"}, []string{"+61 2 9374 4000"}},
	"reverse":   {"/data/reverse-geocode", []string{"latitude", "longitude"}, []string{"53.35", "-6.26"}},
	"timezone":  {"/data/timezone-info", []string{"timeZoneId"}, []string{"Australia/Sydney"}},
	"asn-full":  {"/data/asn-info-full", []string{"asn"}, []string{"AS174"}},
	"asn-from":  {"/data/asn-info-receiving-from", []string{"asn"}, []string{"AS2914"}},
	"phone-ip":  {"/data/phone-number-validate-by-ip", []string{"number", "ip"}, []string{"(02) 9374 4000", "1.128.0.1"}},
	"asn-rank":  {"/data/asn-rank-list", nil, nil},
	"prefixes":  {"/data/prefixes-list", []string{"asn"}, []string{"AS13335"}},
	"tor-exits": {"/data/tor-exit-nodes-list", nil, nil},
	"useragent": {"/data/user-agent-info", []string{"userAgentRaw"}, []string{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"}},
}

func lookupKindNames() string {
	return strings.Join(slices.Sorted(maps.Keys(lookupKinds)), ", ")
}

// loadSnapshot reads the snapshot a lookup answers from. TestLookupExamples has it load
// the snapshot once for all its examples: each load of the full data takes seconds, many
// under the race detector.
var loadSnapshot = dataset.Load

// runLookup answers from the snapshot without a server or a key, through the same handlers
// the API uses, so the output is exactly the API's JSON. Arguments after the positional
// ones are extra query parameters written name=value (countryCode=au, subnetsBatchSize=5).
func runLookup(args []string, stdout io.Writer) error {
	noKind := usageError{"lookup: want a kind: " + lookupKindNames() + " (see 'ipatlas lookup -h')"}
	if len(args) == 0 {
		return noKind
	}
	name, rest := args[0], args[1:]
	if strings.HasPrefix(name, "-") && !isHelpWord(name) {
		// Flags before the kind (lookup --data DIR country IE): the kind is the first
		// argument that is not a flag or a flag's value.
		flags, pos := splitLookupArgs(args)
		switch {
		case len(pos) > 0:
			name, rest = pos[0], append(append(flags, "--"), pos[1:]...)
		case slices.ContainsFunc(flags, isHelpWord): // lookup --data DIR -h
			name, rest = "-h", nil
		default:
			return noKind
		}
	}
	if isHelpWord(name) {
		if len(rest) > 0 {
			return usageError{fmt.Sprintf("lookup %s: unexpected argument %q (see 'ipatlas lookup -h')", name, rest[0])}
		}
		fmt.Fprint(stdout, lookupHelp())
		return nil
	}
	kind, ok := lookupKinds[name]
	if !ok {
		return usageError{fmt.Sprintf("lookup %s: unknown kind; kinds: %s (see 'ipatlas lookup -h')", name, lookupKindNames())}
	}
	fs := newFlagSet("lookup "+name, stdout)
	fs.synopsis = strings.TrimSpace(kind.synopsis() + " [flags] [name=value ...]") // countries has no <param>
	fs.about = fmt.Sprintf("Answers %s offline from the snapshot, as the API would.\n"+
		"name=value arguments add query parameters of the endpoint. Example:\n  %s",
		kind.path, kind.exampleCommand(name))
	dataDir, lang := lookupFlags(fs)
	flags, pos := splitLookupArgs(rest)
	if err := parseFlags(fs, flags); err != nil {
		return err
	}
	q := url.Values{"localityLanguage": {*lang}}
	if len(pos) < len(kind.params) {
		return usageError{fmt.Sprintf("lookup %s: want %s, e.g. '%s'", name,
			kind.synopsis(), kind.exampleCommand(name))}
	}
	// What sets each parameter, so that a name=value cannot silently override it: the
	// arguments, --lang when given (its default yields to localityLanguage=), earlier pairs.
	setBy := map[string]string{}
	if fs.flagGiven("lang") {
		setBy["localityLanguage"] = "--lang"
	}
	for i, p := range kind.params {
		// The API would answer an empty ip for the caller, which offline is nobody.
		if strings.TrimSpace(pos[i]) == "" {
			return usageError{fmt.Sprintf("lookup %s: <%s> is empty, e.g. '%s'", name, p, kind.exampleCommand(name))}
		}
		q.Set(p, pos[i])
		setBy[p] = "an argument"
	}
	for _, extra := range pos[len(kind.params):] {
		k, v, ok := strings.Cut(extra, "=")
		if !ok || k == "" {
			return usageError{fmt.Sprintf("lookup %s: extra argument %q is not name=value", name, extra)}
		}
		if by, ok := setBy[k]; ok {
			return usageError{fmt.Sprintf("lookup %s: %s= is given by %s already", name, k, by)}
		}
		setBy[k] = "an earlier " + k + "="
		q.Set(k, v)
	}
	snap, err := loadSnapshot(filepath.Join(*dataDir, snapshotFile))
	if err != nil {
		return fmt.Errorf("lookup: no usable data snapshot (run 'ipatlas data update --data %s' first, or give --data): %w", *dataDir, err)
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

// synopsis names the kind's positional arguments by the query parameters they fill.
func (k lookupKind) synopsis() string {
	args := make([]string, len(k.params))
	for i, p := range k.params {
		args[i] = "<" + p + ">"
	}
	return strings.Join(args, " ")
}

// lookupFlags defines the flags every lookup kind takes. lookupHelp prints them from a flag
// set too, so the help and the flags cannot drift apart.
func lookupFlags(fs *cmdFlags) (dataDir, lang *string) {
	dataDir = fs.String("data", "./var/data", "directory holding the data snapshot")
	lang = fs.String("lang", "en", "localityLanguage")
	return dataDir, lang
}

// exampleCommand is the kind's example as a shell command line, an argument with a space
// quoted (the phone number).
func (k lookupKind) exampleCommand(name string) string {
	cmd := []string{"ipatlas", "lookup", name}
	for _, a := range k.example {
		if strings.ContainsAny(a, " '\"") {
			a = "'" + a + "'"
		}
		cmd = append(cmd, a)
	}
	return strings.Join(cmd, " ")
}

// lookupHelp is 'ipatlas lookup -h': every kind with the endpoint it answers and an example.
func lookupHelp() string {
	var b strings.Builder
	b.WriteString(`Usage: ipatlas lookup KIND ARGS [--lang L] [--data DIR] [name=value ...]

Answers one API request offline from the snapshot, with no server and no key: the
endpoint's JSON answer on stdout (exit status 1 if its status is not 200).
name=value arguments add query parameters of the endpoint (countryCode=au, batchSize=5).

Kinds:
`)
	// Every row has the same three cells: a row with fewer ends tabwriter's column block
	// there, and the rows after it are aligned apart from those before.
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, name := range slices.Sorted(maps.Keys(lookupKinds)) {
		k := lookupKinds[name]
		fmt.Fprintf(tw, "  %s\t%s\te.g. %s\n", strings.TrimSpace(name+" "+k.synopsis()), k.path, k.exampleCommand(name))
	}
	tw.Flush()
	b.WriteString("\nFlags (before or after the arguments):\n")
	fs := newFlagSet("lookup", &b)
	lookupFlags(fs)
	fs.SetOutput(&b)
	fs.PrintDefaults()
	return b.String()
}

// splitLookupArgs separates flags from positional arguments, so flags may follow the
// arguments ('lookup ip 8.8.8.8 --lang de'). Every lookup flag takes a value. A negative
// number is an argument (a longitude), not a flag; after "--" everything is an argument.
func splitLookupArgs(args []string) (flags, pos []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" { // the usual end of flags: the rest are arguments, however they look
			return flags, append(pos, args[i+1:]...)
		}
		if _, err := strconv.ParseFloat(a, 64); err == nil || !strings.HasPrefix(a, "-") {
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		if !strings.Contains(a, "=") && !isHelpWord(a) && i+1 < len(args) {
			i++
			flags = append(flags, args[i])
		}
	}
	return flags, pos
}
