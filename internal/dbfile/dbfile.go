// Package dbfile owns the ipatlas snapshot file format: a versioned header, metadata and named,
// checksummed sections. The build side assembles a file with a Writer; the serving side opens it
// with Open or OpenBytes, which verify the whole file before returning, so a snapshot that opens is
// a snapshot whose every byte is the one the builder wrote.
//
// # Layout
//
// All integers are little-endian.
//
//	magic        8 bytes  "IPATLAS\x00"
//	version      uint32   FormatVersion
//	metaLen      uint32   length of the metadata JSON
//	meta         metaLen bytes of JSON (Metadata)
//	count        uint32   number of sections
//	table        count entries, in strictly ascending name order:
//	               nameLen uint16, name, offset uint64, length uint64, sha256 [32]byte
//	headerSum    [32]byte SHA-256 of every byte before it (magic through table)
//	payloads     each section's bytes at its offset, in table order, each starting at the
//	             next multiple of 8 after the previous one, the gaps filled with zeros
//
// The file ends exactly where the last payload ends. Every file has one canonical encoding, so
// the same metadata and sections always give the same bytes, and anything else is ErrFormat.
// Offsets are multiples of 8 so that a section loaded at an aligned address can be read as
// fixed-width integers in place.
package dbfile

import (
	"errors"
	"maps"
	"slices"
	"time"
)

// FormatVersion is the version of the layout this package writes and the only one it reads.
// Change it whenever a reader of the previous version would misread a file of the new one.
const FormatVersion = 1

// Errors returned by Open and OpenBytes, wrapped with detail; compare with errors.Is.
var (
	// ErrFormat reports a file that is not a well-formed snapshot: wrong magic, truncated,
	// inconsistent, or with a checksum that does not match.
	ErrFormat = errors.New("dbfile: malformed snapshot")
	// ErrVersion reports a snapshot whose header names a format version this build cannot
	// read (checked before anything else, since another version may lay out the rest
	// differently).
	ErrVersion = errors.New("dbfile: unsupported snapshot format version")
)

// magic opens every snapshot file. The NUL keeps text tools from mistaking it for text.
const magic = "IPATLAS\x00"

// maxNameLen bounds section names; names are identifiers such as "country", not data.
const maxNameLen = 255

// align is the alignment of every payload's offset within the file.
const align = 8

// Fixed sizes of the encoding, used by both sides.
const (
	headerFixedLen = len(magic) + 4 + 4 // magic, version, metaLen
	entryFixedLen  = 2 + 8 + 8 + 32     // nameLen, offset, length, sha256 (name excluded)
	sumLen         = 32
)

// Metadata describes how a snapshot was built: from which sources, of which versions, with
// what result. It is stored as JSON in the file and shown by `ipatlas data info` and
// /data/sources.
type Metadata struct {
	// FormatVersion is the file's layout version. Writers always set it to FormatVersion.
	FormatVersion int `json:"formatVersion"`
	// BuildTime is not the wall clock at build time but the newest data date among the
	// sources, so that building the same sources twice gives the same file.
	BuildTime time.Time `json:"buildTime"`
	// Sources lists every catalogued source, sorted by name, including those that were
	// missing, so that a reader can say which fields are empty and why.
	Sources []SourceInfo `json:"sources"`
}

// SourceInfo is the provenance of one upstream source in a snapshot.
type SourceInfo struct {
	Name        string `json:"name"`
	Version     string `json:"version"`
	Licence     string `json:"licence"`
	Attribution string `json:"attribution"`
	// Origin says where the data came from, e.g. "npm cldr-core@48.2.0" or "mirror" (a
	// mirror folder, whose tree digest the note gives).
	Origin string `json:"origin"`
	// SHA256 is the hex SHA-256 of the fetched artifact; empty when nothing was fetched.
	SHA256 string `json:"sha256"`
	// DataDate is the date of the data itself, as the data states it (not the fetch time);
	// zero if the data does not say.
	DataDate time.Time `json:"dataDate"`
	// Status is "ok", "missing" (an optional source that was not available), "error", or
	// "unused" (catalogued but read by no section).
	Status string `json:"status"`
	// Note explains a status other than "ok", e.g. why a source is missing and which fields
	// are therefore empty, and carries the builders' warnings.
	Note string `json:"note"`
	// Records counts what was read from the source, e.g. {"countries": 249}.
	Records map[string]int `json:"records"`
	// Feeds lists the API fields this source feeds.
	Feeds []string `json:"feeds"`
}

// clone returns a deep copy of md with every time in UTC, so that two equal instants
// always encode to the same bytes and no caller shares slices or maps with a Writer or File.
func (md Metadata) clone() Metadata {
	out := md
	out.BuildTime = md.BuildTime.UTC()
	out.Sources = slices.Clone(md.Sources)
	for i := range out.Sources {
		s := &out.Sources[i]
		s.DataDate = s.DataDate.UTC()
		s.Records = maps.Clone(s.Records)
		s.Feeds = slices.Clone(s.Feeds)
	}
	return out
}
