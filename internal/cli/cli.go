// Command vigil verifies and tests learned action policies against symbolic
// environment models. Each subcommand lives in its own file and registers
// itself with register; this file holds the dispatcher and the conventions
// every subcommand shares (exit codes, -D, --json).
package cli

import (
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"sort"
	"strings"

	"vigil/internal/vigilerr"
	"vigil/symbolic"
)

// Exit codes, documented in README.md and `vigil help exit-codes`.
const (
	ExitOK      = 0  // success; for verify: safe
	ExitError   = 1  // input errors (diagnostics, unreadable files)
	ExitUsage   = 2  // bad command line
	ExitUnsafe  = 3  // verify: a counterexample was found
	ExitUnknown = 4  // verify: no verdict (limit, timeout, interrupted)
	ExitBug     = 70 // an internal error: a panic, or a check of vigil's own answer failed; a bug (EX_SOFTWARE of sysexits.h)
)

// Command is one command, or one sub-command when Name has two words
// ("nn verify"): `vigil nn verify ARGS` runs it, and `vigil help nn verify`,
// `vigil nn verify --help` and `vigil nn verify -h` print its help (see
// help.go). A command with sub-commands runs them with Env.RunSubcommands.
type Command struct {
	Name     string
	Summary  string // one line for `vigil help`
	Usage    string // synopsis, e.g. "vigil check [flags] FILE..."
	Help     string // optional paragraphs printed after the synopsis
	Examples []string
	Run      func(Env *Env, args []string) int
	// JSONLines says the command's --json prints each report as one line
	// of JSON (Env.WriteJSON), not indented.
	JSONLines bool
}

// Env is what a subcommand needs from the outside world.
type Env struct {
	Stdout, Stderr io.Writer
	Stdin          io.Reader
	// probe is set while help collects a command's flags: NewFlags then
	// prints the flag list on -h.
	probe *probe
	// prog holds --progress and --quiet of the commands that take them.
	prog progressFlags
	// stopped says a signal stopped the loading of the model
	// (LoadInterrupted): the command's ExitError becomes ExitUnknown.
	stopped bool
}

// Commands are the registered commands, by name ("check", "nn verify").
var Commands = map[string]*Command{}

// Register adds c to Commands; every command's file calls it in its init.
func Register(c *Command) { Commands[c.Name] = c }

// SetupRuntime makes the Go runtime's unrecoverable crashes (a fatal error
// such as a stack overflow, or a panic in a goroutine a command started)
// abort with SIGABRT (exit status 134 in a shell) after printing every
// goroutine's stack, instead of exiting 2 like a usage error. It also
// installs the process's handler of Ctrl-C and SIGTERM (HandleSignals),
// so that a signal at any moment, even before the command starts, gets
// the handler's answer and never the default (a silent death). Call it
// first thing in main.
func SetupRuntime() {
	HandleSignals()
	debug.SetTraceback("crash")
}

// Main is the dispatcher: it finds the (sub-)command args name, answers
// -h/--help anywhere before "--" with the command's help on stdout (exit
// 0), turns a failure under --json into a JSON error object on stdout, and
// turns a panic into exit code 70.
func Main(args []string, e *Env) int {
	if !wantsJSON(args) || wantsHelp(args) {
		return dispatchCommand(args, e)
	}
	log := &errorLog{}
	out := &countingWriter{w: e.Stdout}
	inner := &Env{Stdout: out, Stderr: stderrLog{w: e.Stderr, log: log}, Stdin: e.Stdin}
	code := dispatchCommand(args, inner)
	if out.n == 0 && (code == ExitError || code == ExitUsage || code == ExitBug || (code == ExitUnknown && inner.stopped)) {
		printJSONError(e.Stdout, log.jsonError(code))
	}
	return code
}

// dispatchCommand finds and runs the command args name.
func dispatchCommand(args []string, e *Env) int {
	if len(args) == 0 {
		usage(e.Stderr)
		return ExitUsage
	}
	name := args[0]
	switch name {
	case "-h", "-help", "--help":
		name = "help"
	case "-version", "--version":
		name = "version"
	}
	c := Commands[name]
	if c == nil {
		return e.Fail(ExitUsage, "vigil: unknown command %q%s\nRun 'vigil help' for the list of commands.", name, suggest(name, topNames()))
	}
	c, rest := subcommand(c, args[1:])
	if wantsHelp(rest) {
		return printHelp(e.Stdout, c)
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
// exits 70 too: the command returns ExitFor(err), which knows it by its
// type (vigilerr.Internal).
func runCommand(c *Command, e *Env, args []string) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(e.Stderr, "vigil %s: internal error: %v\nThis is a bug in vigil; please report it with the command line and this trace:\n%s", c.Name, r, debug.Stack())
			code = ExitBug
		}
	}()
	code = c.Run(e, args)
	if code == ExitError && e.stopped {
		code = ExitUnknown // interrupted while loading (LoadInterrupted)
	}
	return code
}

// InternalError reports a bug vigil caught in its own answer (a
// counterexample that does not replay, an invariant that does not check,
// engines that disagree) and returns exit code 70: never 1, which means
// the input is wrong.
func (e *Env) InternalError(cmd, format string, args ...any) int {
	return e.Fail(ExitBug, "vigil %s: internal error: %s\nThis is a bug in vigil; please report it with the command line.", cmd, fmt.Sprintf(format, args...))
}

