package main

import "fmt"

func init() {
	register(&command{
		Name:    "help",
		Summary: "show the commands, or one command's flags and examples",
		Usage:   "vigil help [COMMAND]",
		Examples: []string{
			"vigil help",
			"vigil help check",
		},
		Run: runHelp,
	})
}

func runHelp(e *env, args []string) int {
	if len(args) == 0 {
		usage(e.stdout)
		fmt.Fprintln(e.stdout, "\nExit codes: 0 success (verify: safe), 1 input errors, 2 usage errors,\n3 unsafe (a counterexample was found), 4 unknown (limit, timeout or interrupt).")
		return exitOK
	}
	c := commands[args[0]]
	if c == nil {
		fmt.Fprintf(e.stderr, "vigil help: unknown command %q%s\n", args[0], suggest(args[0], commandNames()))
		return exitUsage
	}
	fmt.Fprintf(e.stdout, "%s\n\n", c.Summary)
	// Show the usage line and flags by letting the command print its usage.
	fe := &env{stdout: e.stdout, stderr: e.stdout, stdin: e.stdin}
	c.Run(fe, []string{"-help"})
	if len(c.Examples) > 0 {
		fmt.Fprintln(e.stdout, "\nExamples:")
		for _, ex := range c.Examples {
			fmt.Fprintf(e.stdout, "  %s\n", ex)
		}
	}
	return exitOK
}
