package main

import (
	"io"
	"testing"
)

func TestParseFlagsEnvPrecedence(t *testing.T) {
	t.Setenv("IPATLAS_ADDR", "from-env:1")
	t.Setenv("IPATLAS_TRUSTED_PROXIES", "10.0.0.0/8")
	fs := newFlagSet("t", io.Discard)
	addr := fs.String("addr", "default:1", "")
	proxies := fs.String("trusted-proxies", "", "")
	store := fs.String("store", "default-store", "")
	if err := parseFlags(fs, []string{"--addr", "from-flag:1"}); err != nil {
		t.Fatal(err)
	}
	if *addr != "from-flag:1" || *proxies != "10.0.0.0/8" || *store != "default-store" {
		t.Errorf("addr %q proxies %q store %q", *addr, *proxies, *store)
	}
	t.Setenv("IPATLAS_N", "not-a-number")
	fs = newFlagSet("t", io.Discard)
	fs.Int("n", 0, "")
	if err := parseFlags(fs, nil); err == nil {
		t.Error("a malformed environment value was accepted")
	}
}

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://u:secret@h:5432/db": "postgres://u:***@h:5432/db",
		"postgres://h/db":               "postgres://h/db",
		"sqlite:x":                      "sqlite:x",
	} {
		if got := redactURL(in); got != want {
			t.Errorf("redactURL(%q) = %q, want %q", in, got, want)
		}
	}
}
