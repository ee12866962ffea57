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
	"runtime/debug"
	"sort"
	"strings"

	"vigil/internal/vigilerr"
	"vigil/symbolic"
)

// Exit codes, documented in README.md and `vigil help exit-codes`.
const (
	exitOK      = 0  // success; for verify: safe
	exitError   = 1  // input errors (diagnostics, unreadable files)
	exitUsage   = 2  // bad command line
	exitUnsafe  = 3  // verify: a counterexample was found
	exitUnknown = 4  // verify: no verdict (limit, timeout, interrupted)
	exitBug     = 70 // an internal error: a panic, or a check of vigil's own answer failed; a bug (EX_SOFTWARE of sysexits.h)
)

// command is one command, or one sub-command when Name has two words
// ("nn verify"): `vigil nn verify ARGS` runs it, and `vigil help nn verify`,
// `vigil nn verify --help` and `vigil nn verify -h` print its help (see
// help.go). A command with sub-commands runs them with runSubcommands.
type command struct {
	Name     string
	Summary  string // one line for `vigil help`
	Usage    string // synopsis, e.g. "vigil check [flags] FILE..."
	Help     string // optional paragraphs printed after the synopsis
	Examples []string
	Run      func(env *env, args []string) int
	// JSONLines says the command's --json prints each report as one line
	// of JSON (writeJSON), not indented.
	JSONLines bool
}

// env is what a subcommand needs from the outside world.
type env struct {
	stdout, stderr io.Writer
	stdin          io.Reader
	// probe is set while help collects a command's flags: newFlags then
	// prints the flag list on -h.
	probe *probe
	// prog holds --progress and --quiet of the commands that take them.
	prog progressFlags
}

var commands = map[string]*command{}

func register(c *command) { commands[c.Name] = c }

func main() {
	setupRuntime()
	stop := startDevProfile()
	code := run(os.Args[1:], &env{stdout: os.Stdout, stderr: os.Stderr, stdin: os.Stdin})
	stop()
	os.Exit(code)
}

// setupRuntime makes the Go runtime's unrecoverable crashes (a fatal error
// such as a stack overflow, or a panic in a goroutine a command started)
// abort with SIGABRT (exit status 134 in a shell) after printing every
// goroutine's stack, instead of exiting 2 like a usage error.
func setupRuntime() { debug.SetTraceback("crash") }

// run is the dispatcher: it finds the (sub-)command args name, answers
// -h/--help anywhere before "--" with the command's help on stdout (exit
// 0), turns a failure under --json into a JSON error object on stdout, and
// turns a panic into exit code 70.
func run(args []string, e *env) int {
	if !wantsJSON(args) || wantsHelp(args) {
		return dispatchCommand(args, e)
	}
	log := &errorLog{}
	out := &countingWriter{w: e.stdout}
	code := dispatchCommand(args, &env{stdout: out, stderr: stderrLog{w: e.stderr, log: log}, stdin: e.stdin})
	if out.n == 0 && (code == exitError || code == exitUsage || code == exitBug) {
		printJSONError(e.stdout, log.jsonError(code))
	}
	return code
}

// dispatchCommand finds and runs the command args name.
func dispatchCommand(args []string, e *env) int {
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
		return fail(e, exitUsage, "vigil: unknown command %q%s\nRun 'vigil help' for the list of commands.", name, suggest(name, topNames()))
	}
	c, rest := subcommand(c, args[1:])
	if wantsHelp(rest) {
		return printHelp(e.stdout, c)
	}
	return runCommand(c, e, rest)
}

// runCommand runs c, turning a panic into a "vigil bug" message and exit
// code 70, so that a crash is never mistaken for a usage error (exit 2,
// which is also the Go runtime's own exit code for a panic). Fatal runtime
// errors (stack overflow, out of memory) cannot be recovered: setupRuntime
// makes them abort with SIGABRT instead, and their causes must be removed
// at the source.
//
// An engine's internal error that a command reports as a plain error
// exits 70 too: the command returns exitFor(err), which knows it by its
// type (vigilerr.Internal).
func runCommand(c *command, e *env, args []string) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(e.stderr, "vigil %s: internal error: %v\nThis is a bug in vigil; please report it with the command line and this trace:\n%s", c.Name, r, debug.Stack())
			code = exitBug
		}
	}()
	return c.Run(e, args)
}

// internalError reports a bug vigil caught in its own answer (a
// counterexample that does not replay, an invariant that does not check,
// engines that disagree) and returns exit code 70: never 1, which means
// the input is wrong.
func internalError(e *env, cmd, format string, args ...any) int {
	return fail(e, exitBug, "vigil %s: internal error: %s\nThis is a bug in vigil; please report it with the command line.", cmd, fmt.Sprintf(format, args...))
}

