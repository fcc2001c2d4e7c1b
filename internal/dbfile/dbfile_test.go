package dbfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// testMeta is realistic metadata: a non-UTC time, a map and slices, so the tests see every
// field the JSON encoding has to carry.
func testMeta() Metadata {
	return Metadata{
		BuildTime: time.Date(2026, 9, 18, 2, 0, 0, 0, time.FixedZone("CEST", 2*3600)),
		Sources: []SourceInfo{
			{
				Name: "cldr-core", Version: "48.2.0", Licence: "Unicode-3.0", Attribution: "Unicode CLDR",
				Origin: "npm cldr-core@48.2.0", SHA256: strings.Repeat("ab", 32),
				DataDate: time.Date(2025, 10, 29, 0, 0, 0, 0, time.UTC), Status: "ok",
				Records: map[string]int{"territories": 258, "currencies": 266},
				Feeds:   []string{"country.currency", "country.unRegion"},
			},
			{Name: "geonames", Status: "missing", Note: "not in mirror; geonameId empty"},
		},
	}
}

type testSection struct {
	name string
	data []byte
}

// build encodes meta and sections with a fresh Writer.
func build(t testing.TB, meta Metadata, sections ...testSection) []byte {
	t.Helper()
	w := NewWriter(meta)
	for _, s := range sections {
		if err := w.AddSection(s.name, s.data); err != nil {
			t.Fatalf("AddSection(%q): %v", s.name, err)
		}
	}
	var buf bytes.Buffer
	n, err := w.WriteTo(&buf)
	if err != nil {
		t.Fatalf("WriteTo: %v", err)
	}
	if n != int64(buf.Len()) {
		t.Fatalf("WriteTo returned %d, wrote %d bytes", n, buf.Len())
	}
	return buf.Bytes()
}

// smallFile is the small valid file used by the truncation, corruption and fuzz tests.
func smallFile(t testing.TB) []byte {
	return build(t, testMeta(),
		testSection{"country", []byte(`{"AU":"Australia"}`)},
		testSection{"empty", nil},
		testSection{"ipgeo", []byte{1, 2, 3, 4, 5, 6, 7, 8, 9}},
	)
}

func TestRoundTrip(t *testing.T) {
	tests := []struct {
		name     string
		meta     Metadata
		sections []testSection
	}{
		{"no sections", Metadata{}, nil},
		{"empty section", testMeta(), []testSection{{"x", nil}}},
		{"several", testMeta(), []testSection{
			{"zeta", bytes.Repeat([]byte{0xff}, 1000)},
			{"alpha", []byte("a")},
			{"mid", []byte("seven b")},
		}},
		{"utf-8 and long names", testMeta(), []testSection{
			{"länder", []byte("ü")},
			{strings.Repeat("n", maxNameLen), []byte("long")},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := OpenBytes(build(t, tt.meta, tt.sections...))
			if err != nil {
				t.Fatalf("OpenBytes: %v", err)
			}
			want := tt.meta.clone()
			want.FormatVersion = FormatVersion
			if diff := cmp.Diff(want, f.Metadata()); diff != "" {
				t.Errorf("Metadata() mismatch (-want +got):\n%s", diff)
			}
			var names []string
			for _, s := range tt.sections {
				names = append(names, s.name)
				got, ok := f.Section(s.name)
				if !ok || !bytes.Equal(got, s.data) {
					t.Errorf("Section(%q) = %q, %v; want %q, true", s.name, got, ok, s.data)
				}
			}
			if diff := cmp.Diff(names, f.SectionNames(), cmpopts.SortSlices(func(a, b string) bool { return a < b }), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("SectionNames() mismatch (-want +got):\n%s", diff)
			}
			if got, ok := f.Section("nope"); ok || got != nil {
				t.Errorf("Section(missing) = %q, %v; want nil, false", got, ok)
			}
		})
	}
}

