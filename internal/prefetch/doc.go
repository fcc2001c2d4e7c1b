// Package prefetch owns software prefetching: asking the CPU for memory that a lookup will
// read soon, so that the cache misses of independent reads overlap instead of following
// one another. Under a load of random addresses a geolocation answer reads a few dozen
// lines of a snapshot far larger than the caches; each read on its own waits for memory.
//
// A prefetch is a hint: it never faults and never changes what a program computes, so the
// functions accept any pointer, and on architectures without an assembly version (see
// prefetch_*.s) they do nothing.
package prefetch
