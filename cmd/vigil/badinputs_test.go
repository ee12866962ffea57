package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"vigil/internal/cli"
)

var updateBadInputs = flag.Bool("update-badinputs", false, "record the outcome of bench/badinputs cases marked ? (and empty substrings) in cases.txt")

// TestBadInputs runs every malformed input of bench/badinputs (written by
// its gen.py) through the real command path, in process: no case may
// panic (exit 70), hang (a deadline per input) or end otherwise than
// cases.txt says (the exit code and a substring of the output).
func TestBadInputs(t *testing.T) {
	dir, _ := filepath.Abs("../../bench/badinputs")
	path := filepath.Join(dir, "cases.txt")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the bad-input suite is missing: %v (generate it with python3 bench/badinputs/gen.py)", err)
	}
	var out []string
	n := 0
	start := time.Now()
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			out = append(out, line)
			continue
		}
		parts := strings.SplitN(line, " | ", 3)
		if len(parts) != 3 {
			t.Fatalf("cases.txt: malformed line %q", line)
		}
		want, sub, cmdline := strings.TrimSpace(parts[0]), strings.TrimSpace(parts[1]), parts[2]
		args := strings.Fields(strings.ReplaceAll(cmdline, "$D/", dir+"/"))
		n++
		code, output, done := runBounded(args, 20*time.Second)
		output = strings.ReplaceAll(output, dir+"/", "")
		// protobuf-go puts a non-breaking space or a space after "proto:"
		// depending on a hash of the binary: any change to vigil may flip it.
		output = strings.ReplaceAll(output, "\u00a0", " ")
		if !done {
			t.Errorf("vigil %s: no answer within 20 s", cmdline)
			out = append(out, line)
			continue
		}
		if code == cli.ExitBug {
			t.Errorf("vigil %s: panicked (exit %d):\n%s", cmdline, code, output)
		}
		for _, internal := range []string{"Go struct field", "Go value", "cannot unmarshal", "goroutine ", "json: cannot", "reflect."} {
			if strings.Contains(output, internal) {
				t.Errorf("vigil %s: the message shows Go internals (%q):\n%s", cmdline, internal, clip(output))
			}
		}
		if *updateBadInputs && (want == "?" || sub == "") {
			if want == "?" {
				want = strconv.Itoa(code)
			}
			if sub == "" {
				sub = firstMessage(output)
			}
			line = fmt.Sprintf("%s | %s | %s", want, sub, cmdline)
		}
		out = append(out, line)
		if want != strconv.Itoa(code) {
			t.Errorf("vigil %s: exit %d, want %s:\n%s", cmdline, code, want, clip(output))
			continue
		}
		// protobuf writes a non-breaking space instead of a space in its
		// errors at random per binary (internal/detrand): compare without it.
		if !strings.Contains(strings.ReplaceAll(output, "\u00a0", " "), sub) {
			t.Errorf("vigil %s: the output lacks %q:\n%s", cmdline, sub, clip(output))
		}
	}
	if n < 300 {
		t.Errorf("cases.txt has %d cases; the suite promises at least 300", n)
	}
	t.Logf("%d bad inputs in %v", n, time.Since(start).Round(time.Millisecond))
	if *updateBadInputs {
		if err := os.WriteFile(path, []byte(strings.Join(out, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// runBounded runs vigil args in process with a deadline; done is false
// when it did not return in time (its goroutine is then abandoned).
func runBounded(args []string, limit time.Duration) (code int, output string, done bool) {
	type result struct {
		code int
		out  string
	}
	ch := make(chan result, 1)
	go func() {
		var stdout, stderr bytes.Buffer
		c := cli.Main(args, &cli.Env{Stdout: &stdout, Stderr: &stderr, Stdin: strings.NewReader("")})
		ch <- result{c, stderr.String() + stdout.String()}
	}()
	select {
	case r := <-ch:
		return r.code, r.out, true
	case <-time.After(limit):
		return 0, "", false
	}
}

// firstMessage picks the substring a recorded case expects: the first line
// with "error" (or else the first that is neither a warning nor a source
// excerpt), cut at 60 bytes and at characters cases.txt cannot hold.
func firstMessage(output string) string {
	lines := strings.Split(strings.TrimSpace(output), "\n")
	pick := ""
	for _, l := range lines {
		if strings.Contains(l, "error") {
			pick = l
			break
		}
	}
	for _, l := range lines { // else the first line that is no warning or source excerpt
		if pick != "" {
			break
		}
		if t := strings.TrimSpace(l); t != "" && !strings.Contains(l, "warning[") && l[0] != ' ' && !strings.HasPrefix(t, "|") {
			pick = l
		}
	}
	if pick == "" {
		pick = lines[0]
	}
	pick = strings.Split(pick, "|")[0]
	if len(pick) > 60 {
		pick = pick[:60]
	}
	return strings.TrimSpace(pick)
}

func clip(s string) string {
	if len(s) > 600 {
		return s[:600] + "..."
	}
	return s
}