func TestMetadataInUTC(t *testing.T) {
	f, err := OpenBytes(smallFile(t))
	if err != nil {
		t.Fatal(err)
	}
	if loc := f.Metadata().BuildTime.Location(); loc != time.UTC {
		t.Errorf("BuildTime location = %v, want UTC", loc)
	}
}

func TestMetadataIsACopy(t *testing.T) {
	meta := testMeta()
	w := NewWriter(meta)
	meta.Sources[0].Records["territories"] = -1 // must not reach the Writer
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	f, err := OpenBytes(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	md := f.Metadata()
	if got := md.Sources[0].Records["territories"]; got != 258 {
		t.Fatalf("Writer saw the caller's later change: territories = %d", got)
	}
	md.Sources[0].Feeds[0] = "changed"
	md.Sources[0].Records["territories"] = 0
	if diff := cmp.Diff(testMeta().Sources, f.Metadata().Sources); diff != "" {
		t.Errorf("modifying Metadata()'s result changed the File (-want +got):\n%s", diff)
	}
}

func TestDeterministic(t *testing.T) {
	a := build(t, testMeta(), testSection{"b", []byte("2")}, testSection{"a", []byte("1")}, testSection{"c", nil})
	b := build(t, testMeta(), testSection{"c", nil}, testSection{"a", []byte("1")}, testSection{"b", []byte("2")})
	if !bytes.Equal(a, b) {
		t.Errorf("same sections added in another order gave different bytes")
	}

	// The same instant in another zone is the same metadata.
	meta := testMeta()
	meta.BuildTime = meta.BuildTime.UTC()
	if c := build(t, meta, testSection{"a", []byte("1")}, testSection{"b", []byte("2")}, testSection{"c", nil}); !bytes.Equal(a, c) {
		t.Errorf("BuildTime in UTC and in CEST gave different bytes")
	}

	w := NewWriter(testMeta())
	if err := w.AddSection("x", []byte("payload")); err != nil {
		t.Fatal(err)
	}
	var first, second bytes.Buffer
	if _, err := w.WriteTo(&first); err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteTo(&second); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first.Bytes(), second.Bytes()) {
		t.Errorf("two WriteTo calls gave different bytes")
	}
}

func TestAddSectionErrors(t *testing.T) {
	tests := []struct {
		name    string
		section string
	}{
		{"empty name", ""},
		{"duplicate", "dup"},
		{"too long", strings.Repeat("n", maxNameLen+1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := NewWriter(Metadata{})
			if err := w.AddSection("dup", []byte("first")); err != nil {
				t.Fatal(err)
			}
			if err := w.AddSection(tt.section, []byte("x")); err == nil {
				t.Errorf("AddSection(%.20q) succeeded, want error", tt.section)
			}
		})
	}
}

func TestPayloadsAligned(t *testing.T) {
	b := build(t, testMeta(), testSection{"a", []byte("123")}, testSection{"b", []byte("45")}, testSection{"c", []byte("6")})
	f, err := OpenBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range f.sections {
		if e.offset%align != 0 {
			t.Errorf("section %q at offset %d, not a multiple of %d", e.name, e.offset, align)
		}
	}
}

func TestTruncated(t *testing.T) {
	b := smallFile(t)
	for n := range len(b) {
		_, err := OpenBytes(b[:n:n])
		if !errors.Is(err, ErrFormat) {
			t.Errorf("OpenBytes(first %d of %d bytes) = %v, want ErrFormat", n, len(b), err)
		}
	}
}

