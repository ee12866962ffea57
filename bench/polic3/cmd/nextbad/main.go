// Command nextbad counts, for an npuzzle instance and a policy, the
// states one policy step from an unsafe state among all tile placements
// (permutations of the cells): the states with the blank on a forbidden
// cell (NO1 or NO2) and its tile next to it, where the policy's label
// moves that tile onto the forbidden cell. Every count is decided by
// vigil's explicit semantics (the model's successors, the policy's
// float64 scores, arg-max over the applicable labels): the generator and
// the decider the engines use.
//
// The figure says how hard a proof of safety is: a policy BFS shows safe
// yet choosing the unsafe move in many unreachable placements needs an
// inductive invariant that separates those placements (and every state
// the policy leads into them) from the reachable ones (bench/polic3/README.md,
// "npuzzle 3x4").
//
//	go run ./bench/polic3/cmd/nextbad -D R=3 -D C=4 -policy np3x4_16x16_safe
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"vigil/load"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

type defines map[string]string

func (d defines) String() string { return fmt.Sprint(map[string]string(d)) }
func (d defines) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok {
		return fmt.Errorf("-D wants NAME=VALUE, got %q", s)
	}
	d[k] = v
	return nil
}

func main() {
	defs := defines{}
	flag.Var(defs, "D", "a constant of npuzzle.spec, NAME=VALUE (repeatable)")
	spec := flag.String("spec", "bench/polic3/npuzzle.spec", "the npuzzle model")
	policy := flag.String("policy", "", "the policy's name in the model (required)")
	flag.Parse()
	if *policy == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: nextbad [-spec FILE] -D R=3 -D C=4 -policy NAME")
		os.Exit(2)
	}
	if err := run(*spec, defs, *policy); err != nil {
		fmt.Fprintln(os.Stderr, "nextbad:", err)
		os.Exit(1)
	}
}

func run(spec string, defs defines, policy string) error {
	l, err := load.Load(spec, load.Options{Defines: defs, Policy: policy, PropertyRequired: true})
	if err != nil {
		return err
	}
	m := l.Model
	g, err := explicit.New(m, l.Property)
	if err != nil {
		return err
	}
	dec, err := explicit.NewDecider(m, l.Policy)
	if err != nil {
		return err
	}
	blank, tiles, err := layout(m)
	if err != nil {
		return err
	}
	cells := len(tiles) + 1
	no1, no2, err := constants(m)
	if err != nil {
		return err
	}
	start := time.Now()
	total, bad := 0, 0
	var x explicit.Expansion
	s := make(symbolic.State, len(m.Vars))
	src := make([]uint64, g.Words())
	for _, f := range []struct{ tile, cell int }{{1, no1}, {2, no2}} {
		for _, nb := range neighbours(f.cell, cells, m) {
			n, b := 0, 0
			free := []int{}
			for c := 0; c < cells; c++ {
				if c != f.cell && c != nb {
					free = append(free, c)
				}
			}
			others := []int{}
			for k := 1; k <= len(tiles); k++ {
				if k != f.tile {
					others = append(others, k)
				}
			}
			var perr error
			permute(free, func(p []int) bool {
				s[blank] = f.cell
				s[tiles[f.tile-1]] = nb
				for i, k := range others {
					s[tiles[k-1]] = p[i]
				}
				if g.Status(s) == explicit.Unsafe {
					return true
				}
				n++
				g.Applicable(s, &x)
				a, err := dec.Decide(s, x.App)
				if err != nil {
					perr = err
					return false
				}
				x.Succs, x.Groups = x.Succs[:0], x.Groups[:0]
				if err := g.Successors(src, s, a, &x); err != nil {
					perr = err
					return false
				}
				for i := range x.Succs {
					c := x.Succs[i]
					t, err := g.Apply(s, int(c.Cmd), int(c.Outcome))
					if err != nil {
						perr = err
						return false
					}
					if g.Status(t) == explicit.Unsafe {
						b++
						break
					}
				}
				return true
			})
			if perr != nil {
				return perr
			}
			fmt.Printf("tile %d next to forbidden cell %d (on cell %d, blank on %d): %d placements, %d where %s moves it there\n",
				f.tile, f.cell, nb, f.cell, n, b, policy)
			total, bad = total+n, bad+b
		}
	}
	fmt.Printf("%s: %d of %d placements (%.1f%%) one step from unsafe, %.1f s\n",
		policy, bad, total, 100*float64(bad)/float64(max(total, 1)), time.Since(start).Seconds())
	return nil
}

// layout finds the variables blank and p[1..] (npuzzle.spec's names).
func layout(m *symbolic.Model) (blank symbolic.VarID, tiles []symbolic.VarID, err error) {
	blank = -1
	for i, v := range m.Vars {
		switch {
		case v.Name == "blank":
			blank = symbolic.VarID(i)
		case strings.HasPrefix(v.Name, "p[") && strings.HasSuffix(v.Name, "]"):
			tiles = append(tiles, symbolic.VarID(i))
		}
	}
	if blank < 0 || len(tiles) < 2 {
		return 0, nil, fmt.Errorf("%s is not npuzzle.spec: no variables blank and p[1..]", m.Name)
	}
	return blank, tiles, nil
}

func constants(m *symbolic.Model) (no1, no2 int, err error) {
	c1, ok1 := constant(m, "NO1")
	c2, ok2 := constant(m, "NO2")
	if !ok1 || !ok2 {
		return 0, 0, fmt.Errorf("%s has no constants NO1 and NO2", m.Name)
	}
	return c1, c2, nil
}

// neighbours returns the cells next to cell on the grid of C columns.
func neighbours(cell, cells int, m *symbolic.Model) []int {
	cols, _ := constant(m, "C")
	var out []int
	if cell >= cols {
		out = append(out, cell-cols)
	}
	if cell+cols < cells {
		out = append(out, cell+cols)
	}
	if cell%cols > 0 {
		out = append(out, cell-1)
	}
	if cell%cols < cols-1 {
		out = append(out, cell+1)
	}
	return out
}

// permute calls f with every ordering of xs (Heap's algorithm) until f
// returns false.
func permute(xs []int, f func([]int) bool) {
	a := append([]int(nil), xs...)
	c := make([]int, len(a))
	if !f(a) {
		return
	}
	for i := 0; i < len(a); {
		if c[i] < i {
			if i%2 == 0 {
				a[0], a[i] = a[i], a[0]
			} else {
				a[c[i]], a[i] = a[i], a[c[i]]
			}
			if !f(a) {
				return
			}
			c[i]++
			i = 0
		} else {
			c[i] = 0
			i++
		}
	}
}

func constant(m *symbolic.Model, name string) (int, bool) {
	for _, c := range m.Consts {
		if c.Name == name {
			return c.Value, true
		}
	}
	return 0, false
}
