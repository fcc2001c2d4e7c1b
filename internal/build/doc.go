// Package build is the data pipeline behind `ipatlas data update`: it fetches every source in a
// catalogue (verified against a pinned checksum) into a local cache, hands each section builder
// the sources it needs as read-only file trees, and writes the resulting snapshot with dbfile,
// keeping the previous one. It prints progress as it goes and records provenance (versions,
// checksums, data dates, counts, licences) in the snapshot's metadata.
//
// # Sources
//
// A Source is one upstream data set. Its Method says how to obtain it from outside the
// machine: NPM runs the ordinary npm client; MirrorOnly marks sources that can only be read
// from a local mirror. A source is looked up in this order:
//
//  1. the mirror, when Options.MirrorDir is set and holds a folder named after the source;
//  2. the cache, <CacheDir>/<name>/<version>/, unless the source is listed in Options.Only;
//  3. the network, unless Options.Offline.
//
// A required source that cannot be obtained fails the update and leaves the existing
// snapshot untouched; an optional one is reported as missing and the fields it feeds stay
// empty.
//
// # Determinism
//
// The same sources always give a byte-identical snapshot: sections are stored by name,
// metadata is sorted, the fetch time is kept out of the snapshot, and the build time recorded
// is the newest date found in the data, not the wall clock.
package build
