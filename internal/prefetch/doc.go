// Package prefetch owns software prefetching: asking the CPU for memory that a lookup will
// read soon, so that the cache misses of independent reads overlap instead of following
// one another. Under a load of random addresses a geolocation answer reads a few dozen
// lines of a snapshot far larger than the caches; each read on its own waits for memory.
//
// A prefetch is a hint: it never faults and never changes what a program computes. Line
// accepts any pointer (Bytes, String and Slice pass only pointers inside their span), and
// on architectures without an assembly version (line_*.s) it does nothing.
package prefetch
