package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ipatlas/ipatlas/internal/build/buildtest"
)

var update = flag.Bool("update", false, "rewrite golden files from the current output")

var (
	plainBinOnce sync.Once
	plainBin     string
	plainBinErr  error
)

// plainBinary builds ipatlas once without the race detector, for real-data builds: under
// -race a full `data update` takes about five times as long (minutes, not seconds), and the
// build pipeline has race coverage of its own in internal/build and the *build packages.
func plainBinary(t *testing.T) string {
	t.Helper()
	plainBinOnce.Do(func() {
		plainBin = filepath.Join(filepath.Dir(binPath), "ipatlas-plain")
		out, err := exec.Command("go", "build", "-o", plainBin, ".").CombinedOutput()
		if err != nil {
			plainBinErr = fmt.Errorf("build ipatlas without -race: %v\n%s", err, out)
		}
	})
	if plainBinErr != nil {
		t.Fatal(plainBinErr)
	}
	return plainBin
}

// realSnapshot runs `ipatlas data update` on the real sources (npm packages through the test
// cache, shared/data as the mirror) and returns the data directory and the command's stderr.
func realSnapshot(t *testing.T, dataDir string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("real-data test skipped in -short mode")
	}
	mirror, ok := buildtest.SharedData()
	cache, err := buildtest.CacheDir()
	if !ok || err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("real data unavailable: shared/data found %v, cache dir: %v", ok, err)
		}
		t.Skip("real data unavailable (no shared/data beside the repository)")
	}
	cmd := exec.Command(plainBinary(t), "data", "update", "--data", dataDir, "--cache", cache, "--mirror", mirror)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if out, err := cmd.Output(); err != nil {
		t.Fatalf("data update: %v\n%s%s", err, out, stderr.String())
	}
	return stderr.String()
}

// TestRealDataCountries: a second update downloads nothing and writes the same bytes; the
// served countries list for English matches the reviewed golden file.
func TestRealDataCountries(t *testing.T) {
	e := newEnv(t)
	data := filepath.Join(e.dir, "data")
	os.Remove(filepath.Join(data, snapshotFile))
	realSnapshot(t, data) // may download into the cache
	first, err := os.ReadFile(filepath.Join(data, snapshotFile))
	if err != nil {
		t.Fatal(err)
	}
	progress := realSnapshot(t, data)
	for _, line := range strings.Split(progress, "\n") {
		if strings.HasPrefix(line, "source ") && strings.Contains(line, " fetch ") {
			t.Errorf("second update downloaded: %s", line)
		}
	}
	second, err := os.ReadFile(filepath.Join(data, snapshotFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, second) {
		t.Error("two updates from the same sources wrote different snapshots")
	}

	key := e.ipatlas("keys", "create", "--email", "real@example.org")
	s := e.serve()
	code, body := get(t, s.base+"/data/countries?localityLanguage=en&key="+key, nil)
	if code != 200 {
		t.Fatalf("countries: %d %s", code, body)
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, body, "", "  "); err != nil {
		t.Fatal(err)
	}
	pretty.WriteByte('\n')
	golden := filepath.Join("testdata", "countries.en.golden.json")
	if *update {
		if err := os.WriteFile(golden, pretty.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want, pretty.Bytes()) {
		t.Errorf("countries (en) differ from %s; if the change is right, review it and rerun with -update", golden)
	}

	code, body = get(t, s.base+"/data/country-info?code=IE&localityLanguage=de&key="+key, nil)
	var ie struct {
		Name string `json:"name"`
	}
	if code != 200 || json.Unmarshal(body, &ie) != nil || ie.Name != "Irland" {
		t.Errorf("IE in German: %d %s", code, body)
	}
}
