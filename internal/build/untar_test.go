package build

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// tarEntry is one archive member for makeTarGz.
type tarEntry struct {
	name     string
	typeflag byte
	body     string
	linkname string
}

// makeTarGz builds a .tgz in memory, the way npm lays packages out unless told otherwise.
func makeTarGz(t testing.TB, entries ...tarEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Typeflag: e.typeflag, Mode: 0o644, Size: int64(len(e.body)), Linkname: e.linkname}
		if e.typeflag != tar.TypeReg {
			h.Size = 0
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if e.typeflag == tar.TypeReg {
			if _, err := tw.Write([]byte(e.body)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func file(name, body string) tarEntry { return tarEntry{name: name, typeflag: tar.TypeReg, body: body} }

// listTree returns every regular file under dir as slash path -> content.
func listTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestExtractTarGz(t *testing.T) {
	tgz := makeTarGz(t,
		tarEntry{name: "package/", typeflag: tar.TypeDir},
		file("package/package.json", `{"name":"x"}`),
		file("package/data/a.json", "[1]"),
		file("./package/data/b.json", "[2]"),
		tarEntry{name: "package/empty/", typeflag: tar.TypeDir},
	)
	dir := t.TempDir()
	if err := extractTarGz(bytes.NewReader(tgz), dir, defaultLimits()); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"package.json": `{"name":"x"}`, "data/a.json": "[1]", "data/b.json": "[2]"}
	if diff := cmp.Diff(want, listTree(t, dir)); diff != "" {
		t.Errorf("extracted tree (-want +got):\n%s", diff)
	}
	if fi, err := os.Stat(filepath.Join(dir, "empty")); err != nil || !fi.IsDir() {
		t.Errorf("empty directory not created: %v", err)
	}
}

func TestExtractTarGzRejects(t *testing.T) {
	tests := []struct {
		name    string
		entries []tarEntry
		lim     limits
		unsafe  bool // want errUnsafeArchive
	}{
		{"dot-dot escape", []tarEntry{file("package/../../evil", "x")}, defaultLimits(), true},
		{"dot-dot in the middle", []tarEntry{file("package/a/../../../evil", "x")}, defaultLimits(), true},
		{"absolute path", []tarEntry{file("/etc/evil", "x")}, defaultLimits(), true},
		{"backslash", []tarEntry{file(`package\..\..\evil`, "x")}, defaultLimits(), true},
		{"symlink", []tarEntry{{name: "package/link", typeflag: tar.TypeSymlink, linkname: "/etc/passwd"}}, defaultLimits(), true},
		{"hard link", []tarEntry{{name: "package/link", typeflag: tar.TypeLink, linkname: "/etc/passwd"}}, defaultLimits(), true},
		{"device", []tarEntry{{name: "package/dev", typeflag: tar.TypeChar}}, defaultLimits(), true},
		{"file at top level", []tarEntry{file("README", "x")}, defaultLimits(), true},
		{"duplicate file", []tarEntry{file("package/a", "1"), file("package/a", "2")}, defaultLimits(), false},
		{"file too big", []tarEntry{file("package/a", "12345")}, limits{files: 10, fileBytes: 4, total: 100}, false},
		{"total too big", []tarEntry{file("package/a", "123"), file("package/b", "123")}, limits{files: 10, fileBytes: 4, total: 5}, false},
		{"too many files", []tarEntry{file("package/a", ""), file("package/b", ""), file("package/c", "")}, limits{files: 2, fileBytes: 4, total: 5}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parent := t.TempDir()
			dir := filepath.Join(parent, "tree")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			err := extractTarGz(bytes.NewReader(makeTarGz(t, tt.entries...)), dir, tt.lim)
			if err == nil {
				t.Fatal("extractTarGz succeeded, want error")
			}
			if tt.unsafe && !errors.Is(err, errUnsafeArchive) {
				t.Errorf("error %v does not wrap errUnsafeArchive", err)
			}
			if entries, _ := os.ReadDir(parent); len(entries) != 1 {
				t.Errorf("something was written beside the target: %v", entries)
			}
		})
	}
}

func TestExtractTarGzNotGzip(t *testing.T) {
	if err := extractTarGz(strings.NewReader("plain text"), t.TempDir(), defaultLimits()); err == nil {
		t.Error("extractTarGz of plain text succeeded")
	}
	truncated := makeTarGz(t, file("package/a", strings.Repeat("x", 10000)))
	if err := extractTarGz(bytes.NewReader(truncated[:len(truncated)/2]), t.TempDir(), defaultLimits()); err == nil {
		t.Error("extractTarGz of a truncated archive succeeded")
	}
}

func TestEntryName(t *testing.T) {
	tests := []struct {
		in, want string
		bad      bool
	}{
		{in: "package/a/b.json", want: filepath.Join("a", "b.json")},
		{in: "package/", want: ""},
		{in: "package", want: ""},
		{in: "./package/x", want: "x"},
		{in: "other-root/x", want: "x"},
		{in: "package//x", want: "x"},
		{in: "package/./x", want: "x"},
		{in: "package/..", bad: true},
		{in: "../x", bad: true},
		{in: "/x", bad: true},
		{in: `package/a\b`, bad: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := entryName(tt.in)
			if (err != nil) != tt.bad || got != tt.want {
				t.Errorf("entryName(%q) = %q, %v; want %q, bad=%v", tt.in, got, err, tt.want, tt.bad)
			}
		})
	}
}

// FuzzExtractTarGz checks that no archive, however malformed, makes extractTarGz panic or
// write outside its target directory.
func FuzzExtractTarGz(f *testing.F) {
	f.Add(makeTarGz(f, file("package/package.json", "{}"), file("package/a/b", "x"))) // a normal package
	f.Add(makeTarGz(f, file("package/../evil", "x")))                                 // traversal
	f.Add(makeTarGz(f, tarEntry{name: "package/l", typeflag: tar.TypeSymlink, linkname: "/"}))
	f.Add([]byte{0x1f, 0x8b}) // a gzip header and nothing else
	f.Fuzz(func(t *testing.T, b []byte) {
		parent := t.TempDir()
		dir := filepath.Join(parent, "tree")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		_ = extractTarGz(bytes.NewReader(b), dir, limits{files: 100, fileBytes: 1 << 20, total: 4 << 20})
		if entries, _ := os.ReadDir(parent); len(entries) != 1 {
			t.Fatalf("wrote outside the target: %v", entries)
		}
	})
}
