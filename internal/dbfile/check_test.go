package dbfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// writeBytes writes b to a new file and returns its path.
func writeBytes(t *testing.T, b []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ipatlas.snapshot")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCheckValid(t *testing.T) {
	// Metadata longer than Check's first read makes it read on.
	long := testMeta()
	long.Sources[1].Note = strings.Repeat("n", 150<<10)
	for name, b := range map[string][]byte{
		"small":          smallFile(t),
		"no sections":    build(t, Metadata{}),
		"long metadata":  build(t, long, testSection{"ipgeo", []byte{1, 2, 3}}),
		"large sections": build(t, testMeta(), testSection{"a", make([]byte, 200<<10)}, testSection{"b", []byte{9}}),
	} {
		t.Run(name, func(t *testing.T) {
			f, err := OpenBytes(b)
			if err != nil {
				t.Fatal(err)
			}
			meta, err := Check(writeBytes(t, b))
			if err != nil {
				t.Fatalf("Check = %v", err)
			}
			if diff := cmp.Diff(f.Metadata(), meta, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Check's metadata differs from Open's (-open +check):\n%s", diff)
			}
		})
	}
}

// Check refuses every file that is wrong in its header or its size, as Open does, and lets
// through only damage inside a section's bytes or padding, which Open alone finds.
func TestCheckAgreesWithOpenOnHeaders(t *testing.T) {
	b := smallFile(t)
	f, err := OpenBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	h, err := readHeader(b, uint64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	payloads := h.end // bytes before this are the header
	for n := range len(b) {
		if _, err := Check(writeBytes(t, b[:n])); !errors.Is(err, ErrFormat) {
			t.Errorf("Check(first %d of %d bytes) = %v, want ErrFormat", n, len(b), err)
		}
	}
	if _, err := Check(writeBytes(t, append(b[:len(b):len(b)], 0))); !errors.Is(err, ErrFormat) {
		t.Errorf("Check(one byte more) = %v, want ErrFormat", err)
	}
	for i := range b {
		c := append([]byte(nil), b...)
		c[i] ^= 0x01
		_, err := Check(writeBytes(t, c))
		if uint64(i) < payloads && err == nil {
			t.Errorf("flipping a bit of header byte %d went unnoticed", i)
		}
		if uint64(i) >= payloads && err != nil {
			t.Errorf("flipping a bit of payload byte %d: Check = %v, want nil (Open's to find)", i, err)
		}
	}
	if got := f.sections[0].offset; got < payloads {
		t.Fatalf("first section at %d, inside the %d-byte header", got, payloads)
	}
}

func TestCheckErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing")
	if _, err := Check(missing); !errors.Is(err, os.ErrNotExist) || strings.Count(err.Error(), missing) != 1 {
		t.Errorf("Check(missing) = %v, want ErrNotExist naming the path once", err)
	}
	bad := writeBytes(t, []byte("not a snapshot"))
	if _, err := Check(bad); !errors.Is(err, ErrFormat) || strings.Count(err.Error(), bad) != 1 {
		t.Errorf("Check(bad) = %v, want ErrFormat naming the path once", err)
	}
	if _, err := Check(dir); err == nil {
		t.Error("Check(a directory) = nil, want an error")
	}
	c := smallFile(t)
	c[len(magic)]++ // the version
	if _, err := Check(writeBytes(t, c)); !errors.Is(err, ErrVersion) {
		t.Errorf("Check(future version) = %v, want ErrVersion", err)
	}
}

// A corrupt metadata length is refused from the first read, not by reading the whole file.
func TestCheckHugeMetadataLength(t *testing.T) {
	b := append(smallFile(t), make([]byte, 300<<10)...) // longer than Check's first read
	binary.LittleEndian.PutUint32(b[len(magic)+4:], 0xFFFFFFF0)
	_, err := Check(writeBytes(t, b))
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "metadata length") {
		t.Errorf("Check = %v, want the metadata length refused", err)
	}
}

// FuzzCheck checks that Check never accepts less than Open does: a file Open accepts passes
// Check with the same metadata, and a file Check refuses, Open refuses too.
func FuzzCheck(f *testing.F) {
	valid := smallFile(f)
	f.Add(valid)
	f.Add(valid[:len(valid)-1])
	f.Add(append(bytes.Clone(valid), 0))
	f.Add([]byte(magic))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		path := filepath.Join(dir, "ipatlas.snapshot")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		meta, checkErr := Check(path)
		file, openErr := OpenBytes(b)
		switch {
		case openErr == nil && checkErr != nil:
			t.Fatalf("Open accepts, Check refuses: %v", checkErr)
		case checkErr != nil && !errors.Is(checkErr, ErrFormat) && !errors.Is(checkErr, ErrVersion):
			t.Fatalf("Check error %v wraps neither ErrFormat nor ErrVersion", checkErr)
		case openErr == nil:
			if diff := cmp.Diff(file.Metadata(), meta, cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("metadata differs (-open +check):\n%s", diff)
			}
		}
	})
}
