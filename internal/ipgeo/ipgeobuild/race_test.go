//go:build race

package ipgeobuild

// raceEnabled reports whether the race detector is on: the real-data tests then build the
// section once and check fewer addresses, to stay within the default test timeout.
const raceEnabled = true
