// Command vigil verifies and tests learned action policies against symbolic
// environment models. Each subcommand lives in its own file and registers
// itself with register; this file holds the dispatcher and the conventions
// every subcommand shares (exit codes, -D, --json).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"vigil/symbolic"
)

// Exit codes, documented in README.md and `vigil help`.
const (
	exitOK      = 0 // success; for verify: safe
	exitError   = 1 // input errors (diagnostics, unreadable files)
	exitUsage   = 2 // bad command line
	exitUnsafe  = 3 // verify: a counterexample was found
	exitUnknown = 4 // verify: no verdict (limit, timeout, interrupted)
)

// command is one subcommand.
type command struct {
	Name     string
	Summary  string // one line for `vigil help`
	Usage    string // synopsis, e.g. "vigil check [flags] FILE..."
	Examples []string
	Run      func(env *env, args []string) int
}

// env is what a subcommand needs from the outside world.
type env struct {
	stdout, stderr io.Writer
	stdin          io.Reader
}

var commands = map[string]*command{}

func register(c *command) { commands[c.Name] = c }

func main() { os.Exit(run(os.Args[1:], &env{stdout: os.Stdout, stderr: os.Stderr, stdin: os.Stdin})) }

func run(args []string, e *env) int {
	if len(args) == 0 {
		usage(e.stderr)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "-h", "-help", "--help":
		name = "help"
	case "-version", "--version":
		name = "version"
	}
	c := commands[name]
	if c == nil {
		fmt.Fprintf(e.stderr, "vigil: unknown command %q%s\nRun 'vigil help' for the list of commands.\n", name, suggest(name, commandNames()))
		return exitUsage
	}
	return c.Run(e, args[1:])
}

func commandNames() []string {
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "vigil verifies and tests learned action policies.")
	fmt.Fprintln(w, "\nUsage: vigil COMMAND [flags] [args]\n\nCommands:")
	for _, n := range commandNames() {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].Summary)
	}
	fmt.Fprintln(w, "\nRun 'vigil help COMMAND' for a command's flags and examples.")
}

// newFlags returns a flag set that reports errors the vigil way: the
// command's usage on stderr and exit code 2.
func newFlags(e *env, c *command) *flag.FlagSet {
	fs := flag.NewFlagSet(c.Name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: %s\n", c.Usage)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args, allowing flags after positional arguments
// (vigil check a.spec --json). It returns the positional arguments, or
// ok == false after printing the error.
func parseFlags(fs *flag.FlagSet, args []string) (rest []string, ok bool) {
	for {
		if err := fs.Parse(args); err != nil {
			return nil, false
		}
		args = fs.Args()
		i := 0
		for i < len(args) && (!strings.HasPrefix(args[i], "-") || args[i] == "-") {
			rest = append(rest, args[i])
			i++
		}
		if i == len(args) {
			return rest, true
		}
		if args[i] == "--" {
			return append(rest, args[i+1:]...), true
		}
		args = args[i:]
	}
}

// defines collects repeated -D NAME=VALUE flags.
// subcommand is one subcommand of a command that has them (nn, trees, cert).
type subcommand struct {
	name string
	run  func(*env, []string) int
}

// dispatch runs the subcommand args[0] names. Without arguments, or with
// -h/-help/--help, it prints help: exit 2 without arguments, 0 when help
// was asked for (then more, if set, adds to it).
func dispatch(e *env, cmd, help string, subs []subcommand, more func(), args []string) int {
	if len(args) == 0 || args[0] == "-help" || args[0] == "--help" || args[0] == "-h" {
		fmt.Fprintln(e.stderr, help)
		if len(args) == 0 {
			return exitUsage
		}
		if more != nil {
			more()
		}
		return exitOK
	}
	var names []string
	for _, sc := range subs {
		if sc.name == args[0] {
			return sc.run(e, args[1:])
		}
		names = append(names, sc.name)
	}
	fmt.Fprintf(e.stderr, "vigil %s: unknown subcommand %q%s\nRun 'vigil help %s' for the list.\n", cmd, args[0], suggest(args[0], names), cmd)
	return exitUsage
}

// parseModelArg parses the flags of a command that takes one model file
// and returns the file (false: a usage error was printed).
func parseModelArg(e *env, c *command, fs *flag.FlagSet, args []string) (string, bool) {
	files, ok := parseFlags(fs, args)
	if !ok {
		return "", false
	}
	if len(files) != 1 {
		fmt.Fprintf(e.stderr, "vigil %s: want one model file, got %d\nusage: %s\n", c.Name, len(files), c.Usage)
		return "", false
	}
	return files[0], true
}

type defines map[string]string

func (d defines) String() string { return "" }

func (d defines) Set(s string) error {
	name, val, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return fmt.Errorf("want NAME=VALUE, got %q", s)
	}
	d[strings.TrimSpace(name)] = strings.TrimSpace(val)
	return nil
}

// suggest returns ` (did you mean "x"?)` for the closest name, or "".
func suggest(name string, names []string) string { return symbolic.Suggest(name, names) }
