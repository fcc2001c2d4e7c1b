package main

import (
	"context"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ipatlas/ipatlas/internal/dataset"
	"github.com/ipatlas/ipatlas/internal/dataset/datasettest"
)

func TestSplitLookupArgs(t *testing.T) {
	for _, tc := range []struct {
		args       []string
		flags, pos []string
	}{
		{[]string{"IE"}, nil, []string{"IE"}},
		{[]string{"8.8.8.8", "--lang", "de"}, []string{"--lang", "de"}, []string{"8.8.8.8"}},
		{[]string{"--lang=ja", "53.35", "-6.26"}, []string{"--lang=ja"}, []string{"53.35", "-6.26"}},
		{[]string{"-33.87", "151.2", "--data", "d", "x=y"}, []string{"--data", "d"}, []string{"-33.87", "151.2", "x=y"}},
		{[]string{"-h", "IE"}, []string{"-h"}, []string{"IE"}},
	} {
		flags, pos := splitLookupArgs(tc.args)
		if !slices.Equal(flags, tc.flags) || !slices.Equal(pos, tc.pos) {
			t.Errorf("%q: flags %q pos %q; want %q %q", tc.args, flags, pos, tc.flags, tc.pos)
		}
	}
}

// printedExamples collects the example command lines help prints for every kind: the row of
// 'ipatlas lookup -h' and the Example of 'ipatlas lookup KIND -h', which must agree.
func printedExamples(t *testing.T) map[string]string {
	t.Helper()
	var all strings.Builder
	if err := run(context.Background(), []string{"lookup", "-h"}, &all, io.Discard); err != nil {
		t.Fatal(err)
	}
	examples := map[string]string{}
	for name := range lookupKinds {
		var row string
		for line := range strings.Lines(all.String()) {
			if f := strings.Fields(line); len(f) > 0 && f[0] == name {
				row = line
			}
		}
		_, fromTable, ok := strings.Cut(strings.TrimSpace(row), "e.g. ")
		if !ok {
			t.Errorf("lookup -h: the %s row has no example: %q", name, row)
			continue
		}
		var own strings.Builder
		if err := run(context.Background(), []string{"lookup", name, "-h"}, &own, io.Discard); err != nil {
			t.Fatal(err)
		}
		_, after, _ := strings.Cut(own.String(), "Example:\n")
		fromKind, _, _ := strings.Cut(strings.TrimSpace(after), "\n")
		if fromKind != fromTable {
			t.Errorf("%s: lookup -h gives the example %q, lookup %s -h %q", name, fromTable, name, fromKind)
		}
		examples[name] = fromTable
	}
	return examples
}

// shellWords splits a printed example as a shell would: at spaces, '...' quoting.
func shellWords(s string) []string {
	var words []string
	var w strings.Builder
	quoted, inWord := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted, inWord = !quoted, true
		case r == ' ' && !quoted:
			if inWord {
				words = append(words, w.String())
			}
			w.Reset()
			inWord = false
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words
}

