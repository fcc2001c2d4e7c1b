// Package layout owns the checks that hold for the whole repository rather than for one
// package: that every Go package carries exactly one package doc comment (STYLE.md: one doc
// comment per package, saying what it owns), and that README's Go examples build. It has
// no code, only its tests.
package layout
