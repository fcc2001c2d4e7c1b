package dbfile

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// A Writer assembles one snapshot: metadata plus named sections. It is not safe for
// concurrent use. Output depends only on the metadata and the set of sections, never on the
// order of AddSection calls, so the same inputs always give the same bytes.
type Writer struct {
	meta     Metadata
	sections []section
}

// section is one named payload with its checksum, computed once when added.
type section struct {
	name string
	data []byte
	sum  [sha256.Size]byte
}

// NewWriter returns a Writer for a snapshot with the given metadata. The Writer keeps a deep
// copy of meta (times converted to UTC) and sets its FormatVersion to FormatVersion.
func NewWriter(meta Metadata) *Writer {
	m := meta.clone()
	m.FormatVersion = FormatVersion
	return &Writer{meta: m}
}

// AddSection adds a named section. It returns an error if the name is empty, longer than 255
// bytes or already added. The Writer keeps data without copying it: the caller must not
// modify it until WriteTo has returned. Empty data is allowed.
func (w *Writer) AddSection(name string, data []byte) error {
	if name == "" {
		return fmt.Errorf("dbfile: empty section name")
	}
	if len(name) > maxNameLen {
		return fmt.Errorf("dbfile: section name %.20q... longer than %d bytes", name, maxNameLen)
	}
	if slices.ContainsFunc(w.sections, func(s section) bool { return s.name == name }) {
		return fmt.Errorf("dbfile: duplicate section %q", name)
	}
	w.sections = append(w.sections, section{name: name, data: data, sum: sha256.Sum256(data)})
	return nil
}

// WriteTo writes the snapshot to out and returns the number of bytes written. Sections are
// written in name order. It can be called more than once and writes the same bytes each time.
func (w *Writer) WriteTo(out io.Writer) (int64, error) {
	header, offsets, err := w.header()
	if err != nil {
		return 0, err
	}
	var n int64
	write := func(b []byte) error {
		m, err := out.Write(b)
		n += int64(m)
		if err != nil {
			return fmt.Errorf("dbfile: write: %w", err)
		}
		return nil
	}
	if err := write(header); err != nil {
		return n, err
	}
	var zeros [align]byte
	for i, s := range w.sortedSections() {
		if pad := offsets[i] - uint64(n); pad > 0 {
			if err := write(zeros[:pad]); err != nil {
				return n, err
			}
		}
		if err := write(s.data); err != nil {
			return n, err
		}
	}
	return n, nil
}

// sortedSections returns the sections in the order the file stores them.
func (w *Writer) sortedSections() []section {
	s := slices.Clone(w.sections)
	slices.SortFunc(s, func(a, b section) int { return strings.Compare(a.name, b.name) })
	return s
}

// header encodes everything up to the first payload (magic through headerSum) and returns it
// with each sorted section's offset.
func (w *Writer) header() ([]byte, []uint64, error) {
	meta, err := json.Marshal(w.meta)
	if err != nil {
		return nil, nil, fmt.Errorf("dbfile: encode metadata: %w", err)
	}
	sections := w.sortedSections()
	size := headerFixedLen + len(meta) + 4 + sumLen
	for _, s := range sections {
		size += entryFixedLen + len(s.name)
	}
	offsets := make([]uint64, len(sections))
	end := uint64(size)
	for i, s := range sections {
		offsets[i] = alignUp(end)
		end = offsets[i] + uint64(len(s.data))
	}

	var buf bytes.Buffer
	buf.Grow(size)
	le := binary.LittleEndian
	buf.WriteString(magic)
	buf.Write(le.AppendUint32(nil, FormatVersion))
	buf.Write(le.AppendUint32(nil, uint32(len(meta))))
	buf.Write(meta)
	buf.Write(le.AppendUint32(nil, uint32(len(sections))))
	for i, s := range sections {
		buf.Write(le.AppendUint16(nil, uint16(len(s.name))))
		buf.WriteString(s.name)
		buf.Write(le.AppendUint64(nil, offsets[i]))
		buf.Write(le.AppendUint64(nil, uint64(len(s.data))))
		buf.Write(s.sum[:])
	}
	sum := sha256.Sum256(buf.Bytes())
	buf.Write(sum[:])
	return buf.Bytes(), offsets, nil
}

// alignUp rounds n up to the next multiple of align.
func alignUp(n uint64) uint64 {
	return (n + align - 1) &^ (align - 1)
}
