package main

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ipatlas/ipatlas/internal/auth"
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

// TestCommandHelp: every command's -h and --help print its help on stdout and succeed, as
// 'ipatlas --help' does.
func TestCommandHelp(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "-h"}, "Usage: ipatlas serve [flags]"},
		{[]string{"serve", "--help"}, "-key-poll-interval"},
		{[]string{"data", "update", "-h"}, "Usage: ipatlas data update"},
		{[]string{"data", "info", "--help"}, "-json"},
		{[]string{"data", "export", "-h"}, "-mmdb"},
		{[]string{"keys", "create", "--help"}, "-plans"},
		{[]string{"keys", "regenerate", "-h"}, "-wait"},
		{[]string{"keys", "password", "-h"}, "Usage: ipatlas keys password"},
		{[]string{"keys", "plan", "-h"}, "-disable"},
		{[]string{"version", "-h"}, "Usage: ipatlas version"},
		{[]string{"--version", "--help"}, "Usage: ipatlas version"},
		{[]string{"lookup", "--help"}, "asn <asn>"},
		{[]string{"lookup", "-h"}, "/data/timezone-info"},
		{[]string{"lookup", "help"}, "reverse <latitude> <longitude>"},
		{[]string{"lookup", "reverse", "--help"}, "Usage: ipatlas lookup reverse <latitude> <longitude>"},
		{[]string{"lookup", "ip", "8.8.8.8", "-h"}, "-lang"},
		{[]string{"--help"}, "ipatlas keys create"},
		{[]string{"-help"}, "ipatlas keys create"},
		{[]string{"help"}, "ipatlas keys create"},
		{[]string{"keys", "-help"}, "ipatlas keys create"},
		{[]string{"data", "--help"}, "ipatlas keys create"},
		{[]string{"data", "-help"}, "ipatlas keys create"},
		{[]string{"serve", "-help"}, "Usage: ipatlas serve [flags]"},
		{[]string{"lookup", "-help"}, "/data/countries"},
		{[]string{"--version"}, "ipatlas dev"},
		{[]string{"-version"}, "ipatlas dev"},
		{[]string{"version"}, "ipatlas dev"},
	} {
		var stdout, stderr strings.Builder
		if err := run(context.Background(), tc.args, &stdout, &stderr); err != nil {
			t.Errorf("%q: %v", tc.args, err)
		}
		if !strings.Contains(stdout.String(), tc.want) || stderr.Len() > 0 {
			t.Errorf("%q: stdout %q, stderr %q; want stdout with %q", tc.args, stdout.String(), stderr.String(), tc.want)
		}
	}
}

