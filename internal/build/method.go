package build

import (
	"context"
	"errors"
	"time"
)

// A Method is how a source is obtained from outside the machine. Each kind of upstream (npm
// package, mirror-only, later a plain URL) is one small type implementing it, so adding a kind
// touches neither the catalogue's other entries nor Update.
type Method interface {
	// Pin describes exactly which artifact the method fetches.
	Pin() Pin
	// Fetch downloads the artifact, verifies it against Pin().Checksum and unpacks it into
	// dir, an existing empty directory. It may create scratch files beside dir (in its
	// parent) and removes them before returning. It returns an error wrapping ErrNotFetchable
	// when the method cannot fetch at all (a mirror-only source).
	Fetch(ctx context.Context, dir string) (Artifact, error)
}

// Pin identifies one exact artifact of a source.
type Pin struct {
	// Origin names the artifact for people and for provenance, e.g. "npm cldr-core@48.2.0".
	Origin string
	// Version is the pinned version. It names the cache folder, so it is one path element;
	// empty for methods that never fetch, whose sources are never cached.
	Version string
	// Checksum is what the artifact must match, in the method's own notation (npm: the
	// dist.integrity string). A cached copy is reused only if it was fetched under the same
	// Checksum, so changing a pin invalidates the cache.
	Checksum string
	// MaxAge, if set, is how long a cached copy is reused before it is fetched again (for
	// sources whose content changes upstream and so has no checksum to pin).
	MaxAge time.Duration
	// TreeSHA256, if set, is the treeDigest of the unpacked artifact. A fetch, a cached copy
	// and a mirror folder standing in for the source must all match it, so that a mirror
	// carried to an air-gapped machine is checked as a download is.
	TreeSHA256 string
}

// Artifact describes what a Fetch downloaded.
type Artifact struct {
	// SHA256 is the hex SHA-256 of the downloaded file (before unpacking).
	SHA256 string
	// Size is the number of bytes downloaded.
	Size int64
}

// ErrNotFetchable is wrapped by Method.Fetch for sources that cannot be fetched from the
// network from here (mirror-only sources).
var ErrNotFetchable = errors.New("build: source cannot be fetched, only read from a mirror")

// ErrIntegrity is wrapped by Method.Fetch when a downloaded artifact does not match its pin.
var ErrIntegrity = errors.New("build: artifact does not match its pinned checksum")

// MirrorOnly is the Method of sources that have no fetch method usable from here (their public
// home is not reachable through a package registry): they are read only from
// <MirrorDir>/<name>/ and are missing otherwise.
type MirrorOnly struct{}

// Pin returns a pin with no version: mirror-only sources are never cached.
func (MirrorOnly) Pin() Pin { return Pin{Origin: "mirror only"} }

// Fetch always fails with ErrNotFetchable.
func (MirrorOnly) Fetch(context.Context, string) (Artifact, error) {
	return Artifact{}, ErrNotFetchable
}

// A Fetcher fetches a source into dir. Update calls it only when a source is neither in the
// mirror nor in the cache (or is being refreshed); the default calls src.Fetch.Fetch. Tests
// substitute fakes to count or fail fetches without a network.
type Fetcher interface {
	Fetch(ctx context.Context, src Source, dir string) (Artifact, error)
}

// FetcherFunc adapts a function to the Fetcher interface.
type FetcherFunc func(ctx context.Context, src Source, dir string) (Artifact, error)

// Fetch calls f.
func (f FetcherFunc) Fetch(ctx context.Context, src Source, dir string) (Artifact, error) {
	return f(ctx, src, dir)
}

// methodFetcher is the default Fetcher: each source's own Method.
type methodFetcher struct{}

func (methodFetcher) Fetch(ctx context.Context, src Source, dir string) (Artifact, error) {
	return src.Fetch.Fetch(ctx, dir)
}