// ExitFor is the exit code of a command that failed with err, which it
// has printed: 70 when err is, or wraps, an internal error of a package
// (vigilerr.Internal: a bug vigil caught in its own work), else 1 (the
// input is wrong, or a file cannot be read).
func ExitFor(err error) int {
	if vigilerr.IsInternal(err) {
		return ExitBug
	}
	return ExitError
}

// subcommand follows args from c down to the registered sub-command they
// name ("nn" "verify" ...), and returns it and the arguments after it.
func subcommand(c *Command, args []string) (*Command, []string) {
	for len(args) > 0 && Commands[c.Name+" "+args[0]] != nil {
		c, args = Commands[c.Name+" "+args[0]], args[1:]
	}
	return c, args
}

// topNames lists the top-level commands.
func topNames() []string { return subNames("") }

// subNames lists the registered sub-commands of parent (their last
// words), or with parent "" the top-level commands.
func subNames(parent string) []string {
	var names []string
	for n := range Commands {
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
		fmt.Fprintf(w, "  %-10s %s\n", n, Commands[n].Summary)
	}
	fmt.Fprintln(w, "\nHelp topics:")
	for _, t := range topicNames() {
		fmt.Fprintf(w, "  %-10s %s\n", t, topics[t].summary)
	}
	fmt.Fprintln(w, "\nRun 'vigil help COMMAND' (or vigil COMMAND --help) for a command's flags and examples.")
}

// NewFlags returns a flag set that reports errors the vigil way: the
// message and the command's synopsis on stderr, and exit code 2 (the
// caller returns it when parseFlags fails). Under help's probe it prints
// the flag list instead.
func (e *Env) NewFlags(c *Command) *flag.FlagSet {
	fs := flag.NewFlagSet(c.Name, flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	fs.Usage = func() {
		if e.probe != nil {
			e.probe.flags(fs)
			return
		}
		fmt.Fprintf(e.Stderr, "usage: %s\nRun 'vigil help %s' for the flags and examples.\n", c.Usage, c.Name)
	}
	return fs
}

// Flags returns the flag set (NewFlags) of the registered command name,
// and the command.
func (e *Env) Flags(name string) (*flag.FlagSet, *Command) {
	c := Commands[name]
	return e.NewFlags(c), c
}

// ParseFlags parses args, allowing flags after positional arguments
// (vigil check a.spec --json). It returns the positional arguments, or
// ok == false after printing the error. A flag value that does not parse
// says what form the flag wants.
func ParseFlags(fs *flag.FlagSet, args []string) (rest []string, ok bool) {
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

// RunSubcommands runs the registered sub-command of parent that args[0]
// names. The dispatcher (run) normally gets there first; this handles a
// missing or unknown sub-command.
func (e *Env) RunSubcommands(parent string, args []string) int {
	if e.probe != nil {
		return ExitOK // help lists the sub-commands itself
	}
	if len(args) == 0 {
		return e.Fail(ExitUsage, "vigil %s: give a sub-command: %s\nRun 'vigil help %s' for what they do.", parent, strings.Join(subNames(parent), ", "), parent)
	}
	if c := Commands[parent+" "+args[0]]; c != nil {
		return c.Run(e, args[1:])
	}
	return e.Fail(ExitUsage, "vigil %s: unknown sub-command %q%s\nRun 'vigil help %s' for the list.", parent, args[0], suggest(args[0], subNames(parent)), parent)
}

// ParseModelArg parses the flags of a command that takes one model file
// and returns the file (false: a usage error was printed).
func (e *Env) ParseModelArg(c *Command, fs *flag.FlagSet, args []string) (string, bool) {
	return e.ParseOneArg(c, fs, args, "model file")
}

// ParseOneArg parses the flags of a command that takes one argument, a
// what, and returns it (false: a usage error was printed).
func (e *Env) ParseOneArg(c *Command, fs *flag.FlagSet, args []string, what string) (string, bool) {
	files, ok := ParseFlags(fs, args)
	if !ok {
		return "", false
	}
	if len(files) != 1 {
		fmt.Fprintf(e.Stderr, "vigil %s: want one %s, got %d\nusage: %s\n", c.Name, what, len(files), c.Usage)
		return "", false
	}
	return files[0], true
}

// Defines is the value of -D NAME=VALUE flags (repeatable).
type Defines map[string]string

func (d Defines) String() string { return "" }

func (d Defines) Set(s string) error {
	name, val, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return fmt.Errorf("want NAME=VALUE, got %q", s)
	}
	d[strings.TrimSpace(name)] = strings.TrimSpace(val)
	return nil
}

// suggest returns ` (did you mean "x"?)` for the closest name, or "".
func suggest(name string, names []string) string { return symbolic.Suggest(name, names) }

// Fail prints a command's error message, format and args and a newline,
// on its stderr and returns code: how a command ends on an error.
func (e *Env) Fail(code int, format string, args ...any) int {
	fmt.Fprintf(e.Stderr, format+"\n", args...)
	return code
}