// exitFor is the exit code of a command that failed with err, which it
// has printed: 70 when err is, or wraps, an internal error of a package
// (vigilerr.Internal: a bug vigil caught in its own work), else 1 (the
// input is wrong, or a file cannot be read).
func exitFor(err error) int {
	if vigilerr.IsInternal(err) {
		return exitBug
	}
	return exitError
}

// subcommand follows args from c down to the registered sub-command they
// name ("nn" "verify" ...), and returns it and the arguments after it.
func subcommand(c *command, args []string) (*command, []string) {
	for len(args) > 0 && commands[c.Name+" "+args[0]] != nil {
		c, args = commands[c.Name+" "+args[0]], args[1:]
	}
	return c, args
}

// topNames lists the top-level commands.
func topNames() []string { return subNames("") }

// subNames lists the registered sub-commands of parent (their last
// words), or with parent "" the top-level commands.
func subNames(parent string) []string {
	var names []string
	for n := range commands {
		if p, sub, ok := strings.Cut(n, " "); ok && p == parent {
			names = append(names, sub)
		} else if !ok && parent == "" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "vigil verifies and tests learned action policies.")
	fmt.Fprintln(w, "\nUsage: vigil COMMAND [flags] [args]\n\nCommands:")
	for _, n := range topNames() {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].Summary)
	}
	fmt.Fprintln(w, "\nHelp topics:")
	for _, t := range topicNames() {
		fmt.Fprintf(w, "  %-10s %s\n", t, topics[t].summary)
	}
	fmt.Fprintln(w, "\nRun 'vigil help COMMAND' (or vigil COMMAND --help) for a command's flags and examples.")
}

// newFlags returns a flag set that reports errors the vigil way: the
// message and the command's synopsis on stderr, and exit code 2 (the
// caller returns it when parseFlags fails). Under help's probe it prints
// the flag list instead.
func newFlags(e *env, c *command) *flag.FlagSet {
	fs := flag.NewFlagSet(c.Name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		if e.probe != nil {
			e.probe.flags(fs)
			return
		}
		fmt.Fprintf(e.stderr, "usage: %s\nRun 'vigil help %s' for the flags and examples.\n", c.Usage, c.Name)
	}
	return fs
}

// parseFlags parses args, allowing flags after positional arguments
// (vigil check a.spec --json). It returns the positional arguments, or
// ok == false after printing the error. A flag value that does not parse
// says what form the flag wants.
func parseFlags(fs *flag.FlagSet, args []string) (rest []string, ok bool) {
	for {
		if err := parseExplained(fs, args); err != nil {
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

// runSubcommands runs the registered sub-command of parent that args[0]
// names. The dispatcher (run) normally gets there first; this handles a
// missing or unknown sub-command.
func runSubcommands(e *env, parent string, args []string) int {
	if e.probe != nil {
		return exitOK // help lists the sub-commands itself
	}
	if len(args) == 0 {
		return fail(e, exitUsage, "vigil %s: give a sub-command: %s\nRun 'vigil help %s' for what they do.", parent, strings.Join(subNames(parent), ", "), parent)
	}
	if c := commands[parent+" "+args[0]]; c != nil {
		return c.Run(e, args[1:])
	}
	return fail(e, exitUsage, "vigil %s: unknown sub-command %q%s\nRun 'vigil help %s' for the list.", parent, args[0], suggest(args[0], subNames(parent)), parent)
}

// parseModelArg parses the flags of a command that takes one model file
// and returns the file (false: a usage error was printed).
func parseModelArg(e *env, c *command, fs *flag.FlagSet, args []string) (string, bool) {
	return parseOneArg(e, c, fs, args, "model file")
}

// parseOneArg parses the flags of a command that takes one argument, a
// what, and returns it (false: a usage error was printed).
func parseOneArg(e *env, c *command, fs *flag.FlagSet, args []string, what string) (string, bool) {
	files, ok := parseFlags(fs, args)
	if !ok {
		return "", false
	}
	if len(files) != 1 {
		fmt.Fprintf(e.stderr, "vigil %s: want one %s, got %d\nusage: %s\n", c.Name, what, len(files), c.Usage)
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

// fail prints a command's error message, format and args and a newline,
// on its stderr and returns code: how a command ends on an error.
func fail(e *env, code int, format string, args ...any) int {
	fmt.Fprintf(e.stderr, format+"\n", args...)
	return code
}
