package main

// The flag conventions every command shares (README.md, "Conventions every
// command follows"):
//
//   - durations (--timeout): durationFlag, a Go duration (30s, 5m, 1h30m)
//     or a bare number of seconds; negative values are refused;
//   - counts (--max-states, --nodes, ...): countFlag, a whole number >= 0;
//   - every other flag value that does not parse says what form it wants
//     instead of the flag package's bare "parse error" (parseExplained);
//   - --json: a command prints its report as JSON (printReport) instead of
//     its text; a failing command that printed nothing on stdout gets a JSON
//     error object there (jsonError, printed by the dispatcher).

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
)

// durationFlag is a flag.Value holding a non-negative duration.
type durationFlag struct{ d *time.Duration }

func (f durationFlag) String() string {
	if f.d == nil {
		return "0s"
	}
	return f.d.String()
}

func (f durationFlag) Set(s string) error {
	d, err := parseDuration(s)
	if err != nil {
		return err
	}
	*f.d = d
	return nil
}

// parseDuration reads a Go duration or a bare number of seconds.
func parseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	want := errors.New("want a duration such as 30s, 5m or 1h30m, or a number of seconds")
	var d time.Duration
	if x, err := strconv.ParseFloat(s, 64); err == nil {
		if math.IsNaN(x) || math.IsInf(x, 0) || x > float64(math.MaxInt64)/float64(time.Second) {
			return 0, want
		}
		d = time.Duration(x * float64(time.Second))
	} else if d, err = time.ParseDuration(s); err != nil {
		return 0, want
	}
	if d < 0 {
		return 0, errors.New("negative: give a duration >= 0 such as 30s")
	}
	return d, nil
}

// addDurationFlag registers a duration flag (see durationFlag).
func addDurationFlag(fs *flag.FlagSet, name string, def time.Duration, usage string) *time.Duration {
	d := new(time.Duration)
	*d = def
	fs.Var(durationFlag{d}, name, usage)
	return d
}

// timeoutFlag registers the shared --timeout flag with no limit by default.
func timeoutFlag(fs *flag.FlagSet) *time.Duration {
	return addDurationFlag(fs, "timeout", 0, "give up after `DURATION` (30s, 5m; a bare number is seconds) with exit code 4; 0 means no limit")
}

// timeoutFlagDefault registers --timeout with a default limit.
func timeoutFlagDefault(fs *flag.FlagSet, def time.Duration, usage string) *time.Duration {
	return addDurationFlag(fs, "timeout", def, usage+" (30s, 5m; a bare number is seconds)")
}

// countFlag is a flag.Value holding a whole number >= 0.
type countFlag struct{ n *int }

func (f countFlag) String() string {
	if f.n == nil {
		return "0"
	}
	return strconv.Itoa(*f.n)
}

func (f countFlag) Set(s string) error {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 0)
	switch {
	case errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(strings.TrimSpace(s), "-"):
		return errors.New("too large")
	case err != nil:
		return errors.New("want a whole number >= 0")
	case n < 0:
		return errors.New("negative: give a whole number >= 0")
	}
	*f.n = int(n)
	return nil
}

// addCountFlag registers a flag taking a whole number >= 0.
func addCountFlag(fs *flag.FlagSet, name string, def int, usage string) *int {
	n := new(int)
	*n = def
	fs.Var(countFlag{n}, name, usage)
	return n
}

// explained wraps a flag's value so that a value that does not parse says
// what form the flag wants.
type explained struct{ flag.Value }

func (v explained) Set(s string) error {
	err := v.Value.Set(s)
	if err == nil || err.Error() != "parse error" && err.Error() != "value out of range" {
		return err
	}
	if err.Error() == "value out of range" {
		return errors.New("too large")
	}
	switch fmt.Sprintf("%T", v.Value) {
	case "*flag.intValue", "*flag.int64Value":
		return errors.New("want a whole number such as 10")
	case "*flag.uintValue", "*flag.uint64Value":
		return errors.New("want a whole number >= 0 such as 10")
	case "*flag.float64Value":
		return errors.New("want a number such as 0.5 or 1e-3")
	case "*flag.boolValue":
		return errors.New("want true or false (write --flag=false; --flag alone means true)")
	case "*flag.durationValue":
		return errors.New("want a duration such as 30s, 5m or 1h30m")
	}
	return errors.New("cannot read this value")
}

func (v explained) String() string {
	if v.Value == nil {
		return ""
	}
	return v.Value.String()
}

// IsBoolFlag keeps -flag (without =value) working for boolean flags.
func (v explained) IsBoolFlag() bool {
	b, ok := v.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// parseExplained is fs.Parse with every flag's value wrapped so that a
// value that does not parse names the form wanted. The values are plain
// again when fs.Usage runs (PrintDefaults looks at their types) and after.
func parseExplained(fs *flag.FlagSet, args []string) error {
	plain := func() {
		fs.VisitAll(func(f *flag.Flag) {
			if v, ok := f.Value.(explained); ok {
				f.Value = v.Value
			}
		})
	}
	fs.VisitAll(func(f *flag.Flag) {
		if _, done := f.Value.(explained); !done {
			f.Value = explained{f.Value}
		}
	})
	defer plain()
	// The flag package's own message gets the command's name in front.
	out := fs.Output()
	var msg bytes.Buffer
	fs.SetOutput(&msg)
	flush := func() {
		if msg.Len() > 0 {
			fmt.Fprintf(out, "vigil %s: %s", fs.Name(), msg.String())
			msg.Reset()
		}
		fs.SetOutput(out)
	}
	defer flush()
	usage := fs.Usage
	defer func() { fs.Usage = usage }()
	fs.Usage = func() {
		plain()
		flush()
		if usage != nil {
			usage()
		} else {
			fmt.Fprintf(fs.Output(), "usage of %s:\n", fs.Name())
			fs.PrintDefaults()
		}
	}
	return fs.Parse(args)
}

// jsonError is the JSON object a command prints on stdout when it fails
// under --json: the first error message, its position when it is a
// positioned diagnostic, and the exit code. The dispatcher builds it from
// the command's errorLog: the diagnostics it printed, as values, and its
// other stderr text.
type jsonError struct {
	Error    string   `json:"error"`
	File     string   `json:"file,omitempty"`
	Line     int      `json:"line,omitempty"`
	Column   int      `json:"column,omitempty"`
	Code     string   `json:"code,omitempty"` // a diagnostic's code, e.g. E0101
	Exit     int      `json:"exit_code"`
	Messages []string `json:"messages,omitempty"` // every message, when there are several
}

// printJSONError writes je as one line of JSON.
func printJSONError(w io.Writer, je jsonError) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(je)
}

// wantsJSON tells whether the command line asks for --json (before "--").
func wantsJSON(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-json", "--json", "-json=true", "--json=true", "-json=1", "--json=1":
			return true
		}
	}
	return false
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.n += len(p)
	return c.w.Write(p)
}
