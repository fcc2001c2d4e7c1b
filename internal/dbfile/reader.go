package dbfile

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// A File is an opened, fully verified snapshot. It is immutable and safe for concurrent use;
// it has no Close because it holds only memory, which the garbage collector reclaims once no
// reader refers to it (so a snapshot can be swapped out while requests still read it).
type File struct {
	data     []byte
	meta     Metadata
	sections []entry // in ascending name order, as in the file
}

// entry is one row of the section table.
type entry struct {
	name        string
	offset, len uint64
}

// Open reads the snapshot at path and opens it with OpenBytes. Its errors name path once.
func Open(path string) (*File, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("dbfile: %w", err) // *PathError: "open PATH: ..."
	}
	f, err := OpenBytes(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// OpenBytes parses and verifies a snapshot held in b: magic, version, bounds, the checksum of
// the header and the SHA-256 of every section. It returns an error wrapping ErrVersion for a
// format version it cannot read and ErrFormat for anything else that is wrong; it never
// panics, whatever b holds. The File refers to b (sections are sub-slices of it), so the
// caller must not modify b afterwards.
func OpenBytes(b []byte) (*File, error) {
	h, err := readHeader(b, uint64(len(b)))
	if err != nil {
		return nil, err
	}
	end := h.end
	for i, e := range h.sections {
		if !allZero(b[end:e.offset]) {
			return nil, formatErr("non-zero padding before section %q", e.name)
		}
		if sum := sha256.Sum256(b[e.offset : e.offset+e.len]); !bytes.Equal(sum[:], h.sums[i]) {
			return nil, formatErr("section %q checksum mismatch", e.name)
		}
		end = e.offset + e.len
	}
	return &File{data: b, meta: h.meta, sections: h.sections}, nil
}

// Check verifies as much of the snapshot at path as its header covers, without reading the
// sections: magic, version, the header's checksum, the metadata, and that the sections fill a
// file of exactly this size. It catches a wrong, truncated or extended file, or one of
// another version, in a moment; Open, which verifies every byte, is still what proves a
// snapshot sound. Its errors name path once, as Open's do.
func Check(path string) (Metadata, error) {
	f, err := os.Open(path)
	if err != nil {
		return Metadata{}, fmt.Errorf("dbfile: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Metadata{}, fmt.Errorf("dbfile: %w", err)
	}
	size := uint64(max(st.Size(), 0))
	// The header is a few kilobytes; read more only when it is longer than that.
	for n := min(size, 64<<10); ; n = min(2*n, size) {
		b := make([]byte, n)
		if _, err := io.ReadFull(io.NewSectionReader(f, 0, int64(n)), b); err != nil {
			return Metadata{}, fmt.Errorf("dbfile: %s: %w", path, err)
		}
		h, err := readHeader(b, size)
		if err == nil {
			return h.meta, nil
		}
		if !errors.Is(err, errShort) || n == size {
			return Metadata{}, fmt.Errorf("%s: %w", path, err)
		}
	}
}

// header is what readHeader finds before the payloads.
type header struct {
	meta     Metadata
	sections []entry
	sums     [][]byte // SHA-256 of each section, in table order
	end      uint64   // offset of the header's end, where the first padding starts
}

// readHeader parses and verifies the header at the start of b, a prefix of a file of size
// bytes: everything but the payloads' padding and checksums. An error wraps errShort (and
// ErrFormat) when b ends inside the header.
func readHeader(b []byte, size uint64) (header, error) {
	d := decoder{b: b}
	if m := d.bytes(len(magic)); d.err != nil || string(m) != magic {
		return header{}, formatErr("not a snapshot (bad magic)")
	}
	if v := d.uint32(); d.err == nil && v != FormatVersion {
		return header{}, fmt.Errorf("dbfile: version %d, this build reads %d: %w", v, FormatVersion, ErrVersion)
	}
	metaLen := uint64(d.uint32())
	if d.err == nil && metaLen > size-uint64(d.off) {
		// Said here rather than by the read below, which for Check would mean reading on.
		return header{}, formatErr("metadata length %d exceeds file size", metaLen)
	}
	metaJSON := d.bytes(int(metaLen))
	count := d.uint32()
	if d.err != nil {
		return header{}, d.err
	}
	// Check the count against the bytes left before allocating, so a corrupt count cannot
	// make us allocate gigabytes.
	if uint64(count) > (size-uint64(d.off))/(entryFixedLen+1) {
		return header{}, formatErr("section count %d exceeds file size", count)
	}
	sections := make([]entry, 0, count)
	sums := make([][]byte, 0, count)
	for range count {
		name := string(d.bytes(int(d.uint16())))
		e := entry{name: name, offset: d.uint64(), len: d.uint64()}
		sum := d.bytes(sha256.Size)
		if d.err != nil {
			return header{}, d.err
		}
		if name == "" || len(name) > maxNameLen {
			return header{}, formatErr("section name length %d", len(name))
		}
		if n := len(sections); n > 0 && strings.Compare(sections[n-1].name, name) >= 0 {
			return header{}, formatErr("section %q out of order or duplicate", name)
		}
		sections = append(sections, e)
		sums = append(sums, sum)
	}
	headerEnd := d.off
	headerSum := d.bytes(sumLen)
	if d.err != nil {
		return header{}, d.err
	}
	if sum := sha256.Sum256(b[:headerEnd]); !bytes.Equal(sum[:], headerSum) {
		return header{}, formatErr("header checksum mismatch")
	}

	// Payloads tile the rest of the file exactly: each at the next aligned offset after the
	// previous one, zero padding between, nothing after the last.
	end := uint64(d.off)
	for _, e := range sections {
		if e.offset != alignUp(end) {
			return header{}, formatErr("section %q at offset %d, want %d", e.name, e.offset, alignUp(end))
		}
		if e.offset > size || e.len > size-e.offset {
			return header{}, formatErr("section %q (%d bytes at %d) beyond end of file (%d bytes)", e.name, e.len, e.offset, size)
		}
		end = e.offset + e.len
	}
	if end != size {
		return header{}, formatErr("%d bytes after the last section", size-end)
	}

	var meta Metadata
	if err := json.Unmarshal(metaJSON, &meta); err != nil {
		return header{}, formatErr("metadata: %v", err)
	}
	if meta.FormatVersion != FormatVersion {
		return header{}, formatErr("metadata says format version %d, header %d", meta.FormatVersion, FormatVersion)
	}
	return header{meta: meta, sections: sections, sums: sums, end: uint64(d.off)}, nil
}

// Metadata returns a copy of the snapshot's metadata; the caller may modify it.
func (f *File) Metadata() Metadata {
	return f.meta.clone()
}

// Section returns the named section's bytes and reports whether the snapshot has it. The
// slice aliases the snapshot's memory without copying: the caller must not modify it.
func (f *File) Section(name string) ([]byte, bool) {
	i, ok := slices.BinarySearchFunc(f.sections, name, func(e entry, name string) int {
		return strings.Compare(e.name, name)
	})
	if !ok {
		return nil, false
	}
	e := f.sections[i]
	return f.data[e.offset : e.offset+e.len : e.offset+e.len], true
}

// SectionNames returns the names of the snapshot's sections in ascending order.
func (f *File) SectionNames() []string {
	names := make([]string, len(f.sections))
	for i, e := range f.sections {
		names[i] = e.name
	}
	return names
}

// decoder reads the fixed-layout header. After the first failure every read returns zero
// values and err stays set, so callers check err once after a group of reads.
type decoder struct {
	b   []byte
	off int
	err error
}

func (d *decoder) bytes(n int) []byte {
	if d.err != nil {
		return nil
	}
	if n < 0 || n > len(d.b)-d.off {
		d.err = fmt.Errorf("%w: %w at byte %d (need %d more, have %d)", ErrFormat, errShort, d.off, n, len(d.b)-d.off)
		return nil
	}
	p := d.b[d.off : d.off+n : d.off+n]
	d.off += n
	return p
}

func (d *decoder) uint16() uint16 {
	if p := d.bytes(2); p != nil {
		return binary.LittleEndian.Uint16(p)
	}
	return 0
}

func (d *decoder) uint32() uint32 {
	if p := d.bytes(4); p != nil {
		return binary.LittleEndian.Uint32(p)
	}
	return 0
}

func (d *decoder) uint64() uint64 {
	if p := d.bytes(8); p != nil {
		return binary.LittleEndian.Uint64(p)
	}
	return 0
}

// errShort marks a header that runs past the bytes given: a truncated file, or for Check a
// prefix to read further.
var errShort = errors.New("truncated")

// formatErr returns an error wrapping ErrFormat with detail.
func formatErr(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrFormat}, args...)...)
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
