//go:build race

package revgeobuild

// raceEnabled reports whether the race detector is on, which makes the real-data build several
// times slower; the tests that build twice skip then.
const raceEnabled = true
