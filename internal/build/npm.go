package build

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// NPM fetches a package from the npm registry with the ordinary npm client (`npm pack`), so
// that the user's npm configuration (registry mirror, proxy, certificates, cache) applies,
// verifies the tarball against the pinned integrity and unpacks it in Go.
type NPM struct {
	// Package is the package name as npm spells it, e.g. "@rapideditor/country-coder".
	Package string
	// Version is an exact version, never a range.
	Version string
	// Integrity is the tarball's integrity as `npm view NAME@VERSION dist.integrity` prints
	// it: "sha512-" and the base64 digest.
	Integrity string
	// Tree is the tree SHA-256 of the unpacked tarball (see Pin.TreeSHA256): what a mirror
	// folder holding the package must match. A fetch checks it too, so a wrong pin fails
	// the first fetch of the package (make test-snapshot on an empty cache).
	Tree string
	// Command is the npm client to run; empty means "npm" from PATH.
	Command string
}

// Pin returns "npm NAME@VERSION", the version, the integrity and the unpacked tree's digest.
func (m NPM) Pin() Pin {
	return Pin{Origin: "npm " + m.spec(), Version: m.Version, Checksum: m.Integrity, TreeSHA256: m.Tree}
}

func (m NPM) spec() string { return m.Package + "@" + m.Version }

// Fetch runs `npm pack NAME@VERSION --pack-destination SCRATCH --json`, checks the tarball's
// SHA-512 against Integrity and unpacks it into dir without its leading directory
// (normally "package/").
func (m NPM) Fetch(ctx context.Context, dir string) (Artifact, error) {
	want, err := parseIntegrity(m.Integrity)
	if err != nil {
		return Artifact{}, fmt.Errorf("npm %s: %w", m.spec(), err)
	}
	// npm runs inside the scratch directory, so every path it is given must be absolute.
	if dir, err = filepath.Abs(dir); err != nil {
		return Artifact{}, err
	}
	scratch, err := os.MkdirTemp(filepath.Dir(dir), ".npm-pack-*")
	if err != nil {
		return Artifact{}, err
	}
	defer os.RemoveAll(scratch)

	tgz, err := m.pack(ctx, scratch)
	if err != nil {
		return Artifact{}, err
	}
	f, err := os.Open(tgz)
	if err != nil {
		return Artifact{}, err
	}
	defer f.Close()

	// Verify the whole tarball before parsing any of it.
	h512, h256 := sha512.New(), sha256.New()
	size, err := io.Copy(io.MultiWriter(h512, h256), f)
	if err != nil {
		return Artifact{}, fmt.Errorf("npm %s: read tarball: %w", m.spec(), err)
	}
	if got := h512.Sum(nil); !bytes.Equal(got, want) {
		return Artifact{}, fmt.Errorf("npm %s: tarball has sha512-%s, catalogue pins %s: %w",
			m.spec(), base64.StdEncoding.EncodeToString(got), m.Integrity, ErrIntegrity)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return Artifact{}, err
	}
	if err := extractTarGz(f, dir, defaultLimits()); err != nil {
		return Artifact{}, fmt.Errorf("npm %s: %w", m.spec(), err)
	}
	return Artifact{SHA256: hex.EncodeToString(h256.Sum(nil)), Size: size}, nil
}

// pack runs npm pack into scratch and returns the tarball's path.
func (m NPM) pack(ctx context.Context, scratch string) (string, error) {
	command := m.Command
	if command == "" {
		command = "npm"
	}
	// --ignore-scripts: we want the published tarball, never code run on its behalf.
	cmd := exec.CommandContext(ctx, command, "pack", m.spec(), "--pack-destination", scratch, "--json", "--ignore-scripts")
	cmd.Dir = scratch // away from any project .npmrc or package.json in the working directory
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("npm pack %s: %w: %s", m.spec(), err, lastLines(stderr.String(), 5))
	}
	var packed []struct {
		Filename  string `json:"filename"`
		Integrity string `json:"integrity"`
	}
	// npm prints the JSON array last; anything before it (notices) is not ours to parse.
	out := stdout.Bytes()
	if i := bytes.IndexByte(out, '['); i >= 0 {
		out = out[i:]
	}
	if err := json.NewDecoder(bytes.NewReader(out)).Decode(&packed); err != nil {
		return "", fmt.Errorf("npm pack %s: parse output: %w", m.spec(), err)
	}
	if len(packed) != 1 {
		return "", fmt.Errorf("npm pack %s: reported %d tarballs, want 1", m.spec(), len(packed))
	}
	p := packed[0]
	if p.Integrity != m.Integrity {
		return "", fmt.Errorf("npm pack %s: registry reports integrity %s, catalogue pins %s: %w",
			m.spec(), p.Integrity, m.Integrity, ErrIntegrity)
	}
	if !filepath.IsLocal(p.Filename) || filepath.Base(p.Filename) != p.Filename {
		return "", fmt.Errorf("npm pack %s: unexpected tarball name %q", m.spec(), p.Filename)
	}
	return filepath.Join(scratch, p.Filename), nil
}

// CheckTree reports an error if fsys, a mirror folder standing in for this package, is not the
// unpacked package at the pinned version (judged by its package.json).
func (m NPM) CheckTree(fsys fs.FS) error {
	b, err := fs.ReadFile(fsys, "package.json")
	if err != nil {
		return fmt.Errorf("not an unpacked npm package: %w", err)
	}
	var pkg struct{ Name, Version string }
	if err := json.Unmarshal(b, &pkg); err != nil {
		return fmt.Errorf("package.json: %w", err)
	}
	if pkg.Name != m.Package || pkg.Version != m.Version {
		return fmt.Errorf("holds %s@%s, catalogue pins %s", pkg.Name, pkg.Version, m.spec())
	}
	return nil
}

// parseIntegrity decodes a Subresource Integrity string of the form npm pins,
// "sha512-<base64>". Only SHA-512 is accepted: it is what the registry has published for every
// package since 2017, and a weaker pin would be a mistake in the catalogue.
func parseIntegrity(s string) ([]byte, error) {
	b64, ok := strings.CutPrefix(s, "sha512-")
	if !ok {
		return nil, fmt.Errorf("integrity %q is not sha512-<base64>", s)
	}
	sum, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(sum) != sha512.Size {
		return nil, fmt.Errorf("integrity %q: not a base64 SHA-512 digest", s)
	}
	return sum, nil
}

// lastLines returns the last n non-empty lines of s, joined by " | ", for error messages.
func lastLines(s string, n int) string {
	lines := strings.FieldsFunc(strings.TrimSpace(s), func(r rune) bool { return r == '\n' })
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
