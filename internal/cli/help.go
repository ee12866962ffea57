package cli

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

func init() {
	Register(&Command{
		Name:    "help",
		Summary: "show the commands, or one command's flags and examples, or a help topic",
		Usage:   "vigil help [COMMAND [SUB-COMMAND] | TOPIC]",
		Help: "vigil help X, vigil X --help and vigil X -h print the same text on stdout and exit 0,\n" +
			"for every command and sub-command.",
		Examples: []string{
			"vigil help",
			"vigil help check",
			"vigil help nn verify",
			"vigil help exit-codes",
		},
		Run: runHelp,
	})
}

// topic is a help page that is not a command.
type topic struct{ summary, text string }

var topics = map[string]topic{
	"exit-codes": {"what vigil's exit codes mean (the same for every command)", exitCodesText},
}

func topicNames() []string {
	var names []string
	for n := range topics {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// exitCodesText is the table README.md repeats.
const exitCodesText = `Exit codes (the same for every command):

  0   success: the answer is "safe", "verified", "holds" or "excluded", or the command did its job
  1   input error: a file is missing or wrong (diagnostics name file, line and what to do),
      or a check failed (vigil check found errors, a certificate is invalid), or a
      certificate asked for cannot be written (the answer is printed first; --json:
      "certificate_error")
  2   usage error: an unknown command or flag, a missing argument, an absurd flag value
  3   unsafe / bug found: a counterexample, a reachable unsafe state, a satisfiable
      VNNLIB property, a class that is still possible (verify, safe, nn verify, trees decide)
  4   unknown: no answer within the limits (--timeout, --max-states, --nodes, --rlimit) or interrupted
      with Ctrl-C; partial results are printed (also when a stop came while the certificate
      asked for was written: the answer is printed, the file removed)
  70  internal error: vigil panicked, or caught a bug in its own answer (a counterexample
      that does not replay, an invariant that does not check, engines that disagree).
      This is a bug in vigil; please report it.
  130, 143  ended by Ctrl-C (SIGINT) or SIGTERM without results: a second signal, or the
      first one to a command that watches none (fmt, lsp, check) or that comes before the
      command starts; "vigil: interrupted again; exiting without results" on stderr
  134 (killed by SIGABRT) a fatal Go runtime error; a bug too (see below).

A fatal Go runtime error (stack overflow, out of memory), which no recover
catches, aborts with SIGABRT (exit status 134 in a shell) after printing every
goroutine's stack: a bug too. vigil limits nesting depth and sizes so that no
input reaches one.
With --json, a command that fails (exit 1, 2 or 70) prints a JSON error object on
stdout: {"error": MESSAGE, "file": F, "line": L, "column": C, "code": CODE, "exit_code": N}.`

func runHelp(e *Env, args []string) int {
	if e.probe != nil {
		return ExitOK
	}
	if len(args) == 0 {
		usage(e.Stdout)
		fmt.Fprintln(e.Stdout, "\nExit codes: 0 success (verify: safe), 1 input errors, 2 usage errors,\n3 unsafe (a counterexample was found), 4 unknown (limit, timeout or interrupt),\n70 a bug in vigil. Run 'vigil help exit-codes' for details.")
		return ExitOK
	}
	if t, ok := topics[args[0]]; ok && len(args) == 1 {
		fmt.Fprintln(e.Stdout, t.text)
		return ExitOK
	}
	c := Commands[args[0]]
	if c == nil {
		return e.Fail(ExitUsage, "vigil help: unknown command or topic %q%s\nRun 'vigil help' for the list.", args[0], suggest(args[0], append(topNames(), topicNames()...)))
	}
	c, rest := subcommand(c, args[1:])
	if len(rest) > 0 {
		return e.Fail(ExitUsage, "vigil help: %s has no sub-command %q%s", c.Name, rest[0], suggest(rest[0], subNames(c.Name)))
	}
	return printHelp(e.Stdout, c)
}

// isHelpArg tells whether a is -h, -help or --help.
func isHelpArg(a string) bool { return a == "-h" || a == "-help" || a == "--help" }

// wantsHelp tells whether args ask for help before "--".
func wantsHelp(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if isHelpArg(a) {
			return true
		}
	}
	return false
}

// probe collects, by running a command with -h, its flag list.
type probe struct {
	fs *flag.FlagSet // the command's flags, when it uses NewFlags
}

// flags prints fs's flags under a heading (NewFlags calls it on -h).
func (p *probe) flags(fs *flag.FlagSet) {
	p.fs = fs
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n == 0 {
		return
	}
	w := fs.Output()
	fmt.Fprintln(w, "\nFlags:")
	fs.VisitAll(func(f *flag.Flag) {
		name, usage := flag.UnquoteUsage(f)
		if name == "value" { // a flag.Value without a `NAME` in its usage
			switch f.Value.(type) {
			case CountValue:
				name = "N"
			case DurationValue:
				name = "DURATION"
			default:
				name = strings.ToUpper(f.Name)
			}
		}
		switch name {
		case "int", "uint":
			name = "N"
		case "float":
			name = "X"
		case "string":
			name = "TEXT"
			switch f.Name {
			case "property", "policy":
				name = "NAME"
			case "start", "unsafe", "policy-file", "cert", "record", "replay", "run", "spec", "o", "cpuprofile", "data":
				name = "FILE"
			}
		}
		dash := "--"
		if len(f.Name) == 1 {
			dash = "-"
		}
		line := "  " + dash + f.Name
		if name != "" {
			line += " " + name
		}
		switch f.DefValue {
		case "", "0", "false", "0s", "[]", "map[]":
		default:
			usage += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		fmt.Fprintf(w, "%s\n    \t%s\n", line, strings.ReplaceAll(usage, "\n", "\n    \t"))
	})
}

// ProbeFlags runs c with -h under a probe and returns what it printed
// (its flag list) and its flag set (nil when it does not use NewFlags).
func ProbeFlags(c *Command) (string, *flag.FlagSet) {
	var b bytes.Buffer
	p := &probe{}
	e := &Env{Stdout: &b, Stderr: &b, Stdin: strings.NewReader(""), probe: p}
	func() {
		defer func() { _ = recover() }()
		c.Run(e, []string{"-h"})
	}()
	return b.String(), p.fs
}

// printHelp writes the help of c: the summary, the synopsis, the
// description, the sub-commands, the flags and the examples. It returns
// exit code 0.
func printHelp(w io.Writer, c *Command) int {
	fmt.Fprintf(w, "vigil %s: %s\n\nusage: %s\n", c.Name, c.Summary, c.Usage)
	if c.Help != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimRight(c.Help, "\n"))
	}
	if subs := subNames(c.Name); len(subs) > 0 {
		fmt.Fprintln(w, "\nSub-commands:")
		for _, s := range subs {
			fmt.Fprintf(w, "  %-8s %s\n", s, Commands[c.Name+" "+s].Summary)
		}
		fmt.Fprintf(w, "Run 'vigil help %s SUB-COMMAND' for each one's flags and examples.\n", c.Name)
	}
	if text, _ := ProbeFlags(c); strings.Trim(text, "\n") != "" {
		fmt.Fprintf(w, "\n%s\n", strings.Trim(text, "\n"))
	}
	if ex := examplesOf(c); len(ex) > 0 {
		fmt.Fprintln(w, "\nExamples:")
		for _, x := range ex {
			fmt.Fprintf(w, "  %s\n", x)
		}
	}
	return ExitOK
}

// examplesOf returns c's examples; a sub-command without its own takes
// those of its parent that run it.
func examplesOf(c *Command) []string {
	if len(c.Examples) > 0 {
		return c.Examples
	}
	p, _, ok := strings.Cut(c.Name, " ")
	if !ok || Commands[p] == nil {
		return nil
	}
	var out []string
	for _, x := range Commands[p].Examples {
		if strings.HasPrefix(x, "vigil "+c.Name+" ") {
			out = append(out, x)
		}
	}
	return out
}
