// Package layout owns the checks that hold for the whole repository rather than for one
// package: today, that every Go package carries exactly one package doc comment (STYLE.md:
// one doc comment per package, saying what it owns). It has no code, only its test.
package layout
