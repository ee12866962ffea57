// Command imitate writes the training set for an imitation policy: every
// state of a .spec model's variable box where the given rules policy
// chooses a label, as CSV rows "v1,...,vn,label". make_fixtures.py trains
// the example network policies on it. Run from the repository root:
//
//	go run ./nn/testdata/imitate specs/transport.spec greedy > /tmp/transport.csv
package main

import (
	"fmt"
	"os"
	"strings"

	"vigil/lang"
	"vigil/symbolic"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: imitate FILE.spec POLICY")
		os.Exit(2)
	}
	m, diags := lang.Load(os.Args[1], lang.Options{})
	if diags.HasErrors() {
		fmt.Fprint(os.Stderr, diags.Render())
		os.Exit(1)
	}
	d := m.Policy(os.Args[2])
	if d == nil {
		fmt.Fprintf(os.Stderr, "imitate: no policy %s\n", os.Args[2])
		os.Exit(1)
	}
	p, err := symbolic.Instantiate(m, d)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var names []string
	for _, v := range m.Vars {
		names = append(names, v.Name)
	}
	fmt.Println(strings.Join(names, ",") + ",label")
	app := make([]bool, len(m.Labels))
	s := make(symbolic.State, len(m.Vars))
	for i, v := range m.Vars {
		s[i] = v.Lo
	}
	for {
		m.Applicable(s, app)
		l, err := symbolic.Decide(p, s, func(l symbolic.LabelID) bool { return app[l] }, nil)
		if err == nil && l != symbolic.NoLabel {
			for _, v := range s {
				fmt.Printf("%d,", v)
			}
			fmt.Println(m.Labels[l].Name)
		}
		i := 0
		for i < len(s) && s[i] == m.Vars[i].Hi {
			s[i] = m.Vars[i].Lo
			i++
		}
		if i == len(s) {
			break
		}
		s[i]++
	}
}
