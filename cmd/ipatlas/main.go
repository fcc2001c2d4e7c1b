// Command ipatlas is the self-hosted IP, network, risk, phone and country lookup service:
// it builds the data snapshot, serves the API, manages API keys and answers lookups offline.
// This package only parses flags and wires the internal packages together.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	_ "time/tzdata" // time zone rules inside the binary, for hosts without zoneinfo
)

// version is stamped at build time with -ldflags "-X main.version=...".
var version = "dev"

const usage = `ipatlas: self-hosted IP, network, risk, phone and country lookups.

Usage:
  ipatlas serve            [flags]   serve the API
  ipatlas data update      [flags]   fetch sources and build a new data snapshot
  ipatlas data info        [flags]   show the snapshot's sources, versions, dates and counts
  ipatlas data export      --mmdb FILE   the IP data as a MaxMind DB file (GeoIP2-City schema + ASN)
  ipatlas keys create      --email E [--plan NAME] [--monthly-limit N]   create an account, print its key
  ipatlas keys regenerate  --email E [--wait D]   print a new key once running servers refuse the old one
  ipatlas keys password    --email E   set the dashboard password (read from stdin) so the account can log in
  ipatlas keys plan        --email E [--plan NAME] [--monthly-limit N] [--disable[=false]]   change an account
  ipatlas lookup KIND ARGS [--lang L] [name=value ...]   an API answer, offline, from the snapshot:
      country CODE | countries | ip ADDR | network ADDR | cidr PREFIX | asn ASN | risk ADDR
      | hazards ADDR | phone NUMBER [countryCode=CC] | reverse LAT LON | timezone IANA_ID
  ipatlas version          (or --version)

Every flag can also be set in the environment as IPATLAS_<FLAG> (upper case, '-' as '_').
Run 'ipatlas COMMAND -h' for the flags of a command ('ipatlas lookup -h' for its kinds).
Exit status: 0 on success and for help, 2 for a usage error, 1 for any other failure.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// The first signal asks for a graceful stop; a second one ends the process at once, as
	// signals do by default, for whoever cannot wait for the drain.
	go func() { <-ctx.Done(); stop() }()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "ipatlas:", err)
		os.Exit(exitCode(err))
	}
}

// groupHelp answers a command group (data, keys) called without a known subcommand: the
// usage on stdout when help was asked for (a help word), else on stderr with an error.
func groupHelp(group, sub string, rest []string, want string, stdout, stderr io.Writer) error {
	switch {
	case isHelpWord(sub):
		return printUsage(group+" "+sub, rest, stdout)
	case sub == "":
		fmt.Fprint(stderr, usage)
		return usageError{fmt.Sprintf("'%s' needs a subcommand: %s", group, want)}
	}
	return usageError{fmt.Sprintf("unknown command '%s %s' (want %s)", group, sub, want)}
}

// printUsage answers a help word: the usage on stdout. Like every other command it takes
// no argument it would ignore ('ipatlas help junk' is a usage error, not help).
func printUsage(cmd string, rest []string, stdout io.Writer) error {
	if len(rest) > 0 {
		return usageError{fmt.Sprintf("%s: unexpected argument %q (see 'ipatlas -h')", cmd, rest[0])}
	}
	fmt.Fprint(stdout, usage)
	return nil
}

// usageError marks errors in how the command was called (exit status 2).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func exitCode(err error) int {
	var ue usageError
	if errors.As(err, &ue) {
		return 2
	}
	return 1
}

// run runs the command args names. A command asked for help has printed it by the time it
// returns flag.ErrHelp, and that is success.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if err := dispatch(ctx, args, stdout, stderr); !errors.Is(err, flag.ErrHelp) {
		return err
	}
	return nil
}

func dispatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return usageError{"no command given"}
	}
	cmd, rest := args[0], args[1:]
	sub := func() (string, []string) {
		if len(rest) == 0 {
			return "", nil
		}
		return rest[0], rest[1:]
	}
	switch cmd {
	case "serve":
		return runServe(ctx, rest, stdout, stderr)
	case "data":
		switch s, a := sub(); s {
		case "update":
			return runDataUpdate(ctx, a, stdout, stderr)
		case "info":
			return runDataInfo(a, stdout)
		case "export":
			return runDataExport(ctx, a, stdout)
		default:
			return groupHelp("data", s, a, "update, info or export", stdout, stderr)
		}
	case "keys":
		switch s, a := sub(); s {
		case "create":
			return runKeysCreate(ctx, a, stdout, stderr)
		case "regenerate":
			return runKeysRegenerate(ctx, a, stdout, stderr)
		case "password":
			return runKeysPassword(ctx, a, os.Stdin, stdout, stderr)
		case "plan":
			return runKeysPlan(ctx, a, stdout, stderr)
		default:
			return groupHelp("keys", s, a, "create, regenerate, password or plan", stdout, stderr)
		}
	case "lookup":
		return runLookup(rest, stdout)
	}
	switch {
	case isVersionWord(cmd):
		if len(rest) == 1 && isHelpWord(rest[0]) { // every command takes -h
			fmt.Fprintln(stdout, "Usage: ipatlas version\n\nPrints the version of this binary.")
			return nil
		}
		if len(rest) > 0 {
			return usageError{fmt.Sprintf("%s: unexpected argument %q (see 'ipatlas -h')", cmd, rest[0])}
		}
		fmt.Fprintln(stdout, "ipatlas", version)
		return nil
	case isHelpWord(cmd):
		return printUsage(cmd, rest, stdout)
	}
	fmt.Fprint(stderr, usage)
	return usageError{fmt.Sprintf("unknown command %q", cmd)}
}
