package graphql

import (
	"container/list"
	"sync"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// docCache keeps parsed and validated documents, and the errors of documents that failed,
// by package and query text: clients send the same few queries again and again, and parsing
// and validating is most of the work of a small query. It is a plain LRU of at most max
// entries; only queries up to CacheMaxQuery bytes are kept, so it holds at most a few
// megabytes of documents. Cached documents are shared and only ever read.
type docCache struct {
	mu  sync.Mutex
	max int
	ll  *list.List // of *cacheEntry, most recently used first
	m   map[cacheKey]*list.Element
}

type cacheKey struct{ pkg, query string }

type cacheEntry struct {
	key  cacheKey
	doc  *ast.QueryDocument
	errs gqlerror.List
	code string // error code of errs
}

func newDocCache(max int) *docCache {
	return &docCache{max: max, ll: list.New(), m: make(map[cacheKey]*list.Element)}
}

func (c *docCache) get(pkg, query string) (*cacheEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.m[cacheKey{pkg, query}]
	if !ok {
		return nil, false
	}
	c.ll.MoveToFront(el)
	return el.Value.(*cacheEntry), true
}

func (c *docCache) put(e *cacheEntry) {
	if len(e.key.query) > CacheMaxQuery || c.max <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.m[e.key]; ok { // another request parsed it meanwhile
		c.ll.MoveToFront(el)
		return
	}
	c.m[e.key] = c.ll.PushFront(e)
	for c.ll.Len() > c.max {
		old := c.ll.Back()
		c.ll.Remove(old)
		delete(c.m, old.Value.(*cacheEntry).key)
	}
}

func (c *docCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ll.Len()
}