func TestCorrupt(t *testing.T) {
	b := smallFile(t)
	f, err := OpenBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	payload := f.sections[0].offset

	t.Run("bit flip in payload", func(t *testing.T) {
		c := bytes.Clone(b)
		c[payload+3] ^= 0x10
		_, err := OpenBytes(c)
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "checksum") {
			t.Errorf("OpenBytes = %v, want a checksum ErrFormat", err)
		}
	})
	t.Run("every byte", func(t *testing.T) {
		// No single corrupted byte anywhere in the file may go unnoticed.
		for i := range b {
			c := bytes.Clone(b)
			c[i] ^= 0x01
			if _, err := OpenBytes(c); err == nil {
				t.Errorf("flipping a bit of byte %d went unnoticed", i)
			}
		}
	})
	t.Run("trailing garbage", func(t *testing.T) {
		if _, err := OpenBytes(append(bytes.Clone(b), 0)); !errors.Is(err, ErrFormat) {
			t.Errorf("OpenBytes = %v, want ErrFormat", err)
		}
	})
	t.Run("huge section count", func(t *testing.T) {
		c := bytes.Clone(b)
		metaLen := binary.LittleEndian.Uint32(c[len(magic)+4:])
		binary.LittleEndian.PutUint32(c[headerFixedLen+int(metaLen):], 1<<31)
		if _, err := OpenBytes(c); !errors.Is(err, ErrFormat) {
			t.Errorf("OpenBytes = %v, want ErrFormat", err)
		}
	})
	t.Run("future version", func(t *testing.T) {
		c := bytes.Clone(b)
		binary.LittleEndian.PutUint32(c[len(magic):], FormatVersion+1)
		_, err := OpenBytes(c)
		if !errors.Is(err, ErrVersion) || errors.Is(err, ErrFormat) {
			t.Errorf("OpenBytes = %v, want ErrVersion only", err)
		}
	})
	t.Run("not a snapshot", func(t *testing.T) {
		if _, err := OpenBytes([]byte("PK\x03\x04 some zip file")); !errors.Is(err, ErrFormat) {
			t.Errorf("OpenBytes = %v, want ErrFormat", err)
		}
	})
}

// FuzzOpenBytes checks that OpenBytes never panics and that whatever it accepts is a canonical
// file: encoding its metadata and sections again gives the same bytes.
func FuzzOpenBytes(f *testing.F) {
	valid := smallFile(f)
	f.Add(valid)                             // a valid file with three sections, one empty
	f.Add(build(f, Metadata{}))              // the smallest valid file
	f.Add(valid[:len(magic)+4])              // magic and version only
	f.Add(valid[:len(valid)/2])              // cut inside the table or payloads
	f.Add(valid[:len(valid)-1])              // last payload byte missing
	f.Add([]byte(magic))                     // magic only
	f.Add([]byte{})                          // nothing
	f.Add(append([]byte(magic), 2, 0, 0, 0)) // a future version
	f.Fuzz(func(t *testing.T, b []byte) {
		file, err := OpenBytes(b)
		if err != nil {
			if !errors.Is(err, ErrFormat) && !errors.Is(err, ErrVersion) {
				t.Fatalf("OpenBytes error %v wraps neither ErrFormat nor ErrVersion", err)
			}
			return
		}
		w := NewWriter(file.Metadata())
		for _, name := range file.SectionNames() {
			data, _ := file.Section(name)
			if err := w.AddSection(name, data); err != nil {
				t.Fatal(err)
			}
		}
		var buf bytes.Buffer
		if _, err := w.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), b) {
			t.Errorf("accepted file is not canonical: re-encoding gives %d bytes, input %d", buf.Len(), len(b))
		}
	})
}

func ExampleWriter() {
	w := NewWriter(Metadata{BuildTime: time.Date(2026, 9, 18, 0, 0, 0, 0, time.UTC)})
	if err := w.AddSection("greeting", []byte("hello")); err != nil {
		panic(err)
	}
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		panic(err)
	}
	f, err := OpenBytes(buf.Bytes())
	if err != nil {
		panic(err)
	}
	data, ok := f.Section("greeting")
	fmt.Println(string(data), ok, f.Metadata().BuildTime.Format(time.DateOnly))
	// Output: hello true 2026-09-18
}
