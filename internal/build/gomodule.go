package build

import (
	"context"
	"errors"
	"io/fs"
	"testing/fstest"
)

// GoModule is the Method of data compiled into the binary from a Go module. go.mod pins the
// module's version and go.sum its checksum, which the go command verifies when it builds, so
// the data is never fetched, cached or read from a mirror: every build has it. It is still a
// catalogued source so that its version, licence and attribution reach the snapshot's
// metadata (data info, /data/sources, /docs) like every other source's, and the section
// reading it names it in Needs and reads its files through Sources.
type GoModule struct {
	// Path is the module path, e.g. "github.com/ringsaturn/tzf-rel-lite".
	Path string
	// Version is the version go.mod requires; TestGoModuleVersions keeps the two equal.
	Version string
	// Files are the data files the module embeds, by their path in the module.
	Files map[string][]byte
}

// Pin returns "go module PATH@VERSION" and the version. It has no checksum of its own: the
// go command checked the module against go.sum when it built this binary.
func (m GoModule) Pin() Pin {
	return Pin{Origin: "go module " + m.Path + "@" + m.Version, Version: m.Version}
}

// errCompiledIn is Fetch's answer: Update reads the files in place and never calls it.
var errCompiledIn = errors.New("build: the data of a Go module is compiled into the binary, never fetched")

// Fetch always fails: the data is already in the binary (see GoModule.tree).
func (m GoModule) Fetch(context.Context, string) (Artifact, error) {
	return Artifact{}, errCompiledIn
}

// tree returns the module's files as a read-only file system.
func (m GoModule) tree() fs.FS {
	fsys := make(fstest.MapFS, len(m.Files))
	for p, b := range m.Files {
		fsys[p] = &fstest.MapFile{Data: b, Mode: 0o444}
	}
	return fsys
}