// TestUsageErrors: a flag that does not parse, an argument no command takes and a value
// that means nothing are usage errors (exit status 2), found before anything is opened.
func TestUsageErrors(t *testing.T) {
	storePath := filepath.Join(t.TempDir(), "never-created.db")
	store := "sqlite:" + storePath
	dataDir := filepath.Join(filepath.Dir(storePath), "data")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--bogus"}, "serve: flag provided but not defined: -bogus"},
		{[]string{"serve", "--reload-interval", "soon"}, "serve: invalid value"},
		{[]string{"serve", "extra-arg"}, `serve: unexpected argument "extra-arg"`},
		{[]string{"serve", "--addr", "127.0.0.1:0", "extra-arg", "--data", "x"}, `unexpected argument "extra-arg"`},
		{[]string{"keys", "create", "--email", "a@example.org", "--store", store, "junk"}, `keys create: unexpected argument "junk"`},
		{[]string{"keys", "regenerate", "--email", "a@example.org", "junk"}, `unexpected argument "junk"`},
		{[]string{"keys", "password", "--email", "a@example.org", "junk"}, `unexpected argument "junk"`},
		{[]string{"data", "info", "junk"}, `data info: unexpected argument "junk"`},
		{[]string{"data", "update", "junk"}, `data update: unexpected argument "junk"`},
		{[]string{"data", "export", "--mmdb", "x.mmdb", "junk"}, `data export: unexpected argument "junk"`},
		{[]string{"lookup", "ip", "--bogus", "x"}, "lookup ip: flag provided but not defined"},
		{[]string{"lookup", "ip", "8.8.8.8", "junk"}, `extra argument "junk" is not name=value`},
		{[]string{"lookup", "--bogus"}, "lookup: want a kind"},
		{[]string{"lookup", "bogus"}, "lookup bogus: unknown kind"},
		{[]string{"lookup", "ip", ""}, "lookup ip: <ip> is empty"},
		{[]string{"lookup", "ip", "8.8.8.8", "--", "--data", "x"}, `lookup ip: extra argument "--data" is not name=value`},
		{[]string{"lookup", "network", " "}, "lookup network: <ip> is empty"},
		{[]string{"lookup", "ip", "8.8.8.8", "ip=1.1.1.1"}, "lookup ip: ip= is given by an argument already"},
		{[]string{"lookup", "country", "IE", "localityLanguage=fr", "--lang", "de"}, "localityLanguage= is given by --lang already"},
		{[]string{"lookup", "asn", "AS3356", "batchSize=3", "batchSize=4"}, "batchSize= is given by an earlier batchSize= already"},
		{[]string{"-v"}, `unknown command "-v"`},
		{[]string{"version", "junk"}, `version: unexpected argument "junk"`},
		{[]string{"--version", "junk"}, `unexpected argument "junk"`},
		{[]string{"help", "junk"}, `help: unexpected argument "junk"`},
		{[]string{"-h", "serve"}, `unexpected argument "serve"`},
		{[]string{"keys", "help", "junk"}, `keys help: unexpected argument "junk"`},
		{[]string{"lookup", "help", "junk"}, `lookup help: unexpected argument "junk"`},
		{[]string{"keys", "create", "--email", " ", "--store", store}, `--email " " is not an email address`},
		{[]string{"keys", "create", "--email", "notanemail", "--store", store}, `--email "notanemail" is not an email address`},
		{[]string{"keys", "create", "--email", "You <you@example.org>", "--store", store}, "is not an email address"},
		{[]string{"serve", "--key-poll-interval", "0"}, "--key-poll-interval 0s: must be positive"},
		{[]string{"serve", "--key-poll-interval", "-1s"}, "--key-poll-interval -1s: must be positive"},
		{[]string{"serve", "--reload-interval", "-1s"}, "--reload-interval -1s: must not be negative (0: never check, only reload on SIGHUP or POST /admin/reload)"},
		{[]string{"serve", "--addr", "nonsense"}, `serve: --addr "nonsense": want host:port`},
		{[]string{"data", "update", "--data", dataDir, "--only", "geonames", "--offline"}, "data update: build: --only refreshes sources from the network, which --offline forbids"},
		{[]string{"data", "update", "--data", dataDir, "--only", "nosuchsource"}, `data update: build: --only "nosuchsource": no such source in the catalogue`},
		{[]string{"data", "update", "--data", dataDir, "--mirror", filepath.Join(dataDir, "nonexistent")}, "data update: build: --mirror"},
		{[]string{"data", "export", "--mmdb", filepath.Join(dataDir, "x.mmdb"), "--within", "bad"}, `data export: --within "bad"`},
		{[]string{"serve", "--admin-addr", "127.0.0.1"}, `serve: --admin-addr "127.0.0.1": want host:port`},
		{[]string{"serve", "--addr", "127.0.0.1:99999"}, `serve: --addr "127.0.0.1:99999": want host:port`},
		{[]string{"serve", "--addr", "127.0.0.1:-1"}, `serve: --addr "127.0.0.1:-1": want host:port`},
		{[]string{"serve", "--ipv4-addr", "0.0.0.0"}, `serve: --ipv4-addr "0.0.0.0": want host:port`},
		{[]string{"keys", "create", "--email", "a@example.org", "--store", "bogus"}, `--store "bogus": want sqlite:PATH`},
		{[]string{"serve", "--shutdown-timeout", "0"}, "--shutdown-timeout 0s: must be positive"},
		{[]string{"serve", "--shutdown-timeout", "-5s"}, "--shutdown-timeout -5s: must be positive"},
		{[]string{"keys", "regenerate", "--email", "a@example.org", "--wait", "-1s"}, "--wait must not be negative"},
		{[]string{"keys", "regenerate", "--email", "a@example.org", "--key-poll-interval", "0"}, "--key-poll-interval must be positive"},
	} {
		var stdout, stderr strings.Builder
		err := run(context.Background(), tc.args, &stdout, &stderr)
		if err == nil || !strings.Contains(err.Error(), tc.want) || exitCode(err) != 2 {
			t.Errorf("%q: error %v, want one with %q and exit status 2", tc.args, err, tc.want)
		}
	}
	if _, err := os.Stat(storePath); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused keys create opened the store: %v", err)
	}
}

