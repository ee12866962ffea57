package cli

// The flag conventions every command shares (README.md, "Conventions every
// command follows"):
//
//   - durations (--timeout): DurationValue, a Go duration (30s, 5m, 1h30m)
//     or a bare number of seconds; negative values are refused;
//   - counts (--max-states, --nodes, ...): CountValue, a whole number >= 0;
//   - every other flag value that does not parse says what form it wants
//     instead of the flag package's bare "parse error" (parseExplained);
//   - --json: a command prints its report as JSON (WriteReport) instead of
//     its text; a failing command that printed nothing on stdout gets a JSON
//     error object there (JSONError, printed by Main).

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

// DurationValue is a flag.Value holding a non-negative duration.
type DurationValue struct{ d *time.Duration }

func (f DurationValue) String() string {
	if f.d == nil {
		return "0s"
	}
	return f.d.String()
}

// Duration returns the value (0 when unset).
func (f DurationValue) Duration() time.Duration {
	if f.d == nil {
		return 0
	}
	return *f.d
}

func (f DurationValue) Set(s string) error {
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

// AddDurationFlag registers a duration flag (see DurationValue).
func AddDurationFlag(fs *flag.FlagSet, name string, def time.Duration, usage string) *time.Duration {
	d := new(time.Duration)
	*d = def
	fs.Var(DurationValue{d}, name, usage)
	return d
}

// TimeoutFlag registers the shared --timeout flag with no limit by default.
func TimeoutFlag(fs *flag.FlagSet) *time.Duration {
	return AddDurationFlag(fs, "timeout", 0, "give up after `DURATION` (30s, 5m; a bare number is seconds) with exit code 4; 0 means no limit")
}

// TimeoutFlagDefault registers --timeout with a default limit.
func TimeoutFlagDefault(fs *flag.FlagSet, def time.Duration, usage string) *time.Duration {
	return AddDurationFlag(fs, "timeout", def, usage+" (30s, 5m; a bare number is seconds)")
}

// CountValue is a flag.Value holding a whole number >= 0.
type CountValue struct{ n *int }

func (f CountValue) String() string {
	if f.n == nil {
		return "0"
	}
	return strconv.Itoa(*f.n)
}

func (f CountValue) Set(s string) error {
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

// AddCountFlag registers a flag taking a whole number >= 0.
func AddCountFlag(fs *flag.FlagSet, name string, def int, usage string) *int {
	n := new(int)
	*n = def
	fs.Var(CountValue{n}, name, usage)
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

// JSONError is the JSON object a command prints on stdout when it fails
// under --json: the first error message, its position when it is a
// positioned diagnostic, and the exit code. The dispatcher builds it from
// the command's errorLog: the diagnostics it printed, as values, and its
// other stderr text.
type JSONError struct {
	Error    string   `json:"error"`
	File     string   `json:"file,omitempty"`
	Line     int      `json:"line,omitempty"`
	Column   int      `json:"column,omitempty"`
	Code     string   `json:"code,omitempty"` // a diagnostic's code, e.g. E0101
	Exit     int      `json:"exit_code"`
	Messages []string `json:"messages,omitempty"` // every message, when there are several
}

// printJSONError writes je as one line of JSON.
func printJSONError(w io.Writer, je JSONError) {
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

// EnumFlag is a string flag restricted to a list of values.
type EnumFlag struct {
	What   string // what a value is, for the error: "engine"
	Values []string
	Val    string // the value, initially the default
}

func (f *EnumFlag) String() string { return f.Val }

func (f *EnumFlag) Set(s string) error {
	for _, v := range f.Values {
		if v == s {
			f.Val = s
			return nil
		}
	}
	return fmt.Errorf("unknown %s %q%s; choose one of: %s", f.What, s, suggest(s, f.Values), strings.Join(f.Values, ", "))
}

// ArgMaxFlag registers --argmax, the one definition of the flag that sets
// how a network or tree-ensemble policy reads its arg-max on every command
// that takes --policy-file (PlaJA's --applicability-filtering): all or
// applicable, overriding the policy's `argmax` line and a PlaJA
// interface's "filter". Its value is "" when the flag is not given
// (package load's ArgMax reads it).
func ArgMaxFlag(fs *flag.FlagSet) *EnumFlag {
	f := &EnumFlag{What: "argmax reading", Values: []string{"all", "applicable"}}
	fs.Var(f, "argmax", "`READING` of the network or tree-ensemble policy's arg-max, overriding its argmax line and a PlaJA interface's \"filter\": all (over all outputs; the policy is stuck where that label is not applicable) or applicable (over the applicable outputs)")
	return f
}

// ByteSize is a --max-memory value: 512MiB, 2GiB, 100MB, or a bare number
// of MiB.
type ByteSize int64

func (b *ByteSize) String() string {
	v := int64(*b)
	for _, u := range []struct {
		name string
		size int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if v >= u.size && v%u.size == 0 {
			return fmt.Sprintf("%d%s", v/u.size, u.name)
		}
	}
	return fmt.Sprintf("%dB", v)
}

func (b *ByteSize) Set(s string) error {
	units := []struct {
		suffix string
		mult   float64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1}, {"", 1 << 20}}
	t := strings.TrimSpace(s)
	for _, u := range units {
		if num, ok := strings.CutSuffix(t, u.suffix); ok {
			v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
			if err != nil || v <= 0 || v*u.mult > 1<<50 || v != v {
				break
			}
			*b = ByteSize(v * u.mult)
			return nil
		}
	}
	return fmt.Errorf("%q: want a positive size such as 512MiB, 2GiB or 100MB (a bare number is MiB)", s)
}

// SplitList splits a comma-separated flag value into its trimmed,
// non-empty items.
func SplitList(s string) []string {
	var out []string
	for _, a := range strings.Split(s, ",") {
		if a = strings.TrimSpace(a); a != "" {
			out = append(out, a)
		}
	}
	return out
}
