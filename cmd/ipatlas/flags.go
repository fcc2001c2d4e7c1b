package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
)

// cmdFlags is one command's flag set. Every command parses through it, so all of them
// answer alike: -h or --help prints the command's help on stdout and succeeds, and a flag
// that does not parse or an argument no command takes is a usage error (exit status 2).
type cmdFlags struct {
	*flag.FlagSet
	// synopsis follows "ipatlas NAME" in the help's usage line; empty means "[flags]".
	synopsis string
	// about, if set, is printed between the usage line and the flags.
	about  string
	stdout io.Writer
	// fromEnv holds the flags parseFlags filled from the environment, so that an error
	// about a value names where the value came from (see origin).
	fromEnv map[string]bool
	// typedOnly names flags that parseFlags does not read from the environment: a command
	// that changes what exists (keys plan) must not take IPATLAS_PLAN, set for keys create,
	// as if it had been typed.
	typedOnly []string
}

// helpWords ask for help in a command's place ('ipatlas -help', 'ipatlas keys --help',
// 'ipatlas lookup help'): the words the flag package takes for help (-h, -help and their
// double-dash forms) and the bare word. One list, so every level answers the same words.
var helpWords = []string{"help", "-h", "--h", "-help", "--help"}

// versionWords ask for the version in a command's place.
var versionWords = []string{"version", "-version", "--version"}

func isHelpWord(s string) bool    { return slices.Contains(helpWords, s) }
func isVersionWord(s string) bool { return slices.Contains(versionWords, s) }

// newFlagSet returns the flag set of command name ("serve", "keys create"), whose help goes
// to stdout.
func newFlagSet(name string, stdout io.Writer) *cmdFlags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	// The flag package's own output (an error and the whole usage on stderr, for every
	// mistake) gives way to parseFlags' one-line errors and the help on stdout.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &cmdFlags{FlagSet: fs, stdout: stdout}
}

// envName is the environment variable that sets a flag: IPATLAS_ + upper case, '-' as '_'.
func envName(flagName string) string {
	return "IPATLAS_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// parseFlags parses args, then fills every flag not given on the command line from its
// environment variable: a flag beats the environment, which beats the default. Help returns
// flag.ErrHelp, which run turns into success once the help is printed. Commands take flags
// only, so a positional argument left over is refused rather than ignored (lookup takes
// its arguments out before it parses its flags).
func parseFlags(fs *cmdFlags, args []string) error {
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		fs.help()
		return err
	} else if err != nil {
		return usageError{fmt.Sprintf("%s: %v (see 'ipatlas %s -h')", fs.Name(), err, fs.Name())}
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("%s: unexpected argument %q: this command takes flags only (see 'ipatlas %s -h')", fs.Name(), fs.Arg(0), fs.Name())}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	fs.fromEnv = map[string]bool{}
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if set[f.Name] || err != nil || slices.Contains(fs.typedOnly, f.Name) {
			return
		}
		if v, ok := os.LookupEnv(envName(f.Name)); ok {
			if e := fs.Set(f.Name, v); e != nil {
				err = usageError{fmt.Sprintf("%s=%q: %v", envName(f.Name), v, e)}
			}
			fs.fromEnv[f.Name] = true
		}
	})
	return err
}

// origin names where the value of flag name came from, for an error about it: the
// environment variable when parseFlags took it from there (an operator who never typed
// --key-poll-interval would look for it in vain), else the flag.
func (fs *cmdFlags) origin(name string) string {
	if fs.fromEnv[name] {
		return envName(name)
	}
	return "--" + name
}

// flagGiven reports whether the flag was given, on the command line or in the environment
// (parseFlags sets an environment value through fs.Set, which Visit then lists).
func (fs *cmdFlags) flagGiven(name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// help prints the command's usage line, its description and its flags.
func (fs *cmdFlags) help() {
	synopsis := fs.synopsis
	if synopsis == "" {
		synopsis = "[flags]"
	}
	fmt.Fprintf(fs.stdout, "Usage: ipatlas %s %s\n\n", fs.Name(), synopsis)
	if fs.about != "" {
		fmt.Fprintf(fs.stdout, "%s\n\n", strings.TrimSpace(fs.about))
	}
	fmt.Fprintln(fs.stdout, "Flags:")
	fs.SetOutput(fs.stdout)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
	if len(fs.typedOnly) == 0 {
		fmt.Fprintln(fs.stdout, "\nEvery flag can also be set in the environment as IPATLAS_<FLAG> (upper case, '-' as '_').")
		return
	}
	fmt.Fprintf(fs.stdout, "\nEvery flag but -%s can also be set in the environment as IPATLAS_<FLAG> (upper case, '-' as '_').\n", strings.Join(fs.typedOnly, ", -"))
}

func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }
