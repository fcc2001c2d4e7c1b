// Package mmdbwalk iterates over the networks of a MaxMind DB with a bound on their number,
// for the build steps that read whole GeoLite2 databases. The search tree of a MaxMind DB
// is a binary tree of node_count nodes, so it has at most node_count+1 leaves; the reader
// skips the paths that alias the IPv4 subtree. A crafted file whose nodes point at shared
// children is a DAG whose paths the reader follows one by one, without limit: 40 nodes in a
// chain, each pointing twice at the next, give 2^39 networks from a file of 500 bytes, and
// a build that collects them never ends and grows without bound.
package mmdbwalk

import (
	"errors"
	"fmt"
	"iter"

	"github.com/oschwald/maxminddb-golang/v2"
)

// ErrTooManyNetworks reports a search tree with more networks than its nodes allow.
var ErrTooManyNetworks = errors.New("more networks than the search tree's nodes can hold (a corrupt or crafted file)")

// Limit is how many networks a database of nodeCount nodes may yield. A valid tree yields
// at most nodeCount+1 (GeoLite2 City, Country and ASN yield just under nodeCount, empty
// networks included); twice that leaves room for a writer that shares a few subtrees, and
// still stops a crafted file after a pass as long as a valid one.
func Limit(nodeCount uint) uint64 { return 2*uint64(nodeCount) + 2 }

// Networks is r.Networks(opts...) that yields each result with its error, and stops with
// ErrTooManyNetworks (and a zero Result) once it has yielded more than Limit networks.
func Networks(r *maxminddb.Reader, opts ...maxminddb.NetworksOption) iter.Seq2[maxminddb.Result, error] {
	return func(yield func(maxminddb.Result, error) bool) {
		limit, n := Limit(r.Metadata.NodeCount), uint64(0)
		for res := range r.Networks(opts...) {
			if n++; n > limit {
				yield(maxminddb.Result{}, fmt.Errorf("%w: over %d networks from %d nodes", ErrTooManyNetworks, limit, r.Metadata.NodeCount))
				return
			}
			if !yield(res, res.Err()) {
				return
			}
		}
	}
}