// TestLookupExamples runs every example the help prints, offline against the real snapshot:
// a kind without an example of its own once got '8.8.8.8', which 'lookup countries' refuses.
func TestLookupExamples(t *testing.T) {
	examples := printedExamples(t)
	path := os.Getenv(datasettest.RealEnv)
	if path == "" {
		t.Skipf("set %s to a full snapshot to run the examples", datasettest.RealEnv)
	}
	dir := filepath.Dir(path)
	if filepath.Base(path) != snapshotFile {
		dir = t.TempDir()
		if err := os.Symlink(path, filepath.Join(dir, snapshotFile)); err != nil {
			t.Fatal(err)
		}
	}
	// One load for every example; each still parses its arguments and is answered as
	// 'ipatlas lookup' answers it.
	load := loadSnapshot
	t.Cleanup(func() { loadSnapshot = load })
	var once sync.Once
	var snap *dataset.Snapshot
	var loadErr error
	loadSnapshot = func(p string) (*dataset.Snapshot, error) {
		once.Do(func() { snap, loadErr = load(p) })
		return snap, loadErr
	}
	for _, name := range slices.Sorted(maps.Keys(examples)) {
		args := shellWords(examples[name])
		if len(args) < 3 || args[0] != "ipatlas" || args[1] != "lookup" || args[2] != name {
			t.Errorf("%s: example %q is not 'ipatlas lookup %s ...'", name, examples[name], name)
			continue
		}
		var stdout strings.Builder
		if err := run(context.Background(), append(args[1:], "--data", dir), &stdout, io.Discard); err != nil {
			t.Errorf("%s: %v\n%s", examples[name], err, stdout.String())
		}
	}
	// Without --lang, localityLanguage= sets the language (the flag's default yields).
	var fr strings.Builder
	if err := run(context.Background(), []string{"lookup", "country", "IE", "localityLanguage=fr", "--data", dir}, &fr, io.Discard); err != nil || !strings.Contains(fr.String(), `"name":"Irlande"`) {
		t.Errorf("lookup country IE localityLanguage=fr: %v\n%s", err, fr.String())
	}
}

// TestLookupHelpLayout: the kinds table is one tabwriter block (every row has the same cells,
// so every endpoint starts in one column), and the flags are those the kinds parse, with
// their defaults, as the flag package prints them.
func TestLookupHelpLayout(t *testing.T) {
	help := lookupHelp()
	cols := map[string]int{}
	for line := range strings.Lines(help) {
		if !strings.Contains(line, " /data/") {
			continue
		}
		for _, cell := range []string{" /data/", " e.g. "} {
			i := strings.Index(line, cell)
			if c, ok := cols[cell]; i < 0 || ok && i != c {
				t.Errorf("%q at column %d, not %d as above: %q", cell, i, c, line)
			}
			cols[cell] = i
		}
	}
	var want strings.Builder
	fs := newFlagSet("lookup", &want)
	lookupFlags(fs)
	fs.SetOutput(&want)
	fs.PrintDefaults()
	if !strings.Contains(help, want.String()) {
		t.Errorf("lookup -h does not list the flags as defined:\n%s\nwant:\n%s", help, want.String())
	}
	var kind strings.Builder
	if err := run(context.Background(), []string{"lookup", "countries", "-h"}, &kind, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(kind.String(), "Usage: ipatlas lookup countries [flags] [name=value ...]\n") {
		t.Errorf("lookup countries -h: %q", kind.String())
	}
}

// Flags may come before the kind too, as 'lookup -h' says; the kind is then the first
// argument that is neither a flag nor a flag's value.
func TestLookupFlagsBeforeKind(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, snapshotFile), datasettest.Bytes(t), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--data", dir, "--lang", "de", "country", "IE"},
		{"--data=" + dir, "country", "--lang", "de", "IE"},
		{"--lang", "de", "country", "IE", "--data", dir},
		{"--lang", "de", "--data", dir, "--", "country", "IE"},
	} {
		var out strings.Builder
		err := run(context.Background(), append([]string{"lookup"}, args...), &out, io.Discard)
		if err != nil || !strings.Contains(out.String(), `"name":"Irland"`) {
			t.Errorf("lookup %q: %v\n%s", args, err, out.String())
		}
	}
	var help strings.Builder
	if err := run(context.Background(), []string{"lookup", "--data", dir, "-h"}, &help, io.Discard); err != nil || !strings.HasPrefix(help.String(), "Usage: ipatlas lookup KIND") {
		t.Errorf("lookup --data DIR -h: %v\n%s", err, help.String())
	}
	err := run(context.Background(), []string{"lookup", "--data", dir}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "want a kind") || exitCode(err) != 2 {
		t.Errorf("lookup with flags and no kind: %v", err)
	}
	err = run(context.Background(), []string{"lookup", "country", "IE", "--data", t.TempDir()}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "run 'ipatlas data update --data") {
		t.Errorf("lookup without a snapshot: %v, want the hint", err)
	}
}
