package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
)

type counter map[string]int

func (c counter) rows(w io.Writer, indent string) {
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if c[keys[i]] != c[keys[j]] {
			return c[keys[i]] > c[keys[j]]
		}
		return keys[i] < keys[j]
	})
	for _, k := range keys {
		fmt.Fprintf(w, "| %s%s | %d |\n", indent, strings.ReplaceAll(k, "|", `\|`), c[k])
	}
}

func report(w io.Writer, o *options, outs []*outcome, took time.Duration) {
	var discrete, run, loaded int
	skipped := counter{}
	refusedDiscrete := counter{}
	refusedOther := counter{}
	states := counter{}
	values := counter{}
	propRefused := counter{}
	byType := counter{}
	var disagree, statesDiffer, iiSlow []string
	for _, out := range outs {
		in := out.in
		isDiscrete := in.typ == "mdp" || in.typ == "dtmc"
		if isDiscrete {
			discrete++
		}
		switch {
		case out.skipped != "":
			skipped[out.skipped]++
			continue
		case !isDiscrete:
			refusedOther[in.typ+": "+out.refused]++
			continue
		}
		run++
		if out.refused != "" {
			refusedDiscrete[out.refused]++
			continue
		}
		loaded++
		states[out.stateSt]++
		if out.stateSt == "differ" {
			cut := "-"
			if in.stormSingle != "" {
				cut = fmt.Sprint(out.cut)
				if out.cutErr != "" {
					cut = "refused: " + out.cutErr
				}
			}
			statesDiffer = append(statesDiffer, fmt.Sprintf("| %s | %d (%s, %d properties) | %d | %s | `%s` |",
				in.name(), in.stormStates, in.stormStatesRun, in.stormProps, out.states, cut, out.explore))
		}
		for _, p := range out.props {
			values[p.status]++
			t := in.propTypes[p.name]
			if t == "" {
				t = "(not in index.json)"
			}
			byType[t+": "+strings.SplitN(p.status, ":", 2)[0]]++
			if p.iiTimeout {
				iiSlow = append(iiSlow, in.name()+" "+p.name)
			}
			if p.status == "refused" {
				propRefused[p.reason]++
			}
			if p.status == "disagree" {
				disagree = append(disagree, fmt.Sprintf("| %s | %s (%s) | %s | %s (%s) | `%s` |",
					in.name(), p.name, in.propTypes[p.name], p.vigil, p.storm, in.values[p.name].from, out.probCmd))
			}
		}
	}
	fmt.Fprintf(w, "Run: `go run ./bench/qcomp --qvbs DIR --max-states %d --max-exact %d --timeout %s -j %d` (%s).\n\n",
		o.maxStates, o.maxExact, o.timeout, o.jobs, took.Round(time.Second))
	fmt.Fprintf(w, "## Instances\n\n| what | instances |\n|---|---|\n")
	fmt.Fprintf(w, "| MDP and DTMC instances in the set | %d |\n", discrete)
	skipped.rows(w, "not run: ")
	fmt.Fprintf(w, "| run | %d |\n", run)
	fmt.Fprintf(w, "| loaded | %d |\n", loaded)
	refusedDiscrete.rows(w, "refused: ")
	fmt.Fprintf(w, "\nCTMC, MA and PTA instances (one load per file; the reason applies to every setting):\n\n| type: vigil's answer | instances |\n|---|---|\n")
	refusedOther.rows(w, "")
	fmt.Fprintf(w, "\n## State counts (loaded instances)\n\n| vigil explore vs Storm | instances |\n|---|---|\n")
	states.rows(w, "")
	fmt.Fprintf(w, "\n## Property values (loaded instances)\n\n| vigil prob vs Storm | properties |\n|---|---|\n")
	values.rows(w, "")
	fmt.Fprintf(w, "\nBy the property's type in index.json:\n\n| type: outcome | properties |\n|---|---|\n")
	byType.rows(w, "")
	if len(iiSlow) > 0 {
		fmt.Fprintf(w, "\nInterval iteration timed out, and the exact method's value was compared, for: %s.\n", strings.Join(iiSlow, "; "))
	}
	fmt.Fprintf(w, "\nRefused properties by reason:\n\n| reason | properties |\n|---|---|\n")
	propRefused.rows(w, "")
	fmt.Fprintf(w, "\n## State counts that differ\n\n| instance | Storm (run, properties it checked) | vigil, whole model | vigil, Storm's one property selected | command |\n|---|---|---|---|---|\n")
	for _, s := range statesDiffer {
		fmt.Fprintln(w, s)
	}
	fmt.Fprintf(w, "\n## Values that disagree\n\n| instance | property | vigil | Storm | command |\n|---|---|---|---|---|\n")
	for _, s := range disagree {
		fmt.Fprintln(w, s)
	}
	fmt.Fprintf(w, "\n## Per instance\n\n| instance | Storm states | vigil states | states | values (agree/disagree/refused/timeout) |\n|---|---|---|---|---|\n")
	for _, out := range outs {
		if out.skipped != "" || (out.in.typ != "mdp" && out.in.typ != "dtmc") {
			continue
		}
		if out.refused != "" {
			fmt.Fprintf(w, "| %s | %d | | refused: %s | |\n", out.in.name(), out.in.stormStates, out.refused)
			continue
		}
		c := counter{}
		for _, p := range out.props {
			c[strings.SplitN(p.status, ":", 2)[0]]++
		}
		vs := "-"
		if out.states >= 0 {
			vs = fmt.Sprint(out.states)
		}
		fmt.Fprintf(w, "| %s | %d | %s | %s | %d/%d/%d/%d |\n", out.in.name(), out.in.stormStates, vs, out.stateSt,
			c["agree"], c["disagree"], c["refused"], c["timeout"])
	}
}