// TestKeysRegenerateWaitFollowsPollInterval: without --wait, keys regenerate waits three of
// the servers' --key-poll-interval, read from the environment variable serve reads too.
func TestKeysRegenerateWaitFollowsPollInterval(t *testing.T) {
	store := "sqlite:" + filepath.Join(t.TempDir(), "a.db")
	ctx := context.Background()
	if err := run(ctx, []string{"keys", "create", "--email", "wait@example.org", "--store", store}, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	t.Setenv("IPATLAS_KEY_POLL_INTERVAL", "400ms")
	start := time.Now()
	if err := run(ctx, []string{"keys", "regenerate", "--email", "wait@example.org", "--store", store}, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 1200*time.Millisecond {
		t.Errorf("regenerate returned after %v, want at least three 400 ms intervals", d)
	}
}

// TestEnvValueErrors: a value refused after parsing names the environment variable when it
// came from there, and the flag when it came from the command line.
func TestEnvValueErrors(t *testing.T) {
	for _, tc := range []struct {
		env, value string
		args       []string
		want       string
	}{
		{"IPATLAS_RELOAD_INTERVAL", "-1s", []string{"serve"}, "serve: IPATLAS_RELOAD_INTERVAL -1s: must not be negative"},
		{"IPATLAS_KEY_POLL_INTERVAL", "0", []string{"serve"}, "serve: IPATLAS_KEY_POLL_INTERVAL 0s: must be positive"},
		{"IPATLAS_SHUTDOWN_TIMEOUT", "0", []string{"serve"}, "serve: IPATLAS_SHUTDOWN_TIMEOUT 0s: must be positive"},
		{"IPATLAS_LOG_LEVEL", "loud", []string{"serve"}, `serve: IPATLAS_LOG_LEVEL "loud": want debug`},
		{"IPATLAS_TRUSTED_PROXIES", "nonsense", []string{"serve"}, "serve: IPATLAS_TRUSTED_PROXIES: "},
		{"IPATLAS_KEY_POLL_INTERVAL", "0", []string{"keys", "regenerate", "--email", "a@example.org"}, "keys regenerate: IPATLAS_KEY_POLL_INTERVAL must be positive"},
		{"IPATLAS_WAIT", "-1s", []string{"keys", "regenerate", "--email", "a@example.org"}, "keys regenerate: IPATLAS_WAIT must not be negative"},
		{"IPATLAS_MONTHLY_LIMIT", "-1", []string{"keys", "create", "--email", "a@example.org"}, "keys create: IPATLAS_MONTHLY_LIMIT must not be negative"},
		{"IPATLAS_STORE", "bogus", []string{"keys", "create", "--email", "a@example.org"}, `IPATLAS_STORE "bogus": want sqlite:PATH`},
		{"IPATLAS_STORE", "sqlite:", []string{"keys", "regenerate", "--email", "a@example.org"}, "IPATLAS_STORE sqlite: needs a file path"},
		{"IPATLAS_ADDR", "bad:port:x", []string{"serve"}, `serve: IPATLAS_ADDR "bad:port:x": want host:port`},
		{"IPATLAS_WITHIN", "bad", []string{"data", "export", "--mmdb", "x.mmdb"}, `data export: IPATLAS_WITHIN "bad"`},
	} {
		t.Run(tc.env, func(t *testing.T) {
			t.Setenv(tc.env, tc.value)
			err := run(context.Background(), tc.args, io.Discard, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.want) || exitCode(err) != 2 {
				t.Errorf("%s=%s %q: error %v, want one with %q and exit status 2", tc.env, tc.value, tc.args, err, tc.want)
			}
		})
	}
}

// TestKeysRegenerateWaitGiven: with --wait given, the poll interval is not used, so a value
// serve would refuse (here from the environment) does not stop the command.
func TestKeysRegenerateWaitGiven(t *testing.T) {
	store := "sqlite:" + filepath.Join(t.TempDir(), "a.db")
	ctx := context.Background()
	if err := run(ctx, []string{"keys", "create", "--email", "now@example.org", "--store", store}, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	t.Setenv("IPATLAS_KEY_POLL_INTERVAL", "0")
	var stdout strings.Builder
	if err := run(ctx, []string{"keys", "regenerate", "--email", "now@example.org", "--store", store, "--wait", "0s"}, &stdout, io.Discard); err != nil {
		t.Fatal(err)
	}
	if stdout.Len() == 0 {
		t.Error("no key printed")
	}
}

// TestKeysRegenerateWaitDefault: the help gives --wait one default, the one it has.
func TestKeysRegenerateWaitDefault(t *testing.T) {
	var stdout strings.Builder
	if err := run(context.Background(), []string{"keys", "regenerate", "-h"}, &stdout, io.Discard); err != nil {
		t.Fatal(err)
	}
	_, wait, _ := strings.Cut(stdout.String(), "  -wait duration\n")
	wait, _, _ = strings.Cut(wait, "\n")
	if n := strings.Count(wait, "default"); n != 1 || !strings.Contains(wait, "(default: three --key-poll-interval, 600ms)") {
		t.Errorf("--wait help gives %d defaults: %q", n, wait)
	}
}

// TestKeysPasswordLength: a password outside sign-up's bounds is refused (exit status 2)
// before the store is opened, never cut to fit; one at the upper bound, counted in
// characters, is set whole.
func TestKeysPasswordLength(t *testing.T) {
	store := "sqlite:" + filepath.Join(t.TempDir(), "a.db")
	ctx := context.Background()
	if err := run(ctx, []string{"keys", "create", "--email", "pw@example.org", "--store", store}, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	args := []string{"--email", "pw@example.org", "--store", store}
	for _, pw := range []string{"short", strings.Repeat("x", auth.MaxPasswordLen+1), strings.Repeat("y", 100_000)} {
		err := runKeysPassword(ctx, args, strings.NewReader(pw+"\n"), io.Discard, io.Discard)
		if err == nil || exitCode(err) != 2 {
			t.Errorf("a password of %d bytes: error %v, want a usage error", len(pw), err)
		}
	}
	long := strings.Repeat("žščćđ", auth.MaxPasswordLen/5) + strings.Repeat("ž", auth.MaxPasswordLen%5) // 2 048 bytes
	if err := runKeysPassword(ctx, args, strings.NewReader(long+"\r\n"), io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	st, err := openStore(ctx, "test", store, "--store")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	acct, err := st.AccountByEmail(ctx, "pw@example.org")
	if err != nil {
		t.Fatal(err)
	}
	hash, err := st.PasswordHash(ctx, acct.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := auth.CheckPassword(hash, long); err != nil {
		t.Errorf("the %d-byte password does not check: %v", len(long), err)
	}
}
