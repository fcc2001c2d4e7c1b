package main

import (
	"context"
	"io"
	"strings"
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

// TestGroupHelp: a command group asked for help prints the usage and succeeds; without a
// subcommand it fails with the usage; an unknown subcommand names what it wants.
func TestGroupHelp(t *testing.T) {
	for _, tt := range []struct {
		args       []string
		wantErr    string
		wantStdout bool
	}{
		{[]string{"keys", "--help"}, "", true},
		{[]string{"keys", "-h"}, "", true},
		{[]string{"data", "help"}, "", true},
		{[]string{"keys"}, "'keys' needs a subcommand", false},
		{[]string{"data", "frobnicate"}, "unknown command 'data frobnicate' (want update, info or export)", false},
		{[]string{"serve", "--private-metrics"}, "--private-metrics serves the metrics on the admin listener only; give it with --admin-addr", false},
	} {
		var stdout, stderr strings.Builder
		err := run(context.Background(), tt.args, &stdout, &stderr)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%v: %v", tt.args, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr) || exitCode(err) != 2):
			t.Errorf("%v: error %v, want %q with exit status 2", tt.args, err, tt.wantErr)
		}
		if got := strings.Contains(stdout.String(), "ipatlas keys create"); got != tt.wantStdout {
			t.Errorf("%v: usage on stdout %v, want %v", tt.args, got, tt.wantStdout)
		}
	}
}
