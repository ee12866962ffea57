package report

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"
	"time"

	"vigil/fuzz"
	"vigil/safety"
	"vigil/symbolic"
)

// A safety test that found nothing still gives a well-formed page that
// says so: no bugs, no faults, an empty plot, and the radius in words.
func TestSafetyHTMLEmpty(t *testing.T) {
	var b bytes.Buffer
	err := SafetyHTML(&b, &Safety{Model: &symbolic.Model{Name: "m<1>"}, Property: "p", Policy: "pi", Config: "inf-greedy", Seed: 7,
		Oracles: []string{"tarjan"}, Radius: 2, Result: &fuzz.SafetyResult{Ends: map[string]int{}}, Elapsed: time.Second, Stopped: "the --budget ran out"})
	if err != nil {
		t.Fatal(err)
	}
	page := b.String()
	d := xml.NewDecoder(strings.NewReader(page))
	d.Strict, d.Entity = true, xml.HTMLEntity
	for {
		if _, err := d.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("not well-formed: %v\n%s", err, page)
		}
	}
	for _, want := range []string{"m&lt;1&gt;", `<td id="bug-count">0</td>`, `<td id="fault-count">0</td>`, "<th>radius</th><td>2</td>", "<th>stopped</th><td>the --budget ran out</td>"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if radiusWords(safety.Inf) != "safe" || radiusWords(1) != "1-safe" {
		t.Errorf("radiusWords: %q, %q", radiusWords(safety.Inf), radiusWords(1))
	}
}

// Mode is goal only where nothing can go wrong but missing the goal.
func TestMode(t *testing.T) {
	for _, c := range []struct {
		p    *symbolic.Property
		want string
	}{
		{&symbolic.Property{Unsafe: symbolic.False(), Goal: symbolic.True()}, "goal"},
		{&symbolic.Property{Unsafe: symbolic.True(), Goal: symbolic.True()}, "safety"},
		{&symbolic.Property{Unsafe: symbolic.False()}, "safety"},
	} {
		if got := Mode(c.p); got != c.want {
			t.Errorf("Mode(%+v) = %s, want %s", c.p, got, c.want)
		}
	}
}

// A goal test's verdict: bugs over an early stop, unknown over none.
func TestGoalVerdict(t *testing.T) {
	g := &Goal{Result: &fuzz.GoalResult{}}
	if v := g.Verdict(); v != "unknown" {
		t.Errorf("incomplete, no bugs: %s", v)
	}
	g.Complete = true
	if v := g.Verdict(); v != "none" {
		t.Errorf("complete, no bugs: %s", v)
	}
	g.Result.Bugs = []*fuzz.GoalBug{{}}
	if v := g.Verdict(); v != "bugs" {
		t.Errorf("a bug: %s", v)
	}
}
