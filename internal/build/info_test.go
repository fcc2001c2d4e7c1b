package build

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ipatlas/ipatlas/internal/dbfile"
)

func TestInfo(t *testing.T) {
	res := mustUpdate(t, testOptions(t, newFakeFetcher(testFiles())))
	md, err := Info(res.Path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(res.Metadata, md); diff != "" {
		t.Errorf("Info (-update +info):\n%s", diff)
	}

	bad := filepath.Join(t.TempDir(), "bad.snapshot")
	b := readFile(t, res.Path)
	b[len(b)-1] ^= 1
	if err := os.WriteFile(bad, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Info(bad); !errors.Is(err, dbfile.ErrFormat) {
		t.Errorf("Info(corrupt) = %v, want ErrFormat", err)
	}
}

func TestWriteInfo(t *testing.T) {
	md := dbfile.Metadata{
		FormatVersion: 1,
		BuildTime:     time.Date(2026, 1, 20, 0, 0, 0, 0, time.UTC),
		Sources: []dbfile.SourceInfo{
			{Name: "cldr-core", Version: "48.2.0", Status: "ok", Licence: "Unicode-3.0", Attribution: "Unicode CLDR",
				DataDate: time.Date(2025, 10, 29, 0, 0, 0, 0, time.UTC), Records: map[string]int{"territories": 258, "currencies": 266, "time zones": 563}},
			{Name: "clouds", Version: "live", Status: "ok", Licence: "CC0-1.0", Records: map[string]int{
				"amazon": 3859, "apple-proxy": 13745, "cloudflare": 22, "digitalocean": 234, "github": 5519, "google": 112,
				"microsoft": 519, "oracle": 793, "providers": 9, "ranges": 24813}},
			{Name: "geonames", Status: "missing", Licence: "CC-BY-4.0", Attribution: "GeoNames", Note: "not in the mirror"},
		},
	}
	var buf bytes.Buffer
	WriteInfo(&buf, md)
	want := `snapshot format 1, data up to 2026-01-20, 3 sources

SOURCE     VERSION  STATUS   DATA DATE   LICENCE      RECORDS
cldr-core  48.2.0   ok       2025-10-29  Unicode-3.0  currencies=266 territories=258 time zones=563
clouds     live     ok       -           CC0-1.0      amazon=3859 apple-proxy=13745 cloudflare=22 digitalocean=234
                                                      github=5519 google=112 microsoft=519 oracle=793 providers=9
                                                      ranges=24813
geonames   -        missing  -           CC-BY-4.0    -

notes:
  geonames: not in the mirror

attribution:
  cldr-core: Unicode CLDR
`
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("WriteInfo (-want +got):\n%s", diff)
	}
}

// ExampleWriteInfo shows `ipatlas data info` for a snapshot built from one tiny source.
func ExampleWriteInfo() {
	dir, err := os.MkdirTemp("", "ipatlas-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	mirror := filepath.Join(dir, "mirror")
	if err := os.MkdirAll(filepath.Join(mirror, "greetings"), 0o755); err != nil {
		panic(err)
	}
	if err := os.WriteFile(filepath.Join(mirror, "greetings", "hello.txt"), []byte("hello"), 0o644); err != nil {
		panic(err)
	}
	res, err := Update(context.Background(), Options{
		DataDir:   filepath.Join(dir, "data"),
		CacheDir:  filepath.Join(dir, "cache"),
		MirrorDir: mirror,
		Offline:   true,
		Catalog:   []Source{{Name: "greetings", Licence: "CC0-1.0", Attribution: "The greeters", Fetch: MirrorOnly{}}},
		Sections: []Section{{Name: "greeting", Needs: []string{"greetings"},
			Build: func(_ context.Context, src Sources, rep *Report) ([]byte, error) {
				fsys, _ := src.Source("greetings")
				rep.Count("greetings", "words", 1)
				rep.DataDate("greetings", time.Date(2026, 9, 18, 0, 0, 0, 0, time.UTC))
				return fs.ReadFile(fsys, "hello.txt")
			}}},
	})
	if err != nil {
		panic(err)
	}
	md, err := Info(res.Path)
	if err != nil {
		panic(err)
	}
	md.Sources[0].Note, _, _ = strings.Cut(md.Sources[0].Note, " (tree sha256") // the digest is long
	WriteInfo(os.Stdout, md)
	// Output:
	// snapshot format 1, data up to 2026-09-18, 1 sources
	//
	// SOURCE     VERSION  STATUS  DATA DATE   LICENCE  RECORDS
	// greetings  -        ok      2026-09-18  CC0-1.0  words=1
	//
	// notes:
	//   greetings: Read from a mirror folder
	//
	// attribution:
	//   greetings: The greeters
}
