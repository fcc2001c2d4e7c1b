//go:build !race

package ipgeobuild

const raceEnabled = false
